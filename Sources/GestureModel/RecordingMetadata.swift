/// When and with what a gesture was recorded. Every field is optional.
public struct RecordingMetadata: Hashable, Sendable {
    /// When recording started, as an ISO 8601 UTC timestamp
    /// (e.g. `2026-11-29T13:26:23Z`).
    public var recordedAt: String?
    /// The program and version that wrote the gesture (e.g. `gesturectl 0.1.0`).
    public var tool: String?
    /// The source device's name as the kernel reports it.
    public var deviceName: String?
    /// A stable identity of the source device (a /dev/input/by-id link name,
    /// or `vendor:product` in hex).
    public var deviceID: String?
    /// How many times the kernel dropped events (SYN_DROPPED) while recording.
    public var droppedEvents: Int

    /// Creates metadata.
    public init(
        recordedAt: String? = nil, tool: String? = nil, deviceName: String? = nil, deviceID: String? = nil,
        droppedEvents: Int = 0
    ) {
        self.recordedAt = recordedAt
        self.tool = tool
        self.deviceName = deviceName
        self.deviceID = deviceID
        self.droppedEvents = droppedEvents
    }
}
