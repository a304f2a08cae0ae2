import GestureDaemon
import GestureEngine
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureSynth
import GestureRecording
import Glibc
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport
import GestureFormat

/// The devices of a daemon's trigger watches, as the engine's inputs: each
/// device named is a ``TestSupport/ListeningDevice`` the test presses keys
/// on, plugged in unless the test unplugged it. Each watch the engine
/// starts is noted with its request; it is live until its thread lets its
/// devices go (cancelled, it ends soon after: wait for it).
final class TestSwitches: Sendable {
    /// One watch's devices (used on its thread): found by name, with a
    /// hotplug pipe that ``plug(_:)`` makes readable.
    private final class Devices: TriggerDevices, @unchecked Sendable {
        let request: TriggerRequest
        let switches: TestSwitches
        let pipe: (read: FileDescriptor, write: FileDescriptor)

        init(request: TriggerRequest, switches: TestSwitches) throws(SystemError) {
            self.request = request
            self.switches = switches
            pipe = try FileDescriptor.pipe()
        }

        deinit {
            // Forgotten first, so that plug(_:) never writes to a closed pipe.
            switches.ended(ObjectIdentifier(self))
            pipe.read.close()
            pipe.write.close()
        }

        func open() throws -> (source: any EventSource, node: String, name: String)? {
            guard let device = switches.pluggedDevice(request.device) else { return nil }
            return (try device.open(), "/dev/input/event9", "Switch")
        }
        var hotplug: FileDescriptor? { pipe.read }
        func hotplugAdded() -> Bool {
            // Harmless: the pipe is the test's; empty, it reads nothing.
            _ = try? pipe.read.read(upTo: 64)
            return true
        }
    }

    private struct State {
        var devices: [String: ListeningDevice] = [:]
        var unplugged: Set<String> = []
        var watches: [(id: ObjectIdentifier, request: TriggerRequest, hotplug: FileDescriptor)] = []
    }

    private let state = Mutex(State())
    private let lastStamp = Mutex(Microseconds.zero)

    /// The engine's inputs: recordings from `recordings`, trigger watches on these switches.
    func inputs(recordings: InputFactory) -> InputFactory {
        InputFactory(openRecording: recordings.openRecording, triggerDevices: { [self] request throws(SystemError) in
            let devices = try Devices(request: request, switches: self)
            state.withLock { $0.watches.append((ObjectIdentifier(devices), request, devices.pipe.write)) }
            return devices
        })
    }

    /// The requests of the watches whose threads still run.
    var live: [TriggerRequest] { state.withLock { $0.watches.map(\.request) } }

    private func ended(_ devices: ObjectIdentifier) {
        state.withLock { current in current.watches.removeAll { $0.id == devices } }
    }

    /// The device called `name` (made on first use).
    func device(_ name: String) -> ListeningDevice {
        state.withLock { current in
            if let device = current.devices[name] { return device }
            let device = ListeningDevice()
            current.devices[name] = device
            return device
        }
    }

    private func pluggedDevice(_ name: String) -> ListeningDevice? {
        if state.withLock({ $0.unplugged.contains(name) }) { return nil }
        return device(name)
    }

    /// Unplugs the device called `name` for the watches that open it from now on.
    func unplug(_ name: String) { state.withLock { _ = $0.unplugged.insert(name) } }

    /// Plugs it back in: the watches hear of it (their hotplug pipes) and open it.
    func plug(_ name: String) {
        state.withLock { current in
            current.unplugged.remove(name)
            for watch in current.watches where watch.request.device == name { watch.hotplug.writeAllIgnoringErrors([1]) }
        }
    }

    /// Presses `key` on `name` as a person would, with `timings` (the
    /// watch's): a single press (down, up: reported once the double-press
    /// interval passes), a double, a long one (released after the long-press
    /// time), or held down for the emergency stop (its watch reports a long
    /// press, then the stop). Waits until a watch reads the device first.
    func press(_ press: TriggerPress, on name: String, key: String, timings: PressTimings) throws {
        let device = self.device(name)
        try waitUntil("a watch reads \(name)") { device.openReaders > 0 }
        let code = try #require(EventCode.lookUp(codeName: key)?.code)
        func send(_ value: Int32, at time: Microseconds) { device.frame([(.key, code, value)], at: time) }
        let down = stamp()
        send(1, at: down)
        switch press {
        case .single:
            send(0, at: stamp())
        case .double:
            send(0, at: stamp())
            send(1, at: stamp())
            send(0, at: stamp())
        case .long:
            let up = down + timings.longPress + Microseconds(20_000)
            lastStamp.withLock { $0 = up }
            send(0, at: up)
        case .emergencyStop:
            break
        }
    }

    /// Now, or just after the last stamp given (events stamped ahead stay in order).
    private func stamp() -> Microseconds {
        lastStamp.withLock { last in
            last = max(SystemClock().now(), last + Microseconds(1_000))
            return last
        }
    }
}

/// A daemon on a real socket whose ready devices are test doubles (as
/// ``TestDaemon``'s) and whose trigger watches are the engine's, on
/// switches the test presses (``TestSwitches``), with its bindings file in
/// the test's folder.
final class TriggerDaemon: Sendable {
    final class Collected: Sendable {
        let sessions = Mutex<[DeviceKind: PlaybackSession]>([:])
        let sinks = Mutex<[DeviceKind: RecordingSink]>([:])
        let clocks = Mutex<[DeviceKind: ManualClock]>([:])
        let logLines = Mutex<[String]>([])
    }

    /// Press timings short enough for a test to hold a switch through them.
    static let timings = PressTimings(
        doubleInterval: Microseconds(80_000), longPress: Microseconds(150_000), emergencyStop: Microseconds(300_000))

    let folder: String
    let socketPath: String
    let bindingsPath: String
    let server: DaemonServer
    let collected = Collected()
    let switches = TestSwitches()
    /// The configuration's press timings (the watches').
    let timings: PressTimings

    private static let counter = Atomic<Int>(0)

    init(
        configuration: DaemonConfiguration = DaemonConfiguration(devices: [.touchscreen, .keyboard], pressTimings: TriggerDaemon.timings),
        clockMode: ManualClock.Mode = .advancesOnWait, folder existing: String? = nil, inputs: InputFactory = .system
    ) throws {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        folder = existing ?? "/tmp/gesturectl-trigger-test-\(getpid())-\(number)"
        try? FileSystem.makeDirectory(folder, permissions: 0o700)
        socketPath = folder + "/d.sock"
        bindingsPath = folder + "/state/bindings.json"
        timings = configuration.pressTimings
        try? FileSystem.unlink(socketPath)
        let listening = try UnixSocket.listen(at: socketPath)
        let library = GestureLibrary(userDirectory: folder + "/library", builtinDirectory: nil)
        let collected = self.collected
        let devices = DeviceFactory(
            make: { profile, output, _ in
                guard output == .uinput else { throw PlayOutputError.unavailable(output: output.word, reason: "not available here") }
                let sink = RecordingSink()
                let clock = ManualClock(mode: clockMode)
                collected.sinks.withLock { $0[profile.kind] = sink }
                collected.clocks.withLock { $0[profile.kind] = clock }
                let session = PlaybackSession(
                    profile: profile, sink: sink, devnode: "/dev/input/test-\(profile.kind.rawValue)", linger: .zero, clock: clock)
                collected.sessions.withLock { $0[profile.kind] = session }
                return session
            })
        server = try DaemonServer(
            setup: DaemonServer.Setup(
                listening: listening, createdSocketPath: socketPath, library: library, configuration: configuration,
                allowedGroup: nil, bindingsPath: bindingsPath),
            engine: Engine(devices: devices, inputs: switches.inputs(recordings: inputs)),
            log: DaemonLog(journal: false, minimum: .debug, write: { line in collected.logLines.withLock { $0.append(line) } }),
            version: "test")
        try server.start()
    }

    func client() throws -> DaemonClient { try DaemonClient(path: socketPath) }
    func sink(_ kind: DeviceKind) -> RecordingSink? { collected.sinks.withLock { $0[kind] } }
    func clock(_ kind: DeviceKind) -> ManualClock? { collected.clocks.withLock { $0[kind] } }

    /// The requests of the watches running.
    var liveWatches: [TriggerRequest] { switches.live }

    /// Presses `key` on `device` with the daemon's timings (see ``TestSwitches/press(_:on:key:timings:)``).
    func press(_ press: TriggerPress, _ device: String = "/dev/input/by-id/usb-Switch-event-kbd", key: String = "BTN_0") throws {
        try switches.press(press, on: device, key: key, timings: timings)
    }

    func stop() async {
        server.stop()
        _ = await server.stopped()
    }
}

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
        let daemon = try TriggerDaemon()
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
        let daemon = try TriggerDaemon()
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
        let daemon = try TriggerDaemon()
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
        let daemon = try TriggerDaemon(inputs: recordings.inputs)
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
        let daemon = try TriggerDaemon()
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

    private func code(_ client: DaemonClient, _ trigger: JSONValue, _ action: JSONValue) -> DaemonErrorCode? {
        errorCode { try client.call("bind", [("trigger", trigger), ("action", action)]) }
    }

    @Test("The emergency stop cancels every job, releases held keys, and the daemon keeps serving")
    func emergencyStop() async throws {
        let daemon = try TriggerDaemon(clockMode: .waitsForAdvance)
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
        #expect(daemon.collected.sessions.withLock { $0[.keyboard]?.state.pressedKeys } == [.keyHomePage])

        try daemon.press(.emergencyStop)
        #expect(waitUntil { thread.withLock { $0 } })
        #expect(failed.withLock { $0 } == .cancelled)
        #expect(played.withLock { $0 } == nil)
        #expect(waitUntil { daemon.collected.sessions.withLock { $0[.keyboard]?.state.pressedKeys.isEmpty } == true })
        // Every finger lifted on the touchscreen: the down, then the cancel's lift.
        #expect(daemon.sink(.touchscreen)?.frames.count == 2)
        #expect(daemon.collected.sessions.withLock { $0[.touchscreen]?.state.isReleased } == true)
        // Still serving, and the bindings stay.
        #expect(try client.call("version")["protocol"] == .integer(1))
        #expect(daemon.liveWatches.count == 1)
        await daemon.stop()
    }

    @Test("The emergency stop also stops a recording; its result waits for record-stop")
    func emergencyStopsRecording() async throws {
        let recordings = TestRecordings()
        let daemon = try TriggerDaemon(inputs: recordings.inputs)
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
        let first = try TriggerDaemon(configuration: configured)
        #expect(first.liveWatches.map(\.device) == ["046d:c52b"])
        #expect(first.liveWatches.first?.grab == true)
        #expect(first.liveWatches.first?.timings == configured.pressTimings)
        var result = try first.client().call("bindings")
        #expect(result["source"] == .string("configuration"))
        _ = try first.client().call(
            "bind", [("trigger", trigger(press: "long")), ("action", .object([("press", .string("back"))]))])
        await first.stop()

        // Restarted: the saved bindings (the configuration's one plus the new one).
        let second = try TriggerDaemon(configuration: configured, folder: first.folder)
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
        let daemon = try TriggerDaemon()
        let client = try daemon.client()
        _ = try client.call("bind", [("trigger", trigger(press: "single")), ("action", .object([("press", .string("mute"))]))])
        #expect(daemon.liveWatches.count == 1)
        var configuration = DaemonConfiguration(devices: [.touchscreen, .keyboard], pressTimings: TriggerDaemon.timings)
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
