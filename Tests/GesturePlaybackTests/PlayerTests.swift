import Dispatch
import GestureModel
import InputSystem
import Synchronization
import Testing

@testable import GesturePlayback
import OperatingSystem
import TestSupport

@Suite("Player")
struct PlayerTests {
    /// Frames that change nothing readers track, due at `times`.
    private func plainFrames(_ times: [Int64]) -> [InputFrame] {
        times.map {
            InputFrame(
                time: Microseconds($0),
                events: [InputEvent(type: .relative, code: .relativeX, value: 1), .synchronizationReport()])
        }
    }

    /// The two-finger gesture's frames on the touchscreen: down, move, lift.
    private func twoFingerFrames() throws -> [InputFrame] {
        try build(
            touchscreenGesture([
                finger([(0, 100, 100), (10_000, 200, 100)]), finger([(0, 5_000, 5_000), (10_000, 5_100, 5_000)]),
            ]))
    }

    private let touchscreenState = DeviceState(description: VirtualDeviceProfile.touchscreen().description)

    @Test("Deadlines are absolute: a late frame is written as soon as it may and later frames keep their times")
    func absoluteDeadlines() {
        let clock = ManualClock(start: Microseconds(1_000_000))
        let sink = RecordingSink { index, _ in
            if index == 1 { clock.advance(by: Microseconds(15_000)) }
        }
        let frames = plainFrames([0, 10_000, 20_000, 30_000, 40_000])
        let result = Player(clock: clock).play(frames, on: sink, state: touchscreenState)
        #expect(result.isCompleted)
        // Frame 1's write ended at 25 ms: frame 2 (due at 20) goes half an
        // interval later, frame 3 (due at 30) at 35, frame 4 on its deadline.
        #expect(clock.requestedDeadlines.map(\.rawValue) == [1_000_000, 1_010_000, 1_030_000, 1_035_000, 1_040_000])
        #expect(sink.frames == frames)
        #expect(
            result.lateness
                == LatenessStatistics(latenesses: [.zero, .zero, Microseconds(10_000), Microseconds(5_000), .zero]))
        #expect(result.lateness.maximum == Microseconds(10_000))
        #expect(result.lateness.median == .zero)
        #expect(result.liftAllFrame == nil)
    }

    @Test("After a stall, late frames catch up at twice the speed at most instead of going out back to back")
    func lateFramesAreSpacedOut() {
        // Found in the VM: the first frame of a touchpad pinch went out
        // 14 ms late, the next two followed within 0.4 ms, and libinput
        // discarded their motion as touch jumps.
        let clock = ManualClock(start: Microseconds(1_000_000))
        let writeTimes = Mutex<[Int64]>([])
        let sink = RecordingSink { index, _ in
            writeTimes.withLock { $0.append(clock.now().rawValue - 1_000_000) }
            if index == 1 { clock.advance(by: Microseconds(20_000)) }
        }
        let frames = plainFrames([0, 8_000, 16_000, 24_000, 32_000, 40_000, 48_000])
        let result = Player(clock: clock).play(frames, on: sink, state: touchscreenState)
        #expect(result.isCompleted)
        #expect(sink.frames == frames)
        // Frame 1's write ends at 28 ms; frame 2 (due at 16 ms) goes half an
        // interval after that (32 ms), frame 3 at 36, frame 4 at 40, and
        // from frame 5 on the schedule holds again: no drift.
        #expect(writeTimes.withLock { $0 } == [0, 8_000, 32_000, 36_000, 40_000, 44_000, 48_000])
        #expect(
            result.lateness
                == LatenessStatistics(
                    latenesses: [
                        .zero, .zero, Microseconds(16_000), Microseconds(12_000), Microseconds(8_000),
                        Microseconds(4_000), .zero,
                    ]))
    }

    @Test("A thread delayed between the clock and its write never puts the next frame right behind it")
    func delayBeforeTheWrite() {
        // Under load (issue 23) the playing thread was preempted after it
        // read the clock and before its write reached the kernel: the frame
        // was stamped late, and the next one, spaced from the clock's
        // earlier reading, followed within microseconds (libinput: "Touch
        // jump detected and discarded"). Spacing counts from the write's end.
        let clock = ManualClock(start: Microseconds(1_000_000))
        let ends = Mutex<[Int64]>([])
        let starts = Mutex<[Int64]>([])
        let sink = RecordingSink { index, _ in
            starts.withLock { $0.append(clock.now().rawValue) }
            // Every third write is held up 6-14 ms, as a preempted thread's.
            if index % 3 == 1 { clock.advance(by: Microseconds(6_000 + Int64(index % 5) * 2_000)) }
            ends.withLock { $0.append(clock.now().rawValue) }
        }
        let frames = plainFrames((0..<60).map { Int64($0) * 8_333 })
        let result = Player(clock: clock).play(frames, on: sink, state: touchscreenState)
        #expect(result.isCompleted)
        #expect(sink.frames == frames)
        let writeStarts = starts.withLock { $0 }, writeEnds = ends.withLock { $0 }
        // The kernel stamps a frame inside its write: each write starts at
        // least half an interval after the previous one ended.
        for index in 1..<writeStarts.count {
            #expect(writeStarts[index] - writeEnds[index - 1] >= 4_166, "frame \(index)")
        }
    }

    @Test("A timer that wakes 1.2 ms late does not make a 1 kHz play fall further behind with every frame")
    func lateWakingTimerAtOneKilohertz() {
        // Under emulation every wake-up came ~1 ms late, more than half an
        // interval at 1 kHz: waiting out the catch-up spacing after that
        // put the play 0.5–0.8 ms further behind each frame (issue 9).
        let clock = LateWakingClock(latency: Microseconds(1_200))
        let writeTimes = Mutex<[Int64]>([])
        let sink = RecordingSink { _, _ in writeTimes.withLock { $0.append(clock.now().rawValue) } }
        let frames = plainFrames((0..<500).map { Int64($0) * 1_000 })
        let result = Player(clock: clock).play(frames, on: sink, state: touchscreenState)
        #expect(result.isCompleted)
        let times = writeTimes.withLock { $0 }
        // Never sooner than half an interval after the previous write ...
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 500 })
        // ... and no later than the timer's latency and one catch-up step at
        // the end: without aiming early the last frame went ~350 ms late.
        #expect(result.lateness.maximum <= Microseconds(3_000))
    }

    @Test("A play with a start gate writes nothing until the gate is readable, then starts its clock")
    func startGateHoldsThePlay() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer {
            readEnd.close()
            writeEnd.close()
        }
        let clock = ManualClock(start: Microseconds(1_000_000))
        let sink = RecordingSink()
        let frames = plainFrames([0, 10_000])
        let handle = try Player(clock: clock).start(
            frames, on: sink, state: touchscreenState, startGate: readEnd)
        // The playing thread waits on the gate: nothing is written while the
        // time moves on.
        clock.advance(by: Microseconds(500_000))
        #expect(handle.result == nil)
        #expect(sink.frames.isEmpty)
        try writeEnd.writeAll([1])
        let result = handle.wait()
        #expect(result.isCompleted)
        #expect(sink.frames == frames)
        // Deadlines count from when the gate opened, not from the start.
        #expect(clock.requestedDeadlines.map(\.rawValue) == [1_500_000, 1_510_000])
    }

    @Test("A cancel while a play waits at its gate ends it with no frame written; a closed gate is a failure")
    func startGateCancelAndClosed() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { writeEnd.close() }
        let handle = try Player(clock: ManualClock()).start(
            plainFrames([0]), on: RecordingSink(), state: touchscreenState, startGate: readEnd)
        handle.cancel()
        guard case .cancelled(let written) = handle.wait().outcome else {
            Issue.record("expected cancelled")
            return
        }
        #expect(written == 0)
        readEnd.close()
        // A number no descriptor has (a closed one could be reused by a test
        // running beside this one).
        let result = Player(clock: ManualClock()).play(
            plainFrames([0]), on: RecordingSink(), state: touchscreenState, startGate: FileDescriptor(rawValue: 999_999))
        guard case .failed(_, let failedAfter) = result.outcome else {
            Issue.record("expected failed, got \(result.outcome)")
            return
        }
        #expect(failedAfter == 0)
    }

    @Test("Cancelling mid-play writes the lift-all frame exactly once")
    func cancelMidPlay() throws {
        let signal = CancellationSignal()
        let sink = RecordingSink { index, _ in
            if index == 0 { signal.cancel() }
        }
        let frames = try twoFingerFrames()
        let result = Player(clock: ManualClock()).play(frames, on: sink, state: touchscreenState, cancellation: signal)
        guard case .cancelled(let written) = result.outcome else {
            Issue.record("expected cancelled, got \(result.outcome)")
            return
        }
        #expect(written == 1)
        #expect(sink.frames.count == 2)
        #expect(
            lines(sink.frames[1]) == [
                "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0",
                "SYN_REPORT 0",
            ])
        #expect(sink.frames.filter { $0.events.contains { $0.code == .multitouchTrackingID && $0.value == -1 } }.count == 1)
        #expect(result.liftAllFrame == sink.frames[1])
        #expect(result.finalState.isReleased)
    }

    @Test("A write error mid-play still attempts the lift-all frame, selecting every slot explicitly")
    func sinkErrorLiftsAll() throws {
        let sink = RecordingSink(failingAttempts: [1])
        let result = Player(clock: ManualClock()).play(try twoFingerFrames(), on: sink, state: touchscreenState)
        guard case .failed(let error, let written) = result.outcome else {
            Issue.record("expected failed, got \(result.outcome)")
            return
        }
        #expect(error as? RecordingSink.WriteFailure == RecordingSink.WriteFailure(attempt: 1))
        #expect(written == 1)
        #expect(sink.attemptedFrames.count == 3)
        #expect(
            lines(sink.attemptedFrames[2]) == [
                "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0",
                "SYN_REPORT 0",
            ])
        #expect(result.liftAllError == nil)
    }

    @Test("A failed lift-all is reported, not thrown")
    func liftAllFailure() throws {
        let sink = RecordingSink(failingAttempts: [1, 2])
        let result = Player(clock: ManualClock()).play(try twoFingerFrames(), on: sink, state: touchscreenState)
        #expect(result.liftAllError as? RecordingSink.WriteFailure == RecordingSink.WriteFailure(attempt: 2))
        #expect(result.finalState.currentSlot == nil)
    }

    @Test("On its own thread, a play waits for the clock and is cancelled from another thread")
    func threadedPlayCancelled() throws {
        let clock = ManualClock(mode: .waitsForAdvance)
        let sink = RecordingSink()
        let progress = ProgressLog()
        let handle = PlaybackHandle()
        handle.observeProgress { progress.add($0) }
        _ = try Player(clock: clock).start(try twoFingerFrames(), on: sink, state: touchscreenState, handle: handle)
        #expect(clock.nextWaitingDeadline() == Microseconds(10_000))
        handle.cancel()
        let result = handle.wait()
        guard case .cancelled(let written) = result.outcome else {
            Issue.record("expected cancelled, got \(result.outcome)")
            return
        }
        #expect(written == 1)
        #expect(sink.frames.count == 2)
        #expect(progress.entries == [PlaybackProgress(framesWritten: 1, totalFrames: 3)])
        // Progress is reported on the playing thread, which the kernel knows by name.
        #expect(progress.threadNames == ["gesturectl-play"])
        #expect(handle.result != nil)
    }

    @Test("On its own thread, a play completes as the test advances time, and async waiters get the result")
    func threadedPlayCompletes() async throws {
        let clock = ManualClock(mode: .waitsForAdvance)
        let sink = RecordingSink()
        let handle = try Player(clock: clock).start(try twoFingerFrames(), on: sink, state: touchscreenState)
        let result: PlaybackResult = await withCheckedContinuation { continuation in
            // The test's own thread drives the clock; the pool is not blocked.
            startDriverThread {
                while let deadline = clock.nextWaitingDeadline(cancellation: handle.cancellation) {
                    clock.advance(to: deadline)
                    if handle.result != nil { break }
                }
            }
            Task {
                continuation.resume(returning: await handle.finished())
                handle.cancellation.cancel()  // releases the driver if it still waits
            }
        }
        #expect(result.isCompleted)
        #expect(sink.frames.count == 3)
        #expect(clock.requestedDeadlines.map(\.rawValue) == [0, 10_000, 11_000])
    }

    @Test("SystemClock: a wait is ended by a cancel from another thread, not by its deadline")
    func systemClockCancel() throws {
        let clock = SystemClock()
        let signal = CancellationSignal()
        let finished = DispatchSemaphore(value: 0)
        let outcome = ResultBox()
        // A deadline an hour away: only the cancel can end this wait, so the
        // result does not depend on how the two threads are scheduled.
        try DedicatedThread.start(ThreadOptions(name: "test-waiter")) {
            if let result = try? clock.wait(until: clock.now() + Microseconds(3_600_000_000), cancellation: signal) {
                outcome.set(result)
            }
            finished.signal()
        }
        signal.cancel()
        finished.wait()
        #expect(outcome.value == .cancelled)
        #expect(try clock.wait(until: .zero, cancellation: CancellationSignal()) == .reached)
        #expect(try clock.wait(until: .zero, cancellation: signal) == .cancelled)
    }

    @Test("SystemClock: a wait for a near deadline ends at or after it, never before")
    func systemClockReachesDeadline() throws {
        let clock = SystemClock()
        let deadline = clock.now() + Microseconds(2_000)
        #expect(try clock.wait(until: deadline, cancellation: CancellationSignal()) == .reached)
        #expect(clock.now() >= deadline)
        // Short waits sleep (clock_nanosleep): also at or after their deadlines.
        for _ in 0..<20 {
            let deadline = clock.now() + Microseconds(300)
            #expect(try clock.wait(until: deadline, cancellation: CancellationSignal()) == .reached)
            #expect(clock.now() >= deadline)
        }
    }

    @Test("SystemClock: a long wait (the timer until its last stretch, then a sleep) ends at or after its deadline, never before")
    func systemClockLongWaitReachesDeadline() throws {
        // Just over the sleep limit (the timer's part a few µs long) up to several times it.
        for limit in [Microseconds(2_000), Microseconds(500)] {
            let clock = SystemClock(sleepLimit: limit)
            for extra in [1, 50, 400, 1_500, 4_000] {
                let deadline = clock.now() + limit + Microseconds(Int64(extra))
                #expect(try clock.wait(until: deadline, cancellation: CancellationSignal()) == .reached)
                #expect(clock.now() >= deadline)
            }
        }
        // A negative limit is none (it would arm the timer after the deadline).
        #expect(SystemClock(sleepLimit: Microseconds(-5_000)).sleepLimit == .zero)
        // Cancelled before the wait: no wait at all, even a long one.
        let signal = CancellationSignal()
        signal.cancel()
        let clock = SystemClock()
        let before = clock.now()
        #expect(try clock.wait(until: before + Microseconds(10_000_000), cancellation: signal) == .cancelled)
        #expect(clock.now() - before < Microseconds(5_000_000))
    }

    @Test("SystemClock: a short wait (a sleep) sees a cancel that came before or during it")
    func systemClockShortWaitCancelled() throws {
        let clock = SystemClock()
        let signal = CancellationSignal()
        signal.cancel()
        #expect(try clock.wait(until: clock.now() + Microseconds(1_000), cancellation: signal) == .cancelled)
        // A cancel from another thread while the waiter sleeps: seen when the sleep ends.
        let other = CancellationSignal()
        let finished = DispatchSemaphore(value: 0)
        let outcome = ResultBox()
        try DedicatedThread.start(ThreadOptions(name: "test-waiter")) {
            var result = WaitResult.reached
            // Short waits until the cancel is seen; each one a sleep.
            while result == .reached, let next = try? clock.wait(until: clock.now() + Microseconds(1_500), cancellation: other) {
                result = next
            }
            outcome.set(result)
            finished.signal()
        }
        other.cancel()
        finished.wait()
        #expect(outcome.value == .cancelled)
    }

    @Test("SystemClock: one clock's waits reuse its timer, each ends at or after its own deadline, also two at once")
    func systemClockReusesItsTimer() throws {
        // Every wait on the timer, however short (by default waits up to 2 ms sleep without it).
        let clock = SystemClock(sleepLimit: .zero)
        for _ in 0..<20 {
            let deadline = clock.now() + Microseconds(500)
            #expect(try clock.wait(until: deadline, cancellation: CancellationSignal()) == .reached)
            #expect(clock.now() >= deadline)
        }
        // A second thread waiting on the same clock at the same time (a
        // clock shared by mistake) neither wakes early nor wakes the other.
        let finished = DispatchSemaphore(value: 0)
        let early = ResultBox()
        try DedicatedThread.start(ThreadOptions(name: "test-waiter")) {
            for _ in 0..<20 {
                let deadline = clock.now() + Microseconds(700)
                _ = try? clock.wait(until: deadline, cancellation: CancellationSignal())
                if clock.now() < deadline { early.set(.cancelled) }
            }
            finished.signal()
        }
        for _ in 0..<20 {
            let deadline = clock.now() + Microseconds(300)
            _ = try clock.wait(until: deadline, cancellation: CancellationSignal())
            #expect(clock.now() >= deadline)
        }
        finished.wait()
        #expect(early.value == nil)
    }

    @Test("The playing thread is named and has a timer slack of 1 ns")
    func playingThreadSetUp() throws {
        let clock = ManualClock()
        let seen = ThreadFacts()
        let handle = PlaybackHandle()
        handle.observeProgress { _ in seen.record() }
        _ = try Player(clock: clock).start(try twoFingerFrames(), on: RecordingSink(), state: touchscreenState, handle: handle)
        #expect(handle.wait().isCompleted)
        #expect(seen.names == ["gesturectl-play", "gesturectl-play", "gesturectl-play"])
        #expect(seen.slacks == [1, 1, 1])
    }
}

/// A clock whose waits end `latency` after their deadline, as the kernel's
/// timer wakes a thread late under emulation; each reading of it takes
/// 50 µs, as a clock read there does.
private final class LateWakingClock: PlaybackClock, Sendable {
    private let time = Mutex(Microseconds(1_000_000))
    private let latency: Microseconds
    init(latency: Microseconds) { self.latency = latency }
    func now() -> Microseconds {
        time.withLock { now in
            now = now + Microseconds(50)
            return now
        }
    }
    func wait(until deadline: Microseconds, cancellation: CancellationSignal) throws(SystemError) -> WaitResult {
        if cancellation.isCancelled { return .cancelled }
        time.withLock { now in if now < deadline { now = deadline + latency } }
        return .reached
    }
}
