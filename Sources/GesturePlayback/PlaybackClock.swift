import GestureModel
import InputSystem
import OperatingSystem

/// The time source and the waiting of a play, injected so that tests
/// control time (a manual clock in Tests/TestSupport) and plays use the
/// kernel's (``InputSystem/SystemClock``).
public protocol PlaybackClock: Sendable {
    /// The current time on CLOCK_MONOTONIC (or the test's clock), in µs.
    func now() -> Microseconds
    /// Blocks until `deadline` (an absolute time of ``now()``) or until
    /// `cancellation` fires, whichever is first. A cancelled signal wins
    /// even over a deadline that has passed. (``InputSystem/SystemClock``
    /// sleeps waits of 2 ms or less through and sees a cancel at their end.)
    /// - Throws: ``OperatingSystem/SystemError`` when the wait cannot be set up.
    func wait(until deadline: Microseconds, cancellation: CancellationSignal) throws(SystemError) -> WaitResult
    /// Runs a short wait once, so that the first real wait (the first
    /// frame's) does not pay for code used for the first time. Best effort.
    func warmUp()
}

extension PlaybackClock {
    /// Nothing to warm (test clocks).
    public func warmUp() {}
}

extension SystemClock: PlaybackClock {
    /// Waits 100 µs on a timer: the whole path of a deadline (timerfd,
    /// poll, the wake, the clock read) runs once before the first frame's.
    public func warmUp() {
        // Harmless: the first real wait is set up the same way and reports the failure.
        _ = try? wait(until: now() + Microseconds(100), cancellation: .never)
    }
}
