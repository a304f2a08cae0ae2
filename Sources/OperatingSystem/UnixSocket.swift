import CSystemShim
import Glibc

/// Who is at the other end of a Unix socket, as the kernel says
/// (`SO_PEERCRED`, `SO_PEERGROUPS`): not what the peer claims.
public struct PeerCredentials: Hashable, Sendable {
    /// The peer's process id when it connected.
    public var processID: Int32
    /// Its user id.
    public var userID: UInt32
    /// Its primary group id.
    public var groupID: UInt32
    /// Its supplementary group ids.
    public var supplementaryGroups: [UInt32]

    /// Creates credentials (tests use this; servers read them from a socket).
    public init(processID: Int32, userID: UInt32, groupID: UInt32, supplementaryGroups: [UInt32]) {
        self.processID = processID
        self.userID = userID
        self.groupID = groupID
        self.supplementaryGroups = supplementaryGroups
    }

    /// Whether the peer is root or a member of `group` (primary or supplementary).
    public func isRootOrMember(of group: UInt32?) -> Bool {
        if userID == 0 { return true }
        guard let group else { return false }
        return groupID == group || supplementaryGroups.contains(group)
    }
}

/// Stream sockets in the file system (AF_UNIX, SOCK_STREAM): the daemon's
/// listening socket, its clients' connections, and the client side.
public enum UnixSocket {
    /// A listening socket bound to `path` (`socket`, `bind`, `listen` with
    /// a backlog of `backlog`), non-blocking and close-on-exec. A stale
    /// socket file at `path` (nobody accepts on it) is replaced; a live one
    /// is an error (EADDRINUSE), and anything that is not a socket is never
    /// removed.
    public static func listen(at path: String, backlog: Int32 = 128) throws(SystemError) -> FileDescriptor {
        try removeStaleSocket(at: path)
        let socket = FileDescriptor(rawValue: try Syscall.minusOne("socket", path: path) { gesturectl_unix_socket(1) })
        do throws(SystemError) {
            try Syscall.minusOne("bind", path: path) { gesturectl_unix_bind(socket.rawValue, path) }
            try Syscall.minusOne("listen", path: path) { Glibc.listen(socket.rawValue, backlog) }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Removes a socket file at `path` that nobody accepts on (connecting
    /// is refused: ECONNREFUSED); refuses a live one (EADDRINUSE) and
    /// anything that is not a socket (EEXIST). A socket that cannot be
    /// tried (no descriptor left, no permission) is not taken for stale:
    /// that error is thrown and the file kept. `connect` is for tests.
    static func removeStaleSocket(
        at path: String, connect: (String) throws(SystemError) -> FileDescriptor = { path throws(SystemError) in try UnixSocket.connect(to: path) }
    ) throws(SystemError) {
        try removeStaleSocket(
            status: try? Paths.status(path, followLinks: false), path: path,
            connect: { () throws(SystemError) in try connect(path) },
            unlink: { () throws(SystemError) in try FileSystem.unlink(path) })
    }

    /// As ``removeStaleSocket(at:connect:)`` for the file `name` in the
    /// open folder `folder`, never by a path that names the folder: the
    /// file is examined with `fstatat`, tried at `address` (the file in the
    /// folder's descriptor, `/proc/self/fd/N/name`) and removed with
    /// `unlinkat`. `path` names it in errors.
    static func removeStaleSocket(
        named name: String, in folder: FileDescriptor, address: String, path: String,
        connect: (String) throws(SystemError) -> FileDescriptor = { address throws(SystemError) in try UnixSocket.connect(to: address) }
    ) throws(SystemError) {
        var status = stat()
        let found = fstatat(folder.rawValue, name, &status, AT_SYMLINK_NOFOLLOW) == 0
        try removeStaleSocket(
            status: found ? FileStatus(status) : nil, path: path,
            connect: { () throws(SystemError) in
                do throws(SystemError) {
                    return try connect(address)
                } catch {
                    var named = error
                    named.path = path
                    throw named
                }
            },
            unlink: { () throws(SystemError) in try Syscall.minusOne("unlink", path: path) { unlinkat(folder.rawValue, name, 0) } })
    }

    /// The rule both share: nothing there (`status` `nil`) is left to bind.
    private static func removeStaleSocket(
        status: FileStatus?, path: String, connect: () throws(SystemError) -> FileDescriptor, unlink: () throws(SystemError) -> Void
    ) throws(SystemError) {
        // Harmless: nothing there (or a path that cannot be examined) is left to bind, which says why it fails.
        guard let status else { return }
        guard status.type == .socket else {
            throw SystemError(call: "bind", path: path, errorNumber: EEXIST, detail: "it exists and is not a socket")
        }
        do {
            try connect().close()
        } catch where error.errorNumber == ECONNREFUSED {
            try unlink()
            return
        } catch where error.errorNumber == ENOENT {
            return  // Removed meanwhile: bind makes a new one.
        }
        throw SystemError(call: "bind", path: path, errorNumber: EADDRINUSE, detail: "another server listens on it")
    }

    /// A connection to the server listening at `path` (blocking, close-on-exec).
    /// - Throws: ``SystemError``: ENOENT when nothing is there, ECONNREFUSED
    ///   when nobody listens, EACCES without permission.
    public static func connect(to path: String) throws(SystemError) -> FileDescriptor {
        let socket = FileDescriptor(rawValue: try Syscall.minusOne("socket", path: path) { gesturectl_unix_socket(0) })
        do throws(SystemError) {
            try Syscall.minusOne("connect", path: path) { gesturectl_unix_connect(socket.rawValue, path) }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// The next pending connection on a listening socket (`accept4`,
    /// non-blocking and close-on-exec), or `nil` when none is waiting.
    public static func accept(_ listening: FileDescriptor) throws(SystemError) -> FileDescriptor? {
        while true {
            let result = gesturectl_accept(listening.rawValue)
            if result >= 0 { return FileDescriptor(rawValue: result) }
            let errorNumber = errno
            switch errorNumber {
            case EINTR: continue
            // Would block, or the client gave up before we took it.
            case EAGAIN, EWOULDBLOCK, ECONNABORTED: return nil
            default: throw SystemError(call: "accept4", path: listening.description, errorNumber: errorNumber)
            }
        }
    }

    /// Who is connected at the other end of `socket`.
    public static func peer(of socket: FileDescriptor) throws(SystemError) -> PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        try Syscall.minusOne("getsockopt(SO_PEERCRED)") { gesturectl_peer_credentials(socket.rawValue, &pid, &uid, &gid) }
        var groups = [UInt32](repeating: 0, count: 64)
        var count = try Syscall.minusOne("getsockopt(SO_PEERGROUPS)") {
            gesturectl_peer_groups(socket.rawValue, &groups, Int32(groups.count))
        }
        if Int(count) > groups.count {
            groups = [UInt32](repeating: 0, count: Int(count))
            count = try Syscall.minusOne("getsockopt(SO_PEERGROUPS)") {
                gesturectl_peer_groups(socket.rawValue, &groups, Int32(groups.count))
            }
        }
        return PeerCredentials(
            processID: pid, userID: uid, groupID: gid, supplementaryGroups: Array(groups.prefix(Int(count))))
    }

    /// A connected pair of packet sockets (`socketpair(AF_UNIX,
    /// SOCK_SEQPACKET | SOCK_CLOEXEC)`): each `write` arrives as one `read`
    /// at the other end, as with a character device that speaks in whole
    /// messages (/dev/uhid), so tests can stand in for one.
    public static func packetPair() throws(SystemError) -> (FileDescriptor, FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        try Syscall.minusOne("socketpair") {
            socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// Writes as much of `bytes` as the socket takes now (`send` with
    /// MSG_NOSIGNAL|MSG_DONTWAIT): the count written, 0 when it would block.
    /// - Throws: ``SystemError``; EPIPE or ECONNRESET when the peer is gone.
    public static func sendAvailable(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        while true {
            let sent = send(socket.rawValue, base, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent >= 0 { return sent }
            let errorNumber = errno
            if errorNumber == EINTR { continue }
            if errorNumber == EAGAIN || errorNumber == EWOULDBLOCK { return 0 }
            throw SystemError(call: "send", path: socket.description, errorNumber: errorNumber)
        }
    }
}

/// Groups and the process's own identity.
public enum UserGroups {
    /// The id of the group named `name`, `nil` when there is none.
    /// - Throws: ``SystemError`` when the group database cannot be read.
    public static func groupID(named name: String) throws(SystemError) -> UInt32? {
        var gid: UInt32 = 0
        let result = gesturectl_group_id(name, &gid)
        if result == ENOENT || result == ESRCH { return nil }
        try Syscall.errnoValue(result, call: "getgrnam_r", path: name)
        return gid
    }

    /// The effective user id of this process.
    public static var effectiveUserID: UInt32 { UInt32(geteuid()) }
}
