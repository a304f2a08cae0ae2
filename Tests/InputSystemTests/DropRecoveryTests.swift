import GestureModel
import Testing

@testable import InputSystem

@Suite struct DropRecoveryTests {
    private func abs(_ code: EventCode, _ value: Int32) -> InputEvent {
        InputEvent(type: .absolute, code: code, value: value)
    }
    private func key(_ code: EventCode, _ value: Int32) -> InputEvent { InputEvent(type: .key, code: code, value: value) }
    private let report = InputEvent.synchronizationReport()

    /// Two fingers down in slots 0 and 1, slot 1 selected, BTN_TOUCH down.
    private func twoFingers() -> EvdevState {
        var state = EvdevState(slotCount: 4)
        for event in [
            abs(.multitouchTrackingID, 5), abs(.multitouchPositionX, 100), abs(.multitouchPositionY, 100),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 6), abs(.multitouchPositionX, 300),
            abs(.multitouchPositionY, 100), key(.buttonTouch, 1), abs(.absoluteX, 100),
        ] { state.apply(event) }
        return state
    }

    @Test func aStateFollowsTheEventsAsTheKernelDoes() {
        let state = twoFingers()
        #expect(state.currentSlot == 1)
        #expect(state.slotValue(slot: 0, code: .multitouchTrackingID) == 5)
        #expect(state.slotValue(slot: 1, code: .multitouchPositionX) == 300)
        #expect(state.slotValue(slot: 2, code: .multitouchTrackingID) == -1)
        #expect(state.slotValue(slot: 4, code: .multitouchTrackingID) == nil)
        #expect(state.isKeyDown(.buttonTouch) == true)
        #expect(state.absoluteValue(.absoluteX) == 100)
        // A slot beyond the device's changes nothing.
        var beyond = state
        beyond.apply(abs(.multitouchSlot, 9))
        beyond.apply(abs(.multitouchPositionX, 1))
        beyond.apply(abs(.multitouchSlot, 1))
        #expect(beyond == state)
    }

    @Test func theDifferenceSelectsEachSlotOnceTrackingIDFirst() {
        let before = twoFingers()
        var after = before
        for event in [
            abs(.multitouchSlot, 0), abs(.multitouchPositionY, 150), abs(.multitouchTrackingID, -1),
            abs(.multitouchSlot, 3), abs(.multitouchPositionX, 40), abs(.multitouchTrackingID, 7),
            key(.buttonTouch, 0), abs(.absoluteX, 40), abs(.multitouchSlot, 2),
        ] { after.apply(event) }
        let time = Microseconds(1_000)
        let difference = before.difference(to: after, time: time)
        #expect(
            difference == [
                abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchPositionY, 150),
                abs(.multitouchSlot, 3), abs(.multitouchTrackingID, 7), abs(.multitouchPositionX, 40),
                abs(.absoluteX, 40), key(.buttonTouch, 0), abs(.multitouchSlot, 2),
            ].map { InputEvent(time: time, type: $0.type, code: $0.code, value: $0.value) })
        var replayed = before
        for event in difference { replayed.apply(event) }
        #expect(replayed == after)
        #expect(after.difference(to: after, time: time).isEmpty)
    }

    @Test func theQueuedFramesStartFromTheStateTheyWereWrittenAgainst() throws {
        let previous = twoFingers()
        // The cut frame ends in slot 0; the queued frames move slot 0,
        // lift slot 1, and put a finger in slot 2 that lifts again.
        let cut = [abs(.multitouchPositionX, 111), abs(.multitouchSlot, 0), abs(.multitouchPositionY, 120), report]
        let queued = [
            abs(.multitouchPositionX, 130), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1), report,
            abs(.multitouchSlot, 2), abs(.multitouchTrackingID, 9), abs(.multitouchPositionX, 500), report,
            abs(.multitouchTrackingID, -1), key(.buttonTouch, 0), report,
        ]
        var now = previous
        for event in cut + queued { now.apply(event) }
        // In the gap slot 0 moved down (the queued frames never set y).
        now.setSlotValue(120, slot: 0, code: .multitouchPositionY)

        let start = try #require(DropRecovery.stateBefore(queued: queued, previous: previous, cutFrame: cut, now: now))
        #expect(start.currentSlot == 0)
        // Set by the queued frames: their first value, the nearest known.
        #expect(start.slotValue(slot: 0, code: .multitouchPositionX) == 130)
        #expect(start.slotValue(slot: 2, code: .multitouchPositionX) == 500)
        // A tracking id or key: what its first queued change says it was.
        #expect(start.slotValue(slot: 1, code: .multitouchTrackingID) == 6)
        #expect(start.slotValue(slot: 2, code: .multitouchTrackingID) == -1)
        #expect(start.isKeyDown(.buttonTouch) == true)
        // Not set by them: as now.
        #expect(start.slotValue(slot: 0, code: .multitouchPositionY) == 120)
        #expect(start.slotValue(slot: 0, code: .multitouchTrackingID) == 5)

        // Played from the start, the queued frames end where the device is.
        var played = start
        for event in queued { played.apply(event) }
        #expect(played == now)
    }

    /// The fingers came down in the gap and move in the queued frames:
    /// they start where the frames first put them, not at 0.
    @Test func aContactThatCameDownInTheGapStartsAtItsFirstQueuedPosition() throws {
        let previous = EvdevState(slotCount: 2)
        let queued = [
            abs(.multitouchSlot, 0), abs(.multitouchPositionX, 1365), abs(.multitouchPositionY, 1365),
            abs(.multitouchSlot, 1), abs(.multitouchPositionX, 3365), report,
            abs(.multitouchSlot, 0), abs(.multitouchPositionX, 1366), report,
        ]
        var now = previous
        for event in [abs(.multitouchTrackingID, 1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2)] + queued {
            now.apply(event)
        }
        let start = try #require(DropRecovery.stateBefore(queued: queued, previous: previous, cutFrame: [report], now: now))
        #expect(start.slotValue(slot: 0, code: .multitouchTrackingID) == 1)
        #expect(start.slotValue(slot: 0, code: .multitouchPositionX) == 1365)
        #expect(start.slotValue(slot: 0, code: .multitouchPositionY) == 1365)
        #expect(start.slotValue(slot: 1, code: .multitouchPositionX) == 3365)
        #expect(start.slotValue(slot: 1, code: .multitouchPositionY) == 0)

        // A contact down since before the drop lifts, and the slot's next
        // contact sets x: the first keeps the x it had.
        var holding = previous
        for event in [abs(.multitouchTrackingID, 6), abs(.multitouchPositionX, 300)] { holding.apply(event) }
        let next = [abs(.multitouchTrackingID, -1), report, abs(.multitouchTrackingID, 8), abs(.multitouchPositionX, 50), report]
        var after = holding
        for event in next { after.apply(event) }
        let restart = try #require(DropRecovery.stateBefore(queued: next, previous: holding, cutFrame: [report], now: after))
        #expect(restart.slotValue(slot: 0, code: .multitouchTrackingID) == 6)
        #expect(restart.slotValue(slot: 0, code: .multitouchPositionX) == 300)
    }

    @Test func aLiftInAnEmptySlotMeansAContactBeganInTheGap() throws {
        let previous = EvdevState(slotCount: 2)
        let queued = [abs(.multitouchSlot, 1), abs(.multitouchPositionX, 70), report, abs(.multitouchTrackingID, -1), report]
        var now = previous
        for event in queued { now.apply(event) }
        let start = try #require(DropRecovery.stateBefore(queued: queued, previous: previous, cutFrame: [report], now: now))
        let id = try #require(start.slotValue(slot: 1, code: .multitouchTrackingID))
        #expect(id >= 0)
        // A new id that the slot held before is a new contact after a lift in the gap.
        var holding = previous
        holding.setSlotValue(4, slot: 0, code: .multitouchTrackingID)
        let again = [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 4), report]
        let restart = try #require(
            DropRecovery.stateBefore(queued: again, previous: holding, cutFrame: [report], now: holding))
        #expect(restart.slotValue(slot: 0, code: .multitouchTrackingID) == -1)
        // A key the queued frames press was up; one they release was down.
        let keys = [key(.buttonLeft, 1), key(.buttonRight, 0), report]
        let keyStart = try #require(
            DropRecovery.stateBefore(queued: keys, previous: previous, cutFrame: [report], now: previous))
        #expect(keyStart.isKeyDown(.buttonLeft) == false)
        #expect(keyStart.isKeyDown(.buttonRight) == true)
    }

    @Test func theSelectedSlotComesFromTheCutFrameOrTheDevice() throws {
        let previous = twoFingers()
        var now = previous
        now.currentSlot = 3
        // Nothing selects a slot: the queued frames are in the slot selected now.
        let plain = [abs(.multitouchPositionX, 10), report]
        let start = try #require(DropRecovery.stateBefore(queued: plain, previous: previous, cutFrame: [report], now: now))
        #expect(start.currentSlot == 3)
        #expect(start.slotValue(slot: 3, code: .multitouchPositionX) == 10)
        // A slot event before any selection, with selections later: unknown.
        let ambiguous = [abs(.multitouchPositionX, 10), abs(.multitouchSlot, 0), abs(.multitouchPositionX, 5), report]
        #expect(DropRecovery.stateBefore(queued: ambiguous, previous: previous, cutFrame: [report], now: now) == nil)
        // The cut frame's selection settles it.
        let cut = [abs(.multitouchSlot, 1), report]
        let settled = try #require(DropRecovery.stateBefore(queued: ambiguous, previous: previous, cutFrame: cut, now: now))
        #expect(settled.currentSlot == 1)
        // Without slots (protocol A) there is nothing to know.
        let protocolA = EvdevState(slotCount: 0)
        let frames = [abs(.multitouchPositionX, 10), InputEvent(type: .synchronization, code: .synchronizationMultitouchReport, value: 0), report]
        #expect(DropRecovery.stateBefore(queued: frames, previous: protocolA, cutFrame: [report], now: protocolA) != nil)
        #expect(protocolA.difference(to: { var s = protocolA; s.apply(frames[0]); return s }(), time: .zero).isEmpty)
    }
}
