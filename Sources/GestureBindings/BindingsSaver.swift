import GestureProtocol
import OperatingSystem
import Synchronization

/// Writes `bindings.json` on a thread of its own (`gesturectl-save`), a
/// few times a second at most: the changes made while one write is under
/// way, or within ``minimumInterval`` of it, go into the next write
/// together (a group commit). Each change's reply waits for the write that
/// holds it, so a `bind` answered `ok` is on disk, and 5,000 pipelined
/// `bind`s cost a few writes, not 5,000 (docs/PROTOCOL.md, "bind").
package final class BindingsSaver: Sendable {
    /// What the next write holds: the bindings, or `nil` to delete the
    /// file (the configuration's apply again).
    package typealias Contents = [TriggerBinding]?
    /// Told how the write holding a change went: `nil` when it is on disk.
    package typealias Completion = @Sendable (DaemonError?) -> Void

    private struct State: Sendable {
        /// The contents to write next, when something changed since the last write.
        package var next: Contents? = nil
        /// The completions waiting for the next write.
        package var waiting: [Completion] = []
        package var stopping = false
        /// CLOCK_MONOTONIC microseconds of the last write's end.
        package var lastWrite = Int64.min / 2
    }

    /// How the file is written, and deleted: ``BindingsFile`` in the daemon.
    package struct Storage: Sendable {
        package var write: @Sendable (Contents) throws(DaemonError) -> Void
    }

    /// The file is written at most once in this many microseconds.
    package static let minimumInterval: Int64 = 200_000

    private let storage: Storage
    /// Told on the saver's thread after each write: what was written, and
    /// whether it failed, before the completions are called.
    private let written = Mutex<(@Sendable (Contents, DaemonError?, Int) -> Void)?>(nil)
    private let state = Mutex(State())
    private let wake = Semaphore(value: 0)
    private let ended = Semaphore(value: 0)
    private let running = Mutex(false)

    package init(storage: Storage) { self.storage = storage }

    /// Starts the saver's thread; `written` is told on it after each write
    /// what was written, whether it failed and how many changes it held,
    /// before their completions.
    package func start(written: @escaping @Sendable (_ contents: Contents, _ failure: DaemonError?, _ changes: Int) -> Void) throws(SystemError) {
        self.written.withLock { $0 = written }
        try DedicatedThread.start(ThreadOptions(name: "gesturectl-save", niceness: 10)) { [self] in run() }
        running.withLock { $0 = true }
    }

    /// Writes `contents` soon (with any later change); `completion` is told
    /// how that write went. False, and nothing queued, once stopping.
    package func save(_ contents: Contents, completion: @escaping Completion) -> Bool {
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
    package func stop() {
        state.withLock { $0.stopping = true }
        guard running.withLock({ $0 }) else { return }
        wake.signal()
        ended.wait()
    }

    /// The changes waiting for the next write, taken away: a write failed,
    /// and they were made on top of what it would have written (the caller
    /// undoes them, and tells their completions).
    package func takePending() -> [Completion] {
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
                if !stopping {
                    // Harmless: a sleep cut short only writes sooner.
                    try? MonotonicClock.sleep(untilMicroseconds: last + Self.minimumInterval)
                }
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
                state.withLock { $0.lastWrite = MonotonicClock.nowMicroseconds() }
                if let written = written.withLock({ $0 }) { written(contents, failure, completions.count) }
                for completion in completions { completion(failure) }
            }
        }
    }
}
