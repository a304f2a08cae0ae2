import GestureFormat
import Glibc
import OperatingSystem

/// The client side of the protocol: one connection, requests answered in
/// order. Used by `gesturectl --socket PATH COMMAND`.
public final class DaemonClient {
    /// The socket connected to.
    public let path: String
    private let socket: FileDescriptor
    private var lines = LineBuffer()
    private var nextID = 0
    /// Events read while a call waited for its reply, kept for ``nextEvent()``
    /// when ``keepsEvents`` is on.
    private var keptEvents: [JSONValue] = []
    private var keptStart = 0

    /// Whether events that arrive while a call waits for its reply are kept
    /// for ``nextEvent()`` (off: they are skipped). A client that subscribes
    /// and then starts a job turns it on, so that none of the job's events
    /// is lost between the request and its reply.
    public var keepsEvents = false

    /// Bytes searched for a newline so far (each byte once: a reply of
    /// megabytes arrives in many reads, and searching the whole of it again
    /// after each made reading it quadratic).
    package var scannedBytes: Int { lines.scannedBytes }
    /// Bytes read from the daemon so far.
    package var receivedBytes: Int { lines.receivedBytes }

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

    /// The next pushed event (a subscriber's); replies no call waits for are skipped.
    /// - Throws: ``DaemonUnreachable`` when the connection breaks.
    public func nextEvent() throws(DaemonUnreachable) -> JSONValue {
        if keptStart < keptEvents.count {
            let event = keptEvents[keptStart]
            keptStart += 1
            if keptStart == keptEvents.count {
                keptEvents.removeAll()
                keptStart = 0
            }
            return event
        }
        while true {
            let line = try readLine()
            // Harmless: a line that is not JSON is no event.
            if case .event(let event)? = try? DaemonReplyLine.parse(line) { return event }
        }
    }

    /// Sends a request without waiting for its reply, which comes later
    /// through ``nextMessage()`` among the events (a `record-stop` that
    /// waits while the recording's strokes are pushed): its id.
    /// - Throws: ``DaemonUnreachable`` when the connection breaks.
    public func send(_ request: DaemonCall) throws(DaemonUnreachable) -> Int {
        nextID += 1
        do {
            try socket.writeAll(Array(request.line(id: nextID).utf8), path: path)
        } catch {
            throw DaemonUnreachable(path: path, reason: "the connection broke: \(error.errorMessage)")
        }
        return nextID
    }

    /// The next event or reply: events kept while a call waited first,
    /// then each line as it comes (a line that is not JSON is skipped).
    /// - Throws: ``DaemonUnreachable`` when the connection breaks.
    public func nextMessage() throws(DaemonUnreachable) -> DaemonReplyLine {
        if keptStart < keptEvents.count { return .event(try nextEvent()) }
        while true {
            let line = try readLine()
            // Harmless: a line that is not JSON is no message.
            if let message = try? DaemonReplyLine.parse(line) { return message }
        }
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
            case .event(let event):
                if keepsEvents { keptEvents.append(event) }
                continue
            case .reply(let replyID, let outcome):
                guard replyID == JSONValue.integer(id) || replyID == JSONValue.null else { continue }
                return try outcome.get()
            }
        }
    }

    /// The next line from the daemon (without its newline).
    private func readLine() throws(DaemonUnreachable) -> [UInt8] {
        while true {
            if let line = lines.next() { return line }
            let chunk: [UInt8]?
            do {
                chunk = try socket.read(upTo: 1 << 16, path: path)
            } catch {
                throw DaemonUnreachable(path: path, reason: "the connection broke: \(error.errorMessage)")
            }
            guard let chunk, !chunk.isEmpty else {
                throw DaemonUnreachable(path: path, reason: "the daemon closed the connection")
            }
            lines.append(chunk)
        }
    }
}

/// Bytes read from a stream, taken out a line at a time. Each byte is
/// searched for a newline once, however many reads a line takes, and the
/// taken lines are dropped from the front now and then (not after each
/// line): splitting a stream of n bytes costs O(n).
struct LineBuffer {
    private var bytes: [UInt8] = []
    /// Where the next line starts.
    private var start = 0
    /// Where the search for its newline goes on (bytes before it have none).
    private var searched = 0
    /// Bytes searched for a newline in all.
    private(set) var scannedBytes = 0
    /// Bytes appended in all.
    private(set) var receivedBytes = 0

    /// Adds what was read.
    mutating func append(_ chunk: [UInt8]) {
        // Drop the taken lines once they are most of the buffer: each byte
        // is moved a bounded number of times.
        if start > 0 && start >= bytes.count - start {
            bytes.removeFirst(start)
            searched -= start
            start = 0
        }
        bytes.append(contentsOf: chunk)
        receivedBytes += chunk.count
    }

    /// The next complete line (without its newline), or `nil` until one is.
    mutating func next() -> [UInt8]? {
        let end = bytes.count
        let newline = ByteSearch.newline(in: bytes, from: searched)
        scannedBytes += (newline.map { $0 + 1 } ?? end) - searched
        guard let newline else {
            searched = end
            return nil
        }
        let line = Array(bytes[start..<newline])
        start = newline + 1
        searched = start
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16)
            start = 0
            searched = 0
        }
        return line
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
