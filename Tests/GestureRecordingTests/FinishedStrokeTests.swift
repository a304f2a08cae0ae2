import GestureModel
import InputSystem
import OperatingSystem
import Testing
import TestSupport

@testable import GestureRecording

/// Strokes reported as their contacts lift (the daemon's `record` event).
@Suite struct FinishedStrokeTests {
    @Test func strokesAreTakenOnceEachAsTheyLift() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreen)
        recorder.feed(
            all: frame(
                1_000,
                [
                    abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 100), abs(.multitouchPositionY, 200),
                    abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 300),
                    abs(.multitouchPositionY, 400),
                ]))
        #expect(recorder.takeFinishedStrokes().isEmpty)
        recorder.feed(all: frame(1_050, [abs(.multitouchTrackingID, -1)]))
        // Slot 1 lifted: its stroke, with the lift's sample; slot 0 is still down.
        #expect(recorder.takeFinishedStrokes() == [Stroke(samples: [sample(0, 300, 400), sample(50, 300, 400)])])
        #expect(recorder.takeFinishedStrokes().isEmpty)
        recorder.feed(all: frame(1_080, [abs(.multitouchSlot, 0), abs(.multitouchPositionX, 110)]))
        recorder.feed(all: frame(1_100, [abs(.multitouchTrackingID, -1)]))
        #expect(
            recorder.takeFinishedStrokes() == [Stroke(samples: [sample(0, 100, 200), sample(80, 110, 200), sample(100, 110, 200)])])
        // Taking strokes changes nothing in the result.
        #expect(try recorder.finished().gesture.strokes.count == 2)
    }

    @Test func theSessionHandsEachLiftedStrokeToItsHandler() throws {
        let clock = ManualClock(start: ms(900))
        let source = FakeSource(
            clock: clock,
            outcomes: frame(1_000, [key(.buttonTouch, 1), abs(.absoluteX, 10), abs(.absoluteY, 20)])
                + frame(1_100, [key(.buttonTouch, 0)])
                + frame(1_200, [key(.buttonTouch, 1), abs(.absoluteX, 30)]))
        let session = try RecordingSession(
            source: source, recorder: StrokeRecorder(device: TestDevices.singleTouch),
            details: RecordingDetails(name: "strokes"), options: RecordingSessionOptions(maximumDuration: ms(1_000)),
            clock: clock, cancellation: CancellationSignal())
        nonisolated(unsafe) var seen: [Stroke] = []
        session.strokeHandler = { seen.append($0) }
        let result = session.run()
        // The second contact never lifted: it is only in the result.
        #expect(seen == [Stroke(samples: [sample(0, 10, 20), sample(100, 10, 20)])])
        #expect(try result.gesture.get().gesture.strokes.count == 2)
    }
}
