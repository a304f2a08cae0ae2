import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

@testable import OperatingSystem

/// The signal watcher, with a signal no one else in the test process uses
/// (SIGWINCH, ignored by default, so a stray one ends nothing). The
/// watcher's thread inherits the mask of the thread that makes it: the
/// watcher is made on a thread of the test's own that blocks the signal,
/// and the signal is sent to the watcher's thread alone.
@Suite("Signal watcher", .serialized)
struct SignalWatcherTests {
    /// The ids of this process's threads named `name`.
    static func threads(named name: String) -> Set<Int32> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.compactMap { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name ? Int32(task) : nil
        })
    }

    /// Sends `signal` to the thread `threadID` of this process: a one-shot
    /// timer that signals that thread (SIGEV_THREAD_ID), as Swift's Glibc
    /// module has no tgkill. The timer is deleted by `body`'s end, after
    /// the signal was awaited (deleted before it fires, it never would).
    static func sending<Result>(_ signal: Int32, toThread threadID: Int32, _ body: () throws -> Result) throws -> Result {
        var event = sigevent()
        event.sigev_notify = 4  // SIGEV_THREAD_ID
        event.sigev_signo = signal
        event._sigev_un._tid = threadID
        var timer: timer_t?
        try Syscall.minusOne("timer_create") { timer_create(CLOCK_MONOTONIC, &event, &timer) }
        defer { _ = timer_delete(timer) }
        var soon = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: 0, tv_nsec: 1))
        try Syscall.minusOne("timer_settime") { timer_settime(timer, 0, &soon, nil) }
        return try body()
    }

    /// A watcher for SIGWINCH made on a thread that blocks it, and the id of
    /// the watcher's thread.
    static func makeWatcher(handler: @escaping @Sendable (Int32) -> Void) throws -> (SignalWatcher, Int32) {
        let made = Mutex<Result<(SignalWatcher, Set<Int32>), SystemError>?>(nil)
        let done = try TestEvent()
        try DedicatedThread.start(ThreadOptions(name: "os-test-sigmake")) {
            let before = threads(named: SignalWatcher.threadOptions.name)
            let result = Result { () throws(SystemError) in
                try SignalMask.block([SIGWINCH])
                return (try SignalWatcher(signals: [SIGWINCH], handler: handler), before)
            }
            made.withLock { $0 = result }
            done.signal()
        }
        #expect(try done.wait())
        let (watcher, before) = try #require(made.withLock { $0 }).get()
        // start returns once the new thread is named: it is in /proc by now.
        let new = threads(named: SignalWatcher.threadOptions.name).subtracting(before)
        try #require(new.count == 1, "one new \(SignalWatcher.threadOptions.name) thread, found \(new)")
        return (watcher, new.first!)
    }

    @Test("A blocked signal reaches the handler on the watcher's own thread, once per signal")
    func signalReachesTheHandler() throws {
        let received = Mutex<[(Int32, String)]>([])
        let arrived = try TestEvent()
        let (watcher, threadID) = try Self.makeWatcher { number in
            received.withLock { $0.append((number, DedicatedThread.currentName)) }
            arrived.signal()
        }
        defer { watcher.stop() }
        #expect(try Self.sending(SIGWINCH, toThread: threadID) { try arrived.wait { received.withLock { $0.count } == 1 } })
        #expect(try Self.sending(SIGWINCH, toThread: threadID) { try arrived.wait { received.withLock { $0.count } == 2 } })
        #expect(received.withLock { $0.map(\.0) } == [SIGWINCH, SIGWINCH])
        #expect(received.withLock { $0.map(\.1) } == ["gesturectl-sig", "gesturectl-sig"])
    }

    @Test("stop ends the watcher's thread")
    func stopEndsTheThread() throws {
        let (watcher, threadID) = try Self.makeWatcher { _ in }
        #expect(FileManager.default.fileExists(atPath: "/proc/self/task/\(threadID)"))
        watcher.stop()
        // Only /proc tells that a thread has gone.
        #expect(waitUntil { !FileManager.default.fileExists(atPath: "/proc/self/task/\(threadID)") })
    }

    @Test("Dropping the watcher stops it too")
    func deinitStops() throws {
        var watcher: SignalWatcher?
        let threadID: Int32
        (watcher, threadID) = try Self.makeWatcher { _ in }
        #expect(watcher != nil)
        watcher = nil
        #expect(waitUntil { !FileManager.default.fileExists(atPath: "/proc/self/task/\(threadID)") })
    }

    @Test("A watcher dropped while its thread is busy ends that thread, whatever file takes the numbers it closed")
    func droppedWhileItsThreadIsBusy() throws {
        // Found under load: a watcher dropped before its thread polled
        // closed the stop descriptor, and the thread then polled whatever
        // file reused the number, for ever. Here the thread is held in the
        // handler, the watcher dropped, and the freed numbers taken by pipes
        // that never become readable, before the thread polls again.
        let inHandler = try TestEvent(), release = try TestEvent()
        var watcher: SignalWatcher?
        let threadID: Int32
        (watcher, threadID) = try Self.makeWatcher { _ in
            inHandler.signal()
            _ = try? release.wait()
        }
        #expect(try Self.sending(SIGWINCH, toThread: threadID) { try inHandler.wait() })
        watcher = nil
        var pipes: [Int32] = []
        defer { for end in pipes { close(end) } }
        for _ in 0..<16 {
            var ends: [Int32] = [0, 0]
            try Syscall.minusOne("pipe") { pipe(&ends) }
            pipes += ends
        }
        release.signal()
        #expect(waitUntil { !FileManager.default.fileExists(atPath: "/proc/self/task/\(threadID)") })
        _ = watcher
    }

    @Test("Signal names drop SIG; an unknown signal is its number")
    func names() {
        #expect(SignalMask.name(of: SIGINT) == "INT")
        #expect(SignalMask.name(of: SIGTERM) == "TERM")
        #expect(SignalMask.name(of: SIGHUP) == "HUP")
        #expect(SignalMask.name(of: SIGPIPE) == "PIPE")
        #expect(SignalMask.name(of: SIGUSR1) == String(SIGUSR1))
        #expect(SignalMask.handled == [SIGINT, SIGTERM, SIGHUP])
    }
}
