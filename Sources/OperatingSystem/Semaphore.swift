import Glibc

/// A counting semaphore (POSIX `sem_t`) for one thread to wait until
/// another signals: a thread's start, a job's end, a device closed.
///
/// In place of Dispatch's `DispatchSemaphore`, because importing Dispatch
/// linked its Swift overlay, and through it the regex libraries, into
/// every start of the executable (issue 9: start-up under emulation).
/// Like it, `wait()` blocks the calling thread: never call it from
/// Swift's cooperative pool.
public final class Semaphore: @unchecked Sendable {
    // sem_t must not move: it lives in memory of its own for the object's
    // life. sem_wait and sem_post are safe from any thread.
    private let semaphore: UnsafeMutablePointer<sem_t>

    /// Creates a semaphore whose count starts at `value` (0: the first
    /// `wait()` blocks until a `signal()`).
    public init(value: Int = 0) {
        semaphore = .allocate(capacity: 1)
        // Fails only for a value above SEM_VALUE_MAX, which no caller asks.
        let result = sem_init(semaphore, 0, UInt32(value))
        precondition(result == 0, "sem_init failed (errno \(errno))")
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Waits until the count is above zero, then takes one; a signal
    /// handler's interruption (EINTR) does not end the wait.
    public func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }

    /// Adds one to the count, waking one waiting thread.
    public func signal() {
        sem_post(semaphore)
    }
}
