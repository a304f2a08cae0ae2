import Glibc
import Synchronization

/// A one-way "stop" flag that also wakes a waiting thread at once.
///
/// ``cancel()`` may be called from any thread, a signal-handling thread or
/// even a signal handler (it only stores an atomic flag and writes to an
/// eventfd, both async-signal-safe). Waiters poll ``fileDescriptor``
/// together with their timer, so a cancelled wait returns promptly rather
/// than at its deadline. Once cancelled, it stays cancelled.
public final class CancellationSignal: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// An eventfd that becomes readable on cancel (and stays readable); -1
    /// when none could be created, in which case waiters check the flag in
    /// short slices instead.
    public let fileDescriptor: Int32

    /// Creates a signal that is not cancelled.
    public init() {
        fileDescriptor = LinuxCalls.shared.makeEventDescriptor() ?? -1
    }

    deinit {
        if fileDescriptor >= 0 { _ = close(fileDescriptor) }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels and wakes the waiter; later calls do nothing.
    public func cancel() {
        let (exchanged, _) = cancelled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged && fileDescriptor >= 0 { LinuxCalls.signal(eventDescriptor: fileDescriptor) }
    }

    /// A signal nobody cancels, for waits that must run their course (the
    /// moment a device is kept after the last frame).
    static let never = CancellationSignal()
}
