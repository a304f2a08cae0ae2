import CSystemShim
import Glibc

/// An eventfd used as a reusable wake-up: ``signal()`` makes its descriptor
/// readable until ``drain()``. Unlike ``CancellationSignal`` it can be
/// signalled again after being drained.
public final class EventCounter: Sendable {
    /// The descriptor to poll; readable while signalled.
    public let fileDescriptor: FileDescriptor

    /// Creates a counter (`eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`).
    public init() throws(SystemError) {
        fileDescriptor = FileDescriptor(rawValue: try Syscall.minusOne("eventfd") { gesturectl_eventfd() })
    }

    deinit { fileDescriptor.close() }

    /// Adds 1 to the counter; async-signal-safe.
    public func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(fileDescriptor.rawValue, $0.baseAddress, 8) }
    }

    /// Resets the counter (a non-blocking read of 8 bytes).
    public func drain() {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { Glibc.read(fileDescriptor.rawValue, $0.baseAddress, 8) }
    }
}
