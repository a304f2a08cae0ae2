import GestureDaemon
import GestureFormat
import GestureLibrary
import Glibc
import OperatingSystem
import Testing
import TestSupport

/// The real `gesturectl daemon` against clients that ask for large replies
/// and never read them (issue 21: 300 `show`s of a 2 MB gesture took a
/// daemon from 12 MB to 2.2 GB): requests are busy past the total, and the process's peak memory stays
/// within the total plus what the requests being served hold.
@Suite("The daemon's memory under a flood of unread replies")
struct DaemonReplyFloodTests {
    /// A one-finger gesture's file text of `count` samples (about 25 bytes each).
    private static func gestureText(samples count: Int) -> String {
        var samples: [String] = []
        samples.reserveCapacity(count)
        for index in 0..<count { samples.append("[\(index * 1_000), 10800, 6750]") }
        return "{\"format\": 1, \"name\": \"big\", \"device\": {\"kind\": \"touchscreen\", \"x\": {\"min\": 0, \"max\": 21600, \"resolution\": 100}, "
            + "\"y\": {\"min\": 0, \"max\": 13500, \"resolution\": 100}, \"width_mm\": 216, \"height_mm\": 135, \"slots\": 10}, "
            + "\"strokes\": [{\"kind\": \"finger\", \"samples\": [\(samples.joined(separator: ", "))]}]}"
    }

    /// A line of /proc/PID/status in KiB (`VmHWM`, `VmRSS`).
    private static func status(_ pid: Int32, _ field: String) throws -> Int {
        let text = String(decoding: try FileIO.read(path: "/proc/\(pid)/status", limit: 1 << 16), as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""))
    }

    @Test("Clients that never read their shows: busy past reply_total_mib, peak memory bounded by it")
    func showFlood() throws {
        let scratch = try TemporaryFolder()
        let socket = scratch.path + "/d.sock"
        let configuration = scratch.path + "/daemon.json"
        // Its own library and bindings (as root, the daemon's defaults are the system's).
        let settings = #"{"devices": [], "reply_limit_mib": 64, "reply_total_mib": 12, "library": "LIBRARY"}"#
        try FileIO.writeAtomically(Array(settings.replacingOccurrences(of: "LIBRARY", with: scratch.path + "/library").utf8), to: configuration)
        let daemon = try RunningProgram(
            CLI.binary, ["daemon", "--socket", socket, "--config", configuration, "--bindings", scratch.path + "/bindings.json"],
            environment: ["PATH=/usr/bin:/bin", "HOME=\(scratch.path)", "XDG_DATA_HOME=\(scratch.path)/data"])
        defer { daemon.send(SIGKILL) }
        #expect(try daemon.readStandardError(until: "ready: listening"))

        let client = try DaemonClient(path: socket)
        let gesture = try JSONValue.parse(Array(Self.gestureText(samples: 50_000).utf8))  // about 1.2 MB
        _ = try client.call("save", [("name", .string("big")), ("gesture", gesture)])
        let before = try Self.status(daemon.processID, "VmRSS")

        // Three clients ask for it 30 times each and never read: 108 MB of
        // replies if all were served; the daemon holds 12 MiB of them.
        var floods: [FileDescriptor] = []
        defer { for flood in floods { flood.close() } }
        let show = String(repeating: #"{"id": 1, "op": "show", "name": "big"}"# + "\n", count: 30)
        for _ in 0..<3 {
            let flood = try UnixSocket.connect(to: socket)
            try flood.writeAll(Array(show.utf8))
            floods.append(flood)
        }
        // A reading client is refused busy once they hold over the total.
        try waitUntil(within: 120, "a busy reply while clients hold unread replies over the total") {
            do {
                _ = try client.call("version")
                return false
            } catch let error as DaemonError where error.code == .busy {
                return true
            }
        }
        let peak = try Self.status(daemon.processID, "VmHWM")
        // The total (12 MiB) plus what two workers' shows being built hold
        // (the gesture's text and the reply: a few MB each), not 108 MB.
        #expect(peak - before < 40 << 10, "peak \(peak) KiB, \(before) KiB before the flood")
        daemon.send(SIGTERM)
        #expect(try daemon.finish() == .exited(0))
    }
}
