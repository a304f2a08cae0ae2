import Glibc
import Synchronization

/// Temporary files being written, so that none outlives its writer: a
/// signal that ends the process removes them first
/// (``SignalMask/terminate(asIfBy:)``), and each is `flock`ed while it is
/// written, so that a later writer can tell an abandoned one (SIGKILL, a
/// crash, a power cut) from one in use and sweep it (``sweep(folder:isOurs:olderThan:)``).
public final class TemporaryFiles: Sendable {
    /// The process's registry, which a signal's way out empties.
    public static let shared = TemporaryFiles()

    private let registered = Mutex<Set<String>>([])

    /// Creates an empty registry (the process uses ``shared``; tests make their own).
    public init() {}

    /// Remembers `path` until ``forget(_:)``; removed if a signal ends the process.
    public func register(_ path: String) { registered.withLock { _ = $0.insert(path) } }

    /// Forgets `path` (renamed into place, or deleted).
    public func forget(_ path: String) { registered.withLock { _ = $0.remove(path) } }

    /// The files registered now.
    public var current: Set<String> { registered.withLock { $0 } }

    /// Deletes every registered file (on the way out after a signal).
    public func removeAll() {
        let paths = registered.withLock { current in
            defer { current = [] }
            return current
        }
        for path in paths { _ = unlink(path) }
    }

    /// Deletes the files in `folder` whose names `isOurs` accepts, that
    /// belong to `owner` (by default this process's effective user: never
    /// another user's file in a shared folder, whatever its name), that were
    /// last modified more than `age` seconds ago and that nobody holds a
    /// lock on (an exclusive `flock` can be taken at once). Each is judged
    /// on the file opened (no link followed, without blocking on a FIFO),
    /// so nothing swapped in after a look is deleted in its place. Returns
    /// the names deleted. Errors are ignored: sweeping is housekeeping.
    @discardableResult
    public static func sweep(
        folder: String, isOurs: (String) -> Bool, olderThan age: Int64 = 600, owner: UInt32 = geteuid()
    ) -> [String] {
        // Harmless: housekeeping (documented); a folder that cannot be listed deletes nothing, and the
        // writer's own file in it then reports why it cannot be made.
        guard let names = try? FileSystem.contentsOfDirectory(folder) else { return [] }
        let now = Int64(time(nil))
        var deleted: [String] = []
        for name in names where isOurs(name) {
            let path = folder + "/" + name
            // Harmless: every failure below keeps the file (never deletes one it could not examine or lock).
            // A look first, so that nothing but a file of the owner's is even opened.
            guard let seen = try? Paths.status(path, followLinks: false), seen.type == .regular, seen.userID == owner,
                let file = try? FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking, .noControllingTerminal])
            else { continue }
            defer { file.close() }
            guard let status = try? file.status(path: path), status.type == .regular, status.userID == owner,
                now - status.modificationSeconds > age
            else { continue }
            // Held by a writer (alive, just slow): leave it.
            // Harmless: a lock that cannot be taken (held, or flock refused) keeps the file.
            guard (try? file.lock(exclusive: true, wait: false)) == true else { continue }
            // Still the file judged (not renamed away and replaced meanwhile).
            guard let current = try? Paths.status(path, followLinks: false), current.device == status.device,
                current.inode == status.inode
            else { continue }
            if unlink(path) == 0 { deleted.append(name) }
        }
        return deleted
    }
}

extension FileDescriptor {
    /// `flock(2)`: takes a shared or exclusive lock on the open file,
    /// waiting for it or not. Returns false when `wait` is false and another
    /// holder has it (EWOULDBLOCK). The lock goes with the descriptor's close.
    @discardableResult
    public func lock(exclusive: Bool, wait: Bool = true) throws(SystemError) -> Bool {
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        while true {
            if flock(rawValue, operation) == 0 { return true }
            let errorNumber = errno
            if errorNumber == EINTR { continue }
            if errorNumber == EWOULDBLOCK { return false }
            throw SystemError(call: "flock", path: description, errorNumber: errorNumber)
        }
    }
}
