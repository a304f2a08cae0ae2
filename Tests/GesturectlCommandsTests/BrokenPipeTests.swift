import Glibc
import OperatingSystem
import Testing

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
        let errors = try FileDescriptor.pipe()
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                path: CLI.binary, arguments: ["--help"],
                environment: ["PATH=/usr/bin:/bin", "HOME=/tmp", "GESTURECTL_BUILTINS=\(CLI.checkout)/Recordings"],
                standardOutput: output.write, standardError: errors.write)
        } catch {
            output.write.close()
            errors.write.close()
            errors.read.close()
            throw error
        }
        output.write.close()
        errors.write.close()
        var standardError: [UInt8] = []
        while let chunk = try errors.read.read(upTo: 4_096), !chunk.isEmpty { standardError += chunk }
        errors.read.close()
        let termination = try child.wait()
        #expect(termination == .signalled(SIGPIPE))
        #expect(String(decoding: standardError, as: UTF8.self) == "")
    }
}
