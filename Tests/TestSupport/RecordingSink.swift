import GesturePlayback
import InputSystem
import Synchronization

/// A sink for tests: records every frame, can fail a chosen write, and can
/// run a hook after each write (e.g. to advance a ``ManualClock`` or cancel).
public final class RecordingSink: FrameSink, Sendable {
    /// The error a failing write throws.
    public struct WriteFailure: Error, Hashable, Sendable {
        /// The 0-based index of the write attempt that failed.
        public var attempt: Int
        /// Creates a failure of attempt `attempt`.
        public init(attempt: Int) { self.attempt = attempt }
    }

    private struct State: Sendable {
        var written: [InputFrame] = []
        var attempted: [InputFrame] = []
        var warmUps = 0
    }

    private let state = Mutex(State())
    private let failingAttempts: Set<Int>
    private let afterWrite: (@Sendable (_ index: Int, _ frame: InputFrame) -> Void)?

    /// Creates a sink. Write attempts whose 0-based index is in
    /// `failingAttempts` throw ``WriteFailure``; `afterWrite` runs after each
    /// successful write with the index of the attempt.
    public init(
        failingAttempts: Set<Int> = [],
        afterWrite: (@Sendable (_ index: Int, _ frame: InputFrame) -> Void)? = nil
    ) {
        self.failingAttempts = failingAttempts
        self.afterWrite = afterWrite
        // An eventfd fails only in a process out of descriptors, where no test can go on.
        warmedUp = try! TestEvent()
    }

    /// The frames written successfully, in order.
    public var frames: [InputFrame] { state.withLock { $0.written } }
    /// Every frame a write was attempted with, failed ones included.
    public var attemptedFrames: [InputFrame] { state.withLock { $0.attempted } }

    /// How many times a player warmed this sink's path (``GesturePlayback/FrameSink/warmUp()``).
    public var warmUps: Int { state.withLock { $0.warmUps } }
    /// Signalled on each warm-up, for a test that waits for one.
    public let warmedUp: TestEvent

    public func warmUp() {
        state.withLock { $0.warmUps += 1 }
        warmedUp.signal()
    }

    public func write(_ frame: InputFrame) throws {
        let index = state.withLock { current in
            current.attempted.append(frame)
            return current.attempted.count - 1
        }
        if failingAttempts.contains(index) { throw WriteFailure(attempt: index) }
        state.withLock { $0.written.append(frame) }
        afterWrite?(index, frame)
    }
}
