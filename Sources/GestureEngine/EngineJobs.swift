import GestureModel
import GesturePlayback
import OperatingSystem
import Synchronization

/// The plays and presses the engine runs for its front ends, by job id
/// (issue 37: a menu's play or a create flow's review never reached the
/// daemon's job table, so `jobs` could not show it nor `cancel` stop it).
/// Every job started through ``Engine/startPlay(_:handle:)`` or
/// ``Engine/startPress(_:handle:)`` is here from its start to its end; any
/// front end lists them and cancels one by its id. Ids come from one
/// source (``nextID()``), which a front end that keeps a job table of its
/// own (the daemon's) draws from too, so that no two jobs share an id.
public final class EngineJobs: Sendable {
    /// One job.
    public struct Entry: Sendable, Hashable {
        /// What it is.
        public enum Kind: String, Sendable, Hashable {
            case play, press
        }

        public let id: Int
        public let kind: Kind
        /// The kind of device it plays on.
        public let device: DeviceKind
        /// Whether it has written a frame yet (else it waits in its device's queue).
        public var running: Bool
    }

    private struct State: Sendable {
        var entries: [Int: (entry: Entry, handle: PlaybackHandle)] = [:]
        var serial = 0
    }

    private let state = Mutex(State())

    /// A job table with no jobs.
    public init() {}

    /// A new job id, never one handed out before by this engine: a serial
    /// number in its high bits, so ids grow in the order jobs start, and 20
    /// random bits below it, so that no user can guess another's (issue
    /// 36); at most 2^53 − 1, exact in every JSON reader.
    public func nextID() -> Int {
        let serial = state.withLock { current -> Int in
            current.serial += 1
            return current.serial
        }
        var generator = SystemRandomNumberGenerator()
        return (serial << 20) | Int.random(in: 0..<(1 << 20), using: &generator)
    }

    /// Adds the job whose handle is `handle`; it goes when it ends. Its id.
    @discardableResult
    func register(_ kind: Entry.Kind, device: DeviceKind, handle: PlaybackHandle) -> Int {
        let id = nextID()
        state.withLock { $0.entries[id] = (Entry(id: id, kind: kind, device: device, running: false), handle) }
        handle.observeProgress { [weak self] progress in
            guard progress.framesWritten > 0 else { return }
            self?.state.withLock { current in
                if current.entries[id]?.entry.running == false { current.entries[id]?.entry.running = true }
            }
        }
        // Registered after the entry: a job that ended already is removed at once.
        handle.onCompletion { [weak self] _ in _ = self?.state.withLock { $0.entries.removeValue(forKey: id) } }
        return id
    }

    /// The jobs running or waiting, in id order.
    public func list() -> [Entry] {
        state.withLock { current in current.entries.values.map(\.entry).sorted { $0.id < $1.id } }
    }

    /// Cancels job `id` (it lifts every finger and releases every key);
    /// false when there is no such job (it ended, or was never the engine's).
    @discardableResult
    public func cancel(_ id: Int) -> Bool {
        guard let handle = state.withLock({ $0.entries[id]?.handle }) else { return false }
        handle.cancel()
        return true
    }

    /// Cancels every job (the emergency stop); how many.
    @discardableResult
    public func cancelAll() -> Int {
        let handles = state.withLock { current in current.entries.values.map(\.handle) }
        for handle in handles { handle.cancel() }
        return handles.count
    }
}
