import GestureModel
import InputSystem
import OperatingSystem

/// How late frames were written compared with their deadlines.
///
/// Percentiles use the nearest-rank method: p50 of n values is the
/// ⌈0.5 n⌉-th smallest, p99 the ⌈0.99 n⌉-th. A frame written early (never,
/// with a correct clock) counts as 0. A play counts its frames in a
/// histogram of fixed size rather than keeping every value: its median and
/// p99 are exact below 16.384 ms and at most 0.2 % under the true value
/// above (``LatenessHistogram``); its maximum is exact.
public struct LatenessStatistics: Hashable, Sendable {
    /// How many frames were measured.
    public var count: Int
    /// The latest frame's lateness.
    public var maximum: Microseconds
    /// The median lateness.
    public var median: Microseconds
    /// The 99th-percentile lateness.
    public var percentile99: Microseconds

    /// The figures themselves (a play's histogram gives them).
    init(count: Int, maximum: Microseconds, median: Microseconds, percentile99: Microseconds) {
        self.count = count
        self.maximum = maximum
        self.median = median
        self.percentile99 = percentile99
    }

    /// Statistics of `latenesses` (all zero when empty).
    public init(latenesses: [Microseconds]) {
        let sorted = latenesses.map { max($0, .zero) }.sorted()
        count = sorted.count
        func rank(_ percent: Int) -> Microseconds {
            guard !sorted.isEmpty else { return .zero }
            let index = (sorted.count * percent + 99) / 100 - 1
            return sorted[min(max(index, 0), sorted.count - 1)]
        }
        maximum = sorted.last ?? .zero
        median = rank(50)
        percentile99 = rank(99)
    }
}

/// Where a play stands, reported after each frame.
public struct PlaybackProgress: Hashable, Sendable {
    /// Frames written so far.
    public var framesWritten: Int
    /// Frames in the play; for a play streamed from its gesture
    /// (``FrameStream``), 0 until every frame has been built (its
    /// ``FrameStream/tally``).
    public var totalFrames: Int
}

/// How a play ended.
public struct PlaybackResult: Sendable {
    /// The end of the play.
    public enum Outcome: Sendable {
        /// Every frame was written.
        case completed
        /// The cancellation signal fired; the lift-all frame was then written
        /// (unless nothing was down).
        case cancelled(framesWritten: Int)
        /// Writing a frame failed; the lift-all frame was then attempted.
        case failed(any Error, framesWritten: Int)
    }

    /// The end of the play.
    public var outcome: Outcome
    /// Lateness of the frames written.
    public var lateness: LatenessStatistics
    /// The lift-all frame written at the end, if one was needed and written.
    public var liftAllFrame: InputFrame?
    /// Why the lift-all frame could not be written, if it could not.
    public var liftAllError: (any Error)?
    /// What readers know of the device after the play (for the next play).
    public var finalState: DeviceState

    /// The result of a play cancelled before its first frame (while it
    /// waited in a queue): nothing written, nothing to lift.
    public static func cancelledBeforeStart(state: DeviceState) -> PlaybackResult {
        PlaybackResult(
            outcome: .cancelled(framesWritten: 0), lateness: LatenessStatistics(latenesses: []), liftAllFrame: nil,
            liftAllError: nil, finalState: state)
    }

    /// The result of a play that failed before its first frame (its device
    /// could not be made, its frames not built).
    public static func failedBeforeStart(_ error: any Error, state: DeviceState) -> PlaybackResult {
        PlaybackResult(
            outcome: .failed(error, framesWritten: 0), lateness: LatenessStatistics(latenesses: []), liftAllFrame: nil,
            liftAllError: nil, finalState: state)
    }

    /// Whether every frame was written.
    public var isCompleted: Bool {
        if case .completed = outcome { return true }
        return false
    }
}

/// A play running on its own thread: cancel it, follow its frames, wait
/// for its ``PlaybackResult``.
public typealias PlaybackHandle = JobHandle<PlaybackResult, PlaybackProgress>
