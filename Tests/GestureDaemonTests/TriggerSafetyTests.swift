import DaemonTestSupport
import GestureBindings
@testable import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import InputSystem
import OperatingSystem
import Testing
import TestSupport

/// The message of a daemon error, or "" when the call succeeded.
private func refusal(_ body: () throws -> Any) -> String {
    do {
        _ = try body()
        return ""
    } catch let error as DaemonError {
        return error.code == .badArgument ? error.message : "\(error)"
    } catch {
        return "\(error)"
    }
}

private let volumeUp = JSONValue.object([("press", .string("volume-up"))])
private let keyboard = "AT Translated Set 2 keyboard"
private let macropad = "/dev/input/by-id/usb-Macropad-event-kbd"

private func grabbed(_ device: String, key: String, press: String = "single") -> JSONValue {
    .object([("device", .string(device)), ("key", .string(key)), ("press", .string(press)), ("grab", .bool(true))])
}

@Suite("Triggers cannot read what people type; what is saved reads back", .serialized)
struct TriggerSafetyTests {
    @Test("The keylogger: binding KEY_A (or any typing key) on a keyboard is refused, saying why and what to do")
    func typingKeysRefused() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let client = try daemon.client()
        let message = refusal { try client.call("bind", [("trigger", trigger(keyboard, key: "KEY_A", press: "single")), ("action", volumeUp)]) }
        #expect(message.hasPrefix("bind: \"trigger\": KEY_A is a key people type with"))
        #expect(message.contains("F13–F24"))
        #expect(message.contains("\"dedicated_keyboards\""))
        for key in ["KEY_Z", "KEY_1", "KEY_LEFTSHIFT", "KEY_RIGHTMETA", "KEY_SPACE", "KEY_ENTER", "KEY_BACKSPACE", "KEY_F1", "KEY_KP5", "KEY_UP", "KEY_KPLEFTPAREN", "KEY_FN", "KEY_BRL_DOT1", "KEY_NUMERIC_1"] {
            let message = refusal { try client.call("bind", [("trigger", trigger(keyboard, key: key, press: "single")), ("action", volumeUp)]) }
            #expect(message.contains("\(key) is a key people type with"), "\(key)")
        }
        // Grabbing alone does not make a shared keyboard a dedicated one.
        #expect(refusal { try client.call("bind", [("trigger", grabbed(keyboard, key: "KEY_A")), ("action", volumeUp)]) }.contains("KEY_A is a key"))
        #expect(daemon.liveWatches.isEmpty)
        #expect(!FileIO.exists(daemon.bindingsPath))
        // Keys that type nothing.
        for key in ["KEY_F13", "KEY_F24", "BTN_0", "BTN_LEFT", "KEY_VOLUMEUP", "KEY_MUTE", "KEY_PLAYPAUSE", "KEY_SYSRQ", "KEY_PROG1"] {
            #expect(refusal { try client.call("bind", [("trigger", trigger(keyboard, key: key, press: "single")), ("action", volumeUp)]) } == "", "\(key)")
        }
        #expect(daemon.liveWatches.count == 9)
        #expect(daemon.liveWatches.allSatisfy { !$0.grab })
        await daemon.stop()

        // The configuration's bindings too.
        let text = "{\"bindings\": [{\"trigger\": {\"device\": \"\(keyboard)\", \"key\": \"KEY_A\", \"press\": \"single\"}, \"action\": {\"press\": \"mute\"}}]}"
        #expect(throws: DaemonError.self) { try DaemonConfiguration.parse(Array(text.utf8), path: "daemon.json") }
        do {
            _ = try DaemonConfiguration.parse(Array(text.utf8), path: "daemon.json")
        } catch {
            #expect(error.message.hasPrefix("daemon.json: \"bindings\"[0]: \"trigger\": KEY_A is a key people type with"))
        }
        #expect(TriggerKeys.isTypingKey(EventCode(rawValue: 30)))  // KEY_A
        #expect(!TriggerKeys.isTypingKey(EventCode(rawValue: 183)))  // KEY_F13
    }

    @Test("A dedicated keyboard of the configuration takes typing keys, grabbed; a reload that drops it stops their watches")
    func dedicatedKeyboard() async throws {
        let configuration = try DaemonConfiguration.parse(
            Array("{\"devices\": [\"touchscreen\", \"keyboard\"], \"dedicated_keyboards\": [\"\(macropad)\"]}".utf8), path: "daemon.json")
        #expect(configuration.dedicatedKeyboards == [macropad])
        let daemon = try TestDaemon(configuration: configuration)
        let client = try daemon.client()
        let message = refusal { try client.call("bind", [("trigger", trigger(macropad, key: "KEY_A", press: "single")), ("action", volumeUp)]) }
        #expect(message.contains("is a dedicated keyboard: add \"grab\": true"))
        let result = try client.call("bind", [("trigger", grabbed(macropad, key: "KEY_A")), ("action", volumeUp)])
        #expect(result["trigger"]?["grab"] == .bool(true))
        // Another key of the same device, bound without grab: the device is grabbed for it too.
        _ = try client.call("bind", [("trigger", trigger(macropad, key: "KEY_F13", press: "long")), ("action", volumeUp)])
        #expect(daemon.liveWatches.count == 2)
        #expect(daemon.liveWatches.allSatisfy { $0.grab })
        // The same trigger without grab replaces the binding: refused, as a typing key.
        #expect(refusal { try client.call("bind", [("trigger", trigger(macropad, key: "KEY_A", press: "single")), ("action", volumeUp)]) } != "")
        // unbind names the trigger without its grab.
        _ = try client.call("unbind", [("trigger", trigger(macropad, key: "KEY_F13", press: "long"))])
        #expect(waitUntil { daemon.liveWatches.count == 1 })

        // A reload without the dedicated keyboard: the saved binding stays, unwatched, and says why.
        daemon.server.reload(
            DaemonConfiguration(devices: [.touchscreen, .keyboard]), allowedGroup: nil,
            library: GestureLibrary(userDirectory: daemon.folder + "/library", builtinDirectory: nil))
        #expect(waitUntil { daemon.liveWatches.isEmpty })
        let bindings = try client.call("bindings")
        guard case .array(let saved)? = bindings["bindings"], case .array(let triggers)? = bindings["triggers"] else {
            Issue.record("no bindings")
            return
        }
        #expect(saved.count == 1)
        #expect(triggers.first?["state"] == .string("refused"))
        #expect(daemon.collected.logLines.withLock { $0.contains { $0.contains("not watching KEY_A on \(macropad): KEY_A is a key people type with") } })
        await daemon.stop()
    }

    @Test("Every string of a binding has a limit: a 17 MiB device name is refused, shortly, and nothing is saved")
    func stringLimits() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let client = try daemon.client()
        // 17 MiB strings, sent as they are (no JSON text made of them here).
        let raw = try RawConnection(path: daemon.socketPath)
        func sendHuge(_ before: String, _ after: String) throws -> JSONValue {
            try raw.socket.writeAll(Array(before.utf8) + Array(repeating: UInt8(ascii: "k"), count: 17 << 20) + Array(after.utf8))
            return try raw.receive()
        }
        var reply = try sendHuge("{\"id\": 1, \"op\": \"bind\", \"trigger\": {\"device\": \"", "\", \"key\": \"KEY_F13\", \"press\": \"single\"}, \"action\": {\"press\": \"mute\"}}\n")
        #expect(reply["error"]?["code"] == .string("bad-argument"))
        #expect(reply["error"]?["message"] == .string("bind: \"trigger\": \"device\" is 17825792 bytes long; the most allowed is 4096"))
        reply = try sendHuge("{\"id\": 2, \"op\": \"bind\", \"trigger\": {\"device\": \"d\", \"key\": \"KEY_F13\", \"press\": \"single\"}, \"action\": {\"press\": \"", "\"}}\n")
        #expect(reply["error"]?["message"] == .string("bind: \"action\": \"press\" is 17825792 bytes long; the most allowed is 64"))
        func refused(_ trigger: JSONValue, _ action: JSONValue = volumeUp) -> String {
            refusal { try client.call("bind", [("trigger", trigger), ("action", action)]) }
        }
        let longest = String(repeating: "d", count: BindingLimits.maximumIdentityBytes)
        #expect(refused(trigger(longest + "d", key: "KEY_F13", press: "single")).contains("\"device\" is 4097 bytes long"))
        #expect(refused(trigger("a\u{1b}[2J", key: "KEY_F13", press: "single")).contains("has a control character"))
        #expect(refused(trigger(longest, key: "KEY_" + String(repeating: "F", count: 1 << 20), press: "single")).contains("\"key\" is 1048580 bytes long"))
        #expect(refused(trigger(longest, key: "KEY_F13", press: "single"), .object([("play", .string(longest))])).contains("the most allowed is 200"))
        let menu = JSONValue.object([("menu", .object([("config", .string("/" + longest))]))])
        #expect(refused(trigger(longest, key: "KEY_F13", press: "single"), menu).contains("\"config\" is 4097 bytes long"))
        let create = JSONValue.object([("create", .object([("device", .string(longest + "d"))]))])
        #expect(refused(trigger(longest, key: "KEY_F13", press: "single"), create).contains("\"device\" is 4097 bytes long"))
        #expect(!FileIO.exists(daemon.bindingsPath))
        // At the limit: accepted.
        #expect(refused(trigger(longest, key: "KEY_F13", press: "single")) == "")
        await daemon.stop()
    }

    @Test("The largest set of bindings allowed (256 × the longest strings) is saved, read back after a restart, and no more are taken")
    func fullSetReadsBack() async throws {
        // Quotes, which JSON doubles: the most bytes a string can take.
        func longest(_ prefix: String, _ limit: Int) -> String { prefix + String(repeating: "\"", count: limit - prefix.utf8.count) }
        let bindings = (0..<BindingLimits.maximumCount).map { index -> JSONValue in
            let device = longest("\(index)-", BindingLimits.maximumIdentityBytes)
            let menu = JSONValue.object([
                ("config", .string(longest("/\(index)", BindingLimits.maximumPathBytes))),
                ("device", .string(longest("\(index)", BindingLimits.maximumIdentityBytes))),
                ("scan_interval_ms", .integer(10_000)), ("first_item_hold_ms", .integer(10_000)),
            ])
            return .object([("trigger", grabbed(device, key: "BTN_TRIGGER_HAPPY40", press: "double")), ("action", .object([("menu", menu)]))])
        }
        let text = JSONValue.object([("devices", .array([.string("touchscreen")])), ("bindings", .array(bindings))]).jsonText
        let configuration = try DaemonConfiguration.parse(Array(text.utf8), path: "daemon.json")
        #expect(configuration.bindings.count == BindingLimits.maximumCount)

        let first = try TestDaemon(configuration: configuration)
        let client = try first.client()
        // Re-binding one saves the whole set; one more is refused.
        _ = try client.call("bind", [("trigger", try #require(bindings[0]["trigger"])), ("action", try #require(bindings[0]["action"]))])
        let more = refusal {
            try client.call("bind", [("trigger", trigger("another", key: "KEY_F13", press: "single")), ("action", volumeUp)])
        }
        #expect(more == "bind: 256 bindings are the most; unbind one first")
        let saved = try FileIO.read(path: first.bindingsPath, limit: 64 << 20)
        #expect(saved.count > 5 << 20)
        #expect(saved.count < 16 << 20)

        // The whole set in one `bindings` reply of several MiB, read in one
        // pass: each byte the client received is searched for a newline
        // once (searching the whole buffer again after each 64 KiB read took
        // about a minute for this reply in a debug build).
        let reader = try first.client()
        let listed = try reader.call("bindings")
        guard case .array(let listedBindings)? = listed["bindings"] else {
            Issue.record("no bindings")
            return
        }
        #expect(listedBindings.count == BindingLimits.maximumCount)
        #expect(listedBindings.first?["trigger"]?["device"] == bindings.first?["trigger"]?["device"])
        #expect(reader.receivedBytes > 5 << 20)
        #expect(reader.scannedBytes <= reader.receivedBytes)
        await first.stop()

        // Restarted with no configured bindings: all of them, from the file.
        let second = try TestDaemon(configuration: DaemonConfiguration(devices: [.touchscreen]), folder: first.folder)
        #expect(second.collected.logLines.withLock { $0.contains { $0.contains("bindings: 256 from \(first.bindingsPath)") } })
        #expect(!second.collected.logLines.withLock { $0.contains { $0.contains("cannot be used") } })
        let watched = second.liveWatches
        #expect(watched.count == BindingLimits.maximumCount)
        #expect(Set(watched.map(\.device)) == Set(configuration.bindings.map(\.trigger.device)))
        #expect(watched.allSatisfy { $0.grab && $0.keyName == "BTN_TRIGGER_HAPPY40" })
        #expect(try FileIO.read(path: first.bindingsPath, limit: 64 << 20) == saved)
        await second.stop()
    }

    @Test("A damaged bindings file is kept aside and the last good one takes its place; with none, the configuration's apply")
    func damagedFile() async throws {
        let first = try TestDaemon(configuration: .withTriggers)
        let client = try first.client()
        _ = try client.call("bind", [("trigger", trigger(key: "BTN_0", press: "single")), ("action", volumeUp)])
        _ = try client.call("bind", [("trigger", trigger(key: "BTN_1", press: "single")), ("action", volumeUp)])
        let good = try FileIO.read(path: first.bindingsPath, limit: 1 << 20)
        _ = try client.call("bind", [("trigger", trigger(key: "BTN_2", press: "single")), ("action", volumeUp)])
        // The last good file is the one before the last change.
        #expect(try FileIO.read(path: first.bindingsPath + ".bak", limit: 1 << 20) == good)
        await first.stop()

        // Too large to read (as a 17 MiB device name made it).
        let damaged = Array(repeating: UInt8(ascii: " "), count: 17 << 20)
        try FileIO.writeAtomically(damaged, to: first.bindingsPath)
        let second = try TestDaemon(configuration: .withTriggers, folder: first.folder)
        var result = try second.client().call("bindings")
        #expect(result["source"] == .string("saved"))
        guard case .array(let recovered)? = result["bindings"] else {
            Issue.record("no bindings")
            return
        }
        #expect(recovered.count == 2)
        #expect(second.liveWatches.count == 2)
        #expect(try FileIO.read(path: first.bindingsPath, limit: 1 << 20) == good)
        #expect(try FileIO.read(path: first.bindingsPath + ".damaged", limit: 32 << 20) == damaged)
        #expect(second.collected.logLines.withLock { lines in
            lines.contains { $0.contains("the saved bindings cannot be used") && $0.contains("the 2 binding(s) of the last good file") }
        })
        // A reset keeps the file it deletes as the last good one (issue 36:
        // it deleted the backup too), so it can be undone by hand.
        _ = try second.client().call("bindings", [("reset", .bool(true))])
        #expect(!FileIO.exists(first.bindingsPath))
        #expect(try FileIO.read(path: first.bindingsPath + ".bak", limit: 1 << 20) == good)
        await second.stop()
        // With no last good file, a damaged file leaves the configuration's bindings.
        try FileIO.remove(first.bindingsPath + ".bak")
        try FileIO.writeAtomically(Array("{\"bindings\": [".utf8), to: first.bindingsPath)
        let third = try TestDaemon(configuration: .withTriggers, folder: first.folder)
        result = try third.client().call("bindings")
        #expect(result["source"] == .string("configuration"))
        #expect(try FileIO.read(path: first.bindingsPath + ".damaged", limit: 1 << 20) == Array("{\"bindings\": [".utf8))
        #expect(third.collected.logLines.withLock { $0.contains { $0.contains("there is no last good file") } })
        // The next change does not bring the damaged file back.
        _ = try third.client().call("bind", [("trigger", trigger(key: "BTN_3", press: "single")), ("action", volumeUp)])
        #expect(try FileIO.read(path: first.bindingsPath + ".damaged", limit: 1 << 20) == Array("{\"bindings\": [".utf8))
        await third.stop()
    }
}
