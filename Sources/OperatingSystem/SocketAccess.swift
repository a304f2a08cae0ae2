import CSystemShim
import Glibc

/// Who may use a listening socket's file: its permission bits and group.
public struct SocketAccess: Hashable, Sendable {
    /// The permission bits (`0o660`, `0o600`).
    public var permissions: UInt32
    /// The group; `nil` keeps the one the file is created with.
    public var group: UInt32?

    /// Creates an access.
    public init(permissions: UInt32, group: UInt32?) {
        self.permissions = permissions & 0o777
        self.group = group
    }
}

/// A folder a socket is not made in, because someone other than root and
/// the user making it could replace the socket there (with a link to a
/// file of their choosing, or a socket of their own).
public struct UnsafeSocketFolder: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the folder.
    public enum Problem: Hashable, Sendable {
        /// Its group or everyone may write it, and it is not sticky (a
        /// sticky folder lets only a file's owner rename or remove it).
        case writableByOthers(permissions: UInt32)
        /// It belongs to a user who is neither root nor the one making the socket.
        case foreignOwner(UInt32)
    }

    /// The folder, as derived from the socket's path.
    public var folder: String
    /// What is wrong.
    public var problem: Problem
    /// The user making the socket.
    public var user: UInt32

    /// Creates the error.
    public init(folder: String, problem: Problem, user: UInt32) {
        self.folder = folder
        self.problem = problem
        self.user = user
    }

    /// What is wrong with a folder with `permissions` belonging to `owner`
    /// for a socket made by `user`; `nil` when only root and `user` can
    /// replace what is in it.
    public static func check(folder: String, permissions: UInt32, owner: UInt32, user: UInt32) -> UnsafeSocketFolder? {
        if owner != 0 && owner != user {
            return UnsafeSocketFolder(folder: folder, problem: .foreignOwner(owner), user: user)
        }
        if permissions & 0o022 != 0 && permissions & UInt32(S_ISVTX) == 0 {
            return UnsafeSocketFolder(folder: folder, problem: .writableByOthers(permissions: permissions & 0o7777), user: user)
        }
        return nil
    }

    /// `refusing to create the socket in /srv/sockets: …`, saying what is
    /// wrong and what to use instead.
    public var description: String {
        let reason: String
        switch problem {
        case .writableByOthers(let permissions):
            let who = permissions & 0o002 != 0 ? "everyone" : "its group"
            reason = "the folder is writable by \(who) (mode \(Self.octal(permissions))) and not sticky"
        case .foreignOwner(let owner):
            reason = "the folder belongs to uid \(owner), neither root nor the daemon's user (uid \(user))"
        }
        return "refusing to create the socket in \(folder): \(reason), so another user could replace the socket;"
            + " use a folder that only root or the daemon's user can write, such as /run/gesturectl or $XDG_RUNTIME_DIR"
    }

    private static func octal(_ value: UInt32) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension UnixSocket {
    /// The folder a socket at `path` is made in: everything before the last
    /// `/` (`/` itself for `/name`, `.` for a bare name).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Refuses to make a socket at `path` when its folder (links followed)
    /// lets anyone but root and `user` replace it: writable by its group or
    /// everyone without the sticky bit, or owned by another user. A folder
    /// that cannot be examined is left for `bind` to report.
    public static func checkFolder(of path: String, user: UInt32 = UserGroups.effectiveUserID) throws(UnsafeSocketFolder) {
        let folder = folder(of: path)
        // Harmless: a folder that cannot be examined is left to bind, which reports why it cannot make the socket (documented).
        guard let status = try? Paths.status(folder), status.type == .directory else { return }
        if let problem = UnsafeSocketFolder.check(folder: folder, permissions: status.permissions, owner: status.userID, user: user) {
            throw problem
        }
    }

    /// A listening socket bound to `path` (as ``listen(at:backlog:)``, a
    /// stale socket file replaced) whose file is made with `access`
    /// without ever changing a file by its path.
    ///
    /// Changing the mode and group after `bind` by path (chmod, chown)
    /// follows whatever is at the path by then: someone who can write the
    /// folder swaps the new socket for a link to a file of their choosing,
    /// which then gets the socket's mode and group. Instead the file is born
    /// right: `bind` runs under a umask that leaves exactly the permission
    /// bits (Linux creates the file with the socket inode's mode, set with
    /// `fchmod`, less the umask), as the group through the calling thread's
    /// file-system group id (`setfsgid`, which root may always take). The
    /// umask is the process's: nothing else in the process creates files
    /// while a daemon binds its socket. What `bind` could not set (a group
    /// that is only a supplementary one of a user who is not root: the file
    /// is then born with the owner's bits only; a setgid folder's group; a
    /// default ACL) is set afterwards through an `O_PATH | O_NOFOLLOW`
    /// handle on the file, checked to be a socket of this user: `fchownat`
    /// on the handle, `chmod` of `/proc/self/fd/N` (the handle's inode, not
    /// a path lookup). A link found there instead is left alone, and the
    /// socket not used.
    /// - Throws: ``SystemError``: as ``listen(at:backlog:)``; `chown` or
    ///   `chmod` when the group or mode cannot be set (EPERM for a group the
    ///   user is not in); `bind` (EEXIST) when the file was replaced.
    public static func listen(at path: String, access: SocketAccess, backlog: Int32 = 128) throws(SystemError) -> FileDescriptor {
        try removeStaleSocket(at: path)
        let socket = FileDescriptor(rawValue: try Syscall.minusOne("socket", path: path) { gesturectl_unix_socket(1) })
        do throws(SystemError) {
            var groupTaken: Int32 = 0
            try Syscall.minusOne("bind", path: path) {
                gesturectl_unix_bind_with_access(socket.rawValue, path, access.permissions, access.group.map { Int64($0) } ?? -1, &groupTaken)
            }
            try settleAccess(of: path, access: access)
            try Syscall.minusOne("listen", path: path) { Glibc.listen(socket.rawValue, backlog) }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Sets what `bind` could not of the socket file at `path`, through a
    /// handle on the file itself (see ``listen(at:access:backlog:)``).
    static func settleAccess(of path: String, access: SocketAccess) throws(SystemError) {
        let handle = FileDescriptor(rawValue: try Syscall.minusOne("open", path: path) { gesturectl_open_path_handle(path) })
        defer { handle.close() }
        let status = try handle.status(path: path)
        guard status.type == .socket, status.userID == UserGroups.effectiveUserID else {
            throw SystemError(
                call: "bind", path: path, errorNumber: EEXIST,
                detail: "the socket file was replaced by another file before its permissions were set; that file was left as it is")
        }
        if let group = access.group, status.groupID != group {
            try Syscall.minusOne("chown", path: path) { gesturectl_set_handle_group(handle.rawValue, group) }
        }
        if status.permissions != access.permissions {
            try Syscall.minusOne("chmod", path: path) { chmod("/proc/self/fd/\(handle.rawValue)", mode_t(access.permissions)) }
        }
    }
}
