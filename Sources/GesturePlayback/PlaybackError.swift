import GestureModel
import InputSystem
import OperatingSystem

/// Why a gesture cannot be played, found before the first frame is written.
public enum PlaybackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The gesture breaks a rule of the model (see ``Gesture/validate()``).
    case invalidGesture(GestureValidationError)
    /// A playback option is out of range: the option's name and the problem.
    case invalidOption(name: String, message: String)
    /// The target device lacks a capability the kind of play needs, e.g. a
    /// touchscreen without `ABS_MT_SLOT`.
    case targetLacks(device: String, kind: DeviceKind, missing: String)
    /// A device description matches none of the kinds we can play on.
    case cannotClassify(device: String)
    /// More contacts are held at once than the target has slots (or than fit
    /// in one 64-event frame, ``FrameBuilder/maximumContacts``).
    case tooManyContacts(contacts: Int, limit: Int, device: String, at: Microseconds)
    /// A mouse or tablet has one pointer or pen; the gesture holds several
    /// contacts at once.
    case oneContactOnly(kind: DeviceKind, contacts: Int)
    /// A frame would exceed 64 events even without its optional axes.
    /// It cannot happen with at most ``FrameBuilder/maximumContacts``
    /// contacts; reported rather than trapping.
    case frameTooLarge(events: Int, at: Microseconds)
    /// The frames of all `repetitions` together would exceed
    /// ``FrameBuilder/maximumEvents`` events (one repetition never does).
    case tooManyEvents(limit: Int, repetitions: Int)
    /// The session is playing already; one play at a time per device.
    case sessionBusy
    /// The session was closed; its device is gone.
    case sessionClosed
    /// The playing thread could not be started or set up (its name, its
    /// timer slack): nothing was played.
    case cannotStart(SystemError)
    /// The playing thread may not run at SCHED_FIFO `priority` (real-time
    /// playing was asked for): nothing was played.
    case realtimeRefused(priority: Int32, SystemError)
    /// A ``FrameStream`` given to a second play: its frames were played
    /// (a stream plays once). Nothing was played.
    case streamPlayedAlready

    /// A one-line message for people.
    public var description: String {
        switch self {
        case let .invalidGesture(error):
            "the gesture is not valid: \(error)"
        case let .invalidOption(name, message):
            "\(name): \(message)"
        case let .targetLacks(device, kind, missing):
            "\"\(device)\" cannot play as a \(kind.rawValue): it has no \(missing)"
        case let .cannotClassify(device):
            "\"\(device)\" is neither a touchscreen, a touchpad, a tablet nor a mouse; choose a kind to play it as"
        case let .tooManyContacts(contacts, limit, device, time):
            "this gesture has \(contacts) fingers at once (at \(Self.seconds(time)) s); \"\(device)\" plays at most \(limit)"
        case let .oneContactOnly(kind, contacts):
            kind == .tablet
                ? "a tablet has one pen; this gesture has \(contacts) contacts at once"
                : "a mouse has one pointer; this gesture has \(contacts) pointers at once"
        case let .frameTooLarge(events, time):
            "the frame at \(Self.seconds(time)) s needs \(events) events; libinput drops frames over 64"
        case let .tooManyEvents(limit, repetitions):
            "\(repetitions) repetitions of this gesture would need more than \(limit) events in memory; use fewer repetitions"
        case .sessionBusy:
            "the device is playing another gesture"
        case .sessionClosed:
            "the playback device was closed"
        case let .cannotStart(error):
            "cannot start playing: \(error)"
        case let .realtimeRefused(priority, error):
            "real-time playing (SCHED_FIFO priority \(priority)) is not permitted: "
                + "\(DedicatedThread.realtimeRequirement(priority: priority)); nothing was played (\(error))"
        case .streamPlayedAlready:
            "these frames were played already; build them again"
        }
    }

    /// `1.250` for 1 250 000 µs.
    private static func seconds(_ time: Microseconds) -> String {
        let parts = time.rawValue.quotientAndRemainder(dividingBy: 1_000_000)
        let milliseconds = String(parts.remainder.magnitude / 1_000)
        return "\(parts.quotient).\(String(repeating: "0", count: 3 - milliseconds.count))\(milliseconds)"
    }
}
