import Glibc
import Synchronization

/// A one-way "stop" flag that also wakes a thread waiting in `poll`: the
/// way to stop a recording or a play from another thread.
///
/// ``cancel()`` may be called from any thread, a signal-handling thread or
/// even a signal handler: it only stores an atomic flag and writes one byte
/// to a pipe, both async-signal-safe. Waiters poll ``fileDescriptor``
/// (readable once cancelled, and it stays readable: the byte is never read
/// back) together with whatever else they wait for. Once cancelled, it
/// stays cancelled.
public final class CancellationSignal: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// Readable once cancelled; -1 when no pipe could be made (too many
    /// open files), in which case waiters check ``isCancelled`` in short
    /// slices instead.
    public let fileDescriptor: Int32
    private let writeDescriptor: Int32

    /// Creates a signal that is not cancelled.
    public init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        fileDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        if fileDescriptor >= 0 { _ = close(fileDescriptor) }
        if writeDescriptor >= 0 { _ = close(writeDescriptor) }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels and wakes the waiter; later calls do nothing.
    public func cancel() {
        let (exchanged, _) = cancelled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged && writeDescriptor >= 0 {
            var byte: UInt8 = 1
            _ = write(writeDescriptor, &byte, 1)
        }
    }
}
