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
    /// even over a deadline that has passed.
    /// - Throws: ``OperatingSystem/SystemError`` when the wait cannot be set up.
    func wait(until deadline: Microseconds, cancellation: CancellationSignal) throws(SystemError) -> WaitResult
}

extension SystemClock: PlaybackClock {}
