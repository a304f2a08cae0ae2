import OperatingSystem

/// What the live ``CommandContext`` needs from the process, over
/// OperatingSystem's calls.
enum SystemIO {
    /// Writes all of `bytes` to `descriptor`, continuing after short writes
    /// and retrying EINTR. On EPIPE (the reader has gone) standard output
    /// ends the process as SIGPIPE's default action would, which the
    /// process ignores so that a closed pipe cannot kill it with a finger
    /// down: `gesturectl list | head -1` stops writing and the shell sees
    /// status 141.
    /// - Throws: ``OperatingSystem/SystemError`` for any other failure.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(SystemError) {
        do throws(SystemError) {
            try FileDescriptor(rawValue: descriptor).writeAll(bytes, path: descriptor == 1 ? "standard output" : "standard error")
        } catch {
            if error.errorNumber == ErrorNumber.brokenPipe && descriptor == FileDescriptor.standardOutput.rawValue {
                SignalMask.terminateAsIfByBrokenPipe()
            }
            throw error
        }
    }

    /// Reads `descriptor` to its end. Throws when there are more than
    /// `maximumBytes` bytes or read fails (other than EINTR).
    static func readAll(_ descriptor: Int32, maximumBytes: Int) throws(CommandFailure) -> [UInt8] {
        let file = FileDescriptor(rawValue: descriptor)
        var result: [UInt8] = []
        while true {
            let chunk: [UInt8]?
            do throws(SystemError) {
                // At most one byte past the limit is read: enough to know.
                chunk = try file.read(upTo: min(65_536, maximumBytes + 1 - result.count))
            } catch {
                throw CommandFailure.failure("cannot read standard input: \(error.errorMessage)")
            }
            // A non-blocking standard input with nothing yet fails, as read(2) does.
            guard let chunk else {
                throw CommandFailure.failure(
                    "cannot read standard input: \(SystemError(call: "read", errorNumber: ErrorNumber.wouldBlock).errorMessage)")
            }
            if chunk.isEmpty { return result }
            if result.count + chunk.count > maximumBytes {
                throw CommandFailure.failure("standard input is larger than \(maximumBytes) bytes")
            }
            result.append(contentsOf: chunk)
        }
    }

    /// Whether `descriptor` is a terminal (isatty(3)).
    static func isTerminal(_ descriptor: Int32) -> Bool { FileDescriptor(rawValue: descriptor).isTerminal }

    /// The current directory, or `.` when it cannot be read (deleted, or a
    /// folder above it may not be read): relative paths then stay relative,
    /// so what is done with them acts on the real current directory and
    /// reports its real error, never on a file in `/`.
    static func currentDirectory() -> String { currentDirectory(reading: ProcessEnvironment.currentDirectory) }

    /// ``currentDirectory()`` with the reading injected (tests).
    static func currentDirectory(reading read: () throws(SystemError) -> String) -> String {
        do { return try read() } catch { return "." }
    }

    /// The process environment; for a name given twice the first wins.
    static func environment() -> [String: String] { ProcessEnvironment.variables() }
}
