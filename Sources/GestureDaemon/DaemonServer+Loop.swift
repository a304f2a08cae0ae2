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
            let (stopping, drained, clients) = state.withLock { ($0.stopping, $0.drained, Array($0.clients.values)) }
            if stopping {
                // Stop listening at once; let the replies of the jobs being
                // cancelled be queued (stop() says when) and written.
                if listeningOpen {
                    listening.close()
                    listeningOpen = false
                    if let path = createdSocketPath { try? FileSystem.unlink(path) }
                }
                if drained && clients.allSatisfy({ $0.output.isEmpty }) { return }
            }
            var requests: [(FileDescriptor, Poll.Events)] = [(wake.fileDescriptor, .readable)]
            if listeningOpen { requests.append((listening, .readable)) }
            for client in clients {
                requests.append((client.socket, client.output.isEmpty ? .readable : [.readable, .writable]))
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
            for (index, client) in clients.enumerated() {
                let events = ready[offset + index]
                if events.isEmpty { continue }
                if events.contains(.readable) || !events.isDisjoint(with: [.hangUp, .error]) {
                    if !readFrom(client.id) { continue }
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
    private func readFrom(_ id: Int) -> Bool {
        guard let socket = state.withLock({ $0.clients[id]?.socket }) else { return false }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        for _ in 0..<64 {
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
            let closing = state.withLock { $0.clients[id]?.closing ?? true }
            if closing { continue }  // refused or cut off: ignore what it sends
            var lines: [[UInt8]] = []
            var tooLarge = false
            state.withLock { current in
                guard var client = current.clients[id] else { return }
                client.input.append(contentsOf: chunk[0..<count])
                while let newline = client.input.firstIndex(of: 0x0A) {
                    lines.append(Array(client.input[..<newline]))
                    client.input.removeSubrange(...newline)
                }
                if client.input.count > DaemonRequest.maximumLineBytes {
                    tooLarge = true
                    client.input = []
                }
                current.clients[id] = client
            }
            for line in lines where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                handleLine(line, from: id)
            }
            if tooLarge || lines.contains(where: { $0.count > DaemonRequest.maximumLineBytes }) {
                reply(
                    id,
                    DaemonReply.failure(
                        id: .null,
                        error: DaemonError(.tooLarge, "a request line is longer than \(DaemonRequest.maximumLineBytes >> 20) MiB; the connection is closed")))
                state.withLock { $0.clients[id]?.closing = true }
                log.warning("client \(id) sent a line over the limit; closing")
            }
        }
        return true
    }

    private func writeTo(_ id: Int) {
        guard let client = state.withLock({ $0.clients[id] }), !client.output.isEmpty else { return }
        let sent: Int
        do {
            sent = try client.output.withUnsafeBytes { bytes throws(SystemError) in
                try UnixSocket.sendAvailable(client.socket, bytes)
            }
        } catch {
            disconnect(id, reason: "\(error)")
            return
        }
        let done = state.withLock { current -> Bool in
            guard var updated = current.clients[id] else { return false }
            updated.output.removeFirst(min(sent, updated.output.count))
            current.clients[id] = updated
            return updated.output.isEmpty && updated.closing
        }
        if done { disconnect(id, reason: "done") }
    }

    /// Forgets a client and applies its jobs' `on_disconnect`.
    func disconnect(_ id: Int, reason: String) {
        let (client, cancelled) = state.withLock { current -> (ClientState?, [JobHandle<PlaybackResult, PlaybackProgress>]) in
            let client = current.clients.removeValue(forKey: id)
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
