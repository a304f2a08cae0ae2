import OperatingSystem
import Testing
import TestSupport

/// A failed write of standard output is never success: with standard output
/// on /dev/full (every write fails with ENOSPC, as on a full disk), every
/// kind of output — a gesture, a picture, evemu and libinput text, JSON, a
/// list, help — ends with one clear line on standard error and status 1.
@Suite struct WriteFailureTests {
    /// Runs the built binary with standard output on /dev/full; its status and standard error.
    private func runIntoFullDisk(_ arguments: [String]) throws -> (ChildProcess.Termination, String) {
        let full = try FileDescriptor.open("/dev/full", .writeOnly)
        defer { full.close() }
        let program = try RunningProgram(
            CLI.binary, arguments,
            environment: ["PATH=/usr/bin:/bin", "HOME=/tmp/gesturectl-no-home", "GESTURECTL_BUILTINS=\(CLI.checkout)/Recordings"],
            standardOutput: full)
        return (try program.finish(), program.standardError)
    }

    @Test(
        "Every kind of output to a full disk fails with status 1 and says so",
        arguments: [
            ["synth", "swipe", "--direction", "up", "--fingers", "3"], ["show", "tap"], ["transform", "tap", "--speed", "1"],
            ["render", "tap", "-o", "-"], ["export", "tap", "--format", "evemu"], ["export", "tap", "--format", "libinput"],
            ["describe", "tap", "--json"], ["list"], ["--help"], ["help", "play"], ["--version"], ["play", "tap", "--print"],
        ])
    func fullDisk(arguments: [String]) throws {
        let (termination, errors) = try runIntoFullDisk(arguments)
        #expect(termination == .exited(1), "\(arguments)")
        #expect(errors == "gesturectl: error: cannot write standard output: No space left on device (errno 28)\n", "\(arguments)")
    }

    @Test("A command that fails for its own reason keeps its status; the write failure is still said")
    func ownFailureKept() throws {
        let (termination, errors) = try runIntoFullDisk(["show", "no-such-gesture-anywhere"])
        #expect(termination == .exited(3))
        #expect(errors.contains("cannot write standard output") == false || errors.contains("no-such-gesture"))
    }
}
