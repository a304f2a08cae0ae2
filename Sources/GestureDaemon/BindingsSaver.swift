import Glibc
import OperatingSystem
import Synchronization

/// Writes `bindings.json` on a thread of its own (`gesturectl-save`), a
/// few times a second at most: the changes made while one write is under
/// way, or within ``minimumInterval`` of it, go into the next write
/// together (a group commit). Each change's reply waits for the write that
/// holds it, so a `bind` answered `ok` is on disk, and 5,000 pipelined
/// `bind`s cost a few writes, not 5,000 (docs/PROTOCOL.md, "bind").
final class BindingsSaver: Sendable {
    /// What the next write holds: the bindings, or `nil` to delete the
    /// file (the configuration's apply again).
    typealias Contents = [TriggerBinding]?
    /// Told how the write holding a change went: `nil` when it is on disk.
    typealias Completion = @Sendable (DaemonError?) -> Void

    private struct State: Sendable {
        /// The contents to write next, when something changed since the last write.
        var next: Contents? = nil
        /// The completions waiting for the next write.
        var waiting: [Completion] = []
        var stopping = false
        /// CLOCK_MONOTONIC seconds of the last write's end.
        var lastWrite = -Double.infinity
    }

    /// How the file is written, and deleted: ``BindingsFile`` in the daemon.
    struct Storage: Sendable {
        var write: @Sendable (Contents) throws(DaemonError) -> Void
    }

    /// At most this often (seconds) is the file written.
    static let minimumInterval = 0.2

    private let storage: Storage
    /// Told on the saver's thread after each write: what was written, and
    /// whether it failed, before the completions are called.
    private let written = Mutex<(@Sendable (Contents, DaemonError?, Int) -> Void)?>(nil)
    private let state = Mutex(State())
    private let wake = Semaphore(value: 0)
    private let ended = Semaphore(value: 0)
    private let running = Mutex(false)

    init(storage: Storage) { self.storage = storage }

    /// Starts the saver's thread; `written` is told on it after each write
    /// what was written, whether it failed and how many changes it held,
    /// before their completions.
    func start(written: @escaping @Sendable (_ contents: Contents, _ failure: DaemonError?, _ changes: Int) -> Void) throws(SystemError) {
        self.written.withLock { $0 = written }
        try DedicatedThread.start(ThreadOptions(name: "gesturectl-save")) { [self] in run() }
        running.withLock { $0 = true }
    }

    /// Writes `contents` soon (with any later change); `completion` is told
    /// how that write went. False, and nothing queued, once stopping.
    func save(_ contents: Contents, completion: @escaping Completion) -> Bool {
        let accepted = state.withLock { current -> Bool in
            if current.stopping { return false }
            current.next = .some(contents)
            current.waiting.append(completion)
            return true
        }
        if accepted { wake.signal() }
        return accepted
    }

    /// Writes what is pending at once, then ends the thread; returns when
    /// that is done.
    func stop() {
        state.withLock { $0.stopping = true }
        guard running.withLock({ $0 }) else { return }
        wake.signal()
        ended.wait()
    }

    /// The changes waiting for the next write, taken away: a write failed,
    /// and they were made on top of what it would have written (the caller
    /// undoes them, and tells their completions).
    func takePending() -> [Completion] {
        state.withLock { current in
            defer {
                current.next = nil
                current.waiting = []
            }
            return current.waiting
        }
    }

    private func run() {
        while true {
            wake.wait()
            while true {
                let (pending, stopping, last) = state.withLock { ($0.next != nil, $0.stopping, $0.lastWrite) }
                guard pending else {
                    if stopping {
                        ended.signal()
                        return
                    }
                    break
                }
                // Changes that come meanwhile join this write; a stop writes at once.
                let wait = last + Self.minimumInterval - Self.now()
                if wait > 0 && !stopping { Self.sleep(seconds: wait) }
                let (batch, completions) = state.withLock { current -> (Contents?, [Completion]) in
                    defer {
                        current.next = nil
                        current.waiting = []
                    }
                    return (current.next, current.waiting)
                }
                guard case .some(let contents) = batch else { continue }
                var failure: DaemonError?
                do {
                    try storage.write(contents)
                } catch {
                    failure = error
                }
                state.withLock { $0.lastWrite = Self.now() }
                if let written = written.withLock({ $0 }) { written(contents, failure, completions.count) }
                for completion in completions { completion(failure) }
            }
        }
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    private static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
