import Glibc
import Synchronization
import Testing
import TestSupport

@testable import OperatingSystem

@Suite("Dedicated threads")
struct DedicatedThreadTests {
    /// What the body saw of its own thread.
    struct Seen: Sendable, Equatable {
        var name: String
        var timerSlack: Int
        var threadID: Int32
    }

    @Test("The body runs on a new thread, named and with the timer slack asked for before it runs")
    func setUpBeforeTheBody() throws {
        let seen = Mutex<Seen?>(nil)
        let ran = try TestEvent()
        try DedicatedThread.start(ThreadOptions(name: "os-test-named", timerSlackNanoseconds: 1)) {
            seen.withLock {
                $0 = Seen(name: DedicatedThread.currentName, timerSlack: DedicatedThread.currentTimerSlack,
                          threadID: DedicatedThread.currentThreadID)
            }
            ran.signal()
        }
        #expect(try ran.wait())
        let body = try #require(seen.withLock { $0 })
        #expect(body.name == "os-test-named")
        #expect(body.timerSlack == 1)
        #expect(body.threadID != DedicatedThread.currentThreadID)
    }

    @Test("A thread of raised nice value runs at it; a thread it starts runs at the process's, as a player or recording must")
    func nicenessNotInherited() throws {
        final class Seen: Sendable {
            let values = Mutex<(worker: Int32, started: Int32)?>(nil)
            let ran: TestEvent
            init() throws { ran = try TestEvent() }
        }
        let seen = try Seen()
        try DedicatedThread.start(ThreadOptions(name: "os-test-nice", niceness: DedicatedThread.processNiceness + 5)) {
            let worker = DedicatedThread.currentNiceness
            do {
                try DedicatedThread.start(ThreadOptions(name: "os-test-child")) {
                    seen.values.withLock { $0 = (worker, DedicatedThread.currentNiceness) }
                    seen.ran.signal()
                }
            } catch {
                seen.ran.signal()
            }
        }
        #expect(try seen.ran.wait())
        let values = try #require(seen.values.withLock { $0 })
        #expect(values.worker == DedicatedThread.processNiceness + 5)
        #expect(values.started == DedicatedThread.processNiceness)
    }

    @Test("Without a timer slack the thread keeps the one it inherits")
    func slackInherited() throws {
        let slack = Mutex<Int?>(nil)
        let ran = try TestEvent()
        try DedicatedThread.start(ThreadOptions(name: "os-test-slack")) {
            slack.withLock { $0 = DedicatedThread.currentTimerSlack }
            ran.signal()
        }
        #expect(try ran.wait())
        #expect(slack.withLock { $0 } == DedicatedThread.currentTimerSlack)
    }

    @Test("A name the kernel would cut is refused before a thread starts, and the body never runs")
    func longNameRefused() throws {
        let ran = try TestEvent()
        #expect(throws: SystemError(
            call: "pthread_setname_np", errorNumber: ERANGE,
            detail: "\"os-test-sixteen!\" is longer than 15 bytes")) {
            try DedicatedThread.start(ThreadOptions(name: "os-test-sixteen!")) { ran.signal() }
        }
        // Refused before any thread exists: nothing can have signalled.
        #expect(try ran.wait(within: 0) == false)
        // Fifteen bytes are allowed.
        let done = try TestEvent()
        try DedicatedThread.start(ThreadOptions(name: "os-test-fifteen")) { done.signal() }
        #expect(try done.wait())
    }

    @Test("start returns while the body still runs: threads are detached, and the work reports its own end")
    func returnsBeforeTheBodyEnds() throws {
        let release = try TestEvent()
        let ended = try TestEvent()
        try DedicatedThread.start(ThreadOptions(name: "os-test-detach")) {
            _ = try? release.wait()
            ended.signal()
        }
        // The body is still waiting here: start did not wait for it.
        #expect(try ended.wait(within: 0) == false)
        release.signal()
        #expect(try ended.wait())
    }

    @Test("Real-time options: the priority is added for --realtime and left alone otherwise")
    func realtimeOptions() {
        let options = ThreadOptions(name: "gesturectl-play", timerSlackNanoseconds: 1)
        #expect(options.atRealtimePriority(nil) == options)
        #expect(options.atRealtimePriority(40).realtimePriority == 40)
        #expect(options.atRealtimePriority(40).timerSlackNanoseconds == 1)
        #expect(DedicatedThread.realtimeRequirement(priority: 40).contains("RLIMIT_RTPRIO of at least 40"))
    }
}
