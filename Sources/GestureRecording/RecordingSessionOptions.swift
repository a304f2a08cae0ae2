import GestureModel
import OperatingSystem

/// When a ``RecordingSession`` stops by itself, and how often it reports.
public struct RecordingSessionOptions: Hashable, Sendable {
    /// Stop when no contact has been down for this long after the first
    /// stroke (`--idle-timeout`); `nil`: never. A contact held still is not
    /// idle.
    public var idleTimeout: Microseconds?
    /// Stop when this much time has passed since the first contact
    /// (`--max-duration`); events later than that are not recorded. `nil`:
    /// no limit.
    public var maximumDuration: Microseconds?
    /// Stop when no contact has come this long after the session began;
    /// `nil`: wait as long as it takes.
    public var firstContactTimeout: Microseconds?
    /// How often the status handler is called (default 100 ms).
    public var statusInterval: Microseconds
    /// A descriptor on which a line (Enter) stops the recording, normally
    /// stdin when it is a terminal; end of input on it only stops watching
    /// it. `nil`: none.
    public var enterDescriptor: FileDescriptor?

    /// How long a recording of strokes drawn one after another waits after
    /// the last lift before it ends, 3 s: `record --sequential`'s default
    /// (locally and through the daemon) and the create flow's, whether
    /// `gesturectl create` runs it or a binding of the daemon does. The
    /// one place it is spelled.
    public static let defaultIdleTimeout = Microseconds(3_000_000)

    /// Creates options; by default the session stops only when cancelled,
    /// the device vanishes, or reading fails.
    public init(
        idleTimeout: Microseconds? = nil, maximumDuration: Microseconds? = nil,
        firstContactTimeout: Microseconds? = nil, statusInterval: Microseconds = Microseconds(100_000),
        enterDescriptor: FileDescriptor? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.maximumDuration = maximumDuration
        self.firstContactTimeout = firstContactTimeout
        self.statusInterval = statusInterval
        self.enterDescriptor = enterDescriptor
    }

    /// Checks that durations are positive.
    func validate() throws(RecordingError) {
        let durations: [(String, Microseconds?)] = [
            ("idle timeout", idleTimeout), ("maximum duration", maximumDuration),
            ("first contact timeout", firstContactTimeout), ("status interval", statusInterval),
        ]
        for case let (name, value?) in durations where value <= .zero {
            throw .invalidOption("the \(name) must be positive, not \(value) µs")
        }
    }
}
