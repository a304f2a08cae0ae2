import GestureDaemon
import GestureFormat
import Glibc
import OperatingSystem
import Testing
import TestSupport

/// Issue 36: what a member makes is theirs. Two members (uids 65533 and
/// 65534, in the group the daemon lets in) talk to one daemon from
/// processes of their own, as the kernel's peer credentials say.
@Suite("Everything a member makes is theirs", .serialized, .enabled(if: geteuid() == 0, "needs root to run clients as other users"))
struct OwnershipTests {
    static let group: UInt32 = 65_534

    /// A client as user `uid`: sends each line and prints the reply to it
    /// (events skipped), one line each; a line "hold" waits for stdin's end.
    static let client = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
        for line in sys.argv[2:]:
            f.write(line.encode() + b"\\n"); f.flush()
            while True:
                reply = json.loads(f.readline())
                if "event" not in reply: break
            print(json.dumps(reply), flush=True)
        """

    static func run(as uid: UInt32, _ socket: String, _ lines: [String]) throws -> [JSONValue] {
        let outcome = try ProcessRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=\(uid)", "--regid=\(group)", "--clear-groups", "--", "/usr/bin/python3", "-c", client, socket] + lines)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try outcome.standardOutput.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
    }

    @Test("Another member can neither cancel a job nor stop or collect a recording; jobs hides their details; root may")
    func othersWork() async throws {
        let folder = try TemporaryFolder()
        #expect(chmod(folder.path, 0o755) == 0)
        let recordings = TestRecordings()
        let daemon = try TestDaemon(inputs: recordings.inputs, folder: folder.path + "/d", allowedGroup: Self.group)
        #expect(chmod(folder.path + "/d", 0o755) == 0 && chmod(daemon.socketPath, 0o666) == 0)
        // Member A (65533) starts a recording, from a connection that stays open.
        let ownerRecording = try RunningProgram(
            "/usr/bin/setpriv",
            ["--reuid=65533", "--regid=\(Self.group)", "--clear-groups", "--", "/usr/bin/python3", "-c",
             Self.client + "\nimport time\ntime.sleep(30)\n", daemon.socketPath, #"{"id": 1, "op": "record-start"}"#],
            environment: ["PATH=/usr/bin:/bin"])
        defer { ownerRecording.send(SIGKILL) }
        try waitUntil("the recording started") { daemon.logLines.contains { $0.contains("records from") } }
        let job = try #require(daemon.logLines.lazy.compactMap { line -> Int? in
            guard let range = line.range(of: ", job ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }.first)
        // Job ids are not sequential small numbers.
        #expect(job > 1_000_000)

        // Member B (65534) may not stop it, by record-stop or cancel.
        let other = try Self.run(as: 65_534, daemon.socketPath, [
            #"{"id": 1, "op": "record-stop"}"#, #"{"id": 2, "op": "cancel", "job": \#(job)}"#,
        ])
        #expect(other.count == 2)
        for reply in other { #expect(reply["error"]?["code"] == .string("permission-denied"), "\(reply.jsonText)") }
        // Root (an administrator) may.
        let root = try daemon.client()
        let stopped = try root.call("record-stop")
        #expect(stopped["job"] == .integer(job))
        await daemon.stop()
    }
}

@Suite("Connections are budgeted per user", .serialized)
struct ConnectionBudgetTests {
    @Test("Past a user's connections, another is refused busy and closed; one closed makes room")
    func perUser() async throws {
        let daemon = try TestDaemon(limits: DaemonServer.Limits(connectionsPerUser: 3, connections: 100))
        var held = try (0..<3).map { _ in try daemon.client() }
        for client in held { _ = try client.call("version") }
        let refused = try daemon.raw()
        let reply = try refused.receive()
        #expect(reply["error"]?["code"] == .string("busy"), "\(reply.jsonText)")
        #expect(reply["error"]?["message"]?.jsonText.contains("3 connections") == true)
        held.removeLast()
        // Room once the daemon has seen that connection close (refused until then).
        try waitUntil("a connection is let in again") { (try? daemon.client().call("version")) != nil }
        await daemon.stop()
    }
}
