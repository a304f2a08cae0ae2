import GestureModel

/// Where a pointer is on the recording's surface, in the gesture's units.
public struct PointerPosition: Hashable, Sendable {
    /// Across.
    public var x: Int
    /// Down.
    public var y: Int
    /// Creates a position.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// What a live status line shows while recording.
public struct RecordingStatus: Hashable, Sendable, CustomStringConvertible {
    /// Whether the first contact has been seen (the recording has begun).
    public var hasStarted: Bool
    /// Time since the first contact; zero before it.
    public var elapsed: Microseconds
    /// Strokes so far, finished and in progress.
    public var strokeCount: Int
    /// Contacts down now (fingers, a pen, or a pointer button held).
    public var contactsDown: Int
    /// How many times the kernel dropped events so far.
    public var droppedEvents: Int
    /// Where a pointer (mouse, trackball, head pointer) is, pressed or not:
    /// a grabbed pointer moves no cursor, so a front end can show it.
    /// `nil` for touch devices.
    public var pointer: PointerPosition?

    /// Creates a status.
    public init(
        hasStarted: Bool, elapsed: Microseconds, strokeCount: Int, contactsDown: Int, droppedEvents: Int,
        pointer: PointerPosition? = nil
    ) {
        self.hasStarted = hasStarted
        self.elapsed = elapsed
        self.strokeCount = strokeCount
        self.contactsDown = contactsDown
        self.droppedEvents = droppedEvents
        self.pointer = pointer
    }

    /// One line, e.g. `waiting for the first contact` or
    /// `recording 3.2 s, 4 strokes, 2 down` (with `, 1 drop` when the
    /// kernel dropped events).
    public var description: String {
        guard hasStarted else { return "waiting for the first contact" }
        let tenths = max(0, elapsed.rawValue) / 100_000
        var text = "recording \(tenths / 10).\(tenths % 10) s, \(Self.count(strokeCount, "stroke", "strokes")), "
        text += "\(contactsDown) down"
        if droppedEvents > 0 { text += ", \(Self.count(droppedEvents, "drop", "drops"))" }
        return text
    }

    private static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(value) \(value == 1 ? singular : plural)"
    }
}
