import OperatingSystem
import Synchronization

/// Signals as events: SIGINT, SIGTERM and SIGHUP are read from a signalfd on
/// a dedicated thread and handed to the subscribers, which each front end
/// maps to what the signal means for it (the CLI: cancel the running job;
/// the daemon: SIGTERM stops, SIGHUP reloads).
///
/// Set-up, first thing in `main` and before any thread exists:
/// ``prepareProcess()`` blocks the signals (every later thread inherits the
/// mask, so none is interrupted) and ignores SIGPIPE (a closed pipe or
/// client socket gives EPIPE instead of killing a process with a finger
/// down); then ``start()``.
///
/// A signal that arrives while nobody subscribes does what it would have
/// done without gesturectl: the process ends as killed by it (so Ctrl-C
/// still ends a command waiting for its standard input).
public final class SignalRouter: Sendable {
    /// A subscription; ``cancel()`` ends it.
    public final class Subscription: Sendable {
        private let router: SignalRouter
        let id: Int

        init(router: SignalRouter, id: Int) {
            self.router = router
            self.id = id
        }

        /// Stops delivering signals to this subscriber.
        public func cancel() { router.remove(id) }
    }

    private struct State: Sendable {
        var nextID = 0
        var subscribers: [(id: Int, handler: @Sendable (Int32) -> Void)] = []
        var watcher: SignalWatcher?
    }

    private let state = Mutex(State())
    /// The signals routed.
    public let signals: [Int32]
    private let unhandled: @Sendable (Int32) -> Void

    /// Creates a router for `signals`. `unhandled` runs for a signal that
    /// comes while nobody subscribes (by default: end the process as the
    /// signal would).
    public init(
        signals: [Int32] = SignalMask.handled,
        unhandled: @escaping @Sendable (Int32) -> Void = { SignalMask.terminate(asIfBy: $0) }
    ) {
        self.signals = signals
        self.unhandled = unhandled
    }

    /// Blocks the routed signals in the calling thread and ignores SIGPIPE.
    /// Call first thing in `main`, before any other thread exists.
    public static func prepareProcess(signals: [Int32] = SignalMask.handled) throws(SystemError) {
        try SignalMask.block(signals)
        SignalMask.ignoreBrokenPipe()
    }

    /// Starts reading the signals (the `gesturectl-sig` thread). Later calls do nothing.
    public func start() throws(SystemError) {
        let started = state.withLock { $0.watcher != nil }
        if started { return }
        let watcher = try SignalWatcher(signals: signals) { [self] number in deliver(number) }
        state.withLock { current in
            if current.watcher == nil { current.watcher = watcher } else { watcher.stop() }
        }
    }

    /// Calls `handler` (on the signal thread) with each routed signal until
    /// the subscription is cancelled.
    public func subscribe(_ handler: @escaping @Sendable (Int32) -> Void) -> Subscription {
        let id = state.withLock { current in
            current.nextID += 1
            current.subscribers.append((current.nextID, handler))
            return current.nextID
        }
        return Subscription(router: self, id: id)
    }

    /// Cancels `handle` on every routed signal until the subscription ends:
    /// the CLI's mapping (Ctrl-C, SIGTERM and SIGHUP stop the job, which
    /// then cleans up: a play lifts every finger, a recording keeps its strokes).
    public func cancelling<Output, Progress>(_ handle: JobHandle<Output, Progress>) -> Subscription {
        subscribe { _ in handle.cancel() }
    }

    /// Hands `number` to the subscribers, or to the unhandled action.
    func deliver(_ number: Int32) {
        let handlers = state.withLock { $0.subscribers.map(\.handler) }
        if handlers.isEmpty {
            unhandled(number)
        } else {
            for handler in handlers { handler(number) }
        }
    }

    private func remove(_ id: Int) {
        state.withLock { $0.subscribers.removeAll { $0.id == id } }
    }
}
