import DaemonTestSupport
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureModel
import GesturePlayback
import GestureSynth
import InputSystem
import Testing
import TestSupport

@Suite("The daemon's outputs (uinput, uhid, gadget)", .serialized)
struct DaemonOutputTests {
    @Test("outputs and gadget are read from the configuration, and refused clearly when wrong")
    func configuration() throws {
        #expect(try DaemonConfiguration.parse(Array("{}".utf8), path: "c.json").outputs == [.uinput])
        let parsed = try DaemonConfiguration.parse(
            Array(#"{"outputs": ["uinput", "uhid", "gadget", "uhid"], "gadget": "rig_1", "devices": ["touchscreen", "touchpad", "mouse"]}"#.utf8),
            path: "c.json")
        #expect(parsed.outputs == [.uinput, .uhid, .gadget(name: "rig_1")])
        // A HID output keeps ready only what it can play: no touchpad through uhid or a gadget.
        #expect(
            parsed.readyDevices == [
                ReadyDevice(kind: .touchscreen), ReadyDevice(kind: .touchpad), ReadyDevice(kind: .mouse),
                ReadyDevice(kind: .touchscreen, output: .uhid), ReadyDevice(kind: .mouse, output: .uhid),
                ReadyDevice(kind: .touchscreen, output: .gadget(name: "rig_1")),
                ReadyDevice(kind: .mouse, output: .gadget(name: "rig_1")),
            ])
        for (bad, says) in [
            (#"{"outputs": []}"#, "\"outputs\" must be"), (#"{"outputs": ["bluetooth"]}"#, "\"bluetooth\" is not one of"),
            (#"{"outputs": "uhid"}"#, "must be a list"), (#"{"gadget": "g"}"#, "add \"gadget\" to \"outputs\""),
            (#"{"outputs": ["gadget"], "gadget": "../x"}"#, "configfs name"),
        ] {
            do {
                _ = try DaemonConfiguration.parse(Array(bad.utf8), path: "c.json")
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.message.contains(says), "\(bad): \(error.message)")
                #expect(error.message.hasPrefix("c.json: "))
            }
        }
    }

    @Test("play's to chooses the output; an output or kind not kept ready is not-found with what to configure")
    func playTo() async throws {
        let daemon = try TestDaemon(
            configuration: DaemonConfiguration(devices: [.touchscreen, .touchpad], outputs: [.uinput, .uhid, .gadget(name: nil)]))
        let client = try daemon.client()
        let gesture = try GestureSynthesizer.tap(fingers: 2)
        let result = try client.call("play", [("gesture", try inline(gesture)), ("to", .string("uhid"))])
        #expect(result["state"] == .string("done"))
        #expect(result["device"] == .string("/dev/input/test-touchscreen-uhid"))
        #expect(daemon.sink(.touchscreen, output: .uhid)?.frames.isEmpty == false)
        #expect(daemon.sink(.touchscreen)?.frames.isEmpty == true)
        // Through the gadget, frames are built for the gadget's own geometry.
        let gadget = try client.call("play", [("gesture", try inline(gesture)), ("to", .string("gadget"))])
        #expect(gadget["device"] == .string("/dev/input/test-touchscreen-gadget"))
        let frames = try #require(daemon.sink(.touchscreen, output: .gadget(name: nil))?.frames)
        let xs = frames.flatMap(\.events).filter { $0.code == .multitouchPositionX }.map(\.value)
        #expect(!xs.isEmpty && xs.allSatisfy { $0 <= 1_000 })
        // No touchpad through uhid, and no output that is not configured.
        do {
            _ = try client.call("play", [("gesture", try inline(gesture)), ("as", .string("touchpad")), ("to", .string("uhid"))])
            Issue.record("a touchpad played through uhid")
        } catch let error as DaemonError {
            #expect(error.code == .notFound)
            #expect(error.message.contains("only touchscreen, mouse and keyboard"))
        }
        #expect(errorCode { try client.call("play", [("gesture", try inline(gesture)), ("to", .string("usb"))]) } == .badArgument)
        let ready = try client.call("devices")["ready"]
        guard case .array(let items)? = ready else { throw DaemonError(.internal, "no ready list") }
        #expect(items.contains { $0["to"] == .string("uhid") && $0["kind"] == .string("touchscreen") })
        await daemon.stop()
    }

    @Test("a daemon with only uinput answers to uhid with not-found naming outputs")
    func notConfigured() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        do {
            _ = try client.call("play", [("gesture", try inline(try GestureSynthesizer.tap())), ("to", .string("uhid"))])
            Issue.record("played through an output that is not configured")
        } catch let error as DaemonError {
            #expect(error.code == .notFound)
            #expect(error.message.contains("\"outputs\" must name uhid"))
        }
        await daemon.stop()
    }

    @Test("a HID output that cannot be made at start does not stop the daemon: it is made when a play asks, and says why not until then")
    func lateOutput() async throws {
        let daemon = try TestDaemon(
            configuration: DaemonConfiguration(devices: [.touchscreen], outputs: [.uinput, .gadget(name: nil)]),
            unavailableOutputs: ["gadget"])
        #expect(daemon.logLines.contains { $0.contains("the touchscreen (gadget) is not ready yet") })
        let client = try daemon.client()
        let tap = try inline(try GestureSynthesizer.tap())
        // uinput plays as ever.
        #expect(try client.call("play", [("gesture", tap)])["state"] == .string("done"))
        do {
            _ = try client.call("play", [("gesture", tap), ("to", .string("gadget"))])
            Issue.record("played through a gadget that cannot be made")
        } catch let error as DaemonError {
            #expect(error.code == .notFound)
            #expect(error.message.contains("not ready") && error.message.contains("no host has configured the gadget"))
        }
        // The host is plugged in: the next play makes the device and plays.
        daemon.collected.unavailableOutputs.withLock { $0 = [] }
        let played = try client.call("play", [("gesture", tap), ("to", .string("gadget"))])
        #expect(played["state"] == .string("done"))
        #expect(played["device"] == .string("/dev/input/test-touchscreen-gadget"))
        // Its device gone: `devices` shows no node for it, and makes none,
        // even once it could be made again (issue 37: a question made a
        // device); the next play does.
        daemon.collected.sessions.withLock { $0[ReadyDevice(kind: .touchscreen, output: .gadget(name: nil))] }?.close()
        let made = daemon.collected.made.load(ordering: .relaxed)
        guard case .array(let ready)? = try client.call("devices")["ready"] else {
            Issue.record("no ready list")
            return
        }
        #expect(ready.first { $0["to"] == .string("gadget") }?["node"] == .null)
        #expect(ready.first { $0["to"] == nil }?["node"] == .string("/dev/input/test-touchscreen"))
        #expect(daemon.collected.made.load(ordering: .relaxed) == made, "a devices query made a device")
        #expect(try client.call("play", [("gesture", tap), ("to", .string("gadget"))])["state"] == .string("done"))
        #expect(daemon.collected.made.load(ordering: .relaxed) == made + 1)
        await daemon.stop()
    }

    @Test("worker threads are named per output within 15 bytes")
    func threadNames() {
        #expect(DaemonServer.workerThread(for: ReadyDevice(kind: .touchscreen)).name == "gesturectl-q-ts")
        #expect(DaemonServer.workerThread(for: ReadyDevice(kind: .mouse, output: .uhid)).name == "gesturectl-h-ms")
        #expect(DaemonServer.workerThread(for: ReadyDevice(kind: .keyboard, output: .gadget(name: nil))).name == "gesturectl-g-kb")
    }
}
