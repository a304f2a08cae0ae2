import Synchronization

/// A piece of work running on a thread of its own (a play, a recording, a
/// device watch): cancel it, follow its progress, and get its result by
/// blocking, by `await`ing without blocking the cooperative pool, or by a
/// completion handler.
///
/// The worker reports with ``report(_:)`` and ends with ``finish(_:)``
/// exactly once; everything else may be called from any thread.
public final class JobHandle<Output: Sendable, Progress: Sendable>: Sendable {
    private struct State: Sendable {
        var output: Output?
        var latestProgress: Progress?
        var progressObservers: [@Sendable (Progress) -> Void] = []
        var completionHandlers: [@Sendable (Output) -> Void] = []
        var waiters: [CheckedContinuation<Output, Never>] = []
    }

    /// The signal that stops the work; the worker waits on it.
    public let cancellation: CancellationSignal
    private let state = Mutex(State())
    private let done = Semaphore(value: 0)

    /// Creates a handle for work that has not ended.
    public init(cancellation: CancellationSignal = CancellationSignal()) { self.cancellation = cancellation }

    /// Asks the work to stop at its next wait; it then ends as it does
    /// when stopped (a play lifts everything, a recording keeps its strokes).
    public func cancel() { cancellation.cancel() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancellation.isCancelled }

    /// The result, or `nil` while the work runs.
    public var result: Output? { state.withLock { $0.output } }

    /// The last progress reported, if any.
    public var latestProgress: Progress? { state.withLock { $0.latestProgress } }

    /// Calls `observer` on the worker's thread with every later progress report.
    public func observeProgress(_ observer: @escaping @Sendable (Progress) -> Void) {
        state.withLock { $0.progressObservers.append(observer) }
    }

    /// Calls `handler` with the result when the work ends (at once, on
    /// this thread, when it has ended already; otherwise on the worker's
    /// thread, before waiters wake).
    public func onCompletion(_ handler: @escaping @Sendable (Output) -> Void) {
        let ready: Output? = state.withLock { current in
            if let output = current.output { return output }
            current.completionHandlers.append(handler)
            return nil
        }
        if let ready { handler(ready) }
    }

    /// Blocks the calling thread until the work ends. Never call it from
    /// Swift's cooperative pool: use ``finished()`` there.
    public func wait() -> Output {
        while true {
            if let result { return result }
            done.wait()
            // Pass the wake-up on to any other blocked waiter.
            done.signal()
        }
    }

    /// The result, once the work ends, without blocking a thread.
    public func finished() async -> Output {
        await withCheckedContinuation { continuation in
            let ready: Output? = state.withLock { current in
                if let output = current.output { return output }
                current.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// For the worker: reports progress to the observers.
    public func report(_ progress: Progress) {
        let observers = state.withLock { current in
            current.latestProgress = progress
            return current.progressObservers
        }
        for observer in observers { observer(progress) }
    }

    /// For the worker: ends the work with `output` (later calls are ignored),
    /// runs the completion handlers, then wakes the waiters.
    public func finish(_ output: Output) {
        let pending: (handlers: [@Sendable (Output) -> Void], waiters: [CheckedContinuation<Output, Never>])? =
            state.withLock { current in
                guard current.output == nil else { return nil }
                current.output = output
                defer {
                    current.completionHandlers = []
                    current.waiters = []
                }
                return (current.completionHandlers, current.waiters)
            }
        guard let pending else { return }
        for handler in pending.handlers { handler(output) }
        for waiter in pending.waiters { waiter.resume(returning: output) }
        done.signal()
    }
}
