import GestureModel
import InputSystem

/// The time source of a ``RecordingSession``, for its timeouts and status.
///
/// It must run on the same clock as the events' timestamps (the kernel's
/// CLOCK_MONOTONIC, which ``InputSystem/EvdevDevice`` selects), because idle
/// and maximum-duration timeouts compare it with the times of the first
/// and latest contacts. ``InputSystem/SystemClock`` is that clock; tests
/// pass a manual one.
public protocol RecordingClock {
    /// The current time in microseconds.
    func now() -> Microseconds
}

extension SystemClock: RecordingClock {}
