import Synchronization
import CommandKit

/// An in-memory, thread-safe collector of a command's output, for tests:
/// `let out = OutputBuffer(); … out.writer …; #expect(out.text == "…")`.
@available(macOS 15.0, *)
public final class OutputBuffer: Sendable {
    private let storage = Mutex<[UInt8]>([])

    /// Creates an empty buffer.
    public init() {}

    /// A writer that appends to this buffer.
    public var writer: OutputWriter {
        OutputWriter { [self] bytes in storage.withLock { $0.append(contentsOf: bytes) } }
    }

    /// Everything written so far.
    public var bytes: [UInt8] { storage.withLock { $0 } }

    /// Everything written so far, decoded as UTF-8 (invalid bytes become U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets everything written so far.
    public func clear() { storage.withLock { $0.removeAll() } }
}
