import GestureModel
import Glibc

/// The time source of a ``RecordingSession``, for its timeouts and status.
///
/// It must run on the same clock as the events' timestamps (the kernel's
/// CLOCK_MONOTONIC, which ``InputSystem/EvdevDevice`` selects), because idle
/// and maximum-duration timeouts compare it with the times of the first
/// and latest contacts. Tests pass a manual clock.
public protocol RecordingClock {
    /// The current time in microseconds.
    func now() -> Microseconds
}

/// CLOCK_MONOTONIC (`clock_gettime`), the clock evdev timestamps use.
public struct MonotonicClock: RecordingClock, Sendable {
    /// Creates the clock.
    public init() {}

    /// The current CLOCK_MONOTONIC time in microseconds.
    public func now() -> Microseconds {
        var time = timespec()
        // clock_gettime cannot fail for CLOCK_MONOTONIC with a valid pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return Microseconds(Int64(time.tv_sec) &* 1_000_000 &+ Int64(time.tv_nsec) / 1_000)
    }
}
