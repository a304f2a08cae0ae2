import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording

@Suite struct ResyncTests {
    /// Three fingers down; events are dropped. The resync says: slot 0's
    /// touch ended in the gap, slot 1 moved, slot 2 holds a new contact.
    @Test func resyncReplacesTheState() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        recorder.feed(
            all: frame(
                100,
                [
                    abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 10), abs(.multitouchPositionY, 10),
                    abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 20),
                    abs(.multitouchPositionY, 20),
                    abs(.multitouchSlot, 2), abs(.multitouchTrackingID, 3), abs(.multitouchPositionX, 30),
                    abs(.multitouchPositionY, 30),
                ]))
        // Part of a frame arrives, then the drop: the reader counts the part
        // in its state, so the recorder keeps it too.
        recorder.feed(all: [.event(InputEvent(time: ms(108), type: .absolute, code: .multitouchPositionY, value: 33))])
        var notices = recorder.feed(all: [dropped(110)])
        #expect(recorder.isResyncing)
        notices += recorder.feed(
            all: resyncFrame(
                110,
                [
                    abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1),
                    abs(.multitouchSlot, 1), abs(.multitouchPositionX, 25),
                    abs(.multitouchSlot, 2), abs(.multitouchTrackingID, 9), abs(.multitouchPositionX, 31),
                ]) + [.resyncDone])
        #expect(!recorder.isResyncing)
        #expect(notices == [.eventsDropped(total: 1)])
        #expect(notices.map(\.description) == ["the kernel dropped events; 1 so far"])
        #expect(recorder.contactsDown == 2)
        recorder.feed(all: frame(120, [abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1)]))
        notices = recorder.feed(all: [dropped(125)] + resyncFrame(125, []) + [.resyncDone])
        #expect(notices.map(\.description) == ["the kernel dropped events; 2 so far"])
        #expect(recorder.status().droppedEvents == 2)

        let recorded = try recorder.finished()
        #expect(
            recorded.gesture.strokes == [
                Stroke(samples: [sample(0, 10, 10), sample(10, 10, 10)]),
                Stroke(samples: [sample(0, 20, 20), sample(10, 25, 20), sample(20, 25, 20)]),
                // Ended by the new id; the lift repeats its last sample.
                Stroke(samples: [sample(0, 30, 30), sample(10, 30, 30)]),
                Stroke(samples: [sample(10, 31, 33)]),
            ])
        #expect(recorded.gesture.metadata?.droppedEvents == 2)
        #expect(
            recorded.warnings == [
                "1 contact was still down when recording stopped; it ends at its last sample",
                "the kernel dropped events 2 times; touches that began and ended in a gap are lost",
            ])
    }

    @Test func aDropSeenAsAPlainEventIsCounted() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        let drop = InputEvent(time: ms(5), type: .synchronization, code: .synchronizationDropped, value: 0)
        #expect(recorder.feed(drop) == .eventsDropped(total: 1))
        #expect(!recorder.isResyncing)
        #expect(recorder.droppedEventCount == 1)
    }
}
