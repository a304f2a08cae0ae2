import DaemonTestSupport
import GestureBindings
import GestureDaemon
import GestureFormat
import GestureLibrary
import GestureProtocol
import GestureSynth
import Glibc
import OperatingSystem
import Testing
import TestSupport

/// The wire, byte for byte (issue 37): every operation's reply and every
/// event kind a scripted session makes, compared with
/// `Golden/wire.jsonl`, so that moving the protocol into types changes no
/// byte a rig reads. What differs from run to run is replaced first: job
/// ids (random, by design) by `<job1>`, `<job2>` in order of appearance,
/// the daemon's folder by `<folder>`, and a play's lateness figures by `<µs>`.
/// `GOLDEN_UPDATE=1 swift test --filter WireGoldenTests` writes the file anew
/// (look at its diff before committing it).
@Suite("The wire is unchanged", .serialized)
struct WireGoldenTests {
    static let goldenPath = String(#filePath.prefix(upTo: #filePath.lastIndex(of: "/")!)) + "/Golden/wire.jsonl"

    /// One step: a request line; what it makes is read up to its reply
    /// (the events before it included, in the order the daemon writes them).
    struct Step {
        let request: String
        /// Asked again (up to 20 s) until the reply holds this: a state
        /// that comes in its own time (a trigger's watch connecting, which
        /// a loaded machine delays), so that the transcript does not race it.
        let until: String?
        init(request: String, lines: Int = 1, until: String? = nil) {
            self.request = request
            self.until = until
        }
    }

    static func steps(tap: String) -> [Step] {
        [
            Step(request: #"{"id": 1, "op": "version"}"#, lines: 1),
            Step(request: #"{"id": 2, "op": "devices"}"#, lines: 1),
            Step(request: #"{"id": 3, "op": "list"}"#, lines: 1),
            Step(request: #"{"id": 4, "op": "save", "name": "tap", "gesture": \#(tap)}"#, lines: 1),
            Step(request: #"{"id": 5, "op": "save", "name": "tap", "gesture": \#(tap)}"#, lines: 1),
            Step(request: #"{"id": 6, "op": "list"}"#, lines: 1),
            Step(request: #"{"id": 7, "op": "show", "name": "tap"}"#, lines: 1),
            Step(request: #"{"id": 8, "op": "play", "name": "tap"}"#, lines: 1),
            Step(request: #"{"id": 9, "op": "press", "key": "mute"}"#, lines: 1),
            Step(request: #"{"id": 10, "op": "bindings"}"#, lines: 1),
            Step(request: #"{"id": 11, "op": "bind", "trigger": {"device": "046d:c52b", "key": "KEY_F13", "press": "double"}, "action": {"press": "mute"}}"#, lines: 1),
            Step(request: #"{"id": 12, "op": "bindings"}"#, lines: 1, until: #""state": "connected""#),
            Step(request: #"{"id": 13, "op": "unbind", "trigger": {"device": "046d:c52b", "key": "KEY_F13", "press": "double"}}"#, lines: 1),
            Step(request: #"{"id": 14, "op": "cancel", "job": 99}"#, lines: 1),
            Step(request: #"{"id": 15, "op": "jobs"}"#, lines: 1),
            Step(request: #"{"id": 16, "op": "rm", "name": "tap"}"#, lines: 1),
            Step(request: #"{"id": 17, "op": "rm", "name": "tap"}"#, lines: 1),
            Step(request: #"{"id": 18, "op": "record-stop"}"#, lines: 1),
            Step(request: #"{"id": 19, "op": "fingertips"}"#, lines: 1),
            Step(request: #"{"id": 20, "op": "play"}"#, lines: 1),
            Step(request: #"{"id": 21, "op": "play", "name": "tap", "as": "keyboard"}"#, lines: 1),
            Step(request: #"{"id": 22, "op": "nothing"}"#, lines: 1),
            Step(request: #"{"id": 23, "op": "version", "extra": 1}"#, lines: 1),
            Step(request: #"{"id": 24, "op": "version""#, lines: 1),
            Step(request: #"[1, 2]"#, lines: 1),
            Step(request: #"{"op": "version"}"#, lines: 1),
            Step(request: #"{"id": "text id", "op": "version"}"#, lines: 1),
            Step(request: #"{"id": 27, "op": "cancel"}"#, lines: 1),
            Step(request: #"{"id": 25, "op": "subscribe", "events": ["job", "device", "trigger", "record", "fingertips"]}"#, lines: 1),
            // Its job's events, then its reply.
            Step(request: #"{"id": 28, "op": "play", "gesture": \#(tap), "wait": true}"#),
        ]
    }

    /// `text` with what changes from run to run replaced.
    static func normalized(_ text: String, folder: String, jobs: inout [String: String]) -> String {
        var text = text.replacingOccurrences(of: folder, with: "<folder>")
        for key in ["lateness_max_us", "lateness_p50_us", "lateness_p99_us"] {
            var output = ""
            var rest = Substring(text)
            while let range = rest.range(of: "\"\(key)\": ") {
                output += rest[..<range.upperBound] + "<µs>"
                rest = rest[range.upperBound...].drop { $0 == "-" || $0.isNumber }
            }
            text = output + rest
        }
        var output = ""
        var rest = Substring(text)
        while let range = rest.range(of: "\"job\": ") {
            output += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            // Only the daemon's ids (seven digits or more), not a request's 99.
            let digits = rest.prefix { $0.isNumber }
            if digits.count > 6 {
                let name = jobs[String(digits)] ?? "<job\(jobs.count + 1)>"
                jobs[String(digits)] = name
                output += name
                rest = rest.dropFirst(digits.count)
            }
        }
        return output + rest
    }

    @Test("A scripted session's replies and events are byte for byte the golden file's")
    func scriptedSession() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let connection = try daemon.raw()
        let tap = try inline(try GestureSynthesizer.tap()).jsonText
        var jobs: [String: String] = [:]
        var transcript: [String] = []
        for step in Self.steps(tap: tap) {
            let deadline = MonotonicClock.nowMicroseconds() + 20_000_000
            var lines: [String] = []
            repeat {
                lines = []
                try connection.send(step.request + "\n")
                while true {
                    let line = try connection.receiveText()
                    lines.append(line)
                    if !line.hasPrefix("{\"event\"") { break }
                }
            } while step.until.map({ wanted in !lines.last!.contains(wanted) && MonotonicClock.nowMicroseconds() < deadline }) == true
            transcript.append("> " + step.request.replacingOccurrences(of: tap, with: "<tap>"))
            for line in lines {
                transcript.append("< " + Self.normalized(line.replacingOccurrences(of: tap, with: "<tap>"), folder: daemon.folder, jobs: &jobs))
            }
        }
        await daemon.stop()
        let text = transcript.joined(separator: "\n") + "\n"
        if ProcessEnvironment.variables()["GOLDEN_UPDATE"] == "1" {
            try FileIO.writeAtomically(Array(text.utf8), to: Self.goldenPath)
            return
        }
        let golden = String(decoding: try FileIO.read(path: Self.goldenPath, limit: 1 << 20), as: UTF8.self)
        let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        let expected = golden.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, (line, want)) in zip(got, expected).enumerated() where line != want {
            Issue.record("line \(index + 1) differs:\n got: \(line)\nwant: \(want)")
        }
        #expect(got.count == expected.count, "\(got.count) lines, the golden file has \(expected.count)")
    }
}
