import GestureModel
import InputSystem
import Synchronization
import Testing
import TestSupport

@testable import GesturePlayback
import OperatingSystem

/// Udev events behind a pipe that holds one byte per queued event, so its
/// descriptor is readable exactly while events wait, as a udev monitor's
/// socket is. Events can be queued from another thread while a wait polls.
private final class FakeUdevSource: UdevEventSource, Sendable {
    private struct State: Sendable {
        var pending: [UdevEvent] = []
        var delivered: [UdevEvent] = []
        /// Receives that found nothing (the wait then polls).
        var emptyReceives = 0
        /// ``emptyReceives`` when the last ``queue(_:timeOutWhenDrained:)`` ran.
        var emptyReceivesBeforeQueue = 0
        /// Once the queue is drained, each empty receive moves the clock
        /// past the wait's deadline: the wait ends instead of polling again.
        var timeOutWhenDrained = false
    }

    let fileDescriptor: FileDescriptor
    private let writeEnd: FileDescriptor
    private let state = Mutex(State())
    private let clock: ManualClock
    private let timeoutStep: Microseconds
    /// Signalled on every empty receive, for the thread that queues.
    private let foundNothing = try! EventCounter()

    init(clock: ManualClock, timeoutStep: Microseconds, events: [UdevEvent] = []) {
        self.clock = clock
        self.timeoutStep = timeoutStep
        let ends = try! FileDescriptor.pipe()
        fileDescriptor = ends.read
        writeEnd = ends.write
        queue(events)
    }

    deinit {
        fileDescriptor.close()
        writeEnd.close()
    }

    /// Queues `events` and makes the descriptor readable (one byte each).
    func queue(_ events: [UdevEvent], timeOutWhenDrained: Bool = false) {
        state.withLock {
            $0.pending += events
            $0.emptyReceivesBeforeQueue = $0.emptyReceives
            $0.timeOutWhenDrained = timeOutWhenDrained
        }
        try! writeEnd.writeAll(Array(repeating: 1, count: events.count))
    }

    /// Blocks until a receive has found nothing (the wait is about to poll).
    func waitUntilFoundNothing() {
        _ = try? Poll.waitReadable(foundNothing.fileDescriptor, timeoutMilliseconds: nil)
        foundNothing.drain()
    }

    var delivered: [UdevEvent] { state.withLock { $0.delivered } }
    var pending: [UdevEvent] { state.withLock { $0.pending } }
    var emptyReceives: Int { state.withLock { $0.emptyReceives } }
    var emptyReceivesBeforeQueue: Int { state.withLock { $0.emptyReceivesBeforeQueue } }

    func receive() throws(SystemError) -> UdevEvent? {
        let (event, timeOut): (UdevEvent?, Bool) = state.withLock {
            guard !$0.pending.isEmpty else {
                $0.emptyReceives += 1
                return (nil, $0.timeOutWhenDrained)
            }
            let event = $0.pending.removeFirst()
            $0.delivered.append(event)
            return (event, false)
        }
        if event != nil {
            // The byte written for this event (queue writes it right after
            // queueing; a blocking read waits those few instructions).
            _ = try fileDescriptor.read(upTo: 1)
            return event
        }
        if timeOut { clock.advance(by: timeoutStep) }
        foundNothing.signal()
        return nil
    }
}

@Suite("Waiting for udev")
struct UdevSettleTests {
    private func event(_ action: UdevEvent.Action, _ node: String) -> UdevEvent {
        UdevEvent(action: action, device: UdevInputDevice(node: node, syspath: "/sys/devices/virtual/input/x"))
    }

    /// Far beyond how long a correct wait takes on any machine; the manual
    /// clock never reaches it unless a test moves it.
    private let timeout = Microseconds(10_000_000)

    @Test("Events already queued are read before the deadline counts: the add event for our node ends the wait; others are skipped")
    func queuedAddEndsTheWait() {
        let clock = ManualClock()
        let source = FakeUdevSource(
            clock: clock, timeoutStep: timeout,
            events: [event(.add, "/dev/input/event3"), event(.change, "/dev/input/event7"), event(.add, "/dev/input/event7")])
        #expect(UdevSettle.waitForDevice(monitor: source, devnode: "/dev/input/event7", timeout: .zero, clock: clock))
        #expect(source.pending.isEmpty)
        #expect(source.emptyReceives == 0)
    }

    @Test("An add event that arrives while the wait polls wakes it, and the wait returns true because of it")
    func addArrivingDuringThePollEndsTheWait() {
        let clock = ManualClock()
        let source = FakeUdevSource(clock: clock, timeoutStep: timeout)
        let ours = event(.add, "/dev/input/event7")
        let other = event(.change, "/dev/input/event7")
        // From another thread, once the wait has found nothing and polls:
        // another event for our node, then ours. Should the wait miss the
        // wake-up and ask again, the source times it out instead of hanging.
        startDriverThread {
            source.waitUntilFoundNothing()
            source.queue([other, ours], timeOutWhenDrained: true)
        }
        let started = MonotonicClock.nowMicroseconds()
        let arrived = UdevSettle.waitForDevice(monitor: source, devnode: "/dev/input/event7", timeout: timeout, clock: clock)
        let realWait = MonotonicClock.nowMicroseconds() - started

        #expect(arrived)
        // The wait had found nothing before the events were queued…
        #expect(source.emptyReceivesBeforeQueue >= 1)
        // …and ended on our add event, with nothing left over and no
        // further empty receive.
        #expect(source.delivered == [other, ours])
        #expect(source.pending.isEmpty)
        #expect(source.emptyReceives == source.emptyReceivesBeforeQueue)
        // Not by time: the manual clock never moved, and the poll did not
        // run into its (real) timeout either.
        #expect(clock.now() == .zero)
        #expect(realWait < timeout.rawValue)
    }

    @Test("An event for another node wakes the poll but not the waiter: the wait gives up at the timeout")
    func otherNodeDoesNotEndTheWait() {
        let clock = ManualClock()
        let source = FakeUdevSource(clock: clock, timeoutStep: timeout)
        let other = event(.add, "/dev/input/event3")
        startDriverThread {
            source.waitUntilFoundNothing()
            source.queue([other], timeOutWhenDrained: true)
        }
        let started = MonotonicClock.nowMicroseconds()
        let arrived = UdevSettle.waitForDevice(monitor: source, devnode: "/dev/input/event7", timeout: timeout, clock: clock)
        let realWait = MonotonicClock.nowMicroseconds() - started

        #expect(!arrived)
        #expect(source.delivered == [other])
        // The poll woke for the event rather than running into its (real)
        // timeout; the manual clock alone ended the wait.
        #expect(realWait < timeout.rawValue)
        // Found nothing before the event (then polled), and again after it,
        // when the source moved the clock to the deadline.
        #expect(source.emptyReceivesBeforeQueue >= 1)
        #expect(source.emptyReceives == source.emptyReceivesBeforeQueue + 1)
        #expect(clock.now() == timeout)
    }
}

@Suite("Waiting for udev by a property")
struct UdevSettleMatchingTests {
    @Test("The first add whose device matches ends the wait and is returned; removes and other devices are skipped")
    func firstMatchingAddIsReturned() {
        let clock = ManualClock()
        func device(_ node: String, uniq: String?) -> UdevInputDevice {
            UdevInputDevice(node: node, syspath: "/sys/devices/virtual/misc/uhid/x", uniq: uniq)
        }
        let source = FakeUdevSource(
            clock: clock, timeoutStep: Microseconds(10_000_000),
            events: [
                UdevEvent(action: .add, device: device("/dev/input/event3", uniq: "other")),
                UdevEvent(action: .remove, device: device("/dev/input/event5", uniq: "ours")),
                UdevEvent(action: .add, device: device("/dev/input/event6", uniq: "ours")),
            ])
        let found = UdevSettle.waitForDevice(monitor: source, timeout: .zero, clock: clock) { $0.uniq == "ours" }
        #expect(found?.node == "/dev/input/event6")
    }

    @Test("Without a matching add before the deadline the wait returns nil")
    func noMatchTimesOut() {
        let clock = ManualClock()
        let source = FakeUdevSource(clock: clock, timeoutStep: Microseconds(10_000_000), events: [])
        source.queue([], timeOutWhenDrained: true)
        #expect(UdevSettle.waitForDevice(monitor: source, timeout: Microseconds(1_000), clock: clock) { _ in true } == nil)
    }
}
