import DeviceDiscovery
import GestureEngine
import GestureModel
import Glibc
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording
import OperatingSystem
import Synchronization

/// The fake source moves its clock 10 ms for each read that finds nothing,
/// and a stop reads what waits once more (issue 40: a stop drains the
/// source): a session that stops at a deadline ends one such step after it.
@Suite struct SessionTests {
    private static let tap = frame(5_000, [key(.buttonTouch, 1), abs(.absoluteX, 10), abs(.absoluteY, 20)])
        + frame(5_100, [abs(.absoluteX, 11)]) + frame(5_200, [key(.buttonTouch, 0)])

    private func session(
        _ source: FakeSource, clock: ManualClock, options: RecordingSessionOptions,
        cancellation: CancellationSignal? = nil
    ) throws -> RecordingSession {
        try RecordingSession(
            source: source,
            recorder: StrokeRecorder(device: TestDevices.singleTouch),
            details: RecordingDetails(name: "session", tool: "gesturectl test"), options: options, clock: clock,
            cancellation: cancellation ?? CancellationSignal())
    }

    @Test func idleTimeoutCountsFromTheLastLift() throws {
        let clock = ManualClock(start: ms(4_900))
        let source = FakeSource(clock: clock, outcomes: Self.tap)
        let result = try session(source, clock: clock, options: RecordingSessionOptions(idleTimeout: ms(3_000))).run()
        #expect(result.stopReason == .idleTimeout)
        #expect(clock.now() == ms(8_210))  // the stop's drain reads once more: one idle step
        let recorded = try result.gesture.get()
        #expect(recorded.gesture.strokes == [Stroke(samples: [sample(0, 10, 20), sample(100, 11, 20), sample(200, 11, 20)])])
        #expect(recorded.gesture.metadata?.tool == "gesturectl test")
        #expect(recorded.stopReason == .idleTimeout)
    }

    @Test func aContactHeldStillIsNotIdle() throws {
        let clock = ManualClock(start: .zero)
        let source = FakeSource(
            clock: clock,
            steps: frame(100, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)]).map { .outcome($0) }
                // Each wouldBlock ends a read, so the session checks its timeouts while the finger is held.
                + [.outcome(.wouldBlock), .advance(ms(5_000)), .outcome(.wouldBlock)] + frame(5_200, [key(.buttonTouch, 0)]).map { .outcome($0) })
        let result = try session(source, clock: clock, options: RecordingSessionOptions(idleTimeout: ms(1_000))).run()
        #expect(result.stopReason == .idleTimeout)
        #expect(clock.now() == ms(6_210))  // the stop's drain reads once more: one idle step
        #expect(try result.gesture.get().gesture.strokes == [Stroke(samples: [sample(0, 1, 1), sample(5_100, 1, 1)])])
    }

    @Test func maximumDurationLeavesOutLaterEvents() throws {
        let clock = ManualClock(start: .zero)
        let source = FakeSource(
            clock: clock,
            outcomes: frame(5_000, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)])
                + frame(5_500, [abs(.absoluteX, 2)]) + frame(6_000, [abs(.absoluteX, 3)])
                + frame(6_500, [abs(.absoluteX, 4)]))
        let result = try session(source, clock: clock, options: RecordingSessionOptions(maximumDuration: ms(1_000))).run()
        #expect(result.stopReason == .maximumDuration)
        let recorded = try result.gesture.get()
        #expect(recorded.gesture.strokes == [Stroke(samples: [sample(0, 1, 1), sample(500, 2, 1), sample(1_000, 3, 1)])])
        #expect(recorded.contactsEndedAtFinish == 1)
    }

    @Test func maximumDurationByTheClock() throws {
        let clock = ManualClock(start: .zero)
        let source = FakeSource(
            clock: clock, outcomes: frame(5_000, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)]))
        let result = try session(source, clock: clock, options: RecordingSessionOptions(idleTimeout: ms(300), maximumDuration: ms(1_000))).run()
        #expect(result.stopReason == .maximumDuration)
        #expect(clock.now() == ms(6_010))  // the stop's drain reads once more: one idle step
    }

    @Test func noContactInTime() throws {
        let clock = ManualClock(start: ms(70))
        let source = FakeSource(clock: clock, outcomes: [])
        let result = try session(source, clock: clock, options: RecordingSessionOptions(firstContactTimeout: ms(50))).run()
        #expect(result.stopReason == .noContactTimeout)
        #expect(clock.now() == ms(130))  // the stop's drain reads once more: one idle step
        #expect(throws: RecordingError.noContact) { try result.gesture.get() }
    }

    @Test func deviceVanishedKeepsTheStrokes() throws {
        let clock = ManualClock(start: .zero)
        let vanished = SystemError(call: "read", path: "/dev/input/event5", errorNumber: ENODEV, kind: .deviceVanished)
        let source = FakeSource(
            clock: clock,
            steps: frame(10, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)]).map { .outcome($0) }
                + [.fail(vanished)])
        let result = try session(source, clock: clock, options: RecordingSessionOptions()).run()
        #expect(result.stopReason == .deviceVanished(vanished))
        #expect(result.stopReason.isFailure)
        let recorded = try result.gesture.get()
        #expect(recorded.gesture.strokes == [Stroke(samples: [sample(0, 1, 1)])])
        #expect(recorded.contactsEndedAtFinish == 1)
    }

    @Test func otherReadErrorsStopWithTheError() throws {
        let clock = ManualClock(start: .zero)
        let failure = SystemError(call: "read", errorNumber: EIO)
        let source = FakeSource(clock: clock, steps: [.fail(failure)])
        let result = try session(source, clock: clock, options: RecordingSessionOptions()).run()
        #expect(result.stopReason == .readFailed(failure))
        #expect(result.stopReason.isFailure)
    }

    @Test func cancelStopsAfterWhatIsWaitingWasRead() throws {
        let clock = ManualClock(start: .zero)
        let signal = CancellationSignal()
        let source = FakeSource(
            clock: clock, steps: Self.tap.prefix(4).map { .outcome($0) } + [.cancel(signal)] + Self.tap.dropFirst(4).map { .outcome($0) })
        let result = try session(source, clock: clock, options: RecordingSessionOptions(), cancellation: signal).run()
        #expect(result.stopReason == .cancelled)
        #expect(signal.isCancelled)
        #expect(try result.gesture.get().gesture.strokes.count == 1)
        #expect(result.recorder.contactsDown == 0)
    }

    @Test func cancelledBeforeStarting() throws {
        let clock = ManualClock(start: .zero)
        let signal = CancellationSignal()
        #expect(!signal.isCancelled)
        signal.cancel()
        signal.cancel()
        let result = try session(FakeSource(clock: clock, outcomes: []), clock: clock, options: RecordingSessionOptions(), cancellation: signal).run()
        #expect(result.stopReason == .cancelled)
        #expect(clock.now() == ms(20))  // the stop's drain reads once more: one idle step
    }

    @Test func enterStops() throws {
        let clock = ManualClock(start: .zero)
        let enter = TestPipe()
        defer {
            close(enter.read)
            close(enter.write)
        }
        enter.send("\n")
        let result = try session(
            FakeSource(clock: clock, outcomes: Self.tap), clock: clock,
            options: RecordingSessionOptions(enterDescriptor: FileDescriptor(rawValue: enter.read))
        ).run()
        #expect(result.stopReason == .enterPressed)
        #expect(try result.gesture.get().gesture.strokes.count == 1)
    }

    @Test func endOfInputOnTheEnterDescriptorDoesNotStop() throws {
        let clock = ManualClock(start: .zero)
        let enter = TestPipe()
        defer { close(enter.read) }
        enter.send("no line end")
        close(enter.write)
        let result = try session(
            FakeSource(clock: clock, outcomes: Self.tap), clock: clock,
            options: RecordingSessionOptions(idleTimeout: ms(100), enterDescriptor: FileDescriptor(rawValue: enter.read))
        ).run()
        #expect(result.stopReason == .idleTimeout)
        #expect(clock.now() == ms(5_310))  // the stop's drain reads once more: one idle step
    }

    @Test func statusEveryIntervalAndWarnings() throws {
        let clock = ManualClock(start: .zero)
        let source = FakeSource(
            clock: clock,
            outcomes: frame(250, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)]) + [.wouldBlock]
                + [dropped(300)] + resyncFrame(300, []) + [.resyncDone]
                + frame(400, [key(.buttonTouch, 0)]))
        let recordingSession = try session(source, clock: clock, options: RecordingSessionOptions(idleTimeout: ms(200)))
        var statuses: [String] = []
        var warnings: [String] = []
        recordingSession.statusHandler = { statuses.append($0.description) }
        recordingSession.warningHandler = { warnings.append($0.description) }
        let result = recordingSession.run()
        #expect(result.stopReason == .idleTimeout)
        #expect(clock.now() == ms(610))  // the stop's drain reads once more: one idle step
        #expect(
            statuses == [
                "waiting for the first contact", "recording 0.0 s, 1 stroke, 1 down",
                "recording 0.1 s, 1 stroke, 0 down, 1 drop", "recording 0.2 s, 1 stroke, 0 down, 1 drop",
            ])
        #expect(warnings == ["the kernel dropped events; 1 so far"])
        #expect(try result.gesture.get().gesture.metadata?.droppedEvents == 1)
    }

    @Test func sequentialSessionMerges() throws {
        let clock = ManualClock(start: .zero)
        let outcomes =
            frame(100, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)]) + frame(150, [key(.buttonTouch, 0)])
            + frame(900, [key(.buttonTouch, 1), abs(.absoluteX, 2)]) + frame(1_000, [key(.buttonTouch, 0)])
        let result = try session(
            FakeSource(clock: clock, outcomes: outcomes), clock: clock,
            options: RecordingSessionOptions(idleTimeout: ms(3_000))
        ).run()
        #expect(
            SequentialMerge.apply(to: try result.gesture.get()).gesture.strokes == [
                Stroke(samples: [sample(0, 1, 1), sample(50, 1, 1)]), Stroke(samples: [sample(0, 2, 1), sample(100, 2, 1)]),
            ])
    }

    @Test func durationsMustBePositive() throws {
        let clock = ManualClock(start: .zero)
        #expect(throws: RecordingError.invalidOption("the idle timeout must be positive, not 0 µs")) {
            try session(FakeSource(clock: clock, outcomes: []), clock: clock, options: RecordingSessionOptions(idleTimeout: .zero))
        }
        #expect(throws: RecordingError.invalidOption("the status interval must be positive, not -5 µs")) {
            try session(
                FakeSource(clock: clock, outcomes: []), clock: clock,
                options: RecordingSessionOptions(statusInterval: Microseconds(-5)))
        }
    }

    /// The engine starts every recording (`Engine.startRecording`): on a
    /// thread of its own, set up as ``RecordingSession/threadOptions`` say.
    @Test func runsOnADedicatedThread() async throws {
        let clock = ManualClock(start: .zero)
        let threadName = ThreadName()
        let job = try Engine().startRecording(
            RecordRequest(
                sessionOptions: RecordingSessionOptions(idleTimeout: ms(50)),
                details: RecordingDetails(name: "session", tool: "gesturectl test")),
            source: FakeSource(clock: clock, outcomes: Self.tap), description: TestDevices.singleTouch,
            device: DeviceInfo(node: "/dev/input/test", name: "test", kind: .touchscreen), stableID: nil, clock: clock,
            strokes: { _ in threadName.record() })
        let result = await job.handle.finished()
        // The stroke handler ran on the session's own thread, named as the
        // kernel shows it (not the test's thread or the cooperative pool).
        #expect(threadName.names == [RecordingSession.threadOptions.name])
        #expect(result.stopReason == .idleTimeout)
        #expect(try result.gesture.get().gesture.strokes.count == 1)
    }
}

@Suite struct LimitTests {
    @Test func strokesStopAtTheLimit() throws {
        var recorder = try StrokeRecorder(device: TestDevices.singleTouch)
        var notices: [RecorderNotice] = []
        for index in 0...Int64(GestureLimits.maximumStrokes) {
            notices += recorder.feed(all: frame(index * 2, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)]))
            notices += recorder.feed(all: frame(index * 2 + 1, [key(.buttonTouch, 0)]))
        }
        #expect(notices == [.limitReached("10000 strokes")])
        #expect(notices.map(\.description) == ["the recording reached the limit of 10000 strokes; nothing more is recorded"])
        #expect(recorder.limitReached)
        #expect(recorder.strokeCount == 10_000)
        let recorded = try recorder.finished()
        #expect(recorded.warnings == ["the recording reached the limit of 10000 strokes and was cut short"])
        try recorded.gesture.validate()
    }

    @Test func timesBeyondFourHoursAreNotRecorded() throws {
        var recorder = try StrokeRecorder(device: TestDevices.singleTouch)
        recorder.feed(all: frame(0, [key(.buttonTouch, 1), abs(.absoluteX, 1), abs(.absoluteY, 1)]))
        let notices = recorder.feed(all: frame(24 * 3_600 * 1_000 + 1, [abs(.absoluteX, 2)]))
        #expect(notices == [.limitReached("24 hours")])
        #expect(try recorder.finished().gesture.strokes == [Stroke(samples: [sample(0, 1, 1)])])
    }
}

/// Thread names collected from whatever thread calls ``record()``.
final class ThreadName: Sendable {
    private let storage = Mutex<[String]>([])
    func record() {
        let name = DedicatedThread.currentName
        storage.withLock { $0.append(name) }
    }
    var names: [String] { storage.withLock { $0 } }
}

@Suite struct HeldBackEventsTests {
    /// More outcomes than one wake-up reads, all held back: the session
    /// reads on without waiting for the descriptor, and records the lift.
    /// (Waiting for it, it would stop only at the maximum duration, with
    /// the contact still down.)
    @Test func eventsHeldBackBySourceAreReadWithoutWaiting() throws {
        let start = SystemClock().now() - ms(1_000)
        var outcomes = frame(0, [key(.buttonTouch, 1), abs(.absoluteX, 0), abs(.absoluteY, 0)])
        for step in Int32(1)...300 { outcomes += frame(Int64(step), [abs(.absoluteX, step)]) }
        outcomes += frame(301, [key(.buttonTouch, 0)])
        outcomes = outcomes.map {
            guard case .event(var event) = $0 else { return $0 }
            event.time = event.time + start
            return .event(event)
        }
        #expect(outcomes.count > RecordingSession.maximumOutcomesPerWakeup)
        let result = try RecordingSession(
            source: HeldBackSource(outcomes), recorder: StrokeRecorder(device: TestDevices.singleTouch),
            details: RecordingDetails(name: "held back", tool: "gesturectl test"),
            options: RecordingSessionOptions(
                idleTimeout: ms(50), maximumDuration: ms(3_000), firstContactTimeout: ms(2_000)),
            clock: SystemClock(),
            cancellation: CancellationSignal()
        ).run()
        #expect(result.stopReason == .idleTimeout)
        let strokes = try result.gesture.get().gesture.strokes
        #expect(strokes.count == 1)
        #expect(strokes.first?.samples.count == 302)
    }
}
