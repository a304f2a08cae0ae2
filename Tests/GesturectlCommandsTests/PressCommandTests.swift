import Foundation
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
            "--hold <time>", "--down", "--up", "--force", "gesturectl press volume-up", "gesturectl --daemon press home --down",
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
    }

    @Test func anUnreachableDaemonIsStatus5() throws {
        let scratch = try TemporaryFolder()
        let result = try CLI.run(["--socket", scratch.path + "/none.sock", "press", "mute"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("none.sock"))
    }

    @Test func throughTheDaemonItSendsThePressOperation() throws {
        let scratch = try TemporaryFolder()
        let path = scratch.path + "/d.sock"
        let listening = try UnixSocket.listen(at: path)
        defer { listening.close() }
        let requests = Mutex<[String]>([])
        let served = JobHandle<Bool, Never>()
        // A stand-in daemon: answers two requests, the second with an error.
        try DedicatedThread.start(ThreadOptions(name: "test-daemon")) {
            defer { served.finish(true) }
            for reply in [
                "{\"id\": ID, \"ok\": true, \"result\": {\"job\": 1, \"state\": \"done\", \"held\": [\"KEY_HOMEPAGE\"]}}\n",
                "{\"id\": ID, \"ok\": false, \"error\": {\"code\": \"bad-argument\", \"message\": \"press: no\"}}\n",
            ] {
                guard (try? Poll.wait([(listening, .readable)], timeoutMilliseconds: 20_000))?.first?.isEmpty == false,
                    let connection = try? UnixSocket.accept(listening)
                else { return }
                defer { connection.close() }
                var line: [UInt8] = []
                while !line.contains(0x0A) {
                    guard (try? Poll.wait([(connection, .readable)], timeoutMilliseconds: 20_000))?.first?.isEmpty == false,
                        let chunk = try? connection.read(upTo: 4_096), !chunk.isEmpty
                    else { return }
                    line += chunk
                }
                let text = String(decoding: line, as: UTF8.self)
                requests.withLock { $0.append(text) }
                let id = text.range(of: #""id": ?[0-9]+"#, options: .regularExpression).map { String(text[$0].drop { $0 != ":" }.dropFirst()) }
                try? connection.writeAll(Array(reply.replacingOccurrences(of: "ID", with: id?.trimmingCharacters(in: .whitespaces) ?? "null").utf8))
            }
        }
        let down = try CLI.run(["--socket", path, "press", "home", "--down"])
        #expect(down.status == 0, "\(down.stderr)")
        #expect(down.stderr.contains("pressing home through the daemon at \(path)"))
        let refused = try CLI.run(["--socket", path, "press", "power", "--hold", "250ms", "--force"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("press: no"))
        _ = served.wait()
        let sent = requests.withLock { $0 }
        #expect(sent.count == 2)
        #expect(sent.first?.contains(#""op":"press""#) == true || sent.first?.contains(#""op": "press""#) == true)
        for (index, fields) in [
            [#""key""#, #""home""#, #""action""#, #""down""#], [#""power""#, #""tap""#, #""hold_ms""#, "250", #""force""#, "true"],
        ].enumerated() where index < sent.count {
            for field in fields { #expect(sent[index].contains(field), "request \(index) has \(field): \(sent[index])") }
        }
        #expect(!(sent.first?.contains("hold_ms") ?? true))
    }
}
