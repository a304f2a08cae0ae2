import DaemonTestSupport
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureFormat
import Synchronization
import Testing
import TestSupport

/// Issue 36: the log cannot be flooded. Every line is bounded, names cut
/// with a count of what was cut, and one client's repeated lines are
/// rate-limited.
@Suite("The daemon's log stays small", .serialized)
struct LogBoundsTests {
    @Test("A line is cut at the bound, at a character, saying how much was cut")
    func lineBound() {
        let lines = Mutex<[String]>([])
        let log = DaemonLog(journal: true, minimum: .debug, write: { line in lines.withLock { $0.append(line) } })
        log.info(String(repeating: "é", count: 3_000))
        let line = lines.withLock { $0.first ?? "" }
        #expect(line.utf8.count < DaemonLog.maximumMessageBytes + 40)
        #expect(line.contains("…(5488 bytes cut)"), "\(line)")
    }

    @Test("A client's lines beyond its budget are left out, counted, and said when it goes")
    func clientBudget() {
        let lines = Mutex<[String]>([])
        let log = DaemonLog(journal: true, minimum: .debug, write: { line in lines.withLock { $0.append(line) } })
        for index in 0..<1_000 { log.client(1, .info, "client 1 bound \(index)") }
        log.client(2, .info, "client 2 is another client")
        let written = lines.withLock { $0.count }
        #expect(written <= DaemonLog.clientBurstLines + 5 + 1, "\(written) lines")
        #expect(lines.withLock { $0.last?.contains("client 2 is another client") == true })
        log.forgetClient(1)
        #expect(lines.withLock { $0.last?.contains("lines left out of the log") == true })
    }

    @Test("Bind and unbind with 4 KiB device names: the log grows by a few hundred bytes a request at most")
    func bindFlood() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let client = try daemon.client()
        let before = daemon.logLines.reduce(0) { $0 + $1.utf8.count }
        let requests = 60
        for index in 0..<(requests / 2) {
            // As long as a device may be named (BindingLimits: 4 KiB).
            let name = "/dev/input/by-id/" + String(repeating: "x", count: 4_070) + "\(index)"
            _ = try client.call("bind", [("trigger", trigger(name, press: "single")), ("action", .object([("press", .string("mute"))]))])
            _ = try? client.call("unbind", [("trigger", trigger(name, press: "single"))])
        }
        let bytes = daemon.logLines.reduce(0) { $0 + $1.utf8.count } - before
        let perRequest = Double(bytes) / Double(requests)
        // Before: about 10 KB a request (30.5 MB for 2,944).
        #expect(perRequest < 400, "\(perRequest) log bytes a request")
        print("log bytes per hostile bind/unbind request: \(Int(perRequest.rounded())) (\(bytes) for \(requests))")
        await daemon.stop()
    }
}
