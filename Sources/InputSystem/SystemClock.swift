import GestureModel
import OperatingSystem
import Synchronization

/// How a wait for a deadline ended.
public enum WaitResult: Hashable, Sendable {
    /// The deadline has come (or had passed already).
    case reached
    /// The cancellation signal fired first.
    case cancelled
}

/// CLOCK_MONOTONIC, the clock of evdev timestamps and of every deadline a
/// play keeps, with waits on an absolute-time timer polled together with
/// the cancellation, so that timing does not drift and a cancel wakes the
/// waiter at once. Waits of at most ``sleepLimit`` (2 ms) are one
/// absolute `clock_nanosleep` instead, and a cancel is seen at their end.
///
/// A longer wait ends the same way: the timer is armed ``sleepLimit``
/// before the deadline and the last stretch is slept. A thread woken after
/// a long idle wakes later than one that slept a moment (the figures:
/// benchmarks/README.md, "A long wait's wake"). Without it the first frame after a lead-in, and any frame
/// after a long pause, came later against its cadence than the frames
/// between (issue 9). A cancel during that last stretch is seen at its end.
///
/// Each clock keeps one timerfd for its waits, made at the first wait and
/// re-armed (`TFD_TIMER_ABSTIME`) for each deadline — re-arming also clears
/// an expiry not yet read — so a play's frames cost one `timerfd_settime`
/// and one `poll` each, not a timer made and closed per frame (at 1,000
/// frames a second that was two syscalls a frame more), and a wait
/// allocates nothing. A deadline already passed returns after one clock
/// read; a wait the timer ends reads no clock. Waiting threads should be
/// ``OperatingSystem/DedicatedThread``s with a timer slack of 1 ns: the
/// default 50 µs slack would make every wake late.
public struct SystemClock: Sendable {
    /// The timer this clock's waits share; closed with the last copy of the clock.
    private final class SharedTimer: Sendable {
        let timer = Mutex<MonotonicTimer?>(nil)
        /// Taken by the wait that uses the timer; a wait that finds it taken
        /// (a clock shared by two threads) makes a timer of its own.
        let inUse = Atomic<Bool>(false)
        deinit { timer.withLock { $0?.close() } }
    }

    private let shared = SharedTimer()
    /// The longest wait slept in one `clock_nanosleep` instead of the timer.
    public let sleepLimit: Microseconds

    /// Waits up to this long are one `clock_nanosleep` (TIMER_ABSTIME), and
    /// so is the last stretch of a longer wait:
    /// 2 ms, a 1 kHz play's waits and its catch-up spacing. At 1,000 frames
    /// a second under emulation the timer's `timerfd_settime` and `poll`
    /// of two descriptors cost more CPU than a frame may take (issue 9); a
    /// cancel during such a sleep is seen when it ends, within 2 ms.
    public static let defaultSleepLimit = Microseconds(2_000)

    /// Creates the clock; waits up to `sleepLimit` sleep without the timer
    /// (``defaultSleepLimit``; `.zero`: every wait on the timer).
    public init(sleepLimit: Microseconds = SystemClock.defaultSleepLimit) {
        // Negative would arm the timer after the deadline.
        self.sleepLimit = max(sleepLimit, .zero)
    }

    /// The current CLOCK_MONOTONIC time.
    public func now() -> Microseconds { Microseconds(MonotonicClock.nowMicroseconds()) }

    /// Blocks until `deadline` or until `cancellation` fires, whichever is
    /// first; a cancelled signal wins even over a deadline that has passed.
    /// - Throws: ``OperatingSystem/SystemError`` when the timer or the
    ///   cancellation's descriptor cannot be set up (e.g. EMFILE): a wait
    ///   that cannot be precise is an error, never a slower fallback.
    public func wait(until deadline: Microseconds, cancellation: CancellationSignal) throws(SystemError) -> WaitResult {
        if cancellation.isCancelled { return .cancelled }
        let start = now()
        if start >= deadline { return .reached }
        if deadline - start <= sleepLimit {
            try MonotonicClock.sleep(untilMicroseconds: deadline.rawValue)
            return cancellation.isCancelled ? .cancelled : .reached
        }
        let cancelled = try cancellation.fileDescriptor
        let owned = shared.inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        defer { if owned { shared.inUse.store(false, ordering: .releasing) } }
        let timer: MonotonicTimer
        if owned {
            timer = try shared.timer.withLock { current throws(SystemError) -> MonotonicTimer in
                if let current { return current }
                let made = try MonotonicTimer()
                current = made
                return made
            }
        } else {
            timer = try MonotonicTimer()
        }
        defer { if !owned { timer.close() } }
        // The timer ends the wait `sleepLimit` early and a sleep the rest
        // (see the type's notes: a long wait's wake is the late one).
        let wake = deadline - sleepLimit
        // Arming also clears an expiry of an earlier wait that was not read.
        try timer.arm(atMicroseconds: wake.rawValue)
        while true {
            let (expired, _) = try Poll.wait((timer.fileDescriptor, .readable), (cancelled, .readable), timeoutMilliseconds: nil)
            if cancellation.isCancelled { return .cancelled }
            // The timer has expired: CLOCK_MONOTONIC is past `wake`, no
            // clock read needed. (It cannot be readable earlier: arming
            // cleared any expiry of an earlier wait.) Woken otherwise: by a
            // signal (EINTR).
            if expired.isEmpty && now() < wake { continue }
            if wake < deadline {
                try MonotonicClock.sleep(untilMicroseconds: deadline.rawValue)
                if cancellation.isCancelled { return .cancelled }
            }
            return .reached
        }
    }
}
