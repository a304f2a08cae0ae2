import DaemonTransport
import GestureBindings
@testable import GestureDaemon
import GestureProtocol
import GestureLibrary
import OperatingSystem
import Synchronization
import Testing

/// The lanes' turn order (issue 36): users take turns, then their clients,
/// so that one user's many clients get one user's share of the workers.
@Suite("Request lanes: turns by user, then by client")
struct RequestLanesTests {
    @Test("Six clients of one user with work waiting: another user's request is served next, not after all six")
    func usersTakeTurns() throws {
        let lanes = RequestLanes<String>(workers: 1, name: "lanes-test")
        let served = Mutex<[String]>([])
        let gate = Semaphore(value: 0)
        let started = Semaphore(value: 0)
        let done = Semaphore(value: 0)
        try lanes.start(
            serve: { request, _ in
                // The first request holds the only worker until all are queued.
                if request == "a1-1" {
                    started.signal()
                    gate.wait()
                }
                served.withLock { $0.append(request) }
                done.signal()
            },
            drained: { _ in })
        lanes.add("a1-1", bytes: 1, client: 1, user: 1_000)
        started.wait()
        for client in 2...6 {
            for number in 1...2 { lanes.add("a\(client)-\(number)", bytes: 1, client: client, user: 1_000) }
        }
        lanes.add("b7-1", bytes: 1, client: 7, user: 2_000)
        lanes.add("b7-2", bytes: 1, client: 7, user: 2_000)
        gate.signal()
        for _ in 0..<13 { done.wait() }
        let order = served.withLock { $0 }
        _ = lanes.stop()
        #expect(order.count == 13)
        // a1-1 was being served; then the users alternate while both have
        // work (user 1000's turn came first), where clients in turn would
        // have served a2 … a6 before b7.
        #expect(Array(order.prefix(5)) == ["a1-1", "a2-1", "b7-1", "a3-1", "b7-2"], "\(order)")
        // Within the user, clients take turns: each one's first before any second.
        let firsts = order.filter { $0.hasPrefix("a") && $0.hasSuffix("-1") }
        let seconds = order.filter { $0.hasPrefix("a") && $0.hasSuffix("-2") }
        #expect(order.lastIndex(of: firsts.last!)! < order.firstIndex(of: seconds.first!)!, "\(order)")
    }

    @Test("A client cut off: what it had waiting is dropped, others are served")
    func forget() throws {
        let lanes = RequestLanes<String>(workers: 1, name: "lanes-test")
        let served = Mutex<[String]>([])
        let gate = Semaphore(value: 0)
        let done = Semaphore(value: 0)
        try lanes.start(
            serve: { request, _ in
                if request == "first" { gate.wait() }
                served.withLock { $0.append(request) }
                done.signal()
            },
            drained: { _ in })
        lanes.add("first", bytes: 1, client: 1, user: 1)
        for number in 0..<5 { lanes.add("greedy \(number)", bytes: 1, client: 2, user: 1) }
        lanes.add("other", bytes: 1, client: 3, user: 2)
        #expect(lanes.forget(2) == 5)
        gate.signal()
        for _ in 0..<2 { done.wait() }
        _ = lanes.stop()
        #expect(served.withLock { $0 } == ["first", "other"])
    }
}

/// A client's user outlives its connection a while (issue 36's follow-up):
/// a play it left waiting in a lane with `on_disconnect` `finish` is queued
/// after it went away, and had no owner, so any member could cancel it.
@Suite("Who a departed client was")
struct DepartedUserTests {
    @Test("After a client leaves, its user is still known for its waiting requests, for the last 4,096 clients")
    func departed() {
        var state = ServerState(
            library: GestureLibrary(userDirectory: "/nonexistent", builtinDirectory: nil), configuration: DaemonConfiguration(),
            allowedGroup: nil)
        state.connect(7, peer: PeerCredentials(processID: 1, userID: 65_533, groupID: 65_534, supplementaryGroups: []))
        #expect(state.user(of: 7) == 65_533)
        state.leave(7)
        #expect(!state.liveClients.contains(7))
        #expect(state.user(of: 7) == 65_533, "a request it left waiting is still its user's")
        #expect(!state.mayAct(on: 65_534, client: 7), "but it may act on nobody else's")
        for client in 100..<(100 + ServerState.departedUsersKept) {
            state.connect(client, peer: PeerCredentials(processID: 1, userID: 65_534, groupID: 65_534, supplementaryGroups: []))
            state.leave(client)
        }
        #expect(state.user(of: 7) == nil, "forgotten once 4,096 others have left since")
        #expect(state.departedUsers.count == ServerState.departedUsersKept)
    }
}

/// Which lane a line goes to: every quick operation is read on arrival only
/// up to `readOnArrival` bytes (the four patterns of one `case` shared a
/// `where` that bounded only the last: a long `cancel`, `version` or `jobs`
/// was read on the I/O thread).
@Suite("Lanes by operation and length")
struct RouteLaneTests {
    @Test("Quick operations on arrival when short, by a worker when long; bindings apart; the rest to the workers")
    func lanes() {
        let limit = Dispatcher.readOnArrival
        for operation in [DaemonOperation.cancel, .version, .jobs, .subscribe] {
            #expect(Dispatcher.lane(for: operation, lineBytes: limit) == .onArrival, "\(operation)")
            #expect(Dispatcher.lane(for: operation, lineBytes: limit + 1) == .work, "\(operation)")
            #expect(Dispatcher.lane(for: operation, lineBytes: 64 << 20) == .work, "\(operation)")
        }
        for operation in [DaemonOperation.bind, .unbind, .bindings] {
            #expect(Dispatcher.lane(for: operation, lineBytes: 40) == .bindings)
            #expect(Dispatcher.lane(for: operation, lineBytes: 64 << 20) == .bindings)
        }
        #expect(Dispatcher.lane(for: .play, lineBytes: 40) == .work)
        #expect(Dispatcher.lane(for: nil, lineBytes: 40) == .work)
    }
}
