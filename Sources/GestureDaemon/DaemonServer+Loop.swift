import GesturePlayback
import OperatingSystem

extension DaemonServer {
    /// The I/O thread: accepts, reads, answers, writes, until stopped and
    /// every client is closed.
    func runLoop() {
        var listeningOpen = true
        defer {
            if listeningOpen { listening.close() }
            if let path = createdSocketPath { try? FileSystem.unlink(path) }
            let clients = state.withLock { current in
                defer { current.clients = [:] }
                return Array(current.clients.values)
            }
            for client in clients { client.socket.close() }
            log.notice("stopped")
        }
        while true {
            // A light view of each client: a copy of its state would share
            // its buffers and make every append below copy them whole.
            let (stopping, drained, clients, overBudget) = state.withLock {
                ($0.stopping, $0.drained, $0.clients.values.map(ClientView.init), $0.bufferedInput >= limits.inputBudgetBytes)
            }
            // A client whose replies went over the limit is cut off now: it
            // does not read, so "close once written" would never come.
            let readers = clients.filter { !$0.overflowed }
            for client in clients where client.overflowed { disconnect(client.id, reason: "did not read its replies") }
            if stopping {
                // Stop listening at once; let the replies of the jobs being
                // cancelled be queued (stop() says when) and written.
                if listeningOpen {
                    listening.close()
                    listeningOpen = false
                    if let path = createdSocketPath { try? FileSystem.unlink(path) }
                }
                if drained && readers.allSatisfy({ $0.pendingOutput == 0 }) { return }
            }
            var requests: [(FileDescriptor, Poll.Events)] = [(wake.fileDescriptor, .readable)]
            if listeningOpen { requests.append((listening, .readable)) }
            // Over the input budget, a client with a long incomplete line
            // waits (its writes stay in the kernel) until others' complete;
            // the one with the longest goes on, so that one always completes
            // (or goes over the line limit) and frees its share.
            let favoured = overBudget
                ? readers.filter { $0.inputCount >= limits.freeInputBytes }.max { ($0.inputCount, -$0.id) < ($1.inputCount, -$1.id) }?.id
                : nil
            for client in readers {
                let waits = overBudget && client.inputCount >= limits.freeInputBytes && client.id != favoured
                let reads: Poll.Events = waits ? [] : .readable
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
            if listeningOpen && !ready[1].isEmpty { acceptClients() }
            let offset = listeningOpen ? 2 : 1
            for (index, client) in readers.enumerated() {
                let events = ready[offset + index]
                // Over a limit and not writable (a Unix socket is writable
                // only while three quarters of its buffer are free): a write
                // says whether the kernel still takes anything, so that only
                // a client whose socket is full (writeBlocked) loses events.
                if client.pendingOutput > min(limits.eventBufferBytes, limits.replyBufferBytes) && !events.contains(.writable) {
                    writeTo(client.id)
                }
                if events.isEmpty { continue }
                if events.contains(.readable) || !events.isDisjoint(with: [.hangUp, .error]) {
                    if !readFrom(client.id, favoured: client.id == favoured) { continue }
                }
                if events.contains(.writable) { writeTo(client.id) }
            }
        }
    }

    private func acceptClients() {
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
            let (id, allowed) = state.withLock { current -> (Int, Bool) in
                current.nextClientID += 1
                let allowed = peer.isRootOrMember(of: current.allowedGroup)
                var client = ClientState(id: current.nextClientID, socket: socket, peer: peer)
                if !allowed {
                    client.output = Array(
                        DaemonReply.failure(
                            id: .null,
                            error: DaemonError(
                                .permissionDenied,
                                "user \(peer.userID) may not use this daemon: only root and members of group \"\(current.configuration.group)\" may")
                        ).utf8)
                    client.closing = true
                }
                current.clients[client.id] = client
                return (client.id, allowed)
            }
            if allowed {
                log.info("client \(id) connected (pid \(peer.processID), uid \(peer.userID))")
            } else {
                log.warning("client \(id) refused: uid \(peer.userID) (pid \(peer.processID)) is neither root nor in the group")
            }
        }
    }

    /// Reads what the client sent and handles its complete lines; false when
    /// the client is gone.
    private func readFrom(_ id: Int, favoured: Bool) -> Bool {
        guard let socket = state.withLock({ $0.clients[id]?.socket }) else { return false }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // At most 1 MiB per client per turn: handling the lines of a big
        // read takes the I/O thread from the other clients.
        for _ in 0..<16 {
            let count: Int?
            do {
                count = try chunk.withUnsafeMutableBytes { buffer throws(SystemError) in
                    try socket.read(into: buffer, path: "client \(id)")
                }
            } catch {
                disconnect(id, reason: "\(error)")
                return false
            }
            guard let count else { return true }
            if count == 0 {
                disconnect(id, reason: "closed the connection")
                return false
            }
            let lineLimit = limits.lineBytes
            // Everything under the lock happens in place: appending to a copy
            // of the client would copy its whole input for every chunk.
            let (closing, lines, tooLarge, waits) = state.withLock { current -> (Bool, [[UInt8]], Bool, Bool) in
                guard let closing = current.clients[id]?.closing else { return (true, [], false, false) }
                if closing { return (true, [], false, false) }  // refused or cut off: ignore what it sends
                let before = current.clients[id]?.input.count ?? 0
                let taken = current.clients[id]?.takeLines(chunk[0..<count], limit: lineLimit) ?? (lines: [], tooLarge: false)
                let after = current.clients[id]?.input.count ?? 0
                current.bufferedInput += after - before
                let waits = !favoured && after >= limits.freeInputBytes && current.bufferedInput >= limits.inputBudgetBytes
                return (false, taken.lines, taken.tooLarge, waits)
            }
            if closing { continue }
            for line in lines where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                handleLine(line, from: id)
            }
            if tooLarge {
                reply(
                    id,
                    DaemonReply.failure(
                        id: .null,
                        error: DaemonError(.tooLarge, "a request line is longer than \(Self.describeBytes(lineLimit)); the connection is closed")))
                state.withLock { $0.clients[id]?.closing = true }
                log.warning("client \(id) sent a line over the limit; closing")
            }
            // Replies go out as they are made, not after the whole read: a
            // client that pipelines many requests gets them sooner, and one
            // that does not read is seen to be blocked (writeBlocked) before
            // its replies pile up.
            if !writeTo(id) { return false }
            if waits { return true }  // over the input budget: read it again when others' lines complete
        }
        return true
    }

    /// `64 MiB`, `1 KiB`, `100 bytes`.
    static func describeBytes(_ count: Int) -> String {
        if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }

    /// Writes what the socket takes of the client's output; false when the
    /// client is gone (disconnected here, or before).
    @discardableResult
    private func writeTo(_ id: Int) -> Bool {
        // Sent under the lock (a non-blocking send), in place: the output is
        // never copied, and the workers' replies append to it meanwhile.
        let outcome = state.withLock { current -> Result<Bool, any Error> in
            guard current.clients[id] != nil else { return .success(false) }
            do {
                try current.clients[id]?.sendOutput()
            } catch {
                return .failure(error)
            }
            // A client that read again hears how many events it missed.
            current.clients[id]?.flushDropped(limit: limits.eventBufferBytes)
            return .success(current.clients[id].map { $0.pendingOutput == 0 && $0.closing } ?? false)
        }
        switch outcome {
        case .failure(let error):
            disconnect(id, reason: "\(error)")
            return false
        case .success(true):
            disconnect(id, reason: "done")
            return false
        case .success(false):
            return state.withLock { $0.clients[id] != nil }
        }
    }

    /// Forgets a client and applies its jobs' `on_disconnect`.
    func disconnect(_ id: Int, reason: String) {
        let (client, cancelled) = state.withLock { current -> (ClientState?, [JobHandle<PlaybackResult, PlaybackProgress>]) in
            let client = current.clients.removeValue(forKey: id)
            current.bufferedInput -= client?.input.count ?? 0
            let jobs = current.jobs.values.filter { $0.clientID == id && $0.cancelOnDisconnect }.map(\.handle)
            return (client, jobs)
        }
        guard let client else { return }
        client.socket.close()
        for handle in cancelled { handle.cancel() }
        releaseHeldKeys(of: id)
        recordingClientLeft(id)
        log.info("client \(id) disconnected (\(reason))" + (cancelled.isEmpty ? "" : "; \(cancelled.count) job(s) cancelled"))
    }
}

/// What the I/O loop needs to know of a client for one poll.
struct ClientView {
    let id: Int
    let socket: FileDescriptor
    let pendingOutput: Int
    let inputCount: Int
    let overflowed: Bool

    init(_ client: ClientState) {
        id = client.id
        socket = client.socket
        pendingOutput = client.pendingOutput
        inputCount = client.input.count
        overflowed = client.overflowed
    }
}
