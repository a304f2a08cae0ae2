import InputSystem
import OperatingSystem

/// Why a recording stopped.
public enum RecordingStopReason: Hashable, Sendable, CustomStringConvertible {
    /// The caller asked (e.g. Ctrl-C through ``CancellationSignal``).
    case cancelled
    /// Enter was pressed on the terminal.
    case enterPressed
    /// No contact was down for the idle timeout after the first stroke.
    case idleTimeout
    /// The maximum duration since the first contact was reached.
    case maximumDuration
    /// No contact came within the time allowed for the first one.
    case noContactTimeout
    /// The recording reached a limit of ``GestureModel/GestureLimits``.
    case limitReached
    /// The device was unplugged or destroyed (ENODEV while reading).
    case deviceVanished(SystemError)
    /// Reading or waiting failed for another reason.
    case readFailed(SystemError)

    /// Whether the recording ended because something went wrong (the
    /// strokes so far are kept, but the caller should exit non-zero).
    public var isFailure: Bool {
        switch self {
        case .deviceVanished, .readFailed: true
        default: false
        }
    }

    /// A short phrase, e.g. `idle timeout` or `the device vanished`.
    public var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .enterPressed: "Enter pressed"
        case .idleTimeout: "idle timeout"
        case .maximumDuration: "maximum duration reached"
        case .noContactTimeout: "no contact in time"
        case .limitReached: "size limit reached"
        case .deviceVanished: "the device vanished"
        case .readFailed(let error): "reading failed: \(error)"
        }
    }
}
