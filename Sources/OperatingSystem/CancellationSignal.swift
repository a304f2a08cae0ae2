import CSystemShim
import Glibc
import Synchronization

/// A one-way "stop" flag that also wakes a thread waiting in `poll`: the
/// way to stop a recording or a play from another thread.
///
/// ``cancel()`` may be called from any thread, even a signal handler: it
/// only stores an atomic flag and writes to an eventfd, both
/// async-signal-safe. Waiters poll ``fileDescriptor`` (readable once
/// cancelled, and it stays readable: the counter is never read back)
/// together with whatever else they wait for. Once cancelled, it stays
/// cancelled.
///
/// When the eventfd cannot be made (too many open files), the signal
/// still works as a flag, but ``fileDescriptor`` throws that error: a
/// waiter must not wait without a way to be woken, nor fall back to
/// polling in slices.
public final class CancellationSignal: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let descriptor: Result<FileDescriptor, SystemError>

    /// Creates a signal that is not cancelled.
    public init() {
        do throws(SystemError) {
            descriptor = .success(FileDescriptor(rawValue: try Syscall.minusOne("eventfd") { gesturectl_eventfd() }))
        } catch {
            descriptor = .failure(error)
        }
    }

    deinit {
        if case .success(let descriptor) = descriptor { descriptor.close() }
    }

    /// The descriptor that becomes readable once cancelled.
    /// - Throws: the ``SystemError`` of `eventfd` when it could not be made.
    public var fileDescriptor: FileDescriptor {
        get throws(SystemError) { try descriptor.get() }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels and wakes the waiter; later calls do nothing.
    public func cancel() {
        let (exchanged, _) = cancelled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged, case .success(let descriptor) = descriptor {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { Glibc.write(descriptor.rawValue, $0.baseAddress, 8) }
        }
    }

    /// A signal nobody cancels, for waits that must run their course (the
    /// moment a device is kept after the last frame).
    public static let never = CancellationSignal()
}
