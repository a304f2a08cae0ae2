import Foundation
import OperatingSystem
import Testing
import TestSupport

/// The running binary's signal set-up, read from /proc as the kernel sees it:
/// this needs no uinput, so it runs everywhere (case 25 of the integration
/// tier checks the same while a real play runs).
@Suite("Signals of the running binary")
struct SignalMaskTests {
    /// The `SigBlk` mask of every thread of `pid`, by thread name.
    private func blockedMasks(of pid: Int32) throws -> [(String, UInt64)] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.map { task in
            let folder = "/proc/\(pid)/task/\(task)"
            let name = try String(contentsOfFile: folder + "/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let status = try String(contentsOfFile: folder + "/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") } ?? ""
            let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
            return (name, mask)
        }
    }

    @Test("SIGINT, SIGTERM and SIGHUP are blocked in every thread, the main thread included; Ctrl-C still ends a command waiting for input")
    func everyThreadBlocksTheSignals() throws {
        let input = try FileDescriptor.pipe()
        defer { input.write.close() }
        let discard = try FileDescriptor.open("/dev/null", .writeOnly)
        defer { discard.close() }
        // `show -` waits for its standard input, which stays open.
        let child = try ChildProcess.spawn(
            path: CLI.binary, arguments: ["show", "-"], environment: ["PATH=/usr/bin:/bin"],
            standardInput: input.read, standardOutput: discard, standardError: discard)
        input.read.close()
        // Wait (bounded) until the signal thread exists: then the set-up is
        // done. Only the child's /proc tells.
        var masks: [(String, UInt64)] = []
        _ = waitUntil {
            masks = (try? blockedMasks(of: child.processID)) ?? []
            return masks.contains { $0.0 == "gesturectl-sig" }
        }
        #expect(masks.contains { $0.0 == "gesturectl-sig" })
        let wanted: UInt64 = 1 << (UInt64(SIGHUP) - 1) | 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1)
        for (name, mask) in masks {
            #expect(mask & wanted == wanted, "thread \(name) leaves a handled signal unblocked (SigBlk \(String(mask, radix: 16)))")
        }
        kill(child.processID, SIGINT)
        // Nobody subscribes while `show` waits for input: the process ends
        // as killed by SIGINT, as a shell expects after Ctrl-C.
        #expect(try child.wait() == .signalled(SIGINT))
    }
}
