import Foundation
import GesturePlayback
import Synchronization

/// Progress reports collected from the playing thread.
final class ProgressLog: Sendable {
    private let storage = Mutex<[PlaybackProgress]>([])
    func add(_ progress: PlaybackProgress) { storage.withLock { $0.append(progress) } }
    var entries: [PlaybackProgress] { storage.withLock { $0 } }
}

/// A wait result handed from a thread.
final class ResultBox: Sendable {
    private let storage = Mutex<WaitResult?>(nil)
    func set(_ value: WaitResult) { storage.withLock { $0 = value } }
    var value: WaitResult? { storage.withLock { $0 } }
}

/// A plain thread for a test's helper work (never the cooperative pool).
typealias DriverThread = Thread
