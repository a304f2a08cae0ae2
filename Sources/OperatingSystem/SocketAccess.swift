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
        /// It is a symbolic link that belongs to a user who is neither root
        /// nor the one making the socket: it is not followed (the kernel's
        /// `protected_symlinks` rule), whatever it points at.
        case foreignLink(owner: UInt32)
    }

    /// The folder that is wrong: the socket's own folder or one of the
    /// folders above it (or a link among them), as a path from `/` with
    /// the links before it resolved.
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
        case .foreignLink(let owner):
            reason = "the folder is a symbolic link that belongs to uid \(owner), neither root nor the daemon's user (uid \(user))"
        }
        return "refusing to create the socket in \(folder): \(reason), so another user could replace the socket;"
            + " use a folder that only root or the daemon's user can write, such as /run/gesturectl or $XDG_RUNTIME_DIR"
    }

    private static func octal(_ value: UInt32) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The folder a socket is made in, checked from `/` down and held open.
///
/// Every folder on the way (`/`, then each element of the path, a relative
/// path taken from the current directory as `getcwd` names it) is opened
/// from the one before it with `openat(O_PATH | O_DIRECTORY | O_NOFOLLOW)`
/// and must pass ``UnsafeSocketFolder/check(folder:permissions:owner:user:)``
/// as `fstat` reads it on that descriptor: checking the socket's folder
/// alone let a parent that another user could change, or a link such a
/// user swapped in, put the socket in that user's folder. A symbolic link
/// on the way is followed only when it belongs to root or the user (it sits
/// in a folder that passed, so no one else can replace it): `/var/run`,
/// root's link to `/run`, is; another user's link is refused. The socket's
/// folder stays open, and the socket is made, tried, removed and set up
/// through that descriptor (see ``UnixSocket/listen(in:access:backlog:)``),
/// so renaming a folder or swapping in a link after the check changes
/// nothing.
public final class SocketFolder: Sendable {
    /// The socket's path as given.
    public let socketPath: String
    /// The folder's path from `/` with links resolved: the folder checked.
    public let path: String
    /// The socket file's name in the folder.
    public let name: String
    /// The user the folders were checked for.
    public let user: UInt32
    /// The folder (`O_PATH`); `nil` when it could not be opened.
    let descriptor: FileDescriptor?
    /// Why the folder could not be opened (a folder that is not there, that
    /// the user may not search, a file on the way): thrown by `listen`.
    let failure: SystemError?

    /// Checks the folders of a socket at `socketPath` for `user` and opens
    /// its folder. A folder that cannot be opened (missing, not searchable)
    /// ends the check there: what was checked passed, and making the socket
    /// reports why it cannot be made.
    /// - Throws: ``UnsafeSocketFolder`` naming the first folder on the way,
    ///   from `/`, that anyone but root and `user` could change.
    public init(socketPath: String, user: UInt32 = UserGroups.effectiveUserID) throws(UnsafeSocketFolder) {
        self.socketPath = socketPath
        self.user = user
        let name = socketPath.lastIndex(of: "/").map { String(socketPath[socketPath.index(after: $0)...]) } ?? socketPath
        self.name = name
        let folder = UnixSocket.folder(of: socketPath)
        switch try Self.walk(folder, user: user) {
        case .opened(let descriptor, let path):
            self.path = path
            if name.isEmpty || name == "." || name == ".." {
                descriptor.close()
                self.descriptor = nil
                self.failure = SystemError(
                    call: "bind", path: socketPath, errorNumber: EINVAL, detail: "the path does not end in a file name")
            } else {
                self.descriptor = descriptor
                self.failure = nil
            }
        case .unreachable(let error, let path):
            self.descriptor = nil
            self.path = path
            self.failure = error
        }
    }

    deinit { descriptor?.close() }

    /// The folder, or why it could not be opened.
    func held() throws(SystemError) -> FileDescriptor {
        guard let descriptor else {
            throw failure ?? SystemError(call: "open", path: path, errorNumber: EBADF)
        }
        return descriptor
    }

    /// The file `name` in the held folder as a path for `bind` and
    /// `connect` (which take no folder descriptor): `/proc/self/fd/N/name`,
    /// which the kernel resolves through the descriptor, not through any
    /// folder's name. Where /proc does not show the descriptor (not
    /// mounted), the folder's path with the whole chain checked again and
    /// found to lead to the same folder (device and inode): a swap between
    /// that check and `bind` needs root or the user, as every folder on the
    /// way is theirs alone. `throughProc` false takes that way (for tests).
    func address(throughProc: Bool = true) throws(SystemError) -> String {
        let folder = try held()
        if throughProc, let proc = UnixSocket.procPath(of: folder) {
            let address = proc + "/" + name
            if address.utf8.count < 108 { return address }
        }
        let walked: Walked
        do {
            walked = try Self.walk(path, user: user)
        } catch {
            throw SystemError(call: "bind", path: socketPath, errorNumber: EPERM, detail: error.description)
        }
        switch walked {
        case .unreachable(let error, _):
            throw error
        case .opened(let again, let againPath):
            defer { again.close() }
            let before = try folder.status(path: path)
            let now = try again.status(path: againPath)
            guard before.device == now.device, before.inode == now.inode else {
                throw SystemError(
                    call: "bind", path: socketPath, errorNumber: EAGAIN, detail: "the folder \(path) was replaced after it was checked")
            }
            return (againPath == "/" ? "" : againPath) + "/" + name
        }
    }

    /// What walking a folder's chain came to.
    enum Walked {
        /// The folder, open, and its path with links resolved.
        case opened(FileDescriptor, path: String)
        /// Why a folder on the way could not be opened, and its path.
        case unreachable(SystemError, path: String)
    }

    /// Opens `folder` (absolute, or from the current directory) from `/`
    /// down, checking each folder for `user`: the last folder and its path
    /// with links resolved, or why a folder could not be opened and its path.
    static func walk(
        _ folder: String, user: UInt32
    ) throws(UnsafeSocketFolder) -> Walked {
        var absolute = folder
        if !folder.hasPrefix("/") {
            guard let current = currentDirectory() else {
                return .unreachable(SystemError(call: "getcwd", path: folder, errorNumber: errno), path: folder)
            }
            absolute = current + "/" + folder
        }
        // Still to walk, last first.
        var pending = Array(absolute.split(separator: "/").map(String.init).reversed())
        // The folders opened so far, `/` first; all are closed but the one returned.
        var chain: [(descriptor: FileDescriptor, path: String)] = []
        var kept: FileDescriptor?
        defer {
            for element in chain where element.descriptor != kept { element.descriptor.close() }
        }
        func open(_ name: String, path: String) throws(UnsafeSocketFolder) -> SystemError? {
            let parent = chain.last?.descriptor.rawValue ?? AT_FDCWD
            let opened = gesturectl_open_folder_at(parent, name)
            guard opened >= 0 else { return SystemError(call: "open", path: path, errorNumber: errno) }
            let descriptor = FileDescriptor(rawValue: opened)
            chain.append((descriptor, path))
            var status = stat()
            guard fstat(opened, &status) == 0 else { return SystemError(call: "fstat", path: path, errorNumber: errno) }
            let owner = UInt32(status.st_uid)
            if let problem = UnsafeSocketFolder.check(folder: path, permissions: UInt32(status.st_mode & 0o7777), owner: owner, user: user) {
                throw problem
            }
            return nil
        }
        if let error = try open("/", path: "/") { return .unreachable(error, path: "/") }
        var links = 0
        while let component = pending.popLast() {
            if component.isEmpty || component == "." { continue }
            if component == ".." {
                if chain.count > 1 { chain.removeLast().descriptor.close() }
                continue
            }
            let parent = chain[chain.count - 1]
            let path = (parent.path == "/" ? "" : parent.path) + "/" + component
            var owner: UInt32 = 0
            let isLink = gesturectl_is_link_at(parent.descriptor.rawValue, component, &owner)
            if isLink == 1 {
                // It sits in a folder that passed: only root and the user can
                // replace it, and so only theirs is followed.
                if owner != 0 && owner != user {
                    throw UnsafeSocketFolder(folder: path, problem: .foreignLink(owner: owner), user: user)
                }
                links += 1
                guard links <= 40, let target = linkTarget(component, in: parent.descriptor) else {
                    let errorNumber = links > 40 ? ELOOP : (errno == 0 ? ENOENT : errno)
                    return .unreachable(SystemError(call: "readlink", path: path, errorNumber: errorNumber), path: path)
                }
                if target.hasPrefix("/") {
                    while chain.count > 1 { chain.removeLast().descriptor.close() }
                }
                pending.append(contentsOf: Array(target.split(separator: "/").map(String.init).reversed()))
                continue
            }
            if let error = try open(component, path: path) { return .unreachable(error, path: path) }
        }
        let last = chain[chain.count - 1]
        kept = last.descriptor
        return .opened(last.descriptor, path: last.path)
    }

    /// The current directory as `getcwd` names it (no links), or `nil`.
    private static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard buffer.withUnsafeMutableBufferPointer({ getcwd($0.baseAddress, $0.count) }) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What the link `name` in `folder` points at (`readlinkat`), or `nil`.
    private static func linkTarget(_ name: String, in folder: FileDescriptor) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { room -> Int in
            guard let base = room.baseAddress else { return -1 }
            return readlinkat(folder.rawValue, name, base, room.count - 1)
        }
        guard count > 0 else {
            if count == 0 { errno = ENOENT }  // An empty link leads nowhere.
            return nil
        }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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

    /// The folder of a socket at `path`, its chain checked for `user` from
    /// `/` down and the folder held open (see ``SocketFolder``), for
    /// ``listen(in:access:backlog:)``.
    /// - Throws: ``UnsafeSocketFolder`` naming the first folder on the way
    ///   that anyone but root and `user` could change.
    public static func openFolder(of path: String, user: UInt32 = UserGroups.effectiveUserID) throws(UnsafeSocketFolder) -> SocketFolder {
        try SocketFolder(socketPath: path, user: user)
    }

    /// Refuses to make a socket at `path` when a folder on its way from `/`
    /// lets anyone but root and `user` replace what is in it: writable by
    /// its group or everyone without the sticky bit, owned by another user,
    /// or a link of another user (see ``SocketFolder``). A folder that
    /// cannot be examined ends the check, and is left for `bind` to report.
    public static func checkFolder(of path: String, user: UInt32 = UserGroups.effectiveUserID) throws(UnsafeSocketFolder) {
        _ = try SocketFolder(socketPath: path, user: user)
    }

    /// A listening socket made in `folder` (as ``listen(at:backlog:)``, a
    /// stale socket file replaced) whose file is made with `access`
    /// without ever changing a file by its path, nor looking up the folder
    /// by its name again.
    ///
    /// The socket is bound to `/proc/self/fd/N/NAME`, `N` being the
    /// folder's descriptor, so it is made in the folder that was checked
    /// even when a folder on the way was renamed or replaced by a link
    /// since; the stale socket is tried the same way and removed with
    /// `unlinkat` on the descriptor. Without /proc the folder's path is
    /// used, after checking the whole chain again (see ``SocketFolder``).
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
    /// handle on the file opened in the folder's descriptor, checked to be
    /// a socket of this user: `fchownat` on the handle, `chmod` of
    /// `/proc/self/fd/N` (the handle's inode, not a path lookup; without
    /// /proc, `fchmodat` in the folder, which only root and the user can
    /// change). A link found there instead is left alone, and the socket
    /// not used.
    /// - Throws: ``SystemError``: why the folder could not be opened (ENOENT
    ///   naming the first missing folder; without /proc, EPERM when the
    ///   chain checked again is no longer safe, EAGAIN when it leads to
    ///   another folder); as ``listen(at:backlog:)``;
    ///   `chown` or `chmod` when the group or mode cannot be set (EPERM for
    ///   a group the user is not in); `bind` (EEXIST) when the file was
    ///   replaced.
    public static func listen(in folder: SocketFolder, access: SocketAccess, backlog: Int32 = 128) throws(SystemError) -> FileDescriptor {
        let path = folder.socketPath
        let held = try folder.held()
        let address = try folder.address()
        try removeStaleSocket(named: folder.name, in: held, address: address, path: path)
        let socket = FileDescriptor(rawValue: try Syscall.minusOne("socket", path: path) { gesturectl_unix_socket(1) })
        do throws(SystemError) {
            var groupTaken: Int32 = 0
            try Syscall.minusOne("bind", path: path) {
                gesturectl_unix_bind_with_access(socket.rawValue, address, access.permissions, access.group.map { Int64($0) } ?? -1, &groupTaken)
            }
            try settleAccess(in: folder, access: access)
            try Syscall.minusOne("listen", path: path) { Glibc.listen(socket.rawValue, backlog) }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Sets what `bind` could not of the socket file in `folder`, through a
    /// handle on the file itself opened in the folder's descriptor (see
    /// ``listen(in:access:backlog:)``).
    static func settleAccess(in folder: SocketFolder, access: SocketAccess) throws(SystemError) {
        let path = folder.socketPath
        let held = try folder.held()
        let handle = FileDescriptor(rawValue: try Syscall.minusOne("open", path: path) { gesturectl_open_path_handle_at(held.rawValue, folder.name) })
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
            if let proc = procPath(of: handle) {
                try Syscall.minusOne("chmod", path: path) { chmod(proc, mode_t(access.permissions)) }
            } else {
                try Syscall.minusOne("chmod", path: path) { gesturectl_chmod_at(held.rawValue, folder.name, access.permissions) }
            }
        }
    }

    /// `/proc/self/fd/N` for `descriptor` when /proc shows it (the path
    /// leads to the same device and inode), else `nil`.
    static func procPath(of descriptor: FileDescriptor) -> String? {
        let proc = "/proc/self/fd/\(descriptor.rawValue)"
        var held = stat()
        var shown = stat()
        guard fstat(descriptor.rawValue, &held) == 0, stat(proc, &shown) == 0,
            held.st_dev == shown.st_dev, held.st_ino == shown.st_ino
        else { return nil }
        return proc
    }
}
