import OperatingSystem

/// Why the recorder could not start or could not produce a gesture.
///
/// Each case carries what the caller needs for a one-line message
/// (``description``); the message names no file, since the caller knows
/// which one it was writing.
public enum RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device reports no touch, pen or pointer input the recorder
    /// understands (e.g. a keyboard), or its axes are unusable; the text
    /// says what is missing.
    case unsupportedDevice(deviceName: String, reason: String)
    /// An option is out of range; the text says which and why.
    case invalidOption(String)
    /// Recording stopped before any contact touched the device.
    case noContact
    /// The recording thread may not run at SCHED_FIFO `priority`
    /// (`record --realtime`): nothing was recorded.
    case realtimeRefused(priority: Int32, SystemError)
    /// An import's samples, written to its temporary file (``StrokeRecorder/spillSamples(into:)``),
    /// cannot be read back from it (its mapping failed): nothing was written.
    case spillUnreadable(SystemError)

    /// A one-line message, e.g. `no contact was recorded`.
    public var description: String {
        switch self {
        case .unsupportedDevice(let deviceName, let reason):
            "cannot record from \"\(deviceName)\": \(reason)"
        case .invalidOption(let message):
            message
        case .noContact:
            "no contact was recorded"
        case let .realtimeRefused(priority, error):
            "real-time recording (SCHED_FIFO priority \(priority)) is not permitted: "
                + "\(DedicatedThread.realtimeRequirement(priority: priority)); nothing was recorded (\(error))"
        case .spillUnreadable(let error):
            "import: cannot read back its temporary file: \(error); nothing written"
        }
    }
}
