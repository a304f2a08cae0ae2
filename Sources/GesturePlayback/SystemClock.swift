import InputSystem
import GestureModel
import Glibc

/// CLOCK_MONOTONIC, with waits on an absolute-time timerfd polled together
/// with the cancellation's eventfd, so that timing does not drift and a
/// cancel wakes the waiter at once.
///
/// Each wait arms a fresh `timerfd` (CLOCK_MONOTONIC, `TFD_TIMER_ABSTIME`);
/// a deadline already passed returns without a system call beyond the
/// clock read. Where timerfd is unavailable, it falls back to `poll`
/// timeouts (millisecond precision). Call ``setPreciseTimerSlack()`` once
/// on the waiting thread: the default 50 µs slack would make every wake late.
public struct SystemClock: PlaybackClock {
    /// Creates the clock.
    public init() {}

    public func now() -> Microseconds { LinuxCalls.monotonicNow() }

    public func wait(until deadline: Microseconds, cancellation: CancellationSignal) -> WaitResult {
        if cancellation.isCancelled { return .cancelled }
        if now() >= deadline { return .reached }
        let calls = LinuxCalls.shared
        guard let timer = calls.makeMonotonicTimer() else { return waitBySlices(until: deadline, cancellation) }
        defer { _ = close(timer) }
        guard calls.arm(timer: timer, at: deadline) else { return waitBySlices(until: deadline, cancellation) }
        while true {
            if cancellation.isCancelled { return .cancelled }
            let descriptors = cancellation.fileDescriptor >= 0 ? [timer, cancellation.fileDescriptor] : [timer]
            // Without an eventfd, check the flag every 10 ms.
            let readable = LinuxCalls.waitReadable(
                descriptors, timeoutMilliseconds: cancellation.fileDescriptor >= 0 ? -1 : 10)
            if cancellation.isCancelled { return .cancelled }
            if readable[0] || now() >= deadline { return .reached }
        }
    }

    /// Sets the calling thread's timer slack to 1 ns
    /// (`prctl(PR_SET_TIMERSLACK, 1)`); false when the call failed.
    @discardableResult
    public static func setPreciseTimerSlack() -> Bool { LinuxCalls.shared.setTimerSlack(nanoseconds: 1) }

    /// The fallback: poll with a relative timeout until the deadline.
    private func waitBySlices(until deadline: Microseconds, _ cancellation: CancellationSignal) -> WaitResult {
        while true {
            if cancellation.isCancelled { return .cancelled }
            let remaining = deadline.rawValue - now().rawValue
            if remaining <= 0 { return .reached }
            let milliseconds = Int32(clamping: min((remaining + 999) / 1_000, 10))
            let descriptors = cancellation.fileDescriptor >= 0 ? [cancellation.fileDescriptor] : []
            if descriptors.isEmpty {
                var pause = timespec(tv_sec: 0, tv_nsec: Int(milliseconds) * 1_000_000)
                _ = nanosleep(&pause, nil)
            } else {
                _ = LinuxCalls.waitReadable(descriptors, timeoutMilliseconds: milliseconds)
            }
        }
    }
}
