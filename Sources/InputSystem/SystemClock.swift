import GestureModel
import OperatingSystem

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
/// waiter at once.
///
/// Each wait arms a fresh timerfd (`TFD_TIMER_ABSTIME`); a deadline already
/// passed returns after one clock read. Waiting threads should be
/// ``OperatingSystem/DedicatedThread``s with a timer slack of 1 ns: the
/// default 50 µs slack would make every wake late.
public struct SystemClock: Sendable {
    /// Creates the clock.
    public init() {}

    /// The current CLOCK_MONOTONIC time.
    public func now() -> Microseconds { Microseconds(MonotonicClock.nowMicroseconds()) }

    /// Blocks until `deadline` or until `cancellation` fires, whichever is
    /// first; a cancelled signal wins even over a deadline that has passed.
    /// - Throws: ``OperatingSystem/SystemError`` when the timer or the
    ///   cancellation's descriptor cannot be set up (e.g. EMFILE): a wait
    ///   that cannot be precise is an error, never a slower fallback.
    public func wait(until deadline: Microseconds, cancellation: CancellationSignal) throws(SystemError) -> WaitResult {
        if cancellation.isCancelled { return .cancelled }
        if now() >= deadline { return .reached }
        let cancelled = try cancellation.fileDescriptor
        let timer = try MonotonicTimer()
        defer { timer.close() }
        try timer.arm(atMicroseconds: deadline.rawValue)
        while true {
            let events = try Poll.wait([(timer.fileDescriptor, .readable), (cancelled, .readable)], timeoutMilliseconds: nil)
            if cancellation.isCancelled { return .cancelled }
            if !events[0].isEmpty || now() >= deadline { return .reached }
        }
    }
}
