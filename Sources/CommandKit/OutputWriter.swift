/// Where a command's output goes: standard output, standard error, or an
/// in-memory buffer in tests (`OutputBuffer` in Tests/TestSupport).
public struct OutputWriter: Sendable {
    private let writeBytes: @Sendable ([UInt8]) -> Void

    /// Creates a writer that hands every write to `writeBytes`.
    public init(_ writeBytes: @escaping @Sendable ([UInt8]) -> Void) {
        self.writeBytes = writeBytes
    }

    /// Writes bytes as they are.
    public func write(bytes: [UInt8]) { writeBytes(bytes) }

    /// Writes `text` as UTF-8, with no newline added.
    public func write(_ text: String) { writeBytes(Array(text.utf8)) }

    /// Writes `text` followed by a newline.
    public func writeLine(_ text: String = "") { write(text + "\n") }

    /// A writer to a file descriptor (1 for standard output, 2 for standard
    /// error). Short writes are continued and EINTR retried. On standard
    /// output, a closed pipe (EPIPE) ends the process as SIGPIPE would
    /// (status 141 in a shell), since the process ignores SIGPIPE; other
    /// write errors drop the rest, as there is nowhere to report them.
    public static func fileDescriptor(_ descriptor: Int32) -> OutputWriter {
        OutputWriter { bytes in SystemIO.writeAll(descriptor, bytes) }
    }

    /// A writer that discards everything.
    public static let discarding = OutputWriter { _ in }
}
