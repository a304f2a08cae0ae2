import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureFormat
import GestureLibrary
import Glibc
import OperatingSystem
import Testing
import TestSupport

/// Issue 36: a member named their own pty as the `device` of a recording,
/// and the daemon, a session leader as systemd starts it, took the pty as
/// its controlling terminal: the member's ^C stopped it ("interrupted:
/// stopping"). The real `gesturectl daemon`, in a session of its own
/// (setsid), is asked to open a pty.
@Suite("The daemon never takes a member's terminal", .serialized)
struct DaemonTerminalTests {
    /// The `tty_nr` of a process (field 7 of /proc/PID/stat): 0 when it
    /// has no controlling terminal; and its session id (field 6).
    private static func terminal(of pid: Int32) throws -> (tty: Int, session: Int) {
        let text = String(decoding: try FileIO.read(path: "/proc/\(pid)/stat", limit: 1 << 16), as: UTF8.self)
        // After the command's name in parentheses: state, ppid, pgrp, session, tty_nr, …
        let fields = text[text.index(after: try #require(text.lastIndex(of: ")")))...].split(separator: " ")
        return (try #require(Int(fields[4])), try #require(Int(fields[3])))
    }

    @Test("A daemon in its own session, asked to record from or show fingertips of a member's pty: not-found as for a missing path; ^C on the pty does not stop it")
    func memberPty() throws {
        let scratch = try TemporaryFolder()
        let socket = scratch.path + "/d.sock"
        let configuration = scratch.path + "/daemon.json"
        try FileIO.writeAtomically(Array(#"{"devices": [], "library": "\#(scratch.path)/library"}"#.utf8), to: configuration)
        // A pty, held by a helper as a member's terminal would be, in
        // cooked mode (^C is a signal to its foreground process group); it
        // types ^C on SIGUSR1.
        let holder = try RunningProgram(
            "/usr/bin/python3",
            ["-c", """
                import os, signal, sys
                master, slave = os.openpty()
                def interrupt(*_):
                    os.write(master, b"\\x03")
                    print("typed", file=sys.stderr, flush=True)
                signal.signal(signal.SIGUSR1, interrupt)
                print("pty " + os.ttyname(slave), file=sys.stderr, flush=True)
                while True:
                    signal.pause()
                """],
            environment: ["PATH=/usr/bin:/bin"])
        defer { holder.send(SIGKILL) }
        #expect(try holder.readStandardError(until: "\n"))
        let pty = String(try #require(holder.standardError.split(separator: "\n").first { $0.hasPrefix("pty ") }?.dropFirst(4)))
        let daemon = try RunningProgram(
            "/usr/bin/setsid", [CLI.binary, "daemon", "--socket", socket, "--config", configuration, "--bindings", scratch.path + "/bindings.json"],
            environment: ["PATH=/usr/bin:/bin", "HOME=\(scratch.path)", "XDG_DATA_HOME=\(scratch.path)/data"])
        defer { daemon.send(SIGKILL) }
        #expect(try daemon.readStandardError(until: "ready: listening"))
        // setsid made it a session leader, as systemd does: the case where
        // opening a terminal without O_NOCTTY makes it the controlling one.
        #expect(try Self.terminal(of: daemon.processID).session == Int(daemon.processID))

        let client = try DaemonClient(path: socket)
        func failure(_ op: String, _ arguments: [(String, JSONValue)]) -> DaemonError? {
            do {
                _ = try client.call(op, arguments)
                return nil
            } catch let error as DaemonError {
                return error
            } catch {
                Issue.record("\(op): \(error)")
                return nil
            }
        }
        let missing = "/dev/pts/99999"
        for (op, arguments) in [("record-start", [(String, JSONValue)]()), ("fingertips", [("count", .integer(2))])] {
            let onPty = failure(op, arguments + [("device", .string(pty))])
            let onMissing = failure(op, arguments + [("device", .string(missing))])
            #expect(onPty?.code == .notFound, "\(op) on \(pty): \(String(describing: onPty)); missing: \(String(describing: onMissing))")
            // The same answer whether the path exists or not.
            #expect(onPty?.message.replacingOccurrences(of: pty, with: missing) == onMissing?.message)
        }
        // It has no controlling terminal, and ^C typed on the pty stops nothing.
        #expect(try Self.terminal(of: daemon.processID).tty == 0)
        holder.send(SIGUSR1)
        #expect(try holder.readStandardError(until: "typed"))
        #expect(try client.call("version")["protocol"] != nil)
        #expect(!daemon.standardError.contains("interrupted"))
        daemon.send(SIGTERM)
        #expect(try daemon.finish() == .exited(0))
    }
}
