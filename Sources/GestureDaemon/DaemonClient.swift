import GestureFormat
import OperatingSystem

/// The client side of the protocol: one connection, requests answered in
/// order. Used by `gesturectl --socket PATH COMMAND`.
public final class DaemonClient {
    /// The socket connected to.
    public let path: String
    private let socket: FileDescriptor
    private var buffer: [UInt8] = []
    private var nextID = 0

    /// Connects to the daemon at `path`.
    /// - Throws: ``DaemonUnreachable`` naming the path and why.
    public init(path: String) throws(DaemonUnreachable) {
        self.path = path
        do {
            socket = try UnixSocket.connect(to: path)
        } catch {
            throw DaemonUnreachable(
                path: path, reason: error.errorMessage, isPermissionDenied: error.kind == .permissionDenied)
        }
    }

    deinit { socket.close() }

    /// Sends a request and returns the reply's `result`. Pushed events that
    /// arrive meanwhile are skipped.
    /// - Throws: ``DaemonError`` from the daemon, or ``DaemonUnreachable``
    ///   when the connection breaks.
    public func call(_ request: DaemonCall) throws -> JSONValue {
        nextID += 1
        return try exchange(request.line(id: nextID), id: nextID)
    }

    /// Sends `op` with `arguments` spelled out, known to the protocol or not:
    /// for tests of the protocol itself; programs use the typed ``DaemonCall``.
    public func call(_ op: String, _ arguments: [(String, JSONValue)] = []) throws -> JSONValue {
        nextID += 1
        return try exchange(DaemonCall.line(id: nextID, op: op, arguments), id: nextID)
    }

    /// Sends a request line and waits for the reply to `id`.
    private func exchange(_ line: String, id: Int) throws -> JSONValue {
        var writeError: SystemError?
        do {
            try socket.writeAll(Array(line.utf8), path: path)
        } catch {
            // The daemon may have refused us and closed at once: its reply
            // says why, and is worth more than "broken pipe".
            writeError = error
        }
        while true {
            let reply: [UInt8]
            do {
                reply = try readLine()
            } catch {
                if let writeError { throw DaemonUnreachable(path: path, reason: "the connection broke: \(writeError.errorMessage)") }
                throw error
            }
            switch try DaemonReplyLine.parse(reply) {
            case .event: continue
            case .reply(let replyID, let outcome):
                guard replyID == JSONValue.integer(id) || replyID == JSONValue.null else { continue }
                return try outcome.get()
            }
        }
    }

    /// The next line from the daemon (without its newline).
    private func readLine() throws(DaemonUnreachable) -> [UInt8] {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk: [UInt8]?
            do {
                chunk = try socket.read(upTo: 1 << 16, path: path)
            } catch {
                throw DaemonUnreachable(path: path, reason: "the connection broke: \(error.errorMessage)")
            }
            guard let chunk, !chunk.isEmpty else {
                throw DaemonUnreachable(path: path, reason: "the daemon closed the connection")
            }
            buffer.append(contentsOf: chunk)
        }
    }
}

/// The daemon cannot be reached at a path (exit status 5).
public struct DaemonUnreachable: Error, Hashable, Sendable, CustomStringConvertible {
    /// The socket tried.
    public var path: String
    /// Why (the system's words).
    public var reason: String
    /// Whether the socket refused us for lack of permission (not in its group).
    public var isPermissionDenied: Bool = false
    /// `the daemon is unreachable at PATH: REASON`, with what to do about a
    /// permission problem.
    public var description: String {
        "the daemon is unreachable at \(path): \(reason)"
            + (isPermissionDenied ? " (its socket is for root and the group 'gesturectl': join the group)" : "")
    }
}
