import GestureBindings
import GestureLibrary
import GestureModel
import GestureProtocol
import OperatingSystem
import Synchronization

/// Library gestures the daemon has read, kept while their file is the same
/// (same device, inode, size and modification time): a play by name then
/// costs the `stat` that finds its file (two for a built-in: the user's
/// library is looked at first), not a read and a parse. The library writes
/// atomically (a new inode per save), so a saved, renamed or replaced
/// gesture is never served stale.
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

    /// The gesture called `name` in `library`, from the cache when its file
    /// is unchanged; the file is found with the status the cache needs
    /// (``GestureLibrary/file(named:)``), so it is looked at once.
    func gesture(named name: String, in library: GestureLibrary) throws(LibraryError) -> Gesture {
        let file = try library.file(named: name)
        return try gesture(at: file.path, status: file.status)
    }

    /// The gesture at `path` whose status is `status`, from the cache when
    /// the file is unchanged.
    private func gesture(at path: String, status: FileStatus) throws(LibraryError) -> Gesture {
        let key = Key(device: status.device, inode: status.inode, size: status.size, modified: status.modificationSeconds)
        if let entry = entries.withLock({ $0[path] }), entry.key == key { return entry.gesture }
        let gesture = try GestureFile.load(path: path, regularOnly: true)
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
