import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording

@Suite struct SingleTouchTests {
    @Test func touchDownMoveAndLiftThenASecondTap() throws {
        var recorder = try StrokeRecorder(device: TestDevices.singleTouch)
        // Hovering values before the touch only set the state.
        recorder.feed(all: frame(400, [abs(.absoluteX, 10), abs(.absoluteY, 20)]))
        recorder.feed(all: frame(500, [key(.buttonTouch, 1), abs(.absolutePressure, 30)]))
        recorder.feed(all: frame(512, [abs(.absoluteX, 15)]))
        recorder.feed(all: frame(524, [abs(.absoluteY, 900), abs(.absolutePressure, 31)]))
        recorder.feed(all: frame(530, [key(.buttonTouch, 0), abs(.absolutePressure, 0)]))
        #expect(recorder.contactsDown == 0)
        recorder.feed(all: frame(700, [key(.buttonTouch, 1), abs(.absoluteX, 600), abs(.absoluteY, 300), abs(.absolutePressure, 20)]))
        recorder.feed(all: frame(700, [key(.buttonTouch, 0)]))
        let gesture = try recorder.finished().gesture
        #expect(
            gesture.strokes == [
                Stroke(samples: [
                    sample(0, 10, 20, pressure: 30), sample(12, 15, 20, pressure: 30),
                    sample(24, 15, 767, pressure: 31), sample(30, 15, 767, pressure: 31),
                ]),
                // Lifted in a frame with the same time: a single sample (a tap).
                Stroke(samples: [sample(200, 600, 300, pressure: 20)]),
            ])
        try gesture.validate()
    }

    @Test func aTouchThatEndedDuringADropEnds() throws {
        var recorder = try StrokeRecorder(device: TestDevices.singleTouch)
        recorder.feed(all: frame(0, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 2)]))
        let notices = recorder.feed(all: [dropped(40)] + resyncFrame(40, [key(.buttonTouch, 0)]) + [.resyncDone])
        #expect(notices == [.eventsDropped(total: 1)])
        #expect(recorder.contactsDown == 0)
        #expect(recorder.droppedEventCount == 1)
        #expect(try recorder.finished().gesture.strokes == [Stroke(samples: [sample(0, 1, 2), sample(40, 1, 2)])])
    }
}

@Suite struct PenTests {
    @Test func hoverIsNotRecordedAndContactCarriesPressure() throws {
        var recorder = try StrokeRecorder(device: TestDevices.pen)
        recorder.feed(all: frame(1_000, [key(.buttonToolPen, 1), abs(.absoluteX, 5_000), abs(.absoluteY, 4_000)]))
        recorder.feed(all: frame(1_005, [abs(.absoluteX, 5_100)]))
        #expect(!recorder.hasStarted)
        recorder.feed(all: frame(1_010, [key(.buttonTouch, 1), abs(.absolutePressure, 800)]))
        recorder.feed(all: frame(1_015, [abs(.absoluteX, 5_200), abs(.absolutePressure, 1_600)]))
        recorder.feed(all: frame(1_020, [abs(.absolutePressure, 5_000)]))
        recorder.feed(all: frame(1_025, [key(.buttonTouch, 0), abs(.absolutePressure, 0)]))
        // Hovering again, then out of proximity.
        recorder.feed(all: frame(1_030, [abs(.absoluteX, 6_000)]))
        recorder.feed(all: frame(1_035, [key(.buttonToolPen, 0)]))
        // The eraser end counts as a pen.
        recorder.feed(all: frame(1_100, [key(.buttonToolRubber, 1), key(.buttonTouch, 1), abs(.absolutePressure, 100)]))
        // Leaving proximity while touching ends the stroke.
        recorder.feed(all: frame(1_110, [key(.buttonToolRubber, 0)]))
        let gesture = try recorder.finished().gesture
        #expect(
            gesture.strokes == [
                Stroke(kind: .pen, samples: [
                    sample(0, 5_100, 4_000, pressure: 800), sample(5, 5_200, 4_000, pressure: 1_600),
                    sample(10, 5_200, 4_000, pressure: 4_095), sample(15, 5_200, 4_000, pressure: 4_095),
                ]),
                Stroke(kind: .pen, samples: [sample(90, 6_000, 4_000, pressure: 100), sample(100, 6_000, 4_000, pressure: 100)]),
            ])
        try gesture.validate()
    }

    @Test func touchWithoutProximityIsNotAStroke() throws {
        var recorder = try StrokeRecorder(device: TestDevices.pen)
        recorder.feed(all: frame(0, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)]))
        #expect(!recorder.hasStarted)
        #expect(throws: RecordingError.noContact) { try recorder.finished() }
    }
}

@Suite struct PointerTests {
    @Test func pressDragReleaseIntegratesAndClamps() throws {
        var recorder = try StrokeRecorder(
            device: TestDevices.mouse, options: RecorderOptions(virtualScreenWidth: 200, virtualScreenHeight: 100))
        // Motion before the press moves the pointer from the centre (100, 50).
        recorder.feed(all: frame(3_000, [rel(.relativeX, -30), rel(.relativeY, 5)]))
        recorder.feed(all: frame(3_008, [rel(.relativeX, -20)]))
        #expect(!recorder.hasStarted)
        // The press's own motion comes first.
        recorder.feed(all: frame(3_016, [rel(.relativeX, 2), key(.buttonLeft, 1)]))
        recorder.feed(all: frame(3_024, [rel(.relativeX, 10), rel(.relativeX, 5), rel(.relativeY, -3)]))
        // The wheel and other buttons do not matter during the stroke.
        recorder.feed(all: frame(3_032, [rel(.relativeWheel, 1), key(.buttonRight, 1)]))
        recorder.feed(all: frame(3_040, [rel(.relativeX, 10_000), rel(.relativeY, -10_000)]))
        recorder.feed(all: frame(3_048, [key(.buttonRight, 0)]))
        recorder.feed(all: frame(3_056, [key(.buttonLeft, 0)]))
        #expect(recorder.contactsDown == 0)
        recorder.feed(all: frame(3_064, [rel(.relativeX, -500), rel(.relativeY, 500)]))
        recorder.feed(all: frame(3_072, [key(.buttonMiddle, 1)]))
        recorder.feed(all: frame(3_080, [rel(.relativeY, -1)]))
        recorder.feed(all: frame(3_088, [key(.buttonMiddle, 0), rel(.relativeY, -1)]))
        let recorded = try recorder.finished()
        #expect(
            recorded.gesture.strokes == [
                Stroke(kind: .pointer, button: .left, samples: [
                    sample(0, 52, 55), sample(8, 67, 52), sample(24, 199, 0), sample(40, 199, 0),
                ]),
                Stroke(kind: .pointer, button: .middle, samples: [sample(56, 0, 99), sample(64, 0, 98), sample(72, 0, 98)]),
            ])
        #expect(recorded.gesture.device.kind == .mouse)
        try recorded.gesture.validate()
    }

    @Test func aButtonHeldAtTheStartStartsNothingUntilPressedAgain() throws {
        var recorder = try StrokeRecorder(
            device: TestDevices.mouse, initialState: DeviceStateSnapshot(keysDown: [.buttonLeft]))
        recorder.feed(all: frame(0, [rel(.relativeX, 4)]))
        recorder.feed(all: frame(10, [key(.buttonLeft, 0)]))
        #expect(!recorder.hasStarted)
        recorder.feed(all: frame(20, [key(.buttonRight, 1)]))
        recorder.feed(all: frame(30, [key(.buttonRight, 0)]))
        #expect(
            try recorder.finished().gesture.strokes == [
                Stroke(kind: .pointer, button: .right, samples: [sample(0, 964, 540), sample(10, 964, 540)])
            ])
    }
}
