import DaemonTestSupport
import DeviceDiscovery
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureFormat
import GestureModel
import GestureRecording
import Glibc
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// The recordings a test daemon's engine starts: each over a fresh
/// ``PipeSource`` that looks like ``TestSupport/TestDevices/touchscreen``.
final class TestRecordings: Sendable {
    let sources = Mutex<[PipeSource]>([])
    let requests = Mutex<[RecordRequest]>([])
    static let node = "/dev/input/test-recording"

    var latest: PipeSource? { sources.withLock { $0.last } }

    /// The engine's inputs: recordings open a new source; trigger watches
    /// are the system's.
    var inputs: InputFactory {
        InputFactory(openRecording: { [self] request in
            requests.withLock { $0.append(request) }
            if let device = request.device, device != Self.node {
                throw DeviceSelectionError(kind: .notFound, message: "no input device matches \"\(device)\"")
            }
            let source = try PipeSource()
            sources.withLock { $0.append(source) }
            return OpenedInput(
                source: source, description: TestDevices.touchscreen,
                info: DeviceInfo(node: Self.node, name: "gesturectl test touchscreen", kind: .touchscreen), stableID: "1d6b:0001")
        })
    }
}

@Suite("Recording through the daemon", .serialized)
struct DaemonRecordTests {
    private func daemon(_ recordings: TestRecordings) throws -> TestDaemon {
        try TestDaemon(inputs: recordings.inputs)
    }

    @Test("record-start, strokes pushed as record events, record-stop with the gesture inline")
    func startEventsStop() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let watcher = try daemon.raw()
        try watcher.send("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"record\"]}\n")
        #expect(try watcher.receive()["ok"] == .bool(true))
        let client = try daemon.client()
        let started = try client.call("record-start", [("name", .string("drawn"))])
        #expect(started["device"] == .string(TestRecordings.node))
        #expect(started["state"] == .string("recording"))
        guard case .number? = started["job"] else { Issue.record("no job in \(started.jsonText)"); return }
        let source = try #require(recordings.latest)
        source.stroke(id: 1, x: 1_000, y: 2_000)
        let first = try watcher.receive()
        #expect(first["event"] == .string("record"))
        #expect(first["job"] == started["job"])
        guard case .array(let samples)? = first["stroke"]?["samples"] else { Issue.record("no samples in \(first.jsonText)"); return }
        #expect(samples.first == .array([.integer(0), .integer(1_000), .integer(2_000)]))
        #expect(samples.count == 3)
        source.stroke(id: 2, x: 5_000, y: 6_000)
        #expect(try watcher.receive()["stroke"]?["samples"] != nil)

        let stopped = try client.call("record-stop")
        #expect(stopped["stop_reason"] == .string("stopped"))
        #expect(stopped["job"] == started["job"])
        let gesture = try GestureFileFormat.decode(Array(try #require(stopped["gesture"]).jsonText.utf8), source: "reply")
        #expect(gesture.strokes.count == 2)
        #expect(gesture.name == "drawn")
        #expect(gesture.metadata?.deviceID == "1d6b:0001")
        #expect(gesture.metadata?.tool == "gesturectl test")
        // Collected: nothing left to stop.
        #expect(errorCode { try client.call("record-stop") } == .notFound)
        await daemon.stop()
    }

    @Test("One connection subscribes, starts and sends a waiting record-stop: strokes come as record events, then its reply when another connection cancels the job (the on-screen button's canvas)")
    func waitOnTheRecordingsOwnConnection() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.client()
        client.keepsEvents = true
        _ = try client.call(.subscribe([.record]))
        let started = RecordStartResult(try client.call(.recordStart(name: "recording")))
        let job = try #require(started.job)
        let waiting = try client.send(.recordStop(wait: true))
        try #require(recordings.latest).stroke(id: 1, x: 1_000, y: 2_000)
        var stroke: JSONValue?
        while stroke == nil {
            switch try client.nextMessage() {
            case .event(let event): stroke = try RecordEvent(event, job: job)?.stroke
            case .reply(let id, _):
                Issue.record("a reply (\(String(describing: id))) before the recording stopped")
                return
            }
        }
        guard case .array(let samples)? = stroke?["samples"] else { Issue.record("no samples"); return }
        #expect(samples.first == .array([.integer(0), .integer(1_000), .integer(2_000)]))
        _ = try daemon.client().call(.cancel(job: job))
        while true {
            guard case .reply(let id, let outcome) = try client.nextMessage() else { continue }
            #expect(id == .integer(waiting))
            let result = RecordStopResult(try outcome.get())
            #expect(result.stopCode == .stopped)
            let gesture = try GestureFileFormat.decode(json: try #require(result.gesture), source: "reply")
            #expect(gesture.strokes.count == 1)
            break
        }
        await daemon.stop()
    }

    @Test("save, exists and force; a failed save keeps the result to collect again")
    func saveExistsForce() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.client()
        _ = try client.call("save", [("name", .string("mine")), ("gesture", try inline(Gesture(name: "old", device: .synthDefault, strokes: [Stroke(samples: [Sample(time: .zero, x: 1, y: 1)])])))])
        _ = try client.call("record-start")
        try #require(recordings.latest).stroke(id: 7, x: 300, y: 400)
        #expect(errorCode { try client.call("record-stop", [("save", .string("mine"))]) } == .exists)
        #expect(errorCode { try client.call("record-stop", [("save", .string("../escape"))]) } == .badArgument)
        let saved = try client.call("record-stop", [("save", .string("mine")), ("force", .bool(true))])
        #expect(saved["saved"]?["name"] == .string("mine"))
        let shown = try client.call("show", [("name", .string("mine"))])
        let gesture = try GestureFileFormat.decode(Array(try #require(shown["gesture"]).jsonText.utf8), source: "show")
        #expect(gesture.strokes.first?.samples.first?.x == 300)
        #expect(gesture.name == "mine")
        await daemon.stop()
    }

    @Test("a record-stop that saves nothing is nothing-recorded, and the recording stays to be collected")
    func saveOfNothing() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.client()
        _ = try client.call("record-start")
        do {
            _ = try client.call("record-stop", [("save", .string("empty"))])
            Issue.record("a save of nothing answered a result")
        } catch let error as DaemonError {
            #expect(error.code == .nothingRecorded)
            #expect(error.message.contains("nothing was saved as \"empty\""), "\(error.message)")
        }
        #expect(errorCode { try client.call("show", [("name", .string("empty"))]) } == .notFound)
        // Still there to collect, without saving.
        let collected = try client.call("record-stop")
        #expect(collected["gesture"] == .null)
        #expect(collected["message"] == .string("no contact was recorded"))
        #expect(errorCode { try client.call("record-stop") } == .notFound)
        await daemon.stop()
    }

    @Test("a stroke pushed just before record-stop is in the result, every time")
    func strokeJustBeforeStop() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.client()
        for round in 0..<100 {
            _ = try client.call("record-start")
            try #require(recordings.latest).stroke(id: Int32(round + 1), x: 300, y: 400)
            let stopped = try client.call("record-stop")
            guard case .array(let strokes)? = stopped["gesture"]?["strokes"] else {
                Issue.record("round \(round): no stroke in \(stopped.jsonText)")
                break
            }
            #expect(strokes.count == 1)
        }
        await daemon.stop()
    }

    @Test("one recording at a time: a second is busy until the first is collected")
    func busy() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.client()
        let other = try daemon.client()
        _ = try client.call("record-start", [("idle_timeout_ms", .integer(50))])
        #expect(errorCode { try other.call("record-start") } == .busy)
        try #require(recordings.latest).stroke(id: 1, x: 10, y: 10)
        // It stops by itself after the idle timeout and keeps its result.
        let stopped = try client.call("record-stop", [("wait", .bool(true))])
        #expect(stopped["stop_reason"] == .string("idle-timeout"))
        _ = try other.call("record-start")
        #expect(errorCode { try client.call("record-start") } == .busy)
        let empty = try other.call("record-stop")
        #expect(empty["gesture"] == .null)
        #expect(empty["message"] == .string("no contact was recorded"))
        await daemon.stop()
    }

    @Test("a recording that stops by itself waits for record-stop")
    func stopsByItself() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.client()
        _ = try client.call("record-start", [("max_duration_ms", .integer(30)), ("sequential", .bool(true))])
        let source = try #require(recordings.latest)
        source.frame([(.absolute, .multitouchTrackingID, 3), (.absolute, .multitouchPositionX, 50), (.absolute, .multitouchPositionY, 60)])
        #expect(waitUntil { daemon.logLines.contains { $0.contains("stopped: maximum duration reached") } })
        let stopped = try client.call("record-stop")
        #expect(stopped["stop_reason"] == .string("max-duration"))
        guard case .array(let warnings)? = stopped["warnings"] else { Issue.record("no warnings"); return }
        #expect(warnings.count == 1)  // the contact still down
        #expect(recordings.requests.withLock { $0.first?.sessionOptions.idleTimeout } == Microseconds(3_000_000))
        await daemon.stop()
    }

    @Test("bad arguments are bad-argument naming the key; a missing device is not-found")
    func badArguments() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.client()
        #expect(errorCode { try client.call("record-stop") } == .notFound)
        #expect(errorCode { try client.call("record-start", [("idle_timeout_ms", .integer(0))]) } == .badArgument)
        #expect(errorCode { try client.call("record-start", [("max_duration_ms", .string("1s"))]) } == .badArgument)
        #expect(errorCode { try client.call("record-start", [("sequential", .string("yes"))]) } == .badArgument)
        #expect(errorCode { try client.call("record-start", [("screen", .string("10x10"))]) } == .badArgument)
        #expect(errorCode { try client.call("record-start", [("name", .string("a/b"))]) } == .badArgument)
        #expect(errorCode { try client.call("record-start", [("device", .string("nothing like it"))]) } == .notFound)
        #expect(errorCode { try client.call("record-stop", [("save", .integer(3))]) } == .badArgument)
        // None of those started anything.
        #expect(recordings.sources.withLock { $0.isEmpty })
        do {
            _ = try client.call("record-start", [("idle_timeout_ms", .integer(0))])
        } catch let error as DaemonError {
            #expect(error.message.contains("idle_timeout_ms"))
        }
        await daemon.stop()
    }

    @Test("a device that vanishes mid-recording: the strokes so far, and the reason")
    func deviceVanishes() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.client()
        _ = try client.call("record-start", [("device", .string(TestRecordings.node))])
        let source = try #require(recordings.latest)
        source.stroke(id: 4, x: 700, y: 800)
        source.vanish()
        let stopped = try client.call("record-stop", [("wait", .bool(true))])
        #expect(stopped["stop_reason"] == .string("device-vanished"))
        let gesture = try GestureFileFormat.decode(Array(try #require(stopped["gesture"]).jsonText.utf8), source: "reply")
        #expect(gesture.strokes.count == 1)
        await daemon.stop()
    }

    @Test("cancel from another connection ends a waiting record-stop; a vanished starter drops the recording")
    func cancelAndDisconnect() async throws {
        let recordings = TestRecordings()
        let daemon = try daemon(recordings)
        let client = try daemon.raw()
        try client.send("{\"id\": 1, \"op\": \"record-start\"}\n")
        let started = try client.receive()
        let job = try #require(started["result"]?["job"])
        try #require(recordings.latest).stroke(id: 9, x: 1, y: 2)
        try client.send("{\"id\": 2, \"op\": \"record-stop\", \"wait\": true}\n")
        // Two clients' requests are served in either order: the second
        // record-stop is sent once the first one waits.
        try waitUntil("the first record-stop waits") { daemon.logLines.contains { $0.contains("waits for the recording to stop") } }
        let other = try daemon.client()
        #expect(errorCode { try other.call("record-stop", [("wait", .bool(true))]) } == .busy)
        _ = try other.call("cancel", [("job", job)])
        let stopped = try client.receive()
        #expect(stopped["id"] == .integer(2))
        #expect(stopped["result"]?["stop_reason"] == .string("stopped"))

        // A recording whose client goes away is stopped and dropped.
        var gone: RawConnection? = try daemon.raw()
        try gone?.send("{\"id\": 1, \"op\": \"record-start\"}\n")
        #expect(try gone?.receive()["ok"] == .bool(true))
        gone = nil
        #expect(waitUntil { daemon.logLines.contains { $0.contains("dropped") } })
        #expect(errorCode { try other.call("record-stop") } == .notFound)
        _ = try other.call("record-start")
        await daemon.stop()
    }
}
