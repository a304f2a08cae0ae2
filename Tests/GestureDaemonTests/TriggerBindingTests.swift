import DaemonTestSupport
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureSynth
import Glibc
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport
import GestureFormat

func trigger(_ device: String = "/dev/input/by-id/usb-Switch-event-kbd", key: String = "BTN_0", press: String) -> JSONValue {
    .object([("device", .string(device)), ("key", .string(key)), ("press", .string(press))])
}

private func keyEvents(_ code: EventCode, _ value: Int32) -> [InputEvent] {
    [InputEvent(type: .key, code: code, value: value), .synchronizationReport()]
}

@Suite("The daemon's custom actions", .serialized)
struct TriggerBindingTests {
    private let device = "/dev/input/by-id/usb-Switch-event-kbd"

    private func saveTap(_ client: DaemonClient) throws {
        _ = try client.call("save", [("name", .string("my-tap")), ("gesture", try inline(try GestureSynthesizer.tap()))])
    }

    @Test("bind, bindings, unbind: one watch per device and key, saved in bindings.json")
    func bindAndUnbind() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        // Not plugged in yet: the watch waits for it.
        daemon.switches.unplug(device)
        let client = try daemon.client()
        try saveTap(client)
        var result = try client.call(
            "bind", [("trigger", trigger(press: "double")), ("action", .object([("play", .string("my-tap"))]))])
        #expect(result["replaced"] == .bool(false))
        #expect(result["action"] == .object([("play", .string("my-tap")), ("as", .string("touchscreen"))]))
        result = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("press", .string("volume-up"))]))])
        result = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("press", .string("mute"))]))])
        #expect(result["replaced"] == .bool(true))
        // Two presses of one key: one watch, with the configuration's timings.
        #expect(daemon.liveWatches.count == 1)
        let request = try #require(daemon.liveWatches.first)
        #expect(request.device == device)
        #expect(request.key == EventCode.lookUp(codeName: "BTN_0")!.code)
        #expect(request.timings == daemon.timings)
        #expect(!request.grab)

        result = try client.call("bindings")
        #expect(result["source"] == .string("saved"))
        #expect(result["file"] == .string(daemon.bindingsPath))
        guard case .array(let bindings)? = result["bindings"] else { Issue.record("no bindings"); return }
        #expect(bindings.count == 2)
        #expect(bindings.last?["action"] == .object([("press", .string("mute"))]))
        #expect(result["triggers"]?.jsonText.contains("\"state\": \"waiting\"") == true)
        let file = try FileIO.read(path: daemon.bindingsPath, limit: 1 << 20)
        #expect(String(decoding: file, as: UTF8.self).contains("\"mute\""))

        // Plugged in: the watch finds it, and bindings says so.
        daemon.switches.plug(device)
        #expect(waitUntil { (try? client.call("bindings"))?["triggers"]?.jsonText.contains("\"state\": \"connected\"") == true })

        _ = try client.call("unbind", [("trigger", trigger(press: "double"))])
        #expect(daemon.liveWatches.count == 1)
        _ = try client.call("unbind", [("trigger", trigger(press: "single"))])
        #expect(waitUntil { daemon.liveWatches.isEmpty })
        #expect(errorCode { try client.call("unbind", [("trigger", trigger(press: "single"))]) } == .notFound)
        await daemon.stop()
    }

    @Test("Bad bindings are refused, naming what is wrong")
    func badBindings() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let client = try daemon.client()
        try saveTap(client)
        let play = JSONValue.object([("play", .string("my-tap"))])
        func code(_ trigger: JSONValue, _ action: JSONValue) -> DaemonErrorCode? {
            errorCode { try client.call("bind", [("trigger", trigger), ("action", action)]) }
        }
        #expect(code(trigger("/dev/input/event5", press: "single"), play) == .badArgument)
        #expect(code(trigger("event5", press: "single"), play) == .badArgument)
        #expect(code(trigger(key: "ABS_X", press: "single"), play) == .badArgument)
        #expect(code(trigger(press: "emergency-stop"), play) == .badArgument)
        #expect(code(trigger(press: "triple"), play) == .badArgument)
        #expect(code(.object([("device", .string(device)), ("key", .string("BTN_0"))]), play) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("play", .string("nope"))])) == .notFound)
        // One that exists but cannot be read is refused saying why, not as missing.
        try FileIO.writeAtomically(Array("{\"format\": 1,".utf8), to: daemon.folder + "/library/broken.gesture.json")
        do {
            _ = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("play", .string("broken"))]))])
            Issue.record("bound a gesture that cannot be read")
        } catch let error as DaemonError {
            #expect(error.code == .internal)
            #expect(error.message.hasPrefix("bind: ") && error.message.contains("broken.gesture.json"))
            #expect(!error.message.contains("no gesture"))
        }
        #expect(code(trigger(press: "single"), .object([("play", .string("my-tap")), ("press", .string("mute"))])) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("press", .string("power"))])) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("press", .string("KEY_A"))])) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("play", .string("my-tap")), ("as", .string("keyboard"))])) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("create", .object([("device", .string("/dev/input/event3"))]))])) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("create", .string("touchscreen"))])) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("create", .object([("device", .string("x")), ("speed", .bool(true))]))])) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("create", .object([("device", .string("x")), ("scan_interval_ms", .integer(100))]))])) == .badArgument)
        #expect(code(trigger(press: "single"), .object([("create", .object([("device", .string("x"))])), ("play", .string("my-tap"))])) == .badArgument)
        #expect(errorCode { try client.call("bind", [("trigger", trigger(press: "single"))]) } == .badArgument)
        #expect(errorCode { try client.call("bindings", [("reset", .string("yes"))]) } == .badArgument)
        // Power may be bound with force.
        _ = try client.call("bind", [("trigger", trigger(press: "long")), ("action", .object([("press", .string("power")), ("force", .bool(true))]))])
        #expect(daemon.liveWatches.count == 1)
        await daemon.stop()
    }

    @Test("A double press plays the bound gesture, a single taps the bound button; subscribers see the bound presses only")
    func pressesRunActions() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let client = try daemon.client()
        try saveTap(client)
        _ = try client.call("bind", [("trigger", trigger(press: "double")), ("action", .object([("play", .string("my-tap"))]))])
        _ = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("press", .string("volume-up"))]))])
        let raw = try RawConnection(path: daemon.socketPath)
        try raw.send("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"trigger\"]}\n")
        #expect(try raw.receive()["result"] == .object([("events", .array([.string("trigger")]))]))

        try daemon.press(.double)
        let event = try raw.receive()
        #expect(event["event"] == .string("trigger"))
        #expect(event["trigger"] == .object([("device", .string(device)), ("key", .string("BTN_0"))]))
        #expect(event["press"] == .string("double"))
        #expect(waitUntil { (daemon.sink(.touchscreen)?.frames.count ?? 0) >= 2 })

        try daemon.press(.single)
        #expect(try raw.receive()["press"] == .string("single"))
        #expect(waitUntil { daemon.sink(.keyboard)?.frames.count == 2 })
        #expect(daemon.sink(.keyboard)?.frames.map(\.events) == [keyEvents(.keyVolumeUp, 1), keyEvents(.keyVolumeUp, 0)])

        // A long press is not bound: nothing played, and not pushed (the
        // next event is the single press that follows it).
        try daemon.press(.long)
        try daemon.press(.single)
        #expect(try raw.receive()["press"] == .string("single"))
        #expect(waitUntil { daemon.sink(.keyboard)?.frames.count == 4 })
        await daemon.stop()
    }

    @Test("A bound create flow: the switch operates it, its lines go to create subscribers, the gesture lands in the library")
    func createFlow() async throws {
        let recordings = TestRecordings()
        let daemon = try TestDaemon(configuration: .withTriggers, inputs: recordings.inputs)
        let client = try daemon.client()
        let create = JSONValue.object([
            ("device", .string(TestRecordings.node)), ("stops_recording", .bool(true)), ("scan_interval_ms", .integer(300)),
            ("first_item_hold_ms", .integer(0)),
        ])
        let result = try client.call("bind", [("trigger", trigger(press: "long")), ("action", .object([("create", create)]))])
        #expect(result["action"]?["create"]?["device"] == .string(TestRecordings.node))
        let raw = try RawConnection(path: daemon.socketPath)
        try raw.send("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"create\"]}\n")
        _ = try raw.receive()
        /// Reads `create` events until one's line starts with `prefix`.
        func line(_ prefix: String) throws -> String? {
            for _ in 0..<100 {
                let event = try raw.receive()
                guard case .string(let text)? = event["line"] else { continue }
                #expect(event["event"] == .string("create"))
                #expect(event["spoken"] != nil)
                if text.hasPrefix(prefix) { return text }
            }
            return nil
        }

        try daemon.press(.long)
        #expect(try line("Recording from") != nil)
        #expect(waitUntil { recordings.latest != nil })
        let first = SystemClock().now()
        recordings.latest?.stroke(id: 1, x: 1_000, y: 1_000, at: first)
        recordings.latest?.stroke(id: 2, x: 2_000, y: 1_000, at: first + Microseconds(20_000))
        #expect(try line("Stroke 2: ") != nil)
        // While the flow runs, the switch's presses go to it, not to the bindings.
        try daemon.press(.long)
        try daemon.press(.single)
        #expect(try line("Highlighted: Save (2 of 7)") != nil)
        try daemon.press(.single)
        #expect(try line("Highlighted: Save as 2-fingers") != nil)
        try daemon.press(.single)
        let saved = try #require(try line("Saved as "))
        #expect(saved.contains(": 2 fingers"))
        #expect(waitUntil { (try? client.call("list"))?.jsonText.contains("2-fingers") == true })
        // Recorded with a grab, on the bound device.
        #expect(recordings.requests.withLock { $0.first?.grab } == true)
        await daemon.stop()
    }

    @Test("A bound menu: the switch scans it and presses volume up on the ready keyboard; its lines go to menu subscribers")
    func menuAction() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let client = try daemon.client()
        let menu = JSONValue.object([("scan_interval_ms", .integer(300)), ("first_item_hold_ms", .integer(0))])
        _ = try client.call("bind", [("trigger", trigger(press: "long")), ("action", .object([("menu", menu)]))])
        #expect(code(client, trigger(press: "single"), .object([("menu", .object([("config", .string("relative.json"))]))])) == .badArgument)
        #expect(code(client, trigger(press: "single"), .object([("menu", .object([("device", .string("event4"))]))])) == .badArgument)
        let raw = try RawConnection(path: daemon.socketPath)
        try raw.send("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"menu\"]}\n")
        _ = try raw.receive()
        func line(_ prefix: String) throws -> String? {
            for _ in 0..<200 {
                let event = try raw.receive()
                guard case .string(let text)? = event["line"] else { continue }
                #expect(event["event"] == .string("menu"))
                if text.hasPrefix(prefix) { return text }
            }
            return nil
        }
        try daemon.press(.long)
        #expect(try line("Highlighted: Volume up") != nil)
        try daemon.press(.single)
        #expect(try line("Pressed volume up") != nil)
        #expect(waitUntil { daemon.sink(.keyboard)?.frames.count == 2 })
        #expect(daemon.sink(.keyboard)?.frames.map(\.events) == [keyEvents(.keyVolumeUp, 1), keyEvents(.keyVolumeUp, 0)])
        // A second run cannot start while the menu is open; the stop ends it.
        await daemon.stop()
        #expect(daemon.collected.logLines.withLock { $0.contains { $0.contains("menu ended: emergencyStopped") } })
    }

    @Test("A bound on-screen menu: each press of its switch goes to screen-menu subscribers with the scanning timings; another binding of the key keeps its press")
    func screenMenuAction() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let client = try daemon.client()
        try saveTap(client)
        let timings = JSONValue.object([("scan_interval_ms", .integer(1500)), ("first_item_hold_ms", .integer(0))])
        let result = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("screen-menu", timings)]))])
        #expect(result["action"] == .object([("screen-menu", timings)]))
        _ = try client.call("bind", [("trigger", trigger(press: "double")), ("action", .object([("play", .string("my-tap"))]))])
        #expect(code(client, trigger(press: "single"), .object([("screen-menu", .object([("scan_interval_ms", .integer(100))]))])) == .badArgument)
        #expect(code(client, trigger(press: "single"), .object([("screen-menu", .object([("speed", .integer(1))]))])) == .badArgument)
        #expect(code(client, trigger(press: "single"), .object([("screen-menu", .object([])), ("press", .string("mute"))])) == .badArgument)
        #expect(waitUntil { (try? client.call("bindings"))?["triggers"]?.jsonText.contains("\"state\": \"connected\"") == true })
        let raw = try RawConnection(path: daemon.socketPath)
        try raw.send("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"screen-menu\"]}\n")
        #expect(try raw.receive()["result"]?["events"] == .array([.string("screen-menu")]))
        func next() throws -> JSONValue? {
            for _ in 0..<50 {
                let event = try raw.receive()
                if event["event"] == .string("screen-menu") { return event }
            }
            return nil
        }
        // The bound press opens or picks; a long press (bound to nothing
        // else) goes back: both reach the button, with the timings.
        try daemon.press(.single)
        let single = try #require(try next())
        #expect(try ScreenMenuEvent(single) == ScreenMenuEvent(
            device: device, key: "BTN_0", press: "single", scanIntervalMilliseconds: 1500, firstItemHoldMilliseconds: 0))
        try daemon.press(.long)
        #expect(try next()?["press"] == .string("long"))
        // The double press is the other binding's: a play, not an event.
        try daemon.press(.double)
        #expect(waitUntil { daemon.logLines.contains { $0.contains("double press, job") } })
        // The emergency stop reaches the button too, and stops every job
        // (held that long, the switch was a long press first).
        try daemon.press(.emergencyStop)
        var stopEvent = try next()
        if stopEvent?["press"] == .string("long") { stopEvent = try next() }
        #expect(stopEvent?["press"] == .string("emergency-stop"), "\(stopEvent?.jsonText ?? "none")")
        #expect(waitUntil { daemon.logLines.contains { $0.contains("emergency stop") } })
        #expect(daemon.logLines.contains { $0.contains("single press, to the on-screen menu") })
        await daemon.stop()
    }

    private func code(_ client: DaemonClient, _ trigger: JSONValue, _ action: JSONValue) -> DaemonErrorCode? {
        errorCode { try client.call("bind", [("trigger", trigger), ("action", action)]) }
    }

    @Test("The emergency stop with the keyboard destroyed makes no keyboard to release keys on (issue 37)")
    func emergencyStopMakesNoKeyboard() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        _ = try daemon.client().call("bind", [("trigger", trigger(press: "single")), ("action", .object([("press", .string("mute"))]))])
        #expect(waitUntil { !daemon.liveWatches.isEmpty })
        daemon.session(.keyboard)?.close()
        let made = daemon.collected.made.load(ordering: .relaxed)
        try daemon.press(.emergencyStop)
        #expect(waitUntil { daemon.logLines.contains { $0.contains("emergency stop") } })
        #expect(try daemon.client().call("version")["protocol"] != nil)
        #expect(daemon.collected.made.load(ordering: .relaxed) == made, "the emergency stop made a device")
        await daemon.stop()
    }

    @Test("The emergency stop cancels every job, releases held keys, and the daemon keeps serving")
    func emergencyStop() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers, clockMode: .waitsForAdvance)
        let client = try daemon.client()
        try saveTap(client)
        _ = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("play", .string("my-tap"))]))])
        // A play that waits for the clock, and a key held down by a client.
        let player = try daemon.client()
        let played = Mutex<JSONValue?>(nil)
        let failed = Mutex<DaemonErrorCode?>(nil)
        let thread = Mutex(false)
        try DedicatedThread.start(ThreadOptions(name: "test-play")) {
            do {
                let result = try player.call("play", [("name", .string("my-tap")), ("on_disconnect", .string("finish"))])
                played.withLock { $0 = result }
            } catch let error as DaemonError {
                failed.withLock { $0 = error.code }
            } catch {
                failed.withLock { $0 = .internal }
            }
            thread.withLock { $0 = true }
        }
        #expect(waitUntil { daemon.clock(.touchscreen) != nil })
        let clock = try #require(daemon.clock(.touchscreen))
        // The play puts its finger down, then waits for the clock.
        if let first = clock.nextWaitingDeadline(), (daemon.sink(.touchscreen)?.frames.count ?? 0) == 0 { clock.advance(to: first) }
        #expect(waitUntil { (daemon.sink(.touchscreen)?.frames.count ?? 0) >= 1 })
        _ = clock.nextWaitingDeadline()
        // A key held down by a client (one frame at once: no wait for the clock).
        let holder = try daemon.client()
        _ = try holder.call("press", [("key", .string("home")), ("action", .string("down"))])
        #expect(daemon.session(.keyboard)?.state.pressedKeys == [.keyHomePage])

        try daemon.press(.emergencyStop)
        #expect(waitUntil { thread.withLock { $0 } })
        #expect(failed.withLock { $0 } == .cancelled)
        #expect(played.withLock { $0 } == nil)
        #expect(waitUntil { daemon.session(.keyboard)?.state.pressedKeys.isEmpty == true })
        // Every finger lifted on the touchscreen: the down, then the cancel's lift.
        #expect(daemon.sink(.touchscreen)?.frames.count == 2)
        #expect(daemon.session(.touchscreen)?.state.isReleased == true)
        // Still serving, and the bindings stay.
        #expect(try client.call("version")["protocol"] == .integer(1))
        #expect(daemon.liveWatches.count == 1)
        await daemon.stop()
    }

    @Test("The emergency stop also stops a recording; its result waits for record-stop")
    func emergencyStopsRecording() async throws {
        let recordings = TestRecordings()
        let daemon = try TestDaemon(configuration: .withTriggers, inputs: recordings.inputs)
        let client = try daemon.client()
        _ = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("press", .string("mute"))]))])
        let watcher = try RawConnection(path: daemon.socketPath)
        try watcher.send("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"record\"]}\n")
        #expect(try watcher.receive()["ok"] == .bool(true))
        let started = try client.call("record-start")
        let source = try #require(recordings.latest)
        source.stroke(id: 1, x: 1_000, y: 2_000)
        // The stroke is recorded before the stop.
        #expect(try watcher.receive()["event"] == .string("record"))
        try daemon.press(.emergencyStop)
        let stopped = try client.call("record-stop", [("wait", .bool(true))])
        #expect(stopped["job"] == started["job"])
        #expect(stopped["stop_reason"] == .string("stopped"))
        #expect(stopped["gesture"] != .null)
        await daemon.stop()
    }

    @Test("Saved bindings override the configuration's across restarts; a reset deletes them")
    func persistence() async throws {
        let configured = try DaemonConfiguration.parse(
            Array(
                """
                {"devices": ["touchscreen", "keyboard"], "double_press_ms": 250, "long_press_ms": 600, "emergency_stop_ms": 2000,
                 "grab": true, "bindings": [{"trigger": {"device": "046d:c52b", "key": "KEY_F13", "press": "single"},
                 "action": {"press": "mute"}}]}
                """.utf8), path: "daemon.json")
        #expect(configured.grab)
        #expect(configured.pressTimings == PressTimings(doubleInterval: Microseconds(250_000), longPress: Microseconds(600_000), emergencyStop: Microseconds(2_000_000)))
        let first = try TestDaemon(configuration: configured)
        #expect(first.liveWatches.map(\.device) == ["046d:c52b"])
        #expect(first.liveWatches.first?.grab == true)
        #expect(first.liveWatches.first?.timings == configured.pressTimings)
        var result = try first.client().call("bindings")
        #expect(result["source"] == .string("configuration"))
        _ = try first.client().call(
            "bind", [("trigger", trigger(press: "long")), ("action", .object([("press", .string("back"))]))])
        await first.stop()

        // Restarted: the saved bindings (the configuration's one plus the new one).
        let second = try TestDaemon(configuration: configured, folder: first.folder)
        result = try second.client().call("bindings")
        #expect(result["source"] == .string("saved"))
        guard case .array(let saved)? = result["bindings"] else { Issue.record("no bindings"); return }
        #expect(saved.count == 2)
        #expect(Set(second.liveWatches.map(\.device)) == ["046d:c52b", device])

        result = try second.client().call("bindings", [("reset", .bool(true))])
        #expect(result["source"] == .string("configuration"))
        #expect(!FileIO.exists(second.bindingsPath))
        #expect(waitUntil { second.liveWatches.map(\.device) == ["046d:c52b"] })
        await second.stop()
        // Stopping cancels every watch.
        #expect(waitUntil { second.liveWatches.isEmpty })
    }

    @Test("A reload that changes the timings restarts the watches; the old watch is no longer heard")
    func reloadRestartsWatches() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let client = try daemon.client()
        _ = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("press", .string("mute"))]))])
        #expect(daemon.liveWatches.count == 1)
        var configuration = DaemonConfiguration(devices: [.touchscreen, .keyboard], pressTimings: TestDaemon.shortPressTimings)
        configuration.pressTimings.doubleInterval = Microseconds(400_000)
        daemon.server.reload(
            configuration, allowedGroup: nil, library: GestureLibrary(userDirectory: daemon.folder + "/library", builtinDirectory: nil))
        // The old watch ends; one new one runs, with the new timings.
        #expect(waitUntil { daemon.liveWatches.map(\.timings.doubleInterval) == [Microseconds(400_000)] })
        // A press is heard once: by the new watch, not the old one too.
        try daemon.press(.single)
        #expect(waitUntil { daemon.sink(.keyboard)?.frames.count == 2 })
        _ = try Poll.wait([], timeoutMilliseconds: 50)
        #expect(daemon.sink(.keyboard)?.frames.count == 2)
        await daemon.stop()
    }

    @Test("The configuration's custom-action keys are checked")
    func configurationErrors() {
        func fails(_ text: String) -> Bool {
            (try? DaemonConfiguration.parse(Array(text.utf8), path: "c.json")) == nil
        }
        #expect(fails("{\"long_press_ms\": 3000}"))  // not shorter than the emergency stop
        #expect(fails("{\"double_press_ms\": 0}"))
        #expect(fails("{\"grab\": 1}"))
        #expect(fails("{\"bindings\": {}}"))
        #expect(fails("{\"bindings\": [{\"trigger\": {\"device\": \"event3\", \"key\": \"KEY_F13\", \"press\": \"single\"}, \"action\": {\"press\": \"mute\"}}]}"))
        let twice = "{\"trigger\": {\"device\": \"a\", \"key\": \"KEY_F13\", \"press\": \"single\"}, \"action\": {\"press\": \"mute\"}}"
        #expect(fails("{\"bindings\": [\(twice), \(twice)]}"))
        #expect(!fails("{\"bindings\": [\(twice)], \"long_press_ms\": 1000, \"emergency_stop_ms\": 5000}"))
    }
}
