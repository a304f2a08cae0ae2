import GestureLibrary
import GestureModel
import OperatingSystem
import Synchronization

/// Library gestures the daemon has read, kept while their file is the same
/// (same device, inode, size and modification time): a play by name then
/// costs a `stat`, not a read and a parse (about 11 ms in the VM, where the
/// library is read through 9p). The library writes atomically (a new inode
/// per save), so a saved, renamed or replaced gesture is never served stale.
final class GestureCache: Sendable {
    private struct Key: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    private struct Entry: Sendable {
        var key: Key
        var gesture: Gesture
    }

    /// Gestures kept at most; beyond, the cache starts again empty.
    static let capacity = 256

    private let entries = Mutex<[String: Entry]>([:])

    /// The gesture at `path`, from the cache when the file is unchanged.
    func gesture(at path: String) throws(LibraryError) -> Gesture {
        // Harmless: a file that cannot be stat'ed is read uncached, and reading it throws why (not found, no permission).
        guard let status = try? Paths.status(path) else { return try GestureFile.load(path: path) }
        let key = Key(device: status.device, inode: status.inode, size: status.size, modified: status.modificationSeconds)
        if let entry = entries.withLock({ $0[path] }), entry.key == key { return entry.gesture }
        let gesture = try GestureFile.load(path: path)
        entries.withLock { current in
            if current.count >= Self.capacity { current = [:] }
            current[path] = Entry(key: key, gesture: gesture)
        }
        return gesture
    }

    /// Forgets everything (on reload).
    func clear() { entries.withLock { $0 = [:] } }

    /// How many gestures are kept.
    var count: Int { entries.withLock { $0.count } }
}
