import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording

/// The recorder keeps a gesture valid by raising times that go backwards
/// and clamping values beyond the axes, and counts both (issue 7 item 7).
@Suite struct RepairTests {
    @Test func repairsAreCountedPerSampleAndPerAxis() throws {
        var recorder = try StrokeRecorder(device: TestDevices.singleTouch)
        recorder.feed(all: frame(500, [key(.buttonTouch, 1), abs(.absoluteX, 10), abs(.absoluteY, 20), abs(.absolutePressure, 70)]))
        recorder.feed(all: frame(520, [abs(.absoluteX, 2_000)]))
        // Back by 15 ms, then by 30 ms; the second frame moves nothing new.
        recorder.feed(all: frame(505, [abs(.absoluteY, -4)]))
        recorder.feed(all: frame(490, [abs(.absoluteY, -4)]))
        recorder.feed(all: frame(530, [abs(.absoluteX, 12), abs(.absolutePressure, 30)]))
        // The lift, back in time: its sample is retimed too.
        recorder.feed(all: frame(525, [key(.buttonTouch, 0)]))
        let recorded = try recorder.finished()
        #expect(
            recorded.gesture.strokes == [
                Stroke(samples: [
                    sample(0, 10, 20, pressure: 63), sample(20, 1_023, 20, pressure: 63), sample(20, 1_023, 0, pressure: 63),
                    sample(30, 12, 0, pressure: 30),
                ])
            ])
        try recorded.gesture.validate()
        let repairs = recorded.repairs
        // The frame at 490 ms gave no sample; the lift at 525 ms gave none
        // (it is not later than the last sample), so only 505 ms counts.
        #expect(repairs.backwardFrames == 1)
        #expect(repairs.retimedSamples == 1)
        #expect(repairs.largestStepBack == ms(15))
        #expect(
            repairs.clampings == [
                .init(axis: "x", range: AxisRange(minimum: 0, maximum: 1_023, resolution: 4), samples: 2, farthest: 2_000),
                .init(axis: "y", range: AxisRange(minimum: 0, maximum: 767, resolution: 4), samples: 2, farthest: -4),
                .init(axis: "pressure", range: AxisRange(minimum: 0, maximum: 63), samples: 3, farthest: 70),
            ])
        #expect(
            recorded.warnings == [
                "the event times went backwards once (by up to 15 ms); 1 sample took the latest earlier time instead, so that time never decreases",
                "x of 2 samples lay outside the axis range 0…1023 (as far as 2000) and was clamped into it",
                "y of 2 samples lay outside the axis range 0…767 (as far as -4) and was clamped into it",
                "pressure of 3 samples lay outside the axis range 0…63 (as far as 70) and was clamped into it",
            ])
    }

    @Test func aCleanRecordingHasNoRepairs() throws {
        var recorder = try StrokeRecorder(device: TestDevices.singleTouch)
        recorder.feed(all: frame(0, [key(.buttonTouch, 1), abs(.absoluteX, 0), abs(.absoluteY, 767)]))
        recorder.feed(all: frame(10, [abs(.absoluteX, 1_023)]))
        recorder.feed(all: frame(10, [key(.buttonTouch, 0)]))
        let recorded = try recorder.finished()
        #expect(recorded.repairs.isEmpty)
        #expect(recorded.repairs == RecordingRepairs())
        #expect(recorded.warnings.isEmpty)
    }

    @Test func stepsBackAreWrittenInMilliseconds() {
        #expect(RecordingRepairs.milliseconds(Microseconds(5_000)) == "5 ms")
        #expect(RecordingRepairs.milliseconds(Microseconds(250)) == "0.25 ms")
        #expect(RecordingRepairs.milliseconds(Microseconds(1_500_001)) == "1500.001 ms")
    }
}
