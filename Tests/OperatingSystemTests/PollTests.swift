import Glibc
import Synchronization
import Testing
import TestSupport

@testable import OperatingSystem

/// A signal whose default action is to be ignored, so that a stray one never
/// ends the test process; with a handler installed it interrupts a wait.
let interruptingSignal = SIGURG

/// Installs a handler that does nothing for ``interruptingSignal``, without
/// SA_RESTART: a blocking call it arrives in fails with EINTR.
func installInterruptingHandler() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    _ = sigaction(interruptingSignal, &action, nil)
}

/// Runs `body` on a thread of its own and interrupts it with
/// ``interruptingSignal`` until it returns (a signal sent before the thread
/// blocks is lost, so it is sent again); the body's result.
func interrupting<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) throws -> Result? {
    installInterruptingHandler()
    let thread = Mutex<pthread_t?>(nil)
    let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
    let started = try TestEvent()
    let finished = try TestEvent()
    try DedicatedThread.start(ThreadOptions(name: "os-test-eintr")) {
        try? SignalMask.unblock([interruptingSignal])
        thread.withLock { $0 = pthread_self() }
        started.signal()
        let result = Swift.Result { try body() }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    #expect(try started.wait())
    let target = try #require(thread.withLock { $0 })
    let deadline = WaitDeadline(defaultWaitSeconds)
    while !deadline.hasPassed {
        _ = pthread_kill(target, interruptingSignal)
        if try finished.wait(within: 0.05) { break }
    }
    return try outcome.withLock { $0 }?.get()
}

@Suite("Poll")
struct PollTests {
    @Test("Nothing ready: a zero timeout returns at once with no events, one entry per descriptor")
    func nothingReady() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close(); pipe.write.close() }
        #expect(try Poll.wait([(pipe.read, .readable), (pipe.read, .readable)], timeoutMilliseconds: 0) == [[], []])
        #expect(try Poll.waitReadable(pipe.read, timeoutMilliseconds: 0) == false)
    }

    @Test("Events are reported on the descriptor they happened on, in the order given")
    func eventsInOrder() throws {
        let quiet = try FileDescriptor.pipe()
        let written = try FileDescriptor.pipe()
        defer { [quiet.read, quiet.write, written.read, written.write].forEach { $0.close() } }
        try written.write.writeAll([1])
        let events = try Poll.wait(
            [(quiet.read, .readable), (written.read, .readable), (written.write, .writable)], timeoutMilliseconds: nil)
        #expect(events == [[], .readable, .writable])
        #expect(try Poll.waitReadable(written.read, timeoutMilliseconds: nil))
    }

    @Test("A closed write end is a hang-up; a descriptor that is not open is reported invalid")
    func hangUpAndInvalid() throws {
        let pipe = try FileDescriptor.pipe()
        pipe.write.close()
        defer { pipe.read.close() }
        let events = try Poll.wait([(pipe.read, .readable)], timeoutMilliseconds: 0)
        #expect(events[0].contains(.hangUp))
        // Beyond any descriptor table (a closed number could be another test's by now).
        let notOpen = FileDescriptor(rawValue: Int32.max)
        #expect(try Poll.wait([(notOpen, .readable)], timeoutMilliseconds: 0)[0] == .invalid)
    }

    @Test("The two-descriptor wait and a group report as the general wait does")
    func pairAndGroup() throws {
        let first = try FileDescriptor.pipe()
        let second = try FileDescriptor.pipe()
        defer { [first.read, first.write, second.read, second.write].forEach { $0.close() } }
        try second.write.writeAll([1])
        let pair = try Poll.wait((first.read, .readable), (second.read, .readable), timeoutMilliseconds: nil)
        #expect(pair.0 == [])
        #expect(pair.1 == .readable)

        var group = Poll.Group([(first.read, .readable), (second.read, .readable)])
        #expect(group.count == 2)
        try group.wait(timeoutMilliseconds: nil)
        #expect(group.events(at: 0) == [])
        #expect(group.events(at: 1) == .readable)
        // Each wait starts afresh: what was reported before is not reported again.
        _ = try second.read.read(upTo: 1)
        try group.wait(timeoutMilliseconds: 0)
        #expect(group.events(at: 1) == [])
        try first.write.writeAll([1])
        try group.wait(timeoutMilliseconds: nil)
        #expect(group.events(at: 0) == .readable)
        #expect(group.events(at: 1) == [])
    }

    @Test("Microseconds become a poll timeout rounded up, so that a wait never ends before its deadline")
    func millisecondsRoundUp() {
        #expect(Poll.milliseconds(roundingUp: -5) == 0)
        #expect(Poll.milliseconds(roundingUp: 0) == 0)
        #expect(Poll.milliseconds(roundingUp: 1) == 1)
        #expect(Poll.milliseconds(roundingUp: 1_000) == 1)
        #expect(Poll.milliseconds(roundingUp: 1_001) == 2)
        #expect(Poll.milliseconds(roundingUp: Int64.max) == Int32.max)
    }

    @Test("A signal that interrupts a wait without a timeout ends it with no events (EINTR is not an error)")
    func interruptedWait() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close(); pipe.write.close() }
        let reader = pipe.read
        let events = try interrupting { try Poll.wait([(reader, .readable)], timeoutMilliseconds: nil) }
        #expect(events == [[]])
        let group = try interrupting {
            var group = Poll.Group([(reader, .readable)])
            try group.wait(timeoutMilliseconds: nil)
            return group.events(at: 0)
        }
        #expect(group == [])
    }
}
