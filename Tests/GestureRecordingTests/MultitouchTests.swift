import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording

@Suite struct ProtocolBTests {
    /// Two fingers; slot 0 is reused by a third contact; slot 1's tracking
    /// id changes without a lift, which ends its contact and starts another.
    @Test func twoFingersSlotReuseAndTrackingIDChange() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        recorder.feed(
            all: frame(
                5_000,
                [
                    abs(.multitouchTrackingID, 10), abs(.multitouchPositionX, 1_000), abs(.multitouchPositionY, 2_000),
                    abs(.multitouchPressure, 40), abs(.multitouchTouchMajor, 8),
                    abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 11), abs(.multitouchPositionX, 3_000),
                    abs(.multitouchPositionY, 4_000),
                ]))
        #expect(recorder.contactsDown == 2)
        recorder.feed(all: frame(5_010, [abs(.multitouchSlot, 0), abs(.multitouchPositionX, 1_100)]))
        // The current slot is still 0: no ABS_MT_SLOT needed.
        recorder.feed(all: frame(5_016, [abs(.multitouchPressure, 50)]))
        recorder.feed(all: frame(5_020, [abs(.multitouchSlot, 1), abs(.multitouchPositionY, 4_100)]))
        recorder.feed(all: frame(5_030, [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1)]))
        #expect(recorder.contactsDown == 1)
        recorder.feed(
            all: frame(
                5_040, [abs(.multitouchTrackingID, 12), abs(.multitouchPositionX, 500), abs(.multitouchPositionY, 600)]))
        recorder.feed(all: frame(5_050, [abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 13)]))
        recorder.feed(all: frame(5_055, [abs(.multitouchPositionX, 3_010)]))
        recorder.feed(
            all: frame(
                5_060, [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1),
                        abs(.multitouchTrackingID, -1)]))
        #expect(recorder.contactsDown == 0)

        let recorded = try recorder.finished()
        #expect(recorded.contactsEndedAtFinish == 0)
        #expect(recorded.warnings.isEmpty)
        #expect(
            recorded.gesture.strokes == [
                Stroke(samples: [
                    sample(0, 1_000, 2_000, pressure: 40, size: 8), sample(10, 1_100, 2_000, pressure: 40, size: 8),
                    sample(16, 1_100, 2_000, pressure: 50, size: 8), sample(30, 1_100, 2_000, pressure: 50, size: 8),
                ]),
                Stroke(samples: [sample(0, 3_000, 4_000), sample(20, 3_000, 4_100), sample(50, 3_000, 4_100)]),
                // Slot 0 again: position, pressure and size carry over until changed.
                Stroke(samples: [sample(40, 500, 600, pressure: 50, size: 8), sample(60, 500, 600, pressure: 50, size: 8)]),
                Stroke(samples: [sample(50, 3_000, 4_100), sample(55, 3_010, 4_100), sample(60, 3_010, 4_100)]),
            ])
        #expect(recorded.gesture.name == "test")
        #expect(recorded.gesture.device == recorder.geometry)
        #expect(
            recorded.gesture.metadata
                == RecordingMetadata(deviceName: "gesturectl test touchscreen", droppedEvents: 0))
        #expect(recorded.stopReason == .cancelled)
        try recorded.gesture.validate()
    }

    @Test func nothingBeforeTheFirstContactIsRecorded() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        // Position without a tracking id: state only, not a contact.
        recorder.feed(all: frame(1_000, [abs(.multitouchPositionX, 700), abs(.multitouchPositionY, 800)]))
        recorder.feed(all: frame(2_000, [abs(.multitouchPositionX, 710)]))
        #expect(!recorder.hasStarted)
        #expect(recorder.status(now: ms(2_500)).description == "waiting for the first contact")
        recorder.feed(all: frame(3_000, [abs(.multitouchTrackingID, 1)]))
        recorder.feed(all: frame(3_250, [abs(.multitouchPositionY, 900)]))
        #expect(recorder.hasStarted)
        #expect(recorder.startTime == ms(3_000))
        #expect(recorder.status(now: ms(4_260)).description == "recording 1.2 s, 1 stroke, 1 down")
        #expect(
            try recorder.finished().gesture.strokes == [Stroke(samples: [sample(0, 710, 800), sample(250, 710, 900)])])
    }

    @Test func initialStateSelectsTheSlotAndSkipsContactsAlreadyDown() throws {
        let snapshot = DeviceStateSnapshot(
            currentSlot: 1,
            slots: [0: DeviceStateSnapshot.Slot(trackingID: 4, x: 100, y: 200), 1: DeviceStateSnapshot.Slot(x: 9, y: 9)])
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure, initialState: snapshot)
        #expect(recorder.contactsDown == 0)
        // No ABS_MT_SLOT: these go to slot 1, selected in the snapshot.
        recorder.feed(all: frame(100, [abs(.multitouchTrackingID, 5), abs(.multitouchPositionX, 300)]))
        // The contact that was already down moves and lifts: never recorded.
        recorder.feed(all: frame(110, [abs(.multitouchSlot, 0), abs(.multitouchPositionX, 150)]))
        recorder.feed(all: frame(120, [abs(.multitouchTrackingID, -1)]))
        // A new contact in slot 0 is recorded.
        recorder.feed(all: frame(130, [abs(.multitouchTrackingID, 6)]))
        #expect(
            try recorder.finished().gesture.strokes == [
                Stroke(samples: [sample(0, 300, 9)]), Stroke(samples: [sample(30, 150, 200)]),
            ])
    }

    @Test func valuesBeyondTheAxesAreClampedAndEventsForUnknownSlotsIgnored() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        recorder.feed(
            all: frame(
                0,
                [
                    abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, -50), abs(.multitouchPositionY, 99_999),
                    abs(.multitouchPressure, 300), abs(.multitouchSlot, 42), abs(.multitouchTrackingID, 2),
                    abs(.multitouchPositionX, 1), abs(.multitouchPositionY, 1),
                ]))
        let gesture = try recorder.finished().gesture
        #expect(gesture.strokes == [Stroke(samples: [sample(0, 0, 13_500, pressure: 255)])])
        try gesture.validate()
    }

    @Test func framesGoingBackInTimeKeepSampleTimesInOrder() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        recorder.feed(all: frame(1_000, [abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 1), abs(.multitouchPositionY, 1)]))
        recorder.feed(all: frame(900, [abs(.multitouchPositionX, 2)]))
        recorder.feed(all: frame(1_020, [abs(.multitouchPositionX, 3)]))
        #expect(
            try recorder.finished().gesture.strokes == [
                Stroke(samples: [sample(0, 1, 1), sample(0, 2, 1), sample(20, 3, 1)])
            ])
    }
}

@Suite struct ProtocolATests {
    @Test func contactsAreMatchedByTrackingID() throws {
        var recorder = try StrokeRecorder(device: TestDevices.protocolA)
        recorder.feed(
            all: frame(
                2_000,
                [
                    abs(.multitouchTrackingID, 7), abs(.multitouchPositionX, 100), abs(.multitouchPositionY, 100), mtReport,
                    abs(.multitouchTrackingID, 8), abs(.multitouchPositionX, 900), abs(.multitouchPositionY, 900), mtReport,
                ]))
        // Reported in the other order, and crossing: the ids keep them apart.
        recorder.feed(
            all: frame(
                2_010,
                [
                    abs(.multitouchTrackingID, 8), abs(.multitouchPositionX, 150), abs(.multitouchPositionY, 150), mtReport,
                    abs(.multitouchTrackingID, 7), abs(.multitouchPositionX, 850), abs(.multitouchPositionY, 850), mtReport,
                ]))
        // Contact 7 is missing: it lifted.
        recorder.feed(
            all: frame(
                2_020, [abs(.multitouchTrackingID, 8), abs(.multitouchPositionX, 160), abs(.multitouchPositionY, 150), mtReport]))
        #expect(recorder.contactsDown == 1)
        // An empty frame lifts all.
        recorder.feed(all: frame(2_030, [mtReport]))
        #expect(recorder.contactsDown == 0)
        // A new touch with a reused id is a new stroke.
        recorder.feed(
            all: frame(
                2_040, [abs(.multitouchTrackingID, 7), abs(.multitouchPositionX, 5), abs(.multitouchPositionY, 6), mtReport]))
        recorder.feed(all: frame(2_050, []))
        #expect(
            try recorder.finished().gesture.strokes == [
                Stroke(samples: [sample(0, 100, 100), sample(10, 850, 850), sample(20, 850, 850)]),
                Stroke(samples: [sample(0, 900, 900), sample(10, 150, 150), sample(20, 160, 150), sample(30, 160, 150)]),
                Stroke(samples: [sample(40, 5, 6), sample(50, 5, 6)]),
            ])
    }

    @Test func withoutTrackingIDsContactsAreMatchedByNearestPosition() throws {
        var recorder = try StrokeRecorder(device: TestDevices.protocolA)
        recorder.feed(
            all: frame(
                0,
                [
                    abs(.multitouchPositionX, 100), abs(.multitouchPositionY, 100), mtReport,
                    abs(.multitouchPositionX, 1_000), abs(.multitouchPositionY, 1_000), mtReport,
                ]))
        // The order in the frame swaps; each is matched to the nearest.
        recorder.feed(
            all: frame(
                8,
                [
                    abs(.multitouchPositionX, 990), abs(.multitouchPositionY, 1_010), mtReport,
                    abs(.multitouchPositionX, 110), abs(.multitouchPositionY, 100), mtReport,
                ]))
        // A third finger lands; the last contact has no SYN_MT_REPORT (lenient).
        recorder.feed(
            all: frame(
                16,
                [
                    abs(.multitouchPositionX, 2_000), abs(.multitouchPositionY, 2_000), mtReport,
                    abs(.multitouchPositionX, 120), abs(.multitouchPositionY, 100), mtReport,
                    abs(.multitouchPositionX, 980), abs(.multitouchPositionY, 1_020),
                ]))
        // Only the one nearest the first finger stays.
        recorder.feed(all: frame(24, [abs(.multitouchPositionX, 125), abs(.multitouchPositionY, 105), mtReport]))
        recorder.feed(all: frame(32, []))
        #expect(
            try recorder.finished().gesture.strokes == [
                Stroke(samples: [sample(0, 100, 100), sample(8, 110, 100), sample(16, 120, 100), sample(24, 125, 105), sample(32, 125, 105)]),
                Stroke(samples: [sample(0, 1_000, 1_000), sample(8, 990, 1_010), sample(16, 980, 1_020), sample(24, 980, 1_020)]),
                Stroke(samples: [sample(16, 2_000, 2_000), sample(24, 2_000, 2_000)]),
            ])
    }

    @Test func aDropDiscardsThePartialFrameAndTheNextFrameIsTheTruth() throws {
        var recorder = try StrokeRecorder(device: TestDevices.protocolA)
        recorder.feed(
            all: frame(0, [abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 10), abs(.multitouchPositionY, 10), mtReport]))
        recorder.feed(all: [.event(InputEvent(time: ms(5), type: .absolute, code: .multitouchPositionX, value: 3_000))])
        let notices = recorder.feed(all: [dropped(6)] + resyncFrame(6, []) + [.resyncDone])
        #expect(notices == [.eventsDropped(total: 1)])
        #expect(recorder.contactsDown == 1)
        recorder.feed(
            all: frame(20, [abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 12), abs(.multitouchPositionY, 10), mtReport]))
        recorder.feed(all: frame(30, []))
        #expect(
            try recorder.finished().gesture.strokes == [
                Stroke(samples: [sample(0, 10, 10), sample(20, 12, 10), sample(30, 12, 10)])
            ])
    }
}
