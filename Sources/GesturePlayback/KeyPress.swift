import GestureModel
import InputSystem

/// A press of one key of the virtual keyboard (``VirtualKeyboard``): a
/// tap (down, hold, up), or only the down or only the up.
///
/// Its frames are played like a gesture's (``Player``), so a press is
/// timed, cancellable, and ends with nothing pressed when it is cancelled
/// or a write fails (the lift-all frame releases keys too). A `down` press
/// is the one play that ends with a key still down: it is played with
/// `releasesAtEnd: false`, and the key stays down until an `up`, or until
/// the device is closed (``PlaybackSession/close()`` releases it), or any
/// later play on the device is cancelled.
public struct KeyPress: Hashable, Sendable {
    /// What the press does.
    public enum Action: String, Hashable, Sendable, CaseIterable {
        /// Down, then up after ``KeyPress/hold``.
        case tap
        /// Down, and kept down.
        case down
        /// Up (of a key a `down` pressed).
        case up
    }

    /// The key (an `EV_KEY` code the keyboard has).
    public var key: EventCode
    /// Tap, down or up.
    public var action: Action
    /// How long a tap holds the key: ``defaultHold`` unless given.
    public var hold: Microseconds

    /// How long a tap holds the key by default: 50 ms, like a quick press
    /// of a real button (long enough for every reader to see a separate
    /// down and up, short of any long-press or auto-repeat threshold).
    public static let defaultHold = Microseconds(50_000)
    /// The longest hold: 60 s.
    public static let maximumHold = Microseconds(60_000_000)
    /// The shortest hold: 1 ms.
    public static let minimumHold = Microseconds(1_000)

    /// Creates a press.
    public init(key: EventCode, action: Action = .tap, hold: Microseconds = KeyPress.defaultHold) {
        self.key = key
        self.action = action
        self.hold = hold
    }

    /// The frames of the press on a device whose readers know `state`,
    /// times from `start`: a tap is `key 1, SYN_REPORT` at `start` and
    /// `key 0, SYN_REPORT` at `start + hold`; `down` the first frame only,
    /// `up` the second only (at `start`).
    ///
    /// Only changed values are written, as the kernel would filter them: a
    /// `down` of a key already down, or an `up` of a key that is up, has no
    /// frames; a tap of a key held down by an earlier `down` has only its
    /// release (after the hold).
    public func frames(from state: DeviceState, start: Microseconds = .zero) -> [InputFrame] {
        let isDown = state.pressedKeys.contains(key)
        func frame(_ value: Int32, at time: Microseconds) -> InputFrame {
            InputFrame(time: time, events: [InputEvent(type: .key, code: key, value: value), .synchronizationReport()])
        }
        switch action {
        case .tap:
            return (isDown ? [] : [frame(1, at: start)]) + [frame(0, at: start + hold)]
        case .down:
            return isDown ? [] : [frame(1, at: start)]
        case .up:
            return isDown ? [frame(0, at: start)] : []
        }
    }
}
