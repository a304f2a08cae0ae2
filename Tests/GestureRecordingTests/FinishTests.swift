import GestureEditing
import GestureEngine
import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording
import OperatingSystem

@Suite struct FinishTests {
    /// Three strokes drawn one after another with one finger.
    private static let threeStrokes: [ReadOutcome] =
        frame(1_000, [key(.buttonTouch, 1), abs(.absoluteX, 100), abs(.absoluteY, 100)])
        + frame(1_050, [abs(.absoluteX, 200)])
        + frame(1_100, [key(.buttonTouch, 0)])
        + frame(1_500, [key(.buttonTouch, 1), abs(.absoluteX, 300), abs(.absoluteY, 300)])
        + frame(1_530, [abs(.absoluteY, 400)])
        + frame(1_560, [key(.buttonTouch, 0)])
        + frame(2_000, [key(.buttonTouch, 1), abs(.absoluteX, 500), abs(.absoluteY, 500)])
        + frame(2_200, [key(.buttonTouch, 0)])

    @Test func sequentialStrokesAreMergedToStartTogether() throws {
        var recorder = try StrokeRecorder(device: TestDevices.singleTouch)
        recorder.feed(all: Self.threeStrokes)
        let recorded = SequentialMerge.apply(to: try recorder.finish(
            RecordingDetails(name: "three", recordedAt: "2026-11-29T13:26:23Z", tool: "gesturectl 0.1.0", deviceID: "1234:5678"),
            reason: .idleTimeout))
        #expect(
            recorded.gesture.strokes == [
                Stroke(samples: [sample(0, 100, 100), sample(50, 200, 100), sample(100, 200, 100)]),
                Stroke(samples: [sample(0, 300, 300), sample(30, 300, 400), sample(60, 300, 400)]),
                Stroke(samples: [sample(0, 500, 500), sample(200, 500, 500)]),
            ])
        #expect(recorded.gesture.device.slots == 3)
        #expect(recorded.gesture.maximumSimultaneousContacts == 3)
        #expect(recorded.gesture.name == "three")
        #expect(
            recorded.gesture.metadata
                == RecordingMetadata(
                    recordedAt: "2026-11-29T13:26:23Z", tool: "gesturectl 0.1.0", deviceName: "test single touch",
                    deviceID: "1234:5678"))
        #expect(recorded.stopReason == .idleTimeout)
        #expect(recorded.warnings.isEmpty)
        try recorded.gesture.validate()
    }

    @Test func withoutSequentialTheStrokesStayOneAfterAnother() throws {
        var recorder = try StrokeRecorder(device: TestDevices.singleTouch)
        recorder.feed(all: Self.threeStrokes)
        let gesture = try recorder.finished().gesture
        #expect(gesture.strokes.map(\.startTime) == [ms(0), ms(500), ms(1_000)])
        #expect(gesture.device.slots == 1)
    }

    @Test func sequentialStrokesThatOverlapStayAGroup() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        recorder.feed(all: frame(0, [abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 1), abs(.multitouchPositionY, 1)]))
        recorder.feed(
            all: frame(
                20, [abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 2), abs(.multitouchPositionY, 2)]))
        recorder.feed(all: frame(40, [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1)]))
        recorder.feed(all: frame(60, [abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1)]))
        recorder.feed(all: frame(300, [abs(.multitouchTrackingID, 3), abs(.multitouchPositionX, 3)]))
        recorder.feed(all: frame(330, [abs(.multitouchTrackingID, -1)]))
        let gesture = SequentialMerge.apply(to: try recorder.finished()).gesture
        #expect(
            gesture.strokes == [
                Stroke(samples: [sample(0, 1, 1), sample(40, 1, 1)]),
                Stroke(samples: [sample(0, 3, 2), sample(30, 3, 2)]),
                Stroke(samples: [sample(20, 2, 2), sample(60, 2, 2)]),
            ])
        #expect(gesture.device.slots == 10)
    }

    @Test func sequentialMouseStrokesBecomeSimultaneousPointerStrokes() throws {
        var recorder = try StrokeRecorder(device: TestDevices.mouse)
        recorder.feed(all: frame(0, [key(.buttonLeft, 1)]))
        recorder.feed(all: frame(10, [rel(.relativeX, 5)]))
        recorder.feed(all: frame(20, [key(.buttonLeft, 0)]))
        recorder.feed(all: frame(50, [key(.buttonLeft, 1)]))
        recorder.feed(all: frame(60, [rel(.relativeY, 5)]))
        recorder.feed(all: frame(70, [key(.buttonLeft, 0)]))
        let gesture = SequentialMerge.apply(to: try recorder.finished()).gesture
        #expect(
            gesture.strokes == [
                Stroke(kind: .pointer, button: .left, samples: [sample(0, 960, 540), sample(10, 965, 540), sample(20, 965, 540)]),
                Stroke(kind: .pointer, button: .left, samples: [sample(0, 965, 540), sample(10, 965, 545), sample(20, 965, 545)]),
            ])
        #expect(gesture.device.slots == 2)
    }

    @Test func elevenSequentialStrokesAreKeptAsDrawnWithAWarning() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        for index in 0..<11 {
            let start = Int64(index) * 100
            recorder.feed(
                all: frame(start, [abs(.multitouchTrackingID, Int32(index)), abs(.multitouchPositionX, 1), abs(.multitouchPositionY, 1)]))
            recorder.feed(all: frame(start + 10, [abs(.multitouchTrackingID, -1)]))
        }
        let recorded = SequentialMerge.apply(to: try recorder.finished())
        #expect(recorded.gesture.strokes.count == 11)
        #expect(recorded.gesture.strokes.map(\.startTime).last == ms(1_000))
        #expect(
            recorded.warnings == [
                "the strokes were not merged (merging gives 11 fingers at once; the most allowed is 10); they are kept one after another"
            ])
    }

    @Test func openContactsEndAtTheirLastSample() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        recorder.feed(
            all: frame(
                0,
                [
                    abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 1), abs(.multitouchPositionY, 1),
                    abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 2),
                    abs(.multitouchPositionY, 2),
                ]))
        recorder.feed(all: frame(15, [abs(.multitouchPositionX, 3)]))
        // A frame where nothing changes adds nothing.
        recorder.feed(all: frame(900, []))
        let recorded = try recorder.finish(RecordingDetails(name: "open"), reason: .deviceVanished(
            SystemError(call: "read", errorNumber: 19, kind: .deviceVanished)))
        #expect(recorded.contactsEndedAtFinish == 2)
        #expect(
            recorded.gesture.strokes == [
                Stroke(samples: [sample(0, 1, 1)]), Stroke(samples: [sample(0, 2, 2), sample(15, 3, 2)]),
            ])
        #expect(recorded.warnings == ["2 contacts were still down when recording stopped; they end at their last samples"])
        #expect(recorded.stopReason.isFailure)
        #expect(recorded.stopReason.description == "the device vanished")
        // finish leaves the recorder as it was: recording goes on.
        recorder.feed(all: frame(1_000, [abs(.multitouchTrackingID, -1)]))
        #expect(try recorder.finished().gesture.strokes[1].samples.last == sample(1_000, 3, 2))
    }

    @Test func noContactIsAnError() throws {
        let recorder = try StrokeRecorder(device: TestDevices.touchscreenWithPressure)
        #expect(throws: RecordingError.noContact) { try recorder.finished() }
        #expect(RecordingError.noContact.description == "no contact was recorded")
    }

    @Test func statusLines() throws {
        #expect(
            RecordingStatus(hasStarted: true, elapsed: ms(3_249), strokeCount: 1, contactsDown: 0, droppedEvents: 1)
                .description == "recording 3.2 s, 1 stroke, 0 down, 1 drop")
        #expect(
            RecordingStatus(hasStarted: true, elapsed: ms(61_000), strokeCount: 4, contactsDown: 2, droppedEvents: 0)
                .description == "recording 61.0 s, 4 strokes, 2 down")
    }
}
