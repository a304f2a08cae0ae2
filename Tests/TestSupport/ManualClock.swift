import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization

/// A clock for tests: time moves only when the test (or the clock itself,
/// in ``Mode/advancesOnWait``) moves it, so that tests never sleep.
///
/// Every deadline a waiter asks for is recorded (``requestedDeadlines``),
/// so a test can check that a player schedules by absolute deadlines.
public final class ManualClock: PlaybackClock, RecordingClock, Sendable {
    /// How waits behave.
    public enum Mode: Hashable, Sendable {
        /// A wait jumps the time to its deadline (if it is later) and returns
        /// at once: a whole play runs without another thread's help. A test
        /// makes a frame late by advancing the time from its sink.
        case advancesOnWait
        /// A wait blocks until the test advances the time to the deadline
        /// (``advance(to:)``) or cancels. ``nextWaitingDeadline()`` tells the
        /// test what the waiter waits for.
        case waitsForAdvance
    }

    private struct State: Sendable {
        var now: Microseconds
        var requested: [Microseconds] = []
        var waitingFor: Microseconds?
    }

    private let mode: Mode
    private let state: Mutex<State>
    /// eventfds: "time moved" for the waiter, "someone waits" for the test.
    private let advanced: EventCounter
    private let waiting: EventCounter

    /// Creates a clock at `start`.
    public init(start: Microseconds = .zero, mode: Mode = .advancesOnWait) {
        self.mode = mode
        state = Mutex(State(now: start))
        // A test cannot run without these; failing here is the clearest report.
        advanced = try! EventCounter()
        waiting = try! EventCounter()
    }

    public func now() -> Microseconds { state.withLock { $0.now } }

    /// Every deadline passed to ``wait(until:cancellation:)`` so far, in order.
    public var requestedDeadlines: [Microseconds] { state.withLock { $0.requested } }

    /// Moves the time forward by `duration` (never backwards).
    public func advance(by duration: Microseconds) {
        state.withLock { $0.now = $0.now + max(duration, .zero) }
        wakeWaiter()
    }

    /// Moves the time to `time` if it is later than now.
    public func advance(to time: Microseconds) {
        state.withLock { $0.now = max($0.now, time) }
        wakeWaiter()
    }

    /// Blocks until a waiter waits (``Mode/waitsForAdvance``) and returns its
    /// deadline; `nil` when `cancellation` fires first.
    public func nextWaitingDeadline(cancellation: CancellationSignal = CancellationSignal()) -> Microseconds? {
        while true {
            if let deadline = state.withLock({ $0.waitingFor }) { return deadline }
            if cancellation.isCancelled { return nil }
            _ = try? Poll.wait(
                [(waiting.fileDescriptor, .readable), (try! cancellation.fileDescriptor, .readable)],
                timeoutMilliseconds: nil)
            waiting.drain()
        }
    }

    public func wait(until deadline: Microseconds, cancellation: CancellationSignal) throws(SystemError) -> WaitResult {
        state.withLock { $0.requested.append(deadline) }
        while true {
            if cancellation.isCancelled {
                state.withLock { $0.waitingFor = nil }
                return .cancelled
            }
            let reached: Bool = state.withLock { current in
                if mode == .advancesOnWait { current.now = max(current.now, deadline) }
                let reached = current.now >= deadline
                current.waitingFor = reached ? nil : deadline
                return reached
            }
            if reached { return .reached }
            waiting.signal()
            _ = try Poll.wait(
                [(advanced.fileDescriptor, .readable), (try cancellation.fileDescriptor, .readable)],
                timeoutMilliseconds: nil)
            advanced.drain()
        }
    }

    /// Time moved: the waiter re-checks and announces itself again if it
    /// still waits, so the test never sees a stale deadline.
    private func wakeWaiter() {
        state.withLock { $0.waitingFor = nil }
        advanced.signal()
    }
}
