import GestureBindings
import Glibc
import GestureFormat
import GestureProtocol
import OperatingSystem
import Synchronization

/// The daemon's bounds on what it holds for its clients (docs/PROTOCOL.md,
/// "Limits"). The defaults are the protocol's; tests make them small.
public struct ClientLimits: Sendable, Hashable {
    /// The longest request line (without its newline): a longer one is
    /// answered `too-large` and the connection closed.
    public var lineBytes: Int
    /// Pushed events are dropped (and counted) for a client whose unread
    /// output exceeds this.
    public var eventBufferBytes: Int
    /// A client whose unread replies exceed this is disconnected (its
    /// output discarded).
    public var replyBufferBytes: Int
    /// Unread input (an incomplete line) each client may have buffered
    /// whatever the others hold.
    public var freeInputBytes: Int
    /// All clients' unread input together: beyond it, of the clients whose
    /// incomplete line is over `freeInputBytes` only the one with the
    /// longest is read (the others' writes wait in the kernel) until it
    /// completes. With 100 clients sending 64 MiB lines at once, the
    /// daemon holds at most this + one line + `freeInputBytes` (and a
    /// 64 KiB read) per client — 128 + 64 + 100 × 1 MiB ≈ 300 MiB with
    /// the defaults — not 6.4 GB.
    public var inputBudgetBytes: Int
    /// One user's incomplete lines together (all their connections):
    /// beyond it, that user's clients with more than `freeInputBytes`
    /// buffered wait, but the one with the longest line, as for
    /// `inputBudgetBytes`; other users' lines go on.
    public var userInputBytes: Int
    /// All clients' unread replies and events together (every reply
    /// counts: errors and `busy` too): beyond it, the clients that do not
    /// read (their socket is full) and hold the most are disconnected,
    /// largest first, until the rest is within it. A client that reads is
    /// never cut off, and nobody is answered `busy` for it.
    public var totalReplyBytes: Int
    /// One user's unread replies and events together (all their
    /// connections): beyond it, that user's clients that do not read are
    /// disconnected, largest first.
    public var userReplyBytes: Int
    /// The most connections one user may hold at once (issue 36: 400
    /// clients of one member, each holding 1 MiB of an unfinished line,
    /// took 437 MiB): another is refused `busy` and closed.
    public var connectionsPerUser: Int
    /// The most connections of all users together.
    public var connections: Int

    /// Creates limits; the defaults are the daemon's.
    public init(
        lineBytes: Int = DaemonRequest.maximumLineBytes, eventBufferBytes: Int = 1 << 20,
        replyBufferBytes: Int = 256 << 20, freeInputBytes: Int = 1 << 20, inputBudgetBytes: Int = 128 << 20,
        userInputBytes: Int = 64 << 20, totalReplyBytes: Int = 512 << 20, userReplyBytes: Int = 256 << 20,
        connectionsPerUser: Int = 128, connections: Int = 1_024
    ) {
        self.userInputBytes = userInputBytes
        self.userReplyBytes = userReplyBytes
        self.connectionsPerUser = connectionsPerUser
        self.connections = connections
        self.totalReplyBytes = totalReplyBytes
        self.lineBytes = lineBytes
        self.eventBufferBytes = eventBufferBytes
        self.replyBufferBytes = replyBufferBytes
        self.freeInputBytes = freeInputBytes
        self.inputBudgetBytes = inputBudgetBytes
    }
}

/// The daemon's socket: one I/O thread (`gesturectl-io`) polls the
/// listening socket and every client, reads request lines and hands each
/// complete one to its owner, and writes what the owner queued for the
/// clients (replies, and the events they subscribed to) as they read. It
/// knows lines, clients and the limits, nothing of what the lines mean.
///
/// Replies and pushed events go into each client's bounded output buffer;
/// a client that does not read loses pushed events (counted, and told in a
/// `dropped` event), never stalls the daemon.
package final class SocketServer: Sendable {
    /// What the I/O thread asks of the socket's owner; each is called on
    /// the I/O thread, outside the socket server's lock.
    package struct Handlers: Sendable {
        /// Why a peer may not use the daemon; `nil`: it may.
        package var refusal: @Sendable (PeerCredentials) -> DaemonError?
        /// A client was let in (before any of its lines is handled).
        package var connected: @Sendable (_ client: Int, _ peer: PeerCredentials) -> Void
        /// A complete, non-blank request line from a client.
        package var line: @Sendable (_ line: [UInt8], _ client: Int) -> Void
        /// A client went away; how many of its jobs that ended (for the log).
        package var disconnected: @Sendable (_ client: Int) -> Int
        /// A client is cut off for not reading (before it is disconnected):
        /// what it has waiting to be served is not worth serving.
        package var cutOff: @Sendable (_ client: Int) -> Void = { _ in }
        /// Whether a client is not read for now (its requests waiting to be
        /// served are over their bound); ``resume()`` says when to look again.
        package var paused: @Sendable (_ client: Int) -> Bool = { _ in false }

        /// Handlers; see each property.
        package init(
            refusal: @escaping @Sendable (PeerCredentials) -> DaemonError?,
            connected: @escaping @Sendable (_ client: Int, _ peer: PeerCredentials) -> Void,
            line: @escaping @Sendable (_ line: [UInt8], _ client: Int) -> Void,
            disconnected: @escaping @Sendable (_ client: Int) -> Int,
            cutOff: @escaping @Sendable (_ client: Int) -> Void = { _ in },
            paused: @escaping @Sendable (_ client: Int) -> Bool = { _ in false }
        ) {
            self.refusal = refusal
            self.connected = connected
            self.line = line
            self.disconnected = disconnected
            self.cutOff = cutOff
            self.paused = paused
        }
    }

    /// The clients and the loop's flags, behind one lock.
    private struct Clients: Sendable {
        var byID: [Int: ClientState] = [:]
        var nextID = 0
        /// The unread input of all clients together (their `input`s' sizes).
        var bufferedInput = 0
        /// The unread output of all clients together.
        var pendingOutput = 0
        /// Each user's clients' unread input and output together.
        var inputByUser: [UInt32: Int] = [:]
        var outputByUser: [UInt32: Int] = [:]
        /// Stop listening (the daemon stops).
        var stopping = false
        /// Every reply there will be is queued: finish once they are written.
        var drained = false

        /// Changes client `id` in place (a copy would copy its buffers),
        /// keeping the totals, all users' and its user's, in step with what
        /// `body` did to its input and output; `nil` when it is gone.
        @discardableResult
        mutating func change<Result>(_ id: Int, _ body: (inout ClientState) -> Result) -> Result? {
            guard let user = byID[id]?.peer.userID, let output = byID[id]?.pendingOutput, let input = byID[id]?.input.count else {
                return nil
            }
            let result = body(&byID[id]!)
            account(user, output: byID[id]!.pendingOutput - output, input: byID[id]!.input.count - input)
            return result
        }

        /// Forgets client `id` and what it held.
        mutating func remove(_ id: Int) -> ClientState? {
            guard let client = byID.removeValue(forKey: id) else { return nil }
            account(client.peer.userID, output: -client.pendingOutput, input: -client.input.count)
            return client
        }

        private mutating func account(_ user: UInt32, output: Int, input: Int) {
            if output != 0 {
                pendingOutput += output
                outputByUser[user, default: 0] += output
                if outputByUser[user] == 0 { outputByUser[user] = nil }
            }
            if input != 0 {
                bufferedInput += input
                inputByUser[user, default: 0] += input
                if inputByUser[user] == 0 { inputByUser[user] = nil }
            }
        }

        /// Cuts off the clients that do not read while they hold more
        /// unread output than a bound allows: a client over its own bound,
        /// then the largest holders of `user` while that user is over theirs,
        /// then the largest of all while all are over the total. Only a client
        /// whose socket is full (``ClientState/writeBlocked``) is cut: one that
        /// reads is writing out what it holds. Returns each one cut off with
        /// why; the I/O loop disconnects them.
        mutating func enforceOutputBudgets(after id: Int, limits: ClientLimits) -> [(id: Int, reason: String)] {
            var cut: [(id: Int, reason: String)] = []
            if let client = byID[id], client.writeBlocked, !client.overflowed, client.pendingOutput > limits.replyBufferBytes {
                cut.append((id, "over \(SocketServer.describeBytes(limits.replyBufferBytes)) a client may hold"))
                cutOff(id)
            }
            guard let user = byID[id]?.peer.userID else { return cut }
            while (outputByUser[user] ?? 0) > limits.userReplyBytes, let largest = largestNonReader(of: user) {
                cut.append((largest, "user \(user)'s clients hold over \(SocketServer.describeBytes(limits.userReplyBytes)), the most one user may"))
                cutOff(largest)
            }
            while pendingOutput > limits.totalReplyBytes, let largest = largestNonReader(of: nil) {
                cut.append((largest, "all clients hold over \(SocketServer.describeBytes(limits.totalReplyBytes)), the most the daemon keeps"))
                cutOff(largest)
            }
            return cut
        }

        /// The client (of `user`, or of anyone) that does not read and holds the most output.
        private func largestNonReader(of user: UInt32?) -> Int? {
            byID.values.lazy
                .filter { $0.writeBlocked && !$0.overflowed && $0.pendingOutput > 0 && (user == nil || $0.peer.userID == user) }
                .map { (id: $0.id, held: $0.pendingOutput) }
                .max { ($0.held, -$0.id) < ($1.held, -$1.id) }?.id
        }

        private mutating func cutOff(_ id: Int) {
            change(id) {
                $0.overflowed = true
                $0.discardOutput()
            }
        }
    }

    /// The I/O thread: named `gesturectl-io`.
    package static let ioThread = ThreadOptions(name: "gesturectl-io")

    private let listening: FileDescriptor
    private let createdSocketPath: String?
    package let limits: ClientLimits
    private let log: DaemonLog
    private let clients = Mutex(Clients())
    private let wake: EventCounter

    /// A server on `listening`; nothing runs until ``start(_:)``.
    /// `createdSocketPath` is removed when it stops.
    package init(listening: FileDescriptor, createdSocketPath: String?, limits: ClientLimits, log: DaemonLog) throws(SystemError) {
        self.listening = listening
        self.createdSocketPath = createdSocketPath
        self.limits = limits
        self.log = log
        wake = try EventCounter()
    }

    /// Starts the I/O thread; `finished` is called on it once it has ended.
    package func start(_ handlers: Handlers, finished: @escaping @Sendable () -> Void) throws {
        // A socket handed over by socket activation is blocking: the I/O
        // thread accepts until "would block", so it must not be.
        try listening.setNonBlocking()
        try DedicatedThread.start(Self.ioThread) { [self] in
            run(handlers)
            finished()
        }
    }

    /// The unread input held for all clients (incomplete lines), in bytes.
    package var bufferedInputBytes: Int { clients.withLock { $0.bufferedInput } }

    /// The replies and events all clients have not read yet, in bytes.
    package var pendingOutputBytes: Int { clients.withLock { $0.pendingOutput } }

    /// A paused client may be read again (see ``Handlers/paused``).
    package func resume() { wake.signal() }

    /// Stops listening at once (the socket file goes); the clients stay
    /// until ``finish()``.
    package func stopListening() {
        clients.withLock { $0.stopping = true }
        wake.signal()
    }

    /// Every reply is queued: the I/O thread ends once they are written (a
    /// slow reader gets at most a second), closing every client.
    package func finish() {
        clients.withLock {
            $0.stopping = true
            $0.drained = true
        }
        wake.signal()
    }

    // MARK: Output to clients

    /// Queues `line` for a client (a reply: never dropped; clients that let
    /// replies pile up past a bound are disconnected, their output
    /// discarded: see ``ClientLimits``).
    package func reply(_ clientID: Int, _ line: String) {
        let cut = clients.withLock { current in
            current.change(clientID) { $0.appendOutput(line.utf8) }
            return current.enforceOutputBudgets(after: clientID, limits: limits)
        }
        logCutOff(cut)
        wake.signal()
    }

    /// Says once for each client cut off that it is, and why.
    private func logCutOff(_ cut: [(id: Int, reason: String)]) {
        for (id, reason) in cut { log.warning("client \(id) does not read its replies and holds the most: \(reason); disconnecting") }
    }

    /// Pushes an event to every client subscribed to it; a client whose
    /// unread output is over the limit loses it (counted). An event nobody
    /// is subscribed to costs one look under the lock: its fields are not
    /// made and the I/O thread is not woken (a play's `queued` and `running`
    /// come before its first frame).
    package func broadcast<Message: DaemonEventMessage>(_ message: @autoclosure () -> Message) {
        broadcast(Message.event, message().fields)
    }

    /// Pushes an event of `event` with `fields` (an assist's line: `create`
    /// or `menu`); see ``broadcast(_:)-generic``. With `user`, only that
    /// user's clients hear it (a member's binding drives only its own
    /// on-screen button, never another user's).
    package func broadcast(_ event: DaemonEvent, to user: UInt32? = nil, _ fields: @autoclosure () -> [(String, JSONValue)]) {
        func hears(_ client: ClientState) -> Bool { client.subscriptions.contains(event) && (user == nil || client.peer.userID == user) }
        let heard = clients.withLock { current in current.byID.values.contains(where: hears) }
        guard heard else { return }
        let line = Array(DaemonReply.event(event, fields()).utf8)
        let limit = limits.eventBufferBytes
        let (startedDropping, cut) = clients.withLock { current -> ([Int], [(id: Int, reason: String)]) in
            var started: [Int] = []
            var cut: [(id: Int, reason: String)] = []
            // The ids copied first: iterating the dictionary itself while
            // changing its clients would copy it, and every client's output.
            for id in Array(current.byID.keys) where current.byID[id].map(hears) == true {
                if current.change(id, { $0.pushEvent(line, limit: limit) }) == true { started.append(id) }
                cut += current.enforceOutputBudgets(after: id, limits: limits)
            }
            return (started, cut)
        }
        logCutOff(cut)
        for id in startedDropping {
            log.warning("client \(id) does not read: over \(limit) bytes wait for it; its events are dropped (and counted) until it reads")
        }
        wake.signal()
    }

    /// Adds `events` to what a client hears.
    package func subscribe(_ clientID: Int, to events: Set<DaemonEvent>) {
        clients.withLock { $0.byID[clientID]?.subscriptions.formUnion(events) }
    }

    // MARK: The I/O loop

    /// Accepts, reads, hands lines over, writes, until stopped and every
    /// client is closed.
    private func run(_ handlers: Handlers) {
        var listeningOpen = true
        // One read buffer for the thread's life: made and zeroed per read,
        // its 64 KiB cost every request as much as a `version` round trip
        // is long under the VM's emulation.
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        defer {
            if listeningOpen { listening.close() }
            // Harmless: a socket file left behind (removed already, or its folder made read-only) is stale, and the next daemon's listen removes a stale socket.
            if let path = createdSocketPath { try? FileSystem.unlink(path) }
            let remaining = clients.withLock { current in
                defer { current.byID = [:] }
                return Array(current.byID.values)
            }
            for client in remaining { client.socket.close() }
            log.notice("stopped")
        }
        while true {
            // A light view of each client: a copy of its state would share
            // its buffers and make every append below copy them whole.
            let limits = limits
            let (stopping, drained, views, overTotal, usersOver) = clients.withLock { current in
                (
                    current.stopping, current.drained, current.byID.values.map(ClientView.init),
                    current.bufferedInput >= limits.inputBudgetBytes,
                    Set(current.inputByUser.lazy.filter { $0.value >= limits.userInputBytes }.map(\.key))
                )
            }
            // A client whose replies went over a bound is cut off now: it
            // does not read, so "close once written" would never come.
            let readers = views.filter { !$0.overflowed }
            let cutOff = views.filter(\.overflowed)
            for client in cutOff {
                handlers.cutOff(client.id)
                disconnect(client.id, reason: "did not read its replies", handlers)
            }
            // What they held is free: give it back to the system, not only to
            // the heap (glibc keeps large frees for reuse).
            if !cutOff.isEmpty { Heap.returnFreeMemory() }
            if stopping {
                // Stop listening at once; let the replies of the jobs being
                // cancelled be queued (finish() says when) and written.
                if listeningOpen {
                    listening.close()
                    listeningOpen = false
                    // Harmless: as at the end of run() (a stale socket is removed by the next listen).
                    if let path = createdSocketPath { try? FileSystem.unlink(path) }
                }
                if drained && readers.allSatisfy({ $0.pendingOutput == 0 }) { return }
            }
            var requests: [(FileDescriptor, Poll.Events)] = [(wake.fileDescriptor, .readable)]
            if listeningOpen { requests.append((listening, .readable)) }
            // Over the input budget (all users' or its user's), a client with
            // a long incomplete line waits (its writes stay in the kernel)
            // until others' complete; of each user, the one with the longest
            // goes on, so that one always completes (or goes over the line
            // limit) and frees its share, and one user who stalls in the
            // middle of long lines holds up only their own.
            let long = readers.filter { $0.inputCount >= limits.freeInputBytes && (overTotal || usersOver.contains($0.user)) }
            let favoured = Set(
                Dictionary(grouping: long, by: \.user).values.compactMap {
                    $0.max { ($0.inputCount, -$0.id) < ($1.inputCount, -$1.id) }?.id
                })
            for client in readers {
                let waits = (overTotal || usersOver.contains(client.user)) && client.inputCount >= limits.freeInputBytes
                    && !favoured.contains(client.id)
                let reads: Poll.Events = waits || handlers.paused(client.id) ? [] : .readable
                requests.append((client.socket, client.pendingOutput == 0 ? reads : reads.union(.writable)))
            }
            let ready: [Poll.Events]
            do {
                // Once drained, give slow readers at most a second.
                ready = try Poll.wait(requests, timeoutMilliseconds: drained ? 1_000 : nil)
            } catch {
                log.error("poll failed: \(error); stopping")
                return
            }
            if drained && ready.allSatisfy(\.isEmpty) { return }
            if !ready[0].isEmpty { wake.drain() }
            if listeningOpen && !ready[1].isEmpty { acceptClients(handlers) }
            let offset = listeningOpen ? 2 : 1
            for (index, client) in readers.enumerated() {
                let events = ready[offset + index]
                // Over a limit and not writable (a Unix socket is writable
                // only while three quarters of its buffer are free): a write
                // says whether the kernel still takes anything, so that only
                // a client whose socket is full (writeBlocked) loses events.
                if client.pendingOutput > min(limits.eventBufferBytes, limits.replyBufferBytes) && !events.contains(.writable) {
                    writeTo(client.id, handlers)
                }
                if events.isEmpty { continue }
                if events.contains(.readable) || !events.isDisjoint(with: [.hangUp, .error]) {
                    if !readFrom(client.id, favoured: favoured.contains(client.id), into: &chunk, handlers) { continue }
                }
                if events.contains(.writable) { writeTo(client.id, handlers) }
            }
        }
    }

    private func acceptClients(_ handlers: Handlers) {
        while true {
            let socket: FileDescriptor
            do {
                guard let accepted = try UnixSocket.accept(listening) else { return }
                socket = accepted
            } catch {
                log.error("accept failed: \(error)")
                return
            }
            let peer: PeerCredentials
            do {
                peer = try UnixSocket.peer(of: socket)
            } catch {
                log.warning("a client's credentials cannot be read (\(error)); refused")
                socket.close()
                continue
            }
            var refusal = handlers.refusal(peer)
            let id = clients.withLock { current -> Int in
                current.nextID += 1
                if refusal == nil {
                    let open = current.byID.values.filter { !$0.closing }
                    if open.count >= limits.connections {
                        refusal = DaemonError(.busy, "the daemon holds \(limits.connections) connections, the most it takes; try again later")
                    } else if open.lazy.filter({ $0.peer.userID == peer.userID }).count >= limits.connectionsPerUser {
                        refusal = DaemonError(
                            .busy, "user \(peer.userID) holds \(limits.connectionsPerUser) connections, the most one user may; close one first")
                    }
                }
                let client = ClientState(id: current.nextID, socket: socket, peer: peer)
                current.byID[client.id] = client
                if let refusal {
                    // Counted as every reply is (a flood of refusals is
                    // bounded like any other output).
                    current.change(client.id) {
                        $0.appendOutput(DaemonReply.failure(id: .null, error: refusal).utf8)
                        $0.closing = true
                    }
                }
                return client.id
            }
            if refusal == nil {
                handlers.connected(id, peer)
                log.info("client \(id) connected (pid \(peer.processID), uid \(peer.userID))")
            } else if refusal?.code == .busy {
                // Rate-limited by user (a negative key), not by this connection's
                // id: a flood of refused connections is one user's lines.
                log.client(-1 - Int(peer.userID), .warning, "client \(id) refused: \(refusal?.message ?? "")")
            } else {
                log.warning("client \(id) refused: uid \(peer.userID) (pid \(peer.processID)) is neither root nor in the group")
            }
        }
    }

    /// Reads what the client sent and hands its complete lines over; false
    /// when the client is gone.
    private func readFrom(_ id: Int, favoured: Bool, into chunk: inout [UInt8], _ handlers: Handlers) -> Bool {
        guard let socket = clients.withLock({ $0.byID[id]?.socket }) else { return false }
        // At most 1 MiB per client per turn: handling the lines of a big
        // read takes the I/O thread from the other clients.
        for _ in 0..<16 {
            let count: Int?
            do {
                count = try chunk.withUnsafeMutableBytes { buffer throws(SystemError) in
                    try socket.read(into: buffer, path: "client \(id)")
                }
            } catch {
                disconnect(id, reason: "\(error)", handlers)
                return false
            }
            guard let count else { return true }
            if count == 0 {
                disconnect(id, reason: "closed the connection", handlers)
                return false
            }
            let lineLimit = limits.lineBytes
            // Everything under the lock happens in place: appending to a copy
            // of the client would copy its whole input for every chunk.
            let (closing, lines, tooLarge, waits) = clients.withLock { current -> (Bool, [[UInt8]], Bool, Bool) in
                guard let closing = current.byID[id]?.closing, let user = current.byID[id]?.peer.userID else { return (true, [], false, false) }
                if closing { return (true, [], false, false) }  // refused or cut off: ignore what it sends
                let taken = current.change(id) { $0.takeLines(chunk[0..<count], limit: lineLimit) } ?? (lines: [], tooLarge: false)
                let after = current.byID[id]?.input.count ?? 0
                let waits = !favoured && after >= limits.freeInputBytes
                    && (current.bufferedInput >= limits.inputBudgetBytes || current.inputByUser[user, default: 0] >= limits.userInputBytes)
                return (false, taken.lines, taken.tooLarge, waits)
            }
            if closing { continue }
            for line in lines where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                handlers.line(line, id)
            }
            if tooLarge {
                reply(
                    id,
                    DaemonReply.failure(
                        id: .null,
                        error: DaemonError(.tooLarge, "a request line is longer than \(Self.describeBytes(lineLimit)); the connection is closed")))
                clients.withLock { $0.change(id) { $0.closing = true } }
                log.warning("client \(id) sent a line over the limit; closing")
            }
            // Replies go out as they are made, not after the whole read: a
            // client that pipelines many requests gets them sooner, and one
            // that does not read is seen to be blocked (writeBlocked) before
            // its replies pile up.
            if !writeTo(id, handlers) { return false }
            if waits { return true }  // over the input budget: read it again when others' lines complete
            if handlers.paused(id) { return true }  // its requests wait to be served: read on when they are
        }
        return true
    }

    /// `64 MiB`, `1 KiB`, `100 bytes`.
    package static func describeBytes(_ count: Int) -> String {
        if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }

    /// Writes what the socket takes of the client's output; false when the
    /// client is gone (disconnected here, or before).
    @discardableResult
    private func writeTo(_ id: Int, _ handlers: Handlers) -> Bool {
        // Sent under the lock (a non-blocking send), in place: the output is
        // never copied, and the workers' replies append to it meanwhile.
        let outcome = clients.withLock { current -> Result<Bool, any Error> in
            guard current.byID[id] != nil else { return .success(false) }
            let sent = current.change(id) { client -> (any Error)? in
                do {
                    try client.sendOutput()
                } catch {
                    return error
                }
                // A client that read again hears how many events it missed.
                client.flushDropped(limit: limits.eventBufferBytes)
                return nil
            }
            if let error = sent ?? nil { return .failure(error) }
            return .success(current.byID[id].map { $0.pendingOutput == 0 && $0.closing } ?? false)
        }
        switch outcome {
        case .failure(let error):
            disconnect(id, reason: "\(error)", handlers)
            return false
        case .success(true):
            disconnect(id, reason: "done", handlers)
            return false
        case .success(false):
            return clients.withLock { $0.byID[id] != nil }
        }
    }

    /// Forgets a client, and tells the owner.
    private func disconnect(_ id: Int, reason: String, _ handlers: Handlers) {
        // Its buffers are freed inside the lock, with the client.
        let removed = clients.withLock { current -> (socket: FileDescriptor, held: Int)? in
            guard let client = current.remove(id) else { return nil }
            return (client.socket, client.input.count + client.pendingOutput)
        }
        guard let removed else { return }
        removed.socket.close()
        // A client that held a megabyte or more (a long line, unread
        // replies): its memory goes back to the system, not only to the heap.
        if removed.held >= 1 << 20 { Heap.returnFreeMemory() }
        let cancelled = handlers.disconnected(id)
        log.info("client \(id) disconnected (\(reason))" + (cancelled == 0 ? "" : "; \(cancelled) job(s) cancelled"))
        log.forgetClient(id)
    }
}

/// What the I/O loop needs to know of a client for one poll.
private struct ClientView {
    let id: Int
    let user: UInt32
    let socket: FileDescriptor
    let pendingOutput: Int
    let inputCount: Int
    let overflowed: Bool

    init(_ client: ClientState) {
        id = client.id
        user = client.peer.userID
        socket = client.socket
        pendingOutput = client.pendingOutput
        inputCount = client.input.count
        overflowed = client.overflowed
    }
}

/// One connected client, as the I/O thread and the workers share it.
/// Mutated in place in ``ServerState/clients`` (never copied out and back:
/// its buffers can be megabytes).
package struct ClientState: Sendable {
    package let id: Int
    package let socket: FileDescriptor
    package let peer: PeerCredentials

    package init(id: Int, socket: FileDescriptor, peer: PeerCredentials) {
        self.id = id
        self.socket = socket
        self.peer = peer
    }

    /// Unread input: an incomplete line, without a newline in it.
    package var input: [UInt8] = []
    /// Output not yet sent, in chunks (a reply each, small ones together):
    /// a large reply is never copied to grow one buffer, and a sent one is
    /// freed whole. The first `sentOfFirst` bytes of the first chunk are sent.
    private var chunks: [[UInt8]] = []
    private var firstChunk = 0
    private var sentOfFirst = 0
    /// Bytes queued and not yet sent.
    private(set) var pendingOutput = 0
    /// Close once the output is written (refused peers, oversize lines).
    package var closing = false
    /// Its replies went over the limit: disconnect it now.
    package var overflowed = false
    package var subscriptions: Set<DaemonEvent> = []
    package var droppedEvents = 0
    /// The socket refused part of the last write: its buffer is full, the
    /// client is not reading. Only then do the output limits apply, so that
    /// the replies and events queued between two writes (a burst of
    /// pipelined requests) are not taken for a client that does not read.
    package var writeBlocked = false

    /// Small outputs go into one chunk up to this size.
    private static let chunkBytes = 1 << 16

    package mutating func appendOutput<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard !overflowed, !bytes.isEmpty else { return }
        if firstChunk < chunks.count, let last = chunks.indices.last, chunks[last].count + bytes.count <= Self.chunkBytes {
            chunks[last].append(contentsOf: bytes)
        } else {
            chunks.append(Array(bytes))
        }
        pendingOutput += bytes.count
    }

    package mutating func discardOutput() {
        chunks = []
        firstChunk = 0
        sentOfFirst = 0
        pendingOutput = 0
    }

    /// Sends what the socket takes now (non-blocking).
    package mutating func sendOutput() throws {
        writeBlocked = false
        while firstChunk < chunks.count {
            let socket = socket
            let start = sentOfFirst
            let sent = try chunks[firstChunk].withUnsafeBytes { bytes in
                try UnixSocket.sendAvailable(socket, UnsafeRawBufferPointer(rebasing: bytes[start...]))
            }
            pendingOutput -= sent
            sentOfFirst += sent
            if sentOfFirst < chunks[firstChunk].count {
                writeBlocked = true
                break
            }
            chunks[firstChunk] = []  // freed now, not when the array is trimmed
            firstChunk += 1
            sentOfFirst = 0
        }
        if firstChunk == chunks.count {
            chunks.removeAll(keepingCapacity: chunks.capacity <= 64)
            firstChunk = 0
        } else if firstChunk >= 64 && firstChunk * 2 >= chunks.count {
            chunks.removeFirst(firstChunk)
            firstChunk = 0
        }
    }

    /// Queues a pushed event, or counts it as dropped when more than
    /// `limit` bytes wait; true when this starts a run of drops.
    package mutating func pushEvent(_ line: [UInt8], limit: Int) -> Bool {
        if pendingOutput > limit && writeBlocked {
            droppedEvents += 1
            return droppedEvents == 1
        }
        flushDropped(limit: limit)
        appendOutput(line)
        return false
    }

    /// Adds `bytes` to the input and takes the complete lines out (without
    /// their newlines). A line longer than `limit` (complete or not) stops
    /// it: the lines before it are returned, nothing after, and the input is
    /// emptied. Only the new bytes are searched for newlines.
    package mutating func takeLines(_ bytes: ArraySlice<UInt8>, limit: Int) -> (lines: [[UInt8]], tooLarge: Bool) {
        var lines: [[UInt8]] = []
        var lineStart = 0  // in input
        let searchFrom = input.count
        input.append(contentsOf: bytes)
        var index = searchFrom
        while let newline = ByteSearch.newline(in: input, from: index) {
            if newline - lineStart > limit {
                input = []
                return (lines, true)
            }
            if lineStart == 0 && newline == input.count - 1 {
                // The whole input is one line (a long one, often): taken, not copied.
                var line = input
                input = []
                line.removeLast()
                lines.append(line)
                return (lines, false)
            }
            lines.append(Array(input[lineStart..<newline]))
            lineStart = newline + 1
            index = lineStart
        }
        if input.count - lineStart > limit {
            input = []
            return (lines, true)
        }
        if lineStart > 0 { input.removeFirst(lineStart) }
        return (lines, false)
    }


    /// Queues the `dropped` event once the output is back under `limit`
    /// (or the socket took all it was given).
    package mutating func flushDropped(limit: Int) {
        guard droppedEvents > 0, pendingOutput <= limit || !writeBlocked else { return }
        appendOutput(DaemonReply.event(DroppedEvent.event, DroppedEvent(count: droppedEvents).fields).utf8)
        droppedEvents = 0
    }
}
