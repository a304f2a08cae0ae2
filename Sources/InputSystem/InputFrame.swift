import GestureModel

/// One evdev frame: the events the kernel delivers together, ending with
/// `SYN_REPORT 0`, and when it is due relative to the start of a play.
public struct InputFrame: Hashable, Sendable {
    /// When the frame is due, from the start of the play (or, for recorded
    /// frames, the kernel timestamp).
    public var time: Microseconds
    /// The events, the last one always `EV_SYN SYN_REPORT 0`.
    public var events: [InputEvent]

    /// Creates a frame; `events` should end with a `SYN_REPORT`.
    public init(time: Microseconds, events: [InputEvent]) {
        self.time = time
        self.events = events
    }
}
