import Synchronization

/// Where a command's output goes: standard output, standard error, or an
/// in-memory buffer in tests (`OutputBuffer` in Tests/TestSupport).
///
/// A failed write is never success: the first error is kept
/// (``failure``), later writes are skipped, and ``Tool/main(arguments:context:)``
/// reports it with exit status 1 once the command has run.
public struct OutputWriter: Sendable {
    /// The first write error of a writer and its copies.
    private final class Status: Sendable {
        let failure = Mutex<(any Error)?>(nil)
    }

    private let writeBytes: @Sendable ([UInt8]) throws -> Void
    private let status = Status()

    /// Creates a writer that hands every write to `writeBytes`; an error it
    /// throws is kept as the writer's ``failure``.
    public init(_ writeBytes: @escaping @Sendable ([UInt8]) throws -> Void) {
        self.writeBytes = writeBytes
    }

    /// The first write that failed, if any (later writes were skipped).
    public var failure: (any Error)? { status.failure.withLock { $0 } }

    /// Writes bytes as they are (nothing, once a write has failed).
    public func write(bytes: [UInt8]) {
        guard failure == nil else { return }
        do {
            try writeBytes(bytes)
        } catch {
            status.failure.withLock { if $0 == nil { $0 = error } }
        }
    }

    /// Writes `text` as UTF-8, with no newline added.
    public func write(_ text: String) { write(bytes: Array(text.utf8)) }

    /// Writes `text` followed by a newline.
    public func writeLine(_ text: String = "") { write(text + "\n") }

    /// A writer to a file descriptor (1 for standard output, 2 for standard
    /// error). Short writes are continued and EINTR retried. On standard
    /// output, a closed pipe (EPIPE) ends the process as SIGPIPE would
    /// (status 141 in a shell), since the process ignores SIGPIPE; any
    /// other error (a full disk, /dev/full, an I/O error) is the writer's
    /// ``failure``.
    public static func fileDescriptor(_ descriptor: Int32) -> OutputWriter {
        OutputWriter { bytes in try SystemIO.writeAll(descriptor, bytes) }
    }

    /// A writer that discards everything.
    public static let discarding = OutputWriter { _ in }
}
