import GestureBindings
import GestureProtocol
import OperatingSystem
import Synchronization

/// Requests waiting to be served by a few worker threads, one lane per
/// client: a client's requests run one after another in the order it sent
/// them, and the users with work take turns (round robin), and within a
/// user their clients, so that one client's 5,000 pipelined requests or
/// 60 MiB line occupy one worker and never the others' turns, and one
/// user's six greedy clients get one user's share, not six (issue 36). The I/O thread only queues; it never waits for
/// a request to be served (docs/PROTOCOL.md, "Limits").
package final class RequestLanes<Request: Sendable>: Sendable {
    /// One queued request and the bytes it holds.
    private struct Queued: Sendable {
        let request: Request
        let bytes: Int
    }

    private struct Lanes: Sendable {
        /// Each client's waiting requests, oldest first, and where the
        /// oldest one is (the array is trimmed now and then, not per take).
        var waiting: [Int: (items: [Queued], start: Int)] = [:]
        /// The bytes each client's waiting requests hold.
        var bytes: [Int: Int] = [:]
        /// Each user's clients with requests waiting, in turn order (a
        /// client is here once per request it may be served next: one whose
        /// request is being served, or whose lane is empty, is skipped).
        var turns: [UInt32: [Int]] = [:]
        /// The users in `turns`, in turn order.
        var users: [UInt32] = []
        /// Whose each client is.
        var owners: [Int: UInt32] = [:]
        /// Clients one of whose requests a worker is serving.
        var serving: Set<Int> = []
        var stopped = false

        /// Gives `client` a turn, after its user's other clients; its user
        /// gets one after the other users if it had none.
        mutating func addTurn(_ client: Int) {
            let user = owners[client] ?? .max
            if turns[user] == nil { users.append(user) }
            turns[user, default: []].append(client)
        }

        /// The next turn: the first user's first client. The user goes to
        /// the end of the users while they have more turns.
        mutating func nextTurn() -> Int? {
            guard !users.isEmpty else { return nil }
            let user = users.removeFirst()
            guard var clients = turns.removeValue(forKey: user), !clients.isEmpty else { return nextTurn() }
            let client = clients.removeFirst()
            if !clients.isEmpty {
                turns[user] = clients
                users.append(user)
            }
            return client
        }
    }

    /// What the workers do with a request, and whom they tell that a
    /// client's backlog fell under the bound.
    private struct Handlers: Sendable {
        var serve: @Sendable (Request, Int) -> Void
        var drained: @Sendable (Int) -> Void
    }

    private let lanes = Mutex(Lanes())
    private let ready = Semaphore(value: 0)
    private let handlers = Mutex<Handlers?>(nil)
    private let workers: Int
    private let threadName: String

    /// Lanes served by `workers` threads named `name` once started.
    package init(workers: Int, name: String) {
        self.workers = workers
        threadName = name
    }

    /// Starts the workers: `serve` handles each request; `drained` is told
    /// (on a worker) when a client's waiting requests are under
    /// ``backlogLimit`` again.
    package func start(
        serve: @escaping @Sendable (_ request: Request, _ client: Int) -> Void, drained: @escaping @Sendable (_ client: Int) -> Void
    ) throws(SystemError) {
        handlers.withLock { $0 = Handlers(serve: serve, drained: drained) }
        for _ in 0..<workers {
            // Background work (nice 10): the I/O thread, which answers
            // `cancel`, and the players preempt it as soon as they wake.
            try DedicatedThread.start(ThreadOptions(name: threadName, niceness: Self.workerNiceness)) { [self] in work() }
        }
    }

    /// The workers' nice value.
    package static var workerNiceness: Int32 { 10 }

    /// A client whose waiting requests hold more than this many bytes (or
    /// number more than ``backlogCount``) is not read until they are served:
    /// its requests wait in the kernel, not in the daemon's memory.
    package static var backlogLimit: Int { 1 << 20 }
    /// See ``backlogLimit``.
    package static var backlogCount: Int { 256 }

    /// Queues a request of `client`, of `user`, that holds `bytes` of memory.
    package func add(_ request: Request, bytes: Int, client: Int, user: UInt32) {
        let wake = lanes.withLock { current -> Bool in
            if current.stopped { return false }
            let lane = current.waiting[client]
            let first = lane.map { $0.start == $0.items.count } ?? true
            current.waiting[client, default: ([], 0)].items.append(Queued(request: request, bytes: bytes))
            current.bytes[client, default: 0] += bytes
            current.owners[client] = user
            guard first, !current.serving.contains(client) else { return false }
            current.addTurn(client)
            return true
        }
        if wake { ready.signal() }
    }

    /// Whether the client has so much waiting that it is not read for now.
    package func isBacklogged(_ client: Int) -> Bool {
        lanes.withLock { current in
            guard let lane = current.waiting[client] else { return false }
            return (current.bytes[client] ?? 0) > Self.backlogLimit || lane.items.count - lane.start > Self.backlogCount
        }
    }

    /// Drops what `client` has waiting (a request being served goes on);
    /// how many were dropped.
    @discardableResult
    package func forget(_ client: Int) -> Int {
        lanes.withLock { current in
            // Its turn stays in the order and is skipped (its lane is empty).
            guard let lane = current.waiting.removeValue(forKey: client) else { return 0 }
            current.bytes[client] = nil
            current.owners[client] = nil
            return lane.items.count - lane.start
        }
    }

    /// Stops serving: what waits is returned (for a `busy` reply), and the
    /// workers end once their current request is served. Nothing waits
    /// for those: a stopping daemon does not wait for a slow request.
    package func stop() -> [(request: Request, client: Int)] {
        let left = lanes.withLock { current -> [(Request, Int)] in
            current.stopped = true
            var left: [(Request, Int)] = []
            for (client, lane) in current.waiting.sorted(by: { $0.key < $1.key }) {
                left += lane.items[lane.start...].map { ($0.request, client) }
            }
            current.waiting = [:]
            current.bytes = [:]
            current.turns = [:]
            current.users = []
            return left
        }
        for _ in 0..<workers { ready.signal() }
        return left
    }

    /// A worker: takes the next client's oldest request, serves it, and
    /// puts the client at the end of the turns if more of its requests wait.
    private func work() {
        var finished: Int?
        while true {
            if let client = finished {
                finished = nil
                let (again, drainedNow) = lanes.withLock { current -> (Bool, Bool) in
                    current.serving.remove(client)
                    guard !current.stopped, let lane = current.waiting[client], lane.start < lane.items.count else {
                        current.waiting[client] = nil
                        current.bytes[client] = nil
                        current.owners[client] = nil
                        return (false, true)
                    }
                    current.addTurn(client)
                    let count = lane.items.count - lane.start
                    let bytes = current.bytes[client] ?? 0
                    return (true, bytes <= Self.backlogLimit && count <= Self.backlogCount)
                }
                if again { ready.signal() }
                if drainedNow { handlers.withLock { $0 }?.drained(client) }
            }
            ready.wait()
            let next = lanes.withLock { current -> (Request, Int)? in
                if current.stopped { return nil }
                while let client = current.nextTurn() {
                    // A turn of a client whose request is being served, or
                    // whose lane is empty, is skipped: the served one's next
                    // turn comes when it is done.
                    guard !current.serving.contains(client), var lane = current.waiting[client], lane.start < lane.items.count
                    else { continue }
                    let item = lane.items[lane.start]
                    current.waiting[client] = nil  // the lane moved out, so the write below does not copy it
                    lane.start += 1
                    if lane.start > 64 && lane.start * 2 > lane.items.count {
                        lane.items.removeFirst(lane.start)
                        lane.start = 0
                    }
                    current.waiting[client] = lane
                    current.bytes[client, default: 0] -= item.bytes
                    current.serving.insert(client)
                    return (item.request, client)
                }
                return nil
            }
            guard let (request, client) = next else {
                if lanes.withLock({ $0.stopped }) { return }
                continue
            }
            handlers.withLock { $0 }?.serve(request, client)
            finished = client
        }
    }
}
