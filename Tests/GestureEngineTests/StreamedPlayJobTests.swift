@testable import GestureEngine
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// The engine streams a play's frames (issue 39, part 2) on one-shot and
/// kept devices alike: the frames written and the count it reports are
/// those of the list it used to build.
@Suite("Streamed play jobs")
struct StreamedPlayJobTests {
    private let touchscreen = VirtualDeviceProfile.touchscreen()

    /// `fingers` fingers moving every 8 ms for `samples` samples: more
    /// frames than a look-ahead holds.
    private func longGesture(fingers: Int, samples: Int) -> Gesture {
        var strokes: [Stroke] = []
        for index in 0..<fingers {
            var samplesOfFinger: [Sample] = []
            samplesOfFinger.reserveCapacity(samples)
            for step in 0..<samples {
                samplesOfFinger.append(
                    Sample(time: Microseconds(Int64(step) * 8_000), x: 1_000 + index * 1_500 + step % 700, y: 2_000 + step % 900))
            }
            strokes.append(Stroke(kind: .finger, samples: samplesOfFinger))
        }
        return Gesture(name: "long", device: .synthDefault, strokes: strokes)
    }

    private func listed(_ gesture: Gesture) throws -> [InputFrame] {
        try FrameBuilder(target: touchscreen, options: PlaybackOptions()).frames(for: gesture)
    }

    @Test("A one-shot and a kept device's play write the list's frames, lead-in added, and report its count", arguments: [false, true])
    func framesAndCount(keepDevice: Bool) async throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let gesture = longGesture(fingers: 4, samples: 6_000)
        let expected = try listed(gesture)
        #expect(expected.count > FrameStream.defaultLookAhead)
        let leadIn = Microseconds(20_000)
        let job = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: leadIn, keepDevice: keepDevice))
        let result = await job.finished()
        #expect(result.isCompleted)
        #expect(job.frameTally.count == expected.count)
        #expect(await job.countedFrames() == expected.count)
        #expect(job.frameCount == expected.count)
        let written = try #require(devices.all.first?.sink.frames)
        #expect(written == expected.map { InputFrame(time: $0.time + leadIn, events: $0.events) })
        #expect(result.lateness.count == expected.count)
        engine.closeKeptDevices()
    }

    @Test("An interrupted play lifts every finger at once and still reports the whole play's count", arguments: [false, true])
    func interruptedCount(keepDevice: Bool) async throws {
        let devices = MadeDevices(clockMode: .waitsForAdvance)
        let engine = devices.engine()
        let gesture = longGesture(fingers: 10, samples: 8_000)
        let expected = try listed(gesture)
        let job = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: keepDevice))
        // Let ten frames go, then cancel.
        let clock = try #require(devices.all.first?.clock)
        for _ in 0..<10 {
            guard let deadline = clock.nextWaitingDeadline(cancellation: job.handle.cancellation) else { break }
            clock.advance(to: deadline)
        }
        job.cancel()
        let result = await job.finished()
        guard case .cancelled(let written) = result.outcome else {
            Issue.record("expected cancelled, got \(result.outcome)")
            return
        }
        #expect(written >= 9 && written < expected.count)
        let lift = try #require(result.liftAllFrame)
        #expect(lift.events.filter { $0.code == .multitouchTrackingID && $0.value == -1 }.count == 10)
        #expect(result.finalState.isReleased)
        #expect(await job.countedFrames() == expected.count)
        engine.closeKeptDevices()
    }

    @Test("A kept device's job cancelled while it waits never started: its count is 0")
    func neverStarted() async throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let (gate, opener) = try FileDescriptor.pipe()
        defer {
            gate.close()
            opener.close()
        }
        let gesture = longGesture(fingers: 2, samples: 10)
        let first = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true, startGate: gate))
        let waiting = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true))
        waiting.cancel()
        try opener.writeAll([1])
        _ = await first.finished()
        _ = await waiting.finished()
        #expect(await first.countedFrames() == (try listed(gesture)).count)
        #expect(await waiting.countedFrames() == 0)
        #expect(waiting.frameCount == 0)
        engine.closeKeptDevices()
    }
}
