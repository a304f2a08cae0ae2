import DaemonTestSupport
import DeviceDiscovery
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureFormat
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// The sources of a test daemon's live fingertips: each device named is a
/// ``TestSupport/ListeningDevice`` touchscreen (node `/dev/input/test-NAME`);
/// "missing" is not found.
final class TestFingertipSources: Sendable {
    private let devices = Mutex<[String: ListeningDevice]>([:])

    func device(_ name: String) -> ListeningDevice {
        devices.withLock { current in
            if let device = current[name] { return device }
            let device = ListeningDevice()
            current[name] = device
            return device
        }
    }

    var inputs: InputFactory {
        InputFactory(openRecording: { [self] request in
            let name = request.device ?? "only"
            if name == "missing" { throw DeviceSelectionError(kind: .notFound, message: "no input device matches \"missing\"") }
            return OpenedInput(
                source: try device(name).open(), description: TestDevices.touchscreen,
                info: DeviceInfo(node: "/dev/input/test-\(name)", name: "test \(name)", kind: .touchscreen), stableID: nil)
        })
    }
}

/// One contact down in slot 0, and its lift.
private let touchDown: [(EventType, EventCode, Int32)] = [
    (.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, 5), (.absolute, .multitouchPositionX, 5_000),
    (.absolute, .multitouchPositionY, 4_000), (.key, .buttonTouch, 1),
]
private let touchUp: [(EventType, EventCode, Int32)] = [(.absolute, .multitouchTrackingID, -1), (.key, .buttonTouch, 0)]

@Suite("Live fingertips through the daemon", .serialized)
struct FingertipsDaemonTests {
    /// A keyboard kept ready (the emergency stop's), no touchscreen: the
    /// only touchscreen the doubles make is the fingertips'.
    private static let configuration = DaemonConfiguration(devices: [.keyboard], pressTimings: TestDaemon.shortPressTimings)

    private func subscribed(_ daemon: TestDaemon) throws -> RawConnection {
        let watcher = try daemon.raw()
        try watcher.send("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"fingertips\"]}\n")
        #expect(try watcher.receive()["ok"] == .bool(true))
        return watcher
    }

    private func trackingIDs(_ daemon: TestDaemon) -> [[Int32]] {
        (daemon.sink(.touchscreen)?.frames ?? []).map { $0.events.filter { $0.code == .multitouchTrackingID }.map(\.value) }
    }

    @Test("fingertips: ready, down and up events; one session per source; cancel lifts them and gives the source back")
    func startEventsCancel() async throws {
        let sources = TestFingertipSources()
        let daemon = try TestDaemon(configuration: Self.configuration, inputs: sources.inputs)
        let watcher = try subscribed(daemon)
        let client = try daemon.client()
        let started = try client.call(.fingertips(count: 3, device: "pad", layout: "arc", spacingMillimetres: 15, idleMilliseconds: 0))
        #expect(started["source"] == .string("/dev/input/test-pad"))
        #expect(started["kind"] == .string("touchscreen"))
        let job = try #require(started["job"])
        let ready = try watcher.receive()
        #expect(ready["event"] == .string("fingertips") && ready["job"] == job && ready["state"] == .string("ready"))
        #expect(ready["line"]?.stringValue?.hasPrefix("3 fingertips ready: ") == true, "\(ready.jsonText)")

        sources.device("pad").frame(touchDown)
        #expect(try watcher.receive()["state"] == .string("down"))
        #expect(trackingIDs(daemon).first?.filter { $0 >= 0 }.count == 3)
        sources.device("pad").frame(touchUp)
        #expect(try watcher.receive()["state"] == .string("up"))
        #expect(trackingIDs(daemon).last == [-1, -1, -1])

        // One session per source; another source is fine.
        #expect(errorCode { try client.call(.fingertips(count: 2, device: "pad")) } == .busy)
        let other = try client.call(.fingertips(count: 2, device: "stick"))
        #expect(try watcher.receive()["job"] == other["job"])
        // `jobs` lists both, in job order, with their kind and source.
        let listed = try client.call("jobs")["jobs"]
        #expect(
            listed == .array([
                .object([
                    ("job", job), ("device", .string("touchscreen")), ("state", .string("running")), ("kind", .string("fingertips")),
                    ("source", .string("/dev/input/test-pad")), ("mine", .bool(true)), ("uid", .integer(0)),
                ]),
                .object([
                    ("job", try #require(other["job"])), ("device", .string("touchscreen")), ("state", .string("running")),
                    ("kind", .string("fingertips")), ("source", .string("/dev/input/test-stick")), ("mine", .bool(true)),
                    ("uid", .integer(0)),
                ]),
            ]), "\(listed?.jsonText ?? "nil")")
        _ = try client.call(.cancel(job: try #require(other["job"])))
        #expect(try watcher.receive()["reason"] == .string("cancelled"))

        _ = try client.call(.cancel(job: job))
        let ended = try watcher.receive()
        #expect(ended["job"] == job && ended["state"] == .string("ended") && ended["reason"] == .string("cancelled"))
        #expect(waitUntil { sources.device("pad").openReaders == 0 })
        #expect(errorCode { try client.call(.cancel(job: job)) } == .notFound)
        // Once ended, the source can be driven again.
        let again = try client.call(.fingertips(count: 4, device: "pad"))
        #expect(try watcher.receive()["job"] == again["job"])
        await daemon.stop()
        // Stopping the daemon (SIGTERM) ended them too: the source is given back.
        #expect(sources.device("pad").openReaders == 0)
    }

    @Test("fingertips: bad arguments are refused, naming the field; an unknown source is not-found")
    func refusals() async throws {
        let sources = TestFingertipSources()
        let daemon = try TestDaemon(configuration: Self.configuration, inputs: sources.inputs)
        let client = try daemon.client()
        #expect(errorCode { try client.call(.fingertips(count: 1)) } == .badArgument)
        #expect(errorCode { try client.call(.fingertips(count: 11)) } == .badArgument)
        #expect(errorCode { try client.call(.fingertips(count: 3, layout: "zigzag")) } == .badArgument)
        #expect(errorCode { try client.call(.fingertips(count: 3, speed: 0)) } == .badArgument)
        #expect(errorCode { try client.call(.fingertips(count: 3, kind: "mouse")) } == .badArgument)
        #expect(errorCode { try client.call(DaemonCall(.fingertips, [(.onDisconnect, .string("finish")), (.count, .integer(3))])) } == .badArgument)
        #expect(errorCode { try client.call(DaemonCall(.fingertips)) } == .badArgument)
        #expect(errorCode { try client.call(.fingertips(count: 3, device: "missing")) } == .notFound)
        // "hover": false is taken (the source is then looked for); not a boolean is refused.
        #expect(errorCode { try client.call(.fingertips(count: 3, device: "missing", hover: false)) } == .notFound)
        #expect(errorCode { try client.call(DaemonCall(.fingertips, [(.count, .integer(3)), (.hover, .string("no"))])) } == .badArgument)
        await daemon.stop()
    }

    @Test("A client's disconnect ends its fingertips, unless on_disconnect is keep")
    func disconnect() async throws {
        let sources = TestFingertipSources()
        let daemon = try TestDaemon(configuration: Self.configuration, inputs: sources.inputs)
        let watcher = try subscribed(daemon)
        do {
            let leaving = try daemon.raw()
            try leaving.send("{\"id\": 1, \"op\": \"fingertips\", \"count\": 3, \"device\": \"pad\"}\n")
            #expect(try leaving.receive()["ok"] == .bool(true))
            #expect(try watcher.receive()["state"] == .string("ready"))
        }
        let ended = try watcher.receive()
        #expect(ended["state"] == .string("ended") && ended["reason"] == .string("cancelled"))
        #expect(waitUntil { sources.device("pad").openReaders == 0 })
        var kept: JSONValue = .null
        do {
            let leaving = try daemon.raw()
            try leaving.send("{\"id\": 1, \"op\": \"fingertips\", \"count\": 3, \"device\": \"pad\", \"on_disconnect\": \"keep\"}\n")
            kept = try #require(try leaving.receive()["result"]?["job"])
            #expect(try watcher.receive()["state"] == .string("ready"))
        }
        // Still running after its client left: another client's cancel ends it.
        let client = try daemon.client()
        _ = try client.call("version")
        #expect(sources.device("pad").openReaders == 1)
        _ = try client.call(.cancel(job: kept))
        #expect(try watcher.receive()["reason"] == .string("cancelled"))
        await daemon.stop()
    }

    @Test("A binding toggles fingertips: a press starts them, the next stops them; the emergency stop ends them")
    func bindingToggleAndEmergencyStop() async throws {
        let sources = TestFingertipSources()
        let daemon = try TestDaemon(configuration: Self.configuration, inputs: sources.inputs)
        let client = try daemon.client()
        let action = JSONValue.object([("fingertips", .object([("count", .integer(3)), ("device", .string("pad")), ("idle_ms", .integer(0))]))])
        _ = try client.call("bind", [("trigger", trigger(press: "single")), ("action", action)])
        let listed = try client.call("bindings")
        #expect(listed.jsonText.contains(action.jsonText), "\(listed.jsonText)")
        #expect(
            errorCode {
                try client.call("bind", [("trigger", trigger(press: "double")), ("action", .object([("fingertips", .object([("count", .integer(12))]))]))])
            } == .badArgument)
        let watcher = try subscribed(daemon)

        try daemon.press(.single)
        let first = try watcher.receive()
        #expect(first["state"] == .string("ready"))
        try daemon.press(.single)
        let stopped = try watcher.receive()
        #expect(stopped["job"] == first["job"] && stopped["reason"] == .string("cancelled"))
        #expect(waitUntil { sources.device("pad").openReaders == 0 })

        try daemon.press(.single)
        let second = try watcher.receive()
        #expect(second["state"] == .string("ready") && second["job"] != first["job"])
        sources.device("pad").frame(touchDown)
        #expect(try watcher.receive()["state"] == .string("down"))
        try daemon.press(.emergencyStop)
        let ended = try watcher.receive()
        #expect(ended["job"] == second["job"] && ended["reason"] == .string("cancelled"))
        #expect(trackingIDs(daemon).last == [-1, -1, -1])
        #expect(waitUntil { sources.device("pad").openReaders == 0 })
        await daemon.stop()
    }

    @Test("A bound menu's Fingertips: the switch alone turns on 3 fingertips on the menu's device and stops them")
    func menuFingertips() async throws {
        let sources = TestFingertipSources()
        let daemon = try TestDaemon(configuration: Self.configuration, inputs: sources.inputs)
        let client = try daemon.client()
        let menu = JSONValue.object([("device", .string("pad")), ("scan_interval_ms", .integer(300)), ("first_item_hold_ms", .integer(0))])
        _ = try client.call("bind", [("trigger", trigger(press: "long")), ("action", .object([("menu", menu)]))])
        let raw = try daemon.raw()
        try raw.send("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"menu\"]}\n")
        _ = try raw.receive()
        func line(_ prefix: String) throws -> String? {
            for _ in 0..<300 {
                guard case .string(let text)? = try raw.receive()["line"] else { continue }
                if text.hasPrefix(prefix) { return text }
            }
            return nil
        }
        try daemon.press(.long)
        #expect(try line("Highlighted: Gestures menu") != nil)
        try daemon.press(.single)
        #expect(try line("Highlighted: 3 fingertips") != nil)
        try daemon.press(.single)
        #expect(try line("3 fingertips ready: touch the screen with one finger") != nil)
        sources.device("pad").frame(touchDown)
        #expect(try line("3 fingertips down.") != nil)
        #expect(trackingIDs(daemon).first?.filter { $0 >= 0 }.count == 3)
        try daemon.press(.single)
        #expect(try line("3 fingertips gone: stopped.") != nil)
        #expect(trackingIDs(daemon).last == [-1, -1, -1])
        #expect(waitUntil { sources.device("pad").openReaders == 0 })
        await daemon.stop()
    }
}

extension JSONValue {
    fileprivate var stringValue: String? { if case .string(let text) = self { text } else { nil } }
}
