import GestureModel

/// What the caller supplies to name a recorded gesture and fill its metadata.
public struct RecordingDetails: Hashable, Sendable {
    /// The gesture's name.
    public var name: String
    /// When recording started, as an ISO 8601 UTC timestamp.
    public var recordedAt: String?
    /// The program and version, e.g. `gesturectl 0.1.0`.
    public var tool: String?
    /// A stable identity of the device (a /dev/input/by-id link name, or
    /// `vendor:product` in hex).
    public var deviceID: String?

    /// Creates details.
    public init(name: String, recordedAt: String? = nil, tool: String? = nil, deviceID: String? = nil) {
        self.name = name
        self.recordedAt = recordedAt
        self.tool = tool
        self.deviceID = deviceID
    }
}

/// A finished recording: the gesture, why it stopped, and anything the
/// caller should tell the user.
public struct RecordedGesture: Hashable, Sendable {
    /// The gesture, strokes sorted by start time, the first starting at 0.
    public var gesture: Gesture
    /// Why recording stopped.
    public var stopReason: RecordingStopReason
    /// How many contacts were still down at the end (ended at their last sample).
    public var contactsEndedAtFinish: Int
    /// One-line warnings, in the order they arose; they include the
    /// ``repairs``' messages.
    public var warnings: [String]
    /// What was changed in the events to make a valid gesture (times that
    /// went backwards, values beyond the axes); empty for a clean recording.
    public var repairs: RecordingRepairs

    /// Creates a result.
    public init(
        gesture: Gesture, stopReason: RecordingStopReason, contactsEndedAtFinish: Int = 0, warnings: [String] = [],
        repairs: RecordingRepairs = RecordingRepairs()
    ) {
        self.gesture = gesture
        self.stopReason = stopReason
        self.contactsEndedAtFinish = contactsEndedAtFinish
        self.warnings = warnings
        self.repairs = repairs
    }
}
