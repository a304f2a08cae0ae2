import Glibc
import OperatingSystem
import Testing
import TestSupport

/// gesturectl ignores SIGPIPE (a closed pipe must never kill it with a
/// finger down), so its standard output ends the process itself on EPIPE,
/// as SIGPIPE's default action did: `gesturectl list | head -1` stops, and
/// the shell sees status 141, with nothing on standard error.
@Suite struct BrokenPipeTests {
    @Test func standardOutputToAClosedPipeEndsAsIfBySIGPIPE() throws {
        let output = try FileDescriptor.pipe()
        // Nobody reads: the only read end is closed before the child starts
        // (both ends are close-on-exec, so the child holds only its copy of
        // the write end).
        output.read.close()
        let program: RunningProgram
        do {
            program = try RunningProgram(
                CLI.binary, ["--help"],
                environment: ["PATH=/usr/bin:/bin", "HOME=/tmp", "GESTURECTL_BUILTINS=\(CLI.checkout)/Recordings"],
                standardOutput: output.write)
        } catch {
            output.write.close()
            throw error
        }
        output.write.close()
        #expect(try program.finish() == .signalled(SIGPIPE))
        #expect(program.standardError == "")
    }
}
