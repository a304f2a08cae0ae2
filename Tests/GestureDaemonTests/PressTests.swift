import DaemonTestSupport
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Testing
import TestSupport

/// The frame of one key event.
private func keyEvents(_ code: EventCode, _ value: Int32) -> [InputEvent] {
    [InputEvent(type: .key, code: code, value: value), .synchronizationReport()]
}

/// The message of a daemon error, or "" when the call succeeded.
private func errorMessage(_ body: () throws -> Any) -> String {
    do {
        _ = try body()
        return ""
    } catch let error as DaemonError {
        return error.message
    } catch {
        return "\(error)"
    }
}

@Suite("The daemon's press", .serialized)
struct DaemonPressTests {
    private func daemon() throws -> TestDaemon {
        try TestDaemon(configuration: DaemonConfiguration(devices: [.touchscreen, .keyboard]))
    }

    @Test("The keyboard is among the default ready devices; the configuration accepts it")
    func configuration() throws {
        #expect(DaemonConfiguration().devices == [.touchscreen, .touchpad, .mouse, .tablet, .keyboard])
        let parsed = try DaemonConfiguration.parse(Array("{\"devices\": [\"keyboard\"]}".utf8), path: "c.json")
        #expect(parsed.devices == [.keyboard])
    }

    @Test("A tap: key down, key up after the hold, on the ready keyboard; the reply names the key")
    func tap() async throws {
        let daemon = try daemon()
        let client = try daemon.client()
        let result = try client.call("press", [("key", .string("volume-up"))])
        #expect(result["state"] == .string("done"))
        #expect(result["key"] == .string("KEY_VOLUMEUP"))
        #expect(result["action"] == .string("tap"))
        #expect(result["held"] == .array([]))
        #expect(result["frames"] == .integer(2))
        #expect(result["device"] == .string("/dev/input/test-keyboard"))
        let sink = try #require(daemon.sink(.keyboard))
        #expect(sink.frames.map(\.events) == [keyEvents(.keyVolumeUp, 1), keyEvents(.keyVolumeUp, 0)])
        #expect(sink.frames.map(\.time) == [.zero, Microseconds(50_000)])
        _ = try client.call("press", [("key", .string("KEY_ENTER")), ("hold_ms", .integer(200))])
        #expect(sink.frames.suffix(2).map(\.events) == [keyEvents(.keyEnter, 1), keyEvents(.keyEnter, 0)])
        #expect(sink.frames.last?.time == Microseconds(200_000))
        // Nothing reached the touchscreen.
        #expect(daemon.sink(.touchscreen)?.frames.isEmpty ?? true)
        await daemon.stop()
    }

    @Test("Bad presses: unknown keys named, keys it lacks, power without force, bad actions and holds")
    func errors() async throws {
        let daemon = try daemon()
        let client = try daemon.client()
        #expect(errorCode { try client.call("press", [("key", .string("volume-sideways"))]) } == .badArgument)
        #expect(errorMessage { try client.call("press", [("key", .string("volume-sideways"))]) }.contains("\"volume-sideways\""))
        #expect(errorMessage { try client.call("press", [("key", .string("KEY_A"))]) }.contains("KEY_A is not a key"))
        #expect(errorCode { try client.call("press", []) } == .badArgument)
        #expect(errorCode { try client.call("press", [("key", .integer(115))]) } == .badArgument)
        #expect(errorCode { try client.call("press", [("key", .string("mute")), ("action", .string("hold"))]) } == .badArgument)
        #expect(errorCode { try client.call("press", [("key", .string("mute")), ("hold_ms", .integer(0))]) } == .badArgument)
        #expect(errorCode { try client.call("press", [("key", .string("mute")), ("hold_ms", .integer(60_001))]) } == .badArgument)
        #expect(
            errorCode { try client.call("press", [("key", .string("mute")), ("action", .string("down")), ("hold_ms", .integer(10))]) }
                == .badArgument)
        #expect(errorCode { try client.call("press", [("key", .string("mute")), ("colour", .string("red"))]) } == .badArgument)
        #expect(errorCode { try client.call("press", [("key", .string("power"))]) } == .badArgument)
        #expect(errorMessage { try client.call("press", [("key", .string("power"))]) }.contains("\"force\": true"))
        #expect(errorCode { try client.call("press", [("key", .string("power")), ("action", .string("down"))]) } == .badArgument)
        // Nothing was pressed by any of them.
        #expect(daemon.sink(.keyboard)?.frames.isEmpty ?? true)
        let forced = try client.call("press", [("key", .string("power")), ("force", .bool(true))])
        #expect(forced["key"] == .string("KEY_POWER"))
        // Releasing power never needs force.
        #expect(try client.call("press", [("key", .string("power")), ("action", .string("up"))])["frames"] == .integer(0))
        await daemon.stop()
    }

    @Test("Without a ready keyboard, press answers not-found")
    func noKeyboard() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        #expect(errorCode { try client.call("press", [("key", .string("mute"))]) } == .notFound)
        await daemon.stop()
    }

    @Test("down keeps the key down until up; the replies list what is held")
    func downAndUp() async throws {
        let daemon = try daemon()
        let client = try daemon.client()
        let down = try client.call("press", [("key", .string("home")), ("action", .string("down"))])
        #expect(down["held"] == .array([.string("KEY_HOMEPAGE")]))
        let sink = try #require(daemon.sink(.keyboard))
        #expect(sink.frames.map(\.events) == [keyEvents(.keyHomePage, 1)])
        // Another key's tap leaves it down.
        let tap = try client.call("press", [("key", .string("mute"))])
        #expect(tap["held"] == .array([.string("KEY_HOMEPAGE")]))
        // A second down changes nothing.
        #expect(try client.call("press", [("key", .string("home")), ("action", .string("down"))])["frames"] == .integer(0))
        let up = try client.call("press", [("key", .string("home")), ("action", .string("up"))])
        #expect(up["held"] == .array([]))
        #expect(sink.frames.last?.events == keyEvents(.keyHomePage, 0))
        #expect(sink.frames.count == 4)
        await daemon.stop()
    }

    @Test("A client that disconnects has its held keys released; another client's stay down")
    func disconnectReleases() async throws {
        let daemon = try daemon()
        let stays = try daemon.client()
        _ = try stays.call("press", [("key", .string("back")), ("action", .string("down"))])
        do {
            let leaves = try daemon.client()
            _ = try leaves.call("press", [("key", .string("menu")), ("action", .string("down"))])
        }  // the connection closes here
        let sink = try #require(daemon.sink(.keyboard))
        #expect(waitUntil { sink.frames.last?.events == keyEvents(.keyMenu, 0) })
        #expect(waitUntil { daemon.logLines.contains { $0.contains("releasing KEY_MENU") } })
        var state = DeviceState(description: VirtualDeviceProfile.keyboard().description)
        for frame in sink.frames { state.apply(frame) }
        #expect(state.pressedKeys == [.keyBack])
        await daemon.stop()
    }

    @Test("Stopping releases every held key before the keyboard goes")
    func stopReleases() async throws {
        let daemon = try daemon()
        let client = try daemon.client()
        _ = try client.call("press", [("key", .string("KEY_UP")), ("action", .string("down"))])
        _ = try client.call("press", [("key", .string("volume-down")), ("action", .string("down"))])
        await daemon.stop()
        let sink = try #require(daemon.sink(.keyboard))
        var state = DeviceState(description: VirtualDeviceProfile.keyboard().description)
        for frame in sink.frames { state.apply(frame) }
        #expect(state.isReleased)
        #expect(daemon.logLines.contains { $0.contains("released 2 held key(s)") })
    }
}
