import Glibc
import InputSystem

/// A way to stop a ``RecordingSession`` from another thread or from a
/// signal handler: a pipe the session polls.
///
/// ``cancel()`` may be called from any thread, any number of times.
/// From a signal handler (Ctrl-C), where Swift code that allocates or locks
/// is not safe, write one byte to ``signalSafeDescriptor`` with `write(2)`,
/// which is async-signal-safe. Once cancelled it stays cancelled: the byte
/// is never read back.
public final class CancellationSignal: Sendable {
    /// The end the session polls.
    let readDescriptor: Int32
    /// The end a signal handler writes one byte to.
    public let signalSafeDescriptor: Int32

    /// Creates a signal (a non-blocking, close-on-exec pipe).
    /// - Throws: ``InputSystem/SystemError`` from `pipe` or `fcntl`, e.g.
    ///   EMFILE when the process has too many descriptors open.
    public init() throws(SystemError) {
        let ends = try Descriptors.makePipe()
        readDescriptor = ends.read
        signalSafeDescriptor = ends.write
    }

    deinit {
        close(readDescriptor)
        close(signalSafeDescriptor)
    }

    /// Asks the session to stop. A full pipe (EAGAIN) means it was
    /// cancelled already, so a failed write needs no handling.
    public func cancel() {
        var byte: UInt8 = 1
        _ = write(signalSafeDescriptor, &byte, 1)
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { Descriptors.isReadable(readDescriptor) }
}
