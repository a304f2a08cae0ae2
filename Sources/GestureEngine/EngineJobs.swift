import GestureModel
import GesturePlayback
import OperatingSystem
import Synchronization

/// Who started a job: a front end's client and its user, so that a job can
/// be listed as someone's, cancelled by its owner, and ended when its
/// client goes away.
public struct JobOwner: Sendable, Hashable {
    /// The front end's client (the daemon's connection number); 0 for work
    /// no client asked for (a binding, a menu, a command line).
    public var client: Int
    /// The user the client is; `nil` for work no user made (a binding's,
    /// which any member at the rig may stop).
    public var user: UInt32?

    /// An owner.
    public init(client: Int, user: UInt32?) {
        self.client = client
        self.user = user
    }

    /// Work no client asked for.
    public static let nobody = JobOwner(client: 0, user: nil)
}

/// How a job is started through ``Engine/startPlay(_:job:handle:)`` and
/// ``Engine/startPress(_:job:handle:)``: whose it is, how long its queue
/// may be, and what a front end is told as it goes.
public struct JobOptions: Sendable {
    /// Whose it is (default: nobody's).
    public var owner: JobOwner
    /// Cancelled by ``EngineJobs/clientLeft(_:)`` when its client goes away.
    public var endsWithClient: Bool
    /// Refused (``PlayQueueError/full(waiting:)``) when this many jobs wait
    /// on its kept device already; `nil`: never refused (a key release).
    public var queueLimit: Int?
    /// Called with the job's id once it is queued, before it can start (no
    /// call back into the engine from it): a front end says "queued" before
    /// anyone can say it runs.
    public var queued: (@Sendable (Int) -> Void)?
    /// Called with the job's id and the device's node just before its first
    /// frame (it is running from then on).
    public var started: (@Sendable (Int, String?) -> Void)?
    /// Called with the job's entry and its result when it ends, while it is
    /// still listed: ``EngineJobs/waitUntilEmpty()`` returns only once every
    /// job's `ended` has returned (a front end's reply is queued by then).
    public var ended: (@Sendable (EngineJobs.Entry, PlaybackResult) -> Void)?

    /// Options; see each property for the defaults.
    public init(
        owner: JobOwner = .nobody, endsWithClient: Bool = false, queueLimit: Int? = nil,
        queued: (@Sendable (Int) -> Void)? = nil, started: (@Sendable (Int, String?) -> Void)? = nil,
        ended: (@Sendable (EngineJobs.Entry, PlaybackResult) -> Void)? = nil
    ) {
        self.ended = ended
        self.owner = owner
        self.endsWithClient = endsWithClient
        self.queueLimit = queueLimit
        self.queued = queued
        self.started = started
    }
}

/// The plays and presses the engine runs for its front ends, by job id
/// (issue 37: the engine keeps the jobs; before, the daemon kept a table
/// of its own, and a menu's play or a create flow's review was in none).
/// Every job started through ``Engine/startPlay(_:job:handle:)`` or
/// ``Engine/startPress(_:job:handle:)`` is here from its start to its end,
/// with its owner, its state and its device; any front end lists them,
/// cancels one by its id or all of a client's, and the emergency stop
/// cancels them all. Ids come from one source (``nextID()``), which other
/// work a front end numbers (a recording, live fingertips) draws from too,
/// so that no two jobs share an id.
public final class EngineJobs: Sendable {
    /// One job.
    public struct Entry: Sendable, Hashable {
        /// What it is.
        public enum Kind: String, Sendable, Hashable {
            case play, press
        }

        /// Where it is.
        public enum State: String, Sendable, Hashable {
            /// Waiting in its device's queue.
            case queued
            /// Writing frames.
            case running
        }

        public let id: Int
        public let kind: Kind
        /// The kind of device it plays on.
        public let device: DeviceKind
        /// The transport under that device.
        public let output: PlayOutput
        /// Whose it is.
        public let owner: JobOwner
        /// Queued or running.
        public internal(set) var state: State
        /// The event node of its device, once it runs (`nil` when the
        /// output makes no node of ours, or before).
        public internal(set) var devnode: String?
        /// Whether it ends when its client goes away.
        public let endsWithClient: Bool
    }

    private struct Registered: Sendable {
        var entry: Entry
        let handle: PlaybackHandle
        /// The queue it waits in, taken out of at once when cancelled.
        var queue: PlayQueue?
    }

    private struct State: Sendable {
        var entries: [Int: Registered] = [:]
        var serial = 0
        /// Waiting for the table to empty (``waitUntilEmpty()``).
        var emptyWaiters: [Semaphore] = []
    }

    private let state = Mutex(State())

    /// A job table with no jobs.
    public init() {}

    /// A new job id, never one handed out before by this engine: a serial
    /// number in its high bits, so ids grow in the order jobs start, and 20
    /// random bits below it, so that no user can guess another's (issue
    /// 36); at most 2^53 − 1, exact in every JSON reader.
    public func nextID() -> Int {
        let serial = state.withLock { current -> Int in
            current.serial += 1
            return current.serial
        }
        var generator = SystemRandomNumberGenerator()
        return (serial << 20) | Int.random(in: 0..<(1 << 20), using: &generator)
    }

    /// Adds a job, queued, whose handle is `handle`, before it is queued
    /// anywhere; its id. ``follow(_:handle:options:)`` once it is started.
    func register(
        _ kind: Entry.Kind, device: DeviceKind, output: PlayOutput, options: JobOptions, handle: PlaybackHandle
    ) -> Int {
        let id = nextID()
        let entry = Entry(
            id: id, kind: kind, device: device, output: output, owner: options.owner, state: .queued, devnode: nil,
            endsWithClient: options.endsWithClient)
        state.withLock { $0.entries[id] = Registered(entry: entry, handle: handle) }
        return id
    }

    /// Lists a job, then starts it with `start` (given its id): followed
    /// once started, unlisted when `start` throws.
    func listed<Started>(
        _ kind: Entry.Kind, device: DeviceKind, output: PlayOutput, options: JobOptions, handle: PlaybackHandle,
        start: (Int) throws -> Started
    ) throws -> Started {
        let id = register(kind, device: device, output: output, options: options, handle: handle)
        do {
            let job = try start(id)
            follow(id, handle: handle, options: options)
            return job
        } catch {
            remove(id)
            throw error
        }
    }

    /// Follows job `id` once it has started or been queued: its `ended`,
    /// then its removal, when its handle finishes (at once, here, when it
    /// has ended already). Not before: a job that could not start is
    /// removed by its starter, which throws, and is never `ended`.
    func follow(_ id: Int, handle: PlaybackHandle, options: JobOptions) {
        let ended = options.ended
        handle.onCompletion { [weak self] result in
            guard let self else { return }
            if let ended, let last = entry(id) { ended(last, result) }
            remove(id)
        }
    }

    /// The `started` of a queued job `id`: marks it running and tells the
    /// front end.
    func starting(_ id: Int, options: JobOptions) -> @Sendable (PlaybackSession) -> Void {
        let told = options.started
        return { [weak self] session in
            self?.started(id, devnode: session.devnode)
            told?(id, session.devnode)
        }
    }

    /// The queue job `id` waits in.
    func setQueue(_ id: Int, _ queue: PlayQueue) { state.withLock { $0.entries[id]?.queue = queue } }

    /// Job `id` writes its first frame on `devnode`.
    func started(_ id: Int, devnode: String?) {
        state.withLock { current in
            current.entries[id]?.entry.state = .running
            current.entries[id]?.entry.devnode = devnode
        }
    }

    /// Forgets job `id` (it ended, or it was never queued); wakes whoever
    /// waits for the table to empty.
    func remove(_ id: Int) {
        let waiters = state.withLock { current -> [Semaphore] in
            guard current.entries.removeValue(forKey: id) != nil, current.entries.isEmpty else { return [] }
            defer { current.emptyWaiters = [] }
            return current.emptyWaiters
        }
        for waiter in waiters { waiter.signal() }
    }

    /// The jobs running or waiting, in id order.
    public func list() -> [Entry] {
        state.withLock { current in current.entries.values.map(\.entry).sorted { $0.id < $1.id } }
    }

    /// Job `id`, while it runs or waits.
    public func entry(_ id: Int) -> Entry? { state.withLock { $0.entries[id]?.entry } }

    /// Cancels job `id`: a waiting one ends at once, cancelled before it
    /// started; a running one lifts every finger and releases every key.
    /// False when there is no such job (it ended, or was never the engine's).
    @discardableResult
    public func cancel(_ id: Int) -> Bool {
        guard let registered = state.withLock({ $0.entries[id] }) else { return false }
        registered.handle.cancel()
        registered.queue?.remove(registered.handle)
        return true
    }

    /// Client `client` went away: cancels its jobs that end with it; how many.
    @discardableResult
    public func clientLeft(_ client: Int) -> Int {
        cancel(state.withLock { current in
            current.entries.values.filter { $0.entry.owner.client == client && $0.entry.endsWithClient }
        })
    }

    /// Cancels every job (the emergency stop, shutting down); how many.
    @discardableResult
    public func cancelAll() -> Int {
        cancel(state.withLock { current in Array(current.entries.values) })
    }

    /// Cancels `jobs`, every one before any is taken out of its queue (a
    /// running one, stopped first, would let the next one start); how many.
    private func cancel(_ jobs: [Registered]) -> Int {
        for registered in jobs { registered.handle.cancel() }
        for registered in jobs { registered.queue?.remove(registered.handle) }
        return jobs.count
    }

    /// Blocks until no job runs or waits (each has ended, and its handle's
    /// completions have run up to the table's own).
    public func waitUntilEmpty() {
        let waiter = Semaphore(value: 0)
        let empty = state.withLock { current -> Bool in
            if current.entries.isEmpty { return true }
            current.emptyWaiters.append(waiter)
            return false
        }
        if !empty { waiter.wait() }
    }
}
