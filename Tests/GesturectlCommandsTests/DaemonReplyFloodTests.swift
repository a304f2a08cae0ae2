import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureFormat
import GestureLibrary
import Glibc
import OperatingSystem
import Testing
import TestSupport

/// The real `gesturectl daemon` against clients that ask for large replies
/// and never read them (issue 21: 300 `show`s of a 2 MB gesture took a
/// daemon from 12 MB to 2.2 GB): past the total, the clients that do not
/// read are cut off, largest first (issue 36: they were answered busy, and
/// so was everyone else), a client that reads is served all along, and the
/// process's peak memory stays within the total plus what the requests
/// being served hold, and its memory goes back once they are gone.
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

    @Test("Six clients that never read their shows: cut off past reply_total_mib, a reader served, peak memory bounded by it")
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

        // Six clients ask for it 15 times each and never read: 108 MB of
        // replies if all were kept; the daemon holds 12 MiB of them.
        var floods: [FileDescriptor] = []
        defer { for flood in floods { flood.close() } }
        let show = String(repeating: #"{"id": 1, "op": "show", "name": "big"}"# + "\n", count: 15)
        for _ in 0..<6 {
            let flood = try UnixSocket.connect(to: socket)
            try flood.writeAll(Array(show.utf8))
            floods.append(flood)
        }
        // A reading client is served all along, while the greedy ones are
        // cut off (each says so once in the log).
        var cut = 0
        for _ in 0..<600 where cut < floods.count {
            _ = try client.call("version")
            try daemon.readStandardError(until: "\u{0}", within: 0.2)
            cut = daemon.standardError.split(separator: "\n").filter { $0.contains("holds the most") }.count
        }
        let open = floods.count - cut
        #expect(open == 0, "\(open) greedy clients still connected")
        let peak = try Self.status(daemon.processID, "VmHWM")
        // The total (12 MiB) plus what two workers' shows being built hold
        // (the gesture's text and the reply: a few MB each), not 108 MB.
        #expect(peak - before < 40 << 10, "peak \(peak) KiB, \(before) KiB before the flood")
        _ = try client.call("version")
        let after = try Self.status(daemon.processID, "VmRSS")
        print("daemon RSS: \(before) KiB before, peak \(peak) KiB, \(after) KiB after six greedy clients were cut off")
        // Their memory went back to the system (malloc_trim), not only to the heap.
        #expect(after - before < 16 << 10, "RSS \(after) KiB after, \(before) KiB before")
        daemon.send(SIGTERM)
        #expect(try daemon.finish() == .exited(0))
    }
}
