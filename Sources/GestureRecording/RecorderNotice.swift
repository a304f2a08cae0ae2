/// Something the recorder tells its caller while events arrive, for a
/// warning line.
public enum RecorderNotice: Hashable, Sendable, CustomStringConvertible {
    /// The kernel dropped events (`SYN_DROPPED`); `total` times so far. The
    /// recorder resyncs from the device's real state; touches that began
    /// and ended in the gap are lost.
    case eventsDropped(total: Int)
    /// The recording reached a limit of ``GestureModel/GestureLimits``
    /// (strokes, samples or duration); nothing more is recorded.
    case limitReached(String)

    /// A one-line message, e.g. `the kernel dropped events; 2 so far`.
    public var description: String {
        switch self {
        case .eventsDropped(let total): "the kernel dropped events; \(total) so far"
        case .limitReached(let what): "the recording reached the limit of \(what); nothing more is recorded"
        }
    }
}
