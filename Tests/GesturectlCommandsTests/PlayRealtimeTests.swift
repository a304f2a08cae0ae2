import Foundation
import Glibc
import Testing
import TestSupport

/// `play --realtime`: SCHED_FIFO for the playing thread, refused clearly
/// (naming CAP_SYS_NICE and RLIMIT_RTPRIO) before any device is made when
/// the process may not have it.
@Suite struct PlayRealtimeTests {
    static let setpriv = "/usr/bin/setpriv"
    static let prlimit = "/usr/bin/prlimit"
    static let toolsExist = FileManager.default.isExecutableFile(atPath: setpriv)
        && FileManager.default.isExecutableFile(atPath: prlimit)

    /// Runs gesturectl without the right to SCHED_FIFO: RLIMIT_RTPRIO 0
    /// (prlimit) and, for root, without CAP_SYS_NICE (dropped from the
    /// bounding set by setpriv, so the exec'd binary does not get it).
    static func runUnprivileged(_ arguments: [String]) throws -> CLIResult {
        let directory = NSTemporaryDirectory()
        var command = [prlimit, "--rtprio=0:0", "--", CLI.binary] + arguments
        if geteuid() == 0 { command = [setpriv, "--bounding-set", "-sys_nice", "--"] + command }
        let outcome = try ProcessRunner.run(
            command[0], Array(command.dropFirst()), workingDirectory: directory,
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory, "GESTURECTL_BUILTINS": CLI.checkout + "/Recordings"],
            standardInput: nil)
        return CLIResult(status: outcome.status, stdout: outcome.standardOutput, stderr: outcome.standardError)
    }

    /// The refusal of real-time `doing` (playing, recording): exit 1,
    /// priority 40, what it needs, "nothing was `done`", nothing on
    /// standard output, and no word of `device` (the check comes first).
    static func expectRefused(_ result: CLIResult, doing: String, done: String, device: String) {
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("real-time \(doing) (SCHED_FIFO priority 40) is not permitted"), "\(result.stderr)")
        #expect(result.stderr.contains("CAP_SYS_NICE"), "\(result.stderr)")
        #expect(result.stderr.contains("RLIMIT_RTPRIO of at least 40"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was \(done)"), "\(result.stderr)")
        #expect(!result.stderr.contains(device), "\(result.stderr)")
        #expect(result.stdout == "")
    }

    @Test(.requiring(toolsExist, "SKIPPED LOUDLY: setpriv or prlimit is missing (util-linux)"))
    func realtimeWithoutTheCapabilityIsRefusedBeforeADeviceIsMade() throws {
        // The refusal, not "no /dev/uinput": the check comes first.
        Self.expectRefused(try Self.runUnprivileged(["play", "tap", "--realtime"]), doing: "playing", done: "played", device: "uinput")
    }

    @Test func helpTellsThePriorityAndWhatItNeeds() throws {
        let result = try CLI.run(["help", "play"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("--realtime"))
        #expect(result.stdout.contains("SCHED_FIFO at priority 40"))
        #expect(result.stdout.contains("CAP_SYS_NICE"))
        #expect(result.stdout.contains("RLIMIT_RTPRIO"))
    }

    /// The refusal of an option the daemon does not take comes before the
    /// daemon is reached: a usage error, not "the daemon is unreachable".
    @Test func realtimeThroughTheDaemonIsAUsageErrorBeforeConnecting() throws {
        let result = try CLI.run(["--socket", "/nonexistent/gesturectl.sock", "play", "tap", "--realtime"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--realtime is not available through the daemon"), "\(result.stderr)")
    }
}
