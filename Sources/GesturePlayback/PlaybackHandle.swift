import InputSystem
import Dispatch
import Synchronization

/// A play running on its own thread: cancel it, or wait for its result
/// (blocking, or from async code without blocking the cooperative pool).
public final class PlaybackHandle: Sendable {
    private struct State: Sendable {
        var result: PlaybackResult?
        var waiters: [CheckedContinuation<PlaybackResult, Never>] = []
    }

    /// The signal that stops the play.
    public let cancellation: CancellationSignal
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    init(cancellation: CancellationSignal) { self.cancellation = cancellation }

    /// Stops the play at its next wait; the player then lifts everything.
    public func cancel() { cancellation.cancel() }

    /// The result, or `nil` while playing.
    public var result: PlaybackResult? { state.withLock { $0.result } }

    /// Blocks the calling thread until the play ends.
    public func wait() -> PlaybackResult {
        while true {
            if let result { return result }
            done.wait()
            // Pass the wake-up on to any other blocked waiter.
            done.signal()
        }
    }

    /// The result, once the play ends, without blocking a thread.
    public func finished() async -> PlaybackResult {
        await withCheckedContinuation { continuation in
            let ready: PlaybackResult? = state.withLock { current in
                if let result = current.result { return result }
                current.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func finish(_ result: PlaybackResult) {
        let waiters = state.withLock { current in
            current.result = result
            defer { current.waiters = [] }
            return current.waiters
        }
        for waiter in waiters { waiter.resume(returning: result) }
        done.signal()
    }
}
