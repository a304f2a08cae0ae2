import GestureModel
import InputSystem

/// A session's device taken for frames written as their input makes them
/// (``PlaybackSession/startLive(handle:)``), not from a list made in
/// advance: `gesturectl fingertips`. One thread owns it.
///
/// Nothing is left down: ``finish(_:)`` writes the one frame that lifts
/// every contact and releases every button
/// (``DeviceState/liftAllFrame(time:)``), as a play does when it ends,
/// gives the device back to its session with the state readers know, and
/// finishes the handle. Dropping it unfinished finishes it (cancelled).
public final class LivePlay {
    private let session: PlaybackSession
    private let sink: any FrameSink & Sendable
    private let handle: PlaybackHandle
    /// What readers know of the device after the frames written so far
    /// (after a failed write: everything that frame may have left down).
    public private(set) var state: DeviceState
    /// How many frames were written.
    public private(set) var framesWritten = 0
    private var result: PlaybackResult?

    init(session: PlaybackSession, sink: any FrameSink & Sendable, state: DeviceState, handle: PlaybackHandle) {
        self.session = session
        self.sink = sink
        self.state = state
        self.handle = handle
    }

    deinit { finish(.cancelled(framesWritten: framesWritten)) }

    /// The profile of the device written to.
    public var profile: VirtualDeviceProfile { session.profile }

    /// Writes `frame` in one write; ``state`` follows it.
    /// - Throws: the sink's error (``OperatingSystem/SystemError`` with kind
    ///   `.deviceVanished` when the device is gone); part of the frame may
    ///   have arrived, so ``state`` then holds what it may have left down.
    public func write(_ frame: InputFrame) throws {
        var after = state
        after.apply(frame)
        do {
            try sink.write(frame)
        } catch {
            state = state.including(after)
            throw error
        }
        state = after
        framesWritten += 1
    }

    /// Lifts whatever is down in one frame, gives the device back to its
    /// session and finishes the handle with `outcome` (the first call; later
    /// ones return the same result).
    @discardableResult
    public func finish(_ outcome: PlaybackResult.Outcome) -> PlaybackResult {
        if let result { return result }
        let (liftFrame, liftError) = sink.liftAll(&state)
        let finished = PlaybackResult(
            outcome: outcome, lateness: LatenessStatistics(latenesses: []), liftAllFrame: liftFrame,
            liftAllError: liftError, finalState: state)
        result = finished
        session.release(finalState: state)
        handle.finish(finished)
        return finished
    }
}
