import Foundation
import Glibc
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// `gesturectl press`, run as the built binary: its help, its refusals
/// (each before any device is made) and what it sends a daemon.
@Suite struct PressCommandTests {
    @Test func helpTeachesTheNamesAndTheDaemonOnlyOptions() throws {
        let result = try CLI.run(["help", "press"])
        #expect(result.status == 0)
        for text in [
            "  volume-up     KEY_VOLUMEUP\n", "  lock          KEY_SCREENLOCK\n", "  screenshot    KEY_SYSRQ\n", "  power         KEY_POWER\n", "KEY_PLAYPAUSE",
            "--hold <time>", "--down", "--up", "--force", "gesturectl press volume-up", "gesturectl --daemon press home --down &",
        ] {
            #expect(result.stdout.contains(text), "help press shows \(text)")
        }
        #expect(try CLI.run(["--help"]).stdout.contains("\n  press "))
    }

    @Test func refusals() throws {
        func refused(_ arguments: [String]) throws -> String {
            let result = try CLI.run(arguments, environment: ["GESTURECTL_SOCKET": ""])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout == "")
            return result.stderr
        }
        #expect(try refused(["press", "KEY_A"]).hasPrefix("gesturectl: error: KEY_A is not a key gesturectl's virtual keyboard sends"))
        #expect(try refused(["press", "volume-sideways"]).hasPrefix("gesturectl: error: unknown button \"volume-sideways\"; buttons: volume-up"))
        #expect(
            try refused(["press", "power"]).hasPrefix(
                "gesturectl: error: power (KEY_POWER) can switch the machine off (logind's HandlePowerKey); add --force to press it\n"))
        #expect(try refused(["press", "home", "--down"]).hasPrefix("gesturectl: error: --down needs the daemon (gesturectl --daemon press home --down)"))
        #expect(try refused(["press", "home", "--up"]).contains("which releases every key"))
        #expect(try refused(["press", "home", "--down", "--up"]).hasPrefix("gesturectl: error: --down and --up exclude each other"))
        #expect(try refused(["press", "home", "--down", "--hold", "1s"]).hasPrefix("gesturectl: error: --hold is for a tap"))
        #expect(try refused(["press", "home", "--hold", "0"]).hasPrefix("gesturectl: error: --hold:"))
        #expect(try refused(["press", "home", "--hold", "61s"]).hasPrefix("gesturectl: error: --hold:"))
        #expect(try refused(["press"]).hasPrefix("gesturectl: error: missing argument <button>"))
        // A key the HID buttons cannot send is refused before anything is made, not dropped.
        #expect(
            try refused(["press", "KEY_MICMUTE", "--to", "uhid"]).hasPrefix(
                "gesturectl: error: --to uhid cannot press KEY_MICMUTE: HID buttons have no usage for it"))
        #expect(try refused(["press", "home", "--gadget", "rig"]).hasPrefix("gesturectl: error: --gadget names the gadget of --to gadget"))
        #expect(try refused(["press", "home", "--to", "bluetooth"]).contains("--to"))
    }

    @Test func anUnreachableDaemonIsStatus5() throws {
        let scratch = try TemporaryFolder()
        let result = try CLI.run(["--socket", scratch.path + "/none.sock", "press", "mute"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("none.sock"))
    }

    /// A stand-in daemon on `path`: serves `connections` connections, each
    /// until it closes, answering every request line with `reply(line)`
    /// (`ID` in it becomes the request's id). Returns the lines received,
    /// once it is done.
    private func standInDaemon(
        at path: String, connections: Int, reply: @escaping @Sendable (String) -> String
    ) throws -> JobHandle<[String], Never> {
        let listening = try UnixSocket.listen(at: path)
        let served = JobHandle<[String], Never>()
        try DedicatedThread.start(ThreadOptions(name: "test-daemon")) {
            var requests: [String] = []
            defer {
                listening.close()
                served.finish(requests)
            }
            for _ in 0..<connections {
                guard (try? Poll.wait([(listening, .readable)], timeoutMilliseconds: 20_000))?.first?.isEmpty == false,
                    let connection = try? UnixSocket.accept(listening)
                else { return }
                defer { connection.close() }
                var buffer: [UInt8] = []
                while true {
                    if let newline = buffer.firstIndex(of: 0x0A) {
                        let text = String(decoding: buffer[..<newline], as: UTF8.self)
                        buffer.removeSubrange(...newline)
                        requests.append(text)
                        let id = text.range(of: #""id": ?[0-9]+"#, options: .regularExpression)
                            .map { String(text[$0].drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces) }
                        try? connection.writeAll(Array(reply(text).replacingOccurrences(of: "ID", with: id ?? "null").utf8))
                        continue
                    }
                    guard (try? Poll.wait([(connection, .readable)], timeoutMilliseconds: 20_000))?.first?.isEmpty == false,
                        let chunk = try? connection.read(upTo: 4_096), !chunk.isEmpty
                    else { break }
                    buffer += chunk
                }
            }
        }
        return served
    }

    private static let done = "{\"id\": ID, \"ok\": true, \"result\": {\"job\": 1, \"state\": \"done\", \"held\": []}}\n"

    @Test func throughTheDaemonItSendsThePressOperation() throws {
        let scratch = try TemporaryFolder()
        let path = scratch.path + "/d.sock"
        let served = try standInDaemon(at: path, connections: 2) { line in
            line.contains("power")
                ? "{\"id\": ID, \"ok\": false, \"error\": {\"code\": \"bad-argument\", \"message\": \"press: no\"}}\n" : Self.done
        }
        let up = try CLI.run(["--socket", path, "press", "home", "--up"])
        #expect(up.status == 0, "\(up.stderr)")
        #expect(up.stderr.contains("pressing home through the daemon at \(path)"))
        let refused = try CLI.run(["--socket", path, "press", "power", "--hold", "250ms", "--force"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("press: no"))
        let sent = served.wait()
        #expect(sent.count == 2)
        for (index, fields) in [
            [#""op":"press""#, #""key":"home""#, #""action":"up""#],
            [#""key":"power""#, #""action":"tap""#, #""hold_ms":250"#, #""force":true"#],
        ].enumerated() where index < sent.count {
            for field in fields {
                #expect(sent[index].replacingOccurrences(of: " ", with: "").contains(field), "request \(index) has \(field): \(sent[index])")
            }
        }
        #expect(!(sent.first?.contains("hold_ms") ?? true))
    }

    @Test func downThroughTheDaemonHoldsUntilSIGTERMThenReleases() throws {
        let scratch = try TemporaryFolder()
        let path = scratch.path + "/d.sock"
        let served = try standInDaemon(at: path, connections: 1) { _ in Self.done }
        let program = try RunningProgram(
            CLI.binary, ["--socket", path, "press", "volume-down", "--down"],
            environment: ["PATH=/usr/bin:/bin", "HOME=\(scratch.path)"])
        #expect(try program.readStandardError(until: "holding volume-down down"))
        program.send(SIGTERM)
        #expect(try program.finish() == .exited(130))
        let standardError = program.standardError
        #expect(standardError.contains("released volume-down"))
        let sent = served.wait().map { $0.replacingOccurrences(of: " ", with: "") }
        #expect(sent.count == 2)
        #expect(sent.first?.contains(#""action":"down""#) == true)
        #expect(sent.last?.contains(#""action":"up""#) == true)
    }
}
