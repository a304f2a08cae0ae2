import DeviceDiscovery
import GestureEngine
import GestureModel
import InputSystem
import OperatingSystem
import Testing
import TestSupport

@testable import GestureRecording

/// Issue 40: a stop reads what the device has already delivered before it
/// ends the recording. On a busy machine a person who lifts the finger and
/// says "stop" at once lost the last stroke: the kernel had delivered it,
/// the reader had not read it yet.
@Suite struct StopDrainTests {
    private static let details = RecordingDetails(name: "drained", tool: "gesturectl test")

    /// The race, made certain: the stroke arrives and the stop is asked
    /// for after the session's first read, before it looks again (on a
    /// busy machine, the thread not run between the two). The stop finds
    /// the cancellation first; the stroke is read all the same.
    @Test func aStopAfterTheLastReadStillReadsWhatWaits() throws {
        let source = try PipeSource()
        let signal = CancellationSignal()
        let session = try RecordingSession(
            source: source, recorder: StrokeRecorder(device: TestDevices.touchscreen), details: Self.details,
            cancellation: signal)
        session.listeningHandler = {
            source.stroke(id: 1, x: 300, y: 400)
            signal.cancel()
        }
        let result = session.run()
        #expect(result.stopReason == .cancelled)
        #expect(try result.gesture.get().gesture.strokes.count == 1)
        #expect(source.isDrained)
    }

    /// Enter is a stop too.
    @Test func enterAfterTheLastReadStillReadsWhatWaits() throws {
        let source = try PipeSource()
        let enter = try FileDescriptor.pipe()
        defer {
            enter.read.close()
            enter.write.close()
        }
        let session = try RecordingSession(
            source: source, recorder: StrokeRecorder(device: TestDevices.touchscreen), details: Self.details,
            options: RecordingSessionOptions(enterDescriptor: enter.read), cancellation: CancellationSignal())
        session.listeningHandler = {
            source.stroke(id: 1, x: 300, y: 400)
            enter.write.writeAllIgnoringErrors([10])
        }
        let result = session.run()
        #expect(result.stopReason == .enterPressed)
        #expect(try result.gesture.get().gesture.strokes.count == 1)
    }

    /// The same through the engine, as every front end records, 1,000
    /// times: the stroke pushed, then the job cancelled at once.
    @Test func aStrokeJustBeforeAStopIsKeptAThousandTimes() async throws {
        let engine = Engine()
        var lost = 0
        for round in 0..<1_000 {
            let source = try PipeSource()
            let job = try engine.startRecording(
                RecordRequest(details: Self.details), source: source, description: TestDevices.touchscreen,
                device: DeviceInfo(node: "/dev/input/test", name: "test", kind: .touchscreen), stableID: nil)
            source.stroke(id: Int32(round % 1_000 + 1), x: 300, y: 400)
            job.cancel()
            let outcome = await job.finished()
            if (try? outcome.gesture.get().gesture.strokes.count) != 1 { lost += 1 }
        }
        #expect(lost == 0, "\(lost) of 1,000 stops lost the stroke before them")
    }

    /// A stop whose drain reaches the maximum duration says so: the
    /// recording was cut there.
    @Test func aDrainThatReachesTheLimitReportsIt() {
        #expect(RecordingSession.stopReason(requested: .cancelled, drained: .maximumDuration) == .maximumDuration)
        #expect(RecordingSession.stopReason(requested: .cancelled, drained: .limitReached) == .limitReached)
        let gone = SystemError(call: "read", errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished)
        #expect(RecordingSession.stopReason(requested: .enterPressed, drained: .deviceVanished(gone)) == .enterPressed)
    }
}
