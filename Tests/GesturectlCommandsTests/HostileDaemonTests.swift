import GestureFormat
import Glibc
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// A daemon that lies (issue 36: the client trusts the daemon): a socket in
/// this process answering each request line with what `answer` says, for
/// `gesturectl --socket PATH …` to talk to.
private final class FakeDaemon: Sendable {
    let path: String
    private let folder: TemporaryFolder
    private let listening: FileDescriptor
    private let stopped = CancellationSignal()
    /// The reply and event lines for one request (its id and op).
    typealias Answer = @Sendable (_ id: String, _ op: String) -> [String]

    init(_ answer: @escaping Answer) throws {
        folder = try TemporaryFolder()
        path = folder.path + "/fake.sock"
        listening = try UnixSocket.listen(at: path)
        let listening = self.listening
        let stopped = self.stopped
        try DedicatedThread.start(ThreadOptions(name: "fake-daemon")) {
            var clients: [(FileDescriptor, [UInt8])] = []
            while !stopped.isCancelled {
                // Harmless: a test double; a failed poll ends it.
                guard let stop = try? stopped.fileDescriptor else { return }
                var waiting: [(FileDescriptor, Poll.Events)] = [(listening, .readable), (stop, .readable)]
                waiting += clients.map { ($0.0, .readable) }
                guard let ready = try? Poll.wait(waiting, timeoutMilliseconds: 1_000) else { return }
                for index in clients.indices.reversed() where !ready[index + 2].isEmpty {
                    guard let bytes = try? clients[index].0.read(upTo: 65_536), !bytes.isEmpty else {
                        clients[index].0.close()
                        clients.remove(at: index)
                        continue
                    }
                    clients[index].1 += bytes
                    while let end = clients[index].1.firstIndex(of: 10) {
                        let line = Array(clients[index].1[..<end])
                        clients[index].1.removeSubrange(...end)
                        guard let request = try? JSONValue.parse(line), case .string(let op)? = request["op"] else { continue }
                        let id = request["id"]?.jsonText ?? "null"
                        for reply in answer(id, op) {
                            // Harmless: a client gone is the test's end.
                            try? clients[index].0.writeAll(Array((reply + "\n").utf8))
                        }
                    }
                }
                // Accepted after the clients polled were served (their indices match the poll's).
                if !ready[0].isEmpty, let client = try? UnixSocket.accept(listening) { clients.append((client, [])) }
            }
            for client in clients { client.0.close() }
        }
    }

    func stop() {
        stopped.cancel()
        listening.close()
    }
}

@Suite("The client distrusts the daemon", .serialized)
struct HostileDaemonTests {
    static let hostile = #"\u001b[2J\u001b]0;owned\u0007red\u009b31m"#

    @Test("Every field of a list the daemon sends reaches the terminal escaped")
    func listIsEscaped() throws {
        let daemon = try FakeDaemon { id, op in
            guard op == "list" else { return [#"{"id": \#(id), "ok": true, "result": {}}"#] }
            return [
                #"{"id": \#(id), "ok": true, "result": {"folder": "/lib\#(Self.hostile)", "gestures": [{"name": "n\#(Self.hostile)", "source": "user", "path": "/p\#(Self.hostile)", "summary": "s\#(Self.hostile)", "hides_builtin": false}]}}"#
            ]
        }
        defer { daemon.stop() }
        let result = try CLI.run(["--socket", daemon.path, "list"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(!output.utf8.contains(0x1b), "\(output)")
        #expect(!output.utf8.contains(0x07), "\(output)")
        #expect(!output.unicodeScalars.contains("\u{9b}"), "\(output)")
        #expect(output.contains("s<U+001B>[2J"), "\(output)")
    }

    @Test("A cancel the daemon acknowledges but never confirms ends fingertips within 2 s, saying so; the ready line is escaped")
    func unconfirmedCancel() throws {
        let daemon = try FakeDaemon { id, op in
            switch op {
            case "fingertips":
                return [#"{"id": \#(id), "ok": true, "result": {"job": 7, "source": "/dev/input/event3", "name": "Pointer", "device": "/dev/input/event9", "kind": "mouse"}}"#]
            case "subscribe":
                // The subscriber's connection gets the events (read once they have started).
                return [
                    #"{"id": \#(id), "ok": true, "result": {}}"#,
                    #"{"event": "fingertips", "job": 7, "state": "ready", "line": "ready\#(Self.hostile)"}"#,
                ]
            default:
                // subscribe and cancel: acknowledged; "ended" never comes.
                return [#"{"id": \#(id), "ok": true, "result": {}}"#]
            }
        }
        defer { daemon.stop() }
        let output = try FileDescriptor.pipe()
        defer { output.read.close() }
        let program = try RunningProgram(
            CLI.binary, ["--socket", daemon.path, "fingertips", "3"], environment: ["PATH=/usr/bin:/bin"], standardOutput: output.write)
        output.write.close()
        #expect(try program.readStandardError(until: "stop with Ctrl-C"))
        let signalled = MonotonicClock.nowMicroseconds()
        program.send(SIGINT)
        let termination = try program.finish(within: 10)
        let took = MonotonicClock.nowMicroseconds() - signalled
        #expect(termination != .exited(0), "\(program.standardError)")
        // Its own 2 s wait, and time to spare for a loaded host: the
        // message below says which wait ended it.
        #expect(took < 10_000_000, "ended \(took / 1_000) ms after the signal")
        #expect(program.standardError.contains("did not say within 2 s that the fingertips ended"), "\(program.standardError)")
        var printed: [UInt8] = []
        while let chunk = try output.read.read(upTo: 4_096), !chunk.isEmpty { printed += chunk }
        #expect(String(decoding: printed, as: UTF8.self).contains("ready<U+001B>[2J"), "\(String(decoding: printed, as: UTF8.self))")
        #expect(!printed.contains(0x1b) && !program.standardError.utf8.contains(0x1b))
    }

    @Test("A fingertips reply without its source is an error naming it, never a \"?\" in the note (issue 37)")
    func replyWithoutSource() throws {
        let daemon = try FakeDaemon { id, op in
            op == "fingertips"
                ? [#"{"id": \#(id), "ok": true, "result": {"job": 7, "name": "Pointer", "device": null, "kind": "mouse"}}"#]
                : [#"{"id": \#(id), "ok": true, "result": {}}"#]
        }
        defer { daemon.stop() }
        let program = try RunningProgram(CLI.binary, ["--socket", daemon.path, "fingertips", "3"], environment: ["PATH=/usr/bin:/bin"])
        let termination = try program.finish(within: 10)
        #expect(termination != .exited(0))
        #expect(program.standardError.contains("the daemon's fingertips reply has no \"source\""), "\(program.standardError)")
        #expect(!program.standardError.contains("reading ?"))
    }
}

/// Issue 36: files that are not what they seem do not hang or swell the daemon.
@Suite("The daemon's files are opened as files", .serialized)
struct DaemonFilesTests {
    @Test("daemon.json as /dev/zero or a FIFO is refused at once; a FIFO at bindings.json does not hold the start")
    func notFiles() throws {
        let scratch = try TemporaryFolder()
        #expect(mkfifo(scratch.file("daemon.json"), 0o600) == 0)
        #expect(mkfifo(scratch.file("bindings.json"), 0o600) == 0)
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(scratch.path)", "XDG_DATA_HOME=\(scratch.path)/data"]
        for configuration in ["/dev/zero", scratch.file("daemon.json")] {
            let daemon = try RunningProgram(
                CLI.binary, ["daemon", "--socket", scratch.file("d.sock"), "--config", configuration, "--bindings", scratch.file("b.json")],
                environment: environment)
            let termination = try daemon.finish(within: 20)
            #expect(termination != .exited(0), "\(configuration): \(daemon.standardError)")
            #expect(daemon.standardError.contains("not a regular file") || daemon.standardError.contains("it is a folder"), "\(daemon.standardError)")
        }
        try scratch.write("good.json", #"{"devices": []}"#)
        let daemon = try RunningProgram(
            CLI.binary,
            ["daemon", "--socket", scratch.file("d.sock"), "--config", scratch.file("good.json"), "--bindings", scratch.file("bindings.json")],
            environment: environment)
        defer { daemon.send(SIGKILL) }
        #expect(try daemon.readStandardError(until: "ready: listening", within: 30), "\(daemon.standardError)")
        daemon.send(SIGTERM)
        #expect(try daemon.finish(within: 20) == .exited(0), "\(daemon.standardError)")
    }
}
