import InputSystem
import GestureModel

/// How a wait for a deadline ended.
public enum WaitResult: Hashable, Sendable {
    /// The deadline has come (or had passed already).
    case reached
    /// The cancellation signal fired first.
    case cancelled
}

/// The time source and the waiting of a play, injected so that tests
/// control time (``ManualClock``) and plays use the kernel's
/// (``SystemClock``).
public protocol PlaybackClock: Sendable {
    /// The current time on CLOCK_MONOTONIC (or the test's clock), in µs.
    func now() -> Microseconds
    /// Blocks until `deadline` (an absolute time of ``now()``) or until
    /// `cancellation` fires, whichever is first. A cancelled signal wins
    /// even over a deadline that has passed.
    func wait(until deadline: Microseconds, cancellation: CancellationSignal) -> WaitResult
}
