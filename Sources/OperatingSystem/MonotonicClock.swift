import CSystemShim
import Glibc

/// CLOCK_MONOTONIC: the clock evdev timestamps use (once a reader selects
/// it) and every deadline of a play is measured on.
public enum MonotonicClock {
    /// The current time, in microseconds.
    public static func nowMicroseconds() -> Int64 {
        var now = timespec()
        // clock_gettime cannot fail for CLOCK_MONOTONIC with a valid pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) &* 1_000_000 &+ Int64(now.tv_nsec) / 1_000
    }

    /// Sleeps until `deadline` (µs of CLOCK_MONOTONIC): `clock_nanosleep`
    /// with TIMER_ABSTIME, one system call and no descriptor, so that a
    /// deadline a millisecond away costs less than a timer and a `poll`
    /// (what the C reference injector of benchmarks/timing does). A signal
    /// does not end it (EINTR sleeps on); nothing else can either: for short
    /// waits only, where a cancel may wait for the end of the sleep.
    /// Returns at once for a deadline already passed.
    public static func sleep(untilMicroseconds deadline: Int64) throws(SystemError) {
        let parts = max(deadline, 0).quotientAndRemainder(dividingBy: 1_000_000)
        var time = timespec(tv_sec: Int(parts.quotient), tv_nsec: Int(parts.remainder * 1_000))
        while true {
            // clock_nanosleep returns the error number; it does not set errno.
            let result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil)
            if result == 0 { return }
            if result == EINTR { continue }
            throw SystemError(call: "clock_nanosleep", errorNumber: result)
        }
    }
}

/// A one-shot timer on CLOCK_MONOTONIC at an absolute time (`timerfd`
/// with `TFD_TIMER_ABSTIME`): its descriptor becomes readable at the
/// deadline, so it can be polled together with a cancellation.
///
/// Absolute deadlines never drift: a wake-up that comes late does not move
/// the next one. One owner; ``close()`` releases it.
public struct MonotonicTimer: Sendable {
    /// The timer's descriptor, readable once it has expired.
    public let fileDescriptor: FileDescriptor

    /// Creates a disarmed timer (`timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)`).
    public init() throws(SystemError) {
        fileDescriptor = FileDescriptor(
            rawValue: try Syscall.minusOne("timerfd_create") { gesturectl_timerfd_create_monotonic() })
    }

    /// Arms the timer to expire once at `deadline` (µs of CLOCK_MONOTONIC).
    /// A deadline at or before 0 becomes 1 ns (a zero time would disarm it).
    public func arm(atMicroseconds deadline: Int64) throws(SystemError) {
        let parts = max(deadline, 0).quotientAndRemainder(dividingBy: 1_000_000)
        let nanoseconds = max(parts.remainder * 1_000, parts.quotient == 0 ? 1 : 0)
        try Syscall.minusOne("timerfd_settime", path: fileDescriptor.description) {
            gesturectl_timerfd_arm_absolute(fileDescriptor.rawValue, parts.quotient, nanoseconds)
        }
    }

    /// Releases the timer.
    public func close() { fileDescriptor.close() }
}
