import Dispatch
import GesturePlayback
import Synchronization
import TestSupport
import InputSystem
import OperatingSystem

/// Progress reports collected from the playing thread.
final class ProgressLog: Sendable {
    private let storage = Mutex<[(PlaybackProgress, String)]>([])
    func add(_ progress: PlaybackProgress) {
        let name = DedicatedThread.currentName
        storage.withLock { $0.append((progress, name)) }
    }
    var entries: [PlaybackProgress] { storage.withLock { $0.map(\.0) } }
    /// The names of the threads the reports came from.
    var threadNames: [String] { storage.withLock { $0.map(\.1) } }
}

/// The name and timer slack of the threads that call ``record()``.
final class ThreadFacts: Sendable {
    private let storage = Mutex<[(String, Int)]>([])
    func record() {
        let facts = (DedicatedThread.currentName, DedicatedThread.currentTimerSlack)
        storage.withLock { $0.append(facts) }
    }
    var names: [String] { storage.withLock { $0.map(\.0) } }
    var slacks: [Int] { storage.withLock { $0.map(\.1) } }
}

/// A wait result handed from a thread.
final class ResultBox: Sendable {
    private let storage = Mutex<WaitResult?>(nil)
    func set(_ value: WaitResult) { storage.withLock { $0 = value } }
    var value: WaitResult? { storage.withLock { $0 } }
}

/// Starts a test's helper work on a thread of its own (never the cooperative pool).
func startDriverThread(_ body: @escaping @Sendable () -> Void) {
    try! DedicatedThread.start(ThreadOptions(name: "test-driver"), body)
}
