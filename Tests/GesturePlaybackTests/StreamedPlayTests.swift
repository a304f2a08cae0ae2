import GestureModel
import InputSystem
import Synchronization
import Testing

@testable import GesturePlayback
import OperatingSystem
import TestSupport

/// A play streamed from its gesture (issue 39, part 2) is the play of its
/// list: the same frames at the same deadlines, the same catch-up, lifts
/// and counts, while holding only a look-ahead of frames.
@Suite("Streamed plays")
struct StreamedPlayTests {
    let touchscreen = VirtualDeviceProfile.touchscreen()

    /// Strokes that overlap, start and end together and share times, and
    /// reuse slots (as FrameStreamTests' tangled gestures).
    private func tangledGesture(seed: UInt64) -> Gesture {
        var random = SplitMix64(seed: seed)
        var strokes: [Stroke] = []
        for _ in 0..<(2 + Int(random.next() % 5)) {
            var time = Int64(random.next() % 4) * 1_000
            var points: [(Int64, Int, Int)] = []
            for _ in 0..<(1 + Int(random.next() % 60)) {
                points.append((time, Int(random.next() % 21_600), Int(random.next() % 13_500)))
                time += Int64(random.next() % 3) * 1_000
            }
            strokes.append(finger(points))
        }
        return touchscreenGesture(strokes)
    }

    /// `fingers` fingers moving every millisecond for `samples` samples.
    func longGesture(fingers: Int, samples: Int) -> Gesture {
        var strokes: [Stroke] = []
        for index in 0..<fingers {
            var points: [(Int64, Int, Int)] = []
            for step in 0..<samples {
                let x = 1_000 + index * 1_500 + step % 700
                points.append((Int64(step) * 1_000, x, 2_000 + step % 900))
            }
            strokes.append(finger(points))
        }
        return touchscreenGesture(strokes)
    }

    /// What a play did: the frames written, when (clock time at each write),
    /// the deadlines asked for, and its result.
    private struct Observed {
        var written: [InputFrame]
        var writeTimes: [Int64]
        var deadlines: [Microseconds]
        var result: PlaybackResult
    }

    /// Plays on a manual clock whose writes stall as `stall` says (the time
    /// a write at an index takes), from a list or a stream.
    private func observe(
        _ gesture: Gesture, on target: VirtualDeviceProfile, options: PlaybackOptions = PlaybackOptions(),
        delay: Microseconds = .zero, lookAhead: Int? = nil, cancelAt: Int? = nil,
        stall: @escaping @Sendable (Int) -> Int64 = { _ in 0 }
    ) throws -> Observed {
        let clock = ManualClock(start: Microseconds(1_000_000))
        let signal = CancellationSignal()
        let times = Mutex<[Int64]>([])
        let sink = RecordingSink { index, _ in
            times.withLock { $0.append(clock.now().rawValue) }
            clock.advance(by: Microseconds(stall(index)))
            if index == cancelAt { signal.cancel() }
        }
        let state = DeviceState(description: target.description)
        let player = Player(clock: clock, touchpad: target.kind == .touchpad ? LiveTouchFrames.surface(of: target) : nil)
        let builder = try FrameBuilder(target: target, options: options)
        let result: PlaybackResult
        if let lookAhead {
            let stream = try FrameStream(gesture, builder: builder, from: state, delay: delay, lookAhead: lookAhead)
            result = player.play(stream, on: sink, cancellation: signal)
            #expect(stream.tally.wait() == (try builder.frames(for: gesture)).count)
        } else {
            let frames = try builder.frames(for: gesture).map { InputFrame(time: $0.time + delay, events: $0.events) }
            result = player.play(frames, on: sink, state: state, cancellation: signal)
        }
        return Observed(
            written: sink.frames, writeTimes: times.withLock { $0 }, deadlines: clock.requestedDeadlines, result: result)
    }

    /// `cancelled`: a stream whose next frame is not built yet sees the
    /// cancel before it asks the clock for that frame's deadline; a list
    /// asks first. Both write the same frames and lifts.
    private func expectSame(_ streamed: Observed, _ listed: Observed, _ comment: Comment, cancelled: Bool = false) {
        #expect(streamed.written == listed.written, comment)
        #expect(streamed.writeTimes == listed.writeTimes, comment)
        if cancelled {
            #expect(streamed.deadlines.prefix(streamed.written.count - 1) == listed.deadlines.prefix(listed.written.count - 1), comment)
        } else {
            #expect(streamed.deadlines == listed.deadlines, comment)
        }
        #expect(streamed.result.lateness == listed.result.lateness, comment)
        #expect(streamed.result.finalState == listed.result.finalState, comment)
        #expect(streamed.result.liftAllFrame == listed.result.liftAllFrame, comment)
        #expect("\(streamed.result.outcome)" == "\(listed.result.outcome)", comment)
    }

    @Test("A streamed play writes the list's frames at the list's deadlines, whatever its look-ahead", arguments: [2, 3, 16, 4_096])
    func sameAsTheList(lookAhead: Int) throws {
        // Stalls now and then, so that catch-up and its spacing are compared too.
        let stall: @Sendable (Int) -> Int64 = { $0 % 17 == 5 ? 9_000 : 0 }
        for seed in 1...25 as ClosedRange<UInt64> {
            let gesture = tangledGesture(seed: seed)
            let listed = try observe(gesture, on: touchscreen, stall: stall)
            let streamed = try observe(gesture, on: touchscreen, lookAhead: lookAhead, stall: stall)
            #expect(listed.result.isCompleted)
            expectSame(streamed, listed, "seed \(seed)")
        }
        // Repetitions, a lead-in, another speed; a touchpad (its pacing) and a mouse.
        let gesture = tangledGesture(seed: 99)
        let options = PlaybackOptions(speed: 1.5, repeatCount: 3)
        expectSame(
            try observe(gesture, on: touchscreen, options: options, delay: Microseconds(100_000), lookAhead: lookAhead, stall: stall),
            try observe(gesture, on: touchscreen, options: options, delay: Microseconds(100_000), stall: stall), "repeated")
        let touchpad = VirtualDeviceProfile.touchpad()
        var lower: [(Int64, Int, Int)] = []
        var upper: [(Int64, Int, Int)] = []
        for step in 0..<80 {
            lower.append((Int64(step) * 8_000, 100 + step * 9, 300))
            upper.append((Int64(step) * 8_000, 100 + step * 9, 500))
        }
        let pad = touchscreenGesture([finger(lower), finger(upper)], device: touchpadGeometry)
        expectSame(
            try observe(pad, on: touchpad, lookAhead: lookAhead, stall: stall), try observe(pad, on: touchpad, stall: stall), "touchpad")
        let mouse = VirtualDeviceProfile.mouse()
        var path: [(Int64, Int, Int)] = []
        for step in 0..<50 { path.append((Int64(step) * 10_000, 100 + step * 50, 300 + step * 20)) }
        let drag = touchscreenGesture([finger(path)])
        expectSame(
            try observe(drag, on: mouse, lookAhead: lookAhead, stall: stall), try observe(drag, on: mouse, stall: stall), "mouse")
    }

    @Test("After a stall, a streamed play catches up at twice the speed as a list does")
    func stallCatchesUp() throws {
        var points: [(Int64, Int, Int)] = []
        for step in 0..<7 { points.append((Int64(step) * 8_000, 100 + step * 10, 100)) }
        let gesture = touchscreenGesture([finger(points)])
        let streamed = try observe(gesture, on: touchscreen, lookAhead: 2) { $0 == 1 ? 20_000 : 0 }
        // Frame 1's write ends at 28 ms: frame 2 (due at 16) goes half an
        // interval later (32), then 36, 40, 44, and 48 is on its deadline
        // again, as is the lift 1 ms after the last sample.
        #expect(streamed.writeTimes.map { $0 - 1_000_000 } == [0, 8_000, 32_000, 36_000, 40_000, 44_000, 48_000, 49_000])
        #expect(
            streamed.result.lateness
                == LatenessStatistics(
                    latenesses: [
                        .zero, .zero, Microseconds(16_000), Microseconds(12_000), Microseconds(8_000), Microseconds(4_000), .zero,
                        .zero,
                    ]))
        expectSame(streamed, try observe(gesture, on: touchscreen) { $0 == 1 ? 20_000 : 0 }, "stall")
    }

    @Test("Cancelled mid-play, a streamed play lifts every finger down, once, and still counts every frame")
    func cancelLiftsEverything() throws {
        let gesture = longGesture(fingers: 10, samples: 400)
        let all = try build(gesture).count
        for cancelAt in [0, 7, 150, 390] {
            let streamed = try observe(gesture, on: touchscreen, lookAhead: 8, cancelAt: cancelAt)
            guard case .cancelled(let written) = streamed.result.outcome else {
                Issue.record("expected cancelled, got \(streamed.result.outcome)")
                continue
            }
            #expect(written == cancelAt + 1)
            let lift = try #require(streamed.result.liftAllFrame)
            #expect(lift.events.filter { $0.code == .multitouchTrackingID && $0.value == -1 }.count == 10)
            #expect(streamed.written.last == lift)
            #expect(streamed.result.finalState.isReleased)
            expectSame(streamed, try observe(gesture, on: touchscreen, cancelAt: cancelAt), "cancel at \(cancelAt)", cancelled: true)
        }
        // Every sample moves all ten fingers, and one frame lifts them.
        #expect(all == 401)
    }

    @Test("A write that fails mid-stream lifts what was down and what the failed frame put down")
    func failedWriteLifts() throws {
        let gesture = tangledGesture(seed: 7)
        let frames = try build(gesture)
        for failing in [1, frames.count / 2, frames.count - 1] {
            let sink = RecordingSink(failingAttempts: [failing])
            let listSink = RecordingSink(failingAttempts: [failing])
            let state = DeviceState(description: touchscreen.description)
            let stream = try FrameStream(gesture, builder: try FrameBuilder(target: touchscreen), lookAhead: 3)
            let streamed = Player(clock: ManualClock()).play(stream, on: sink)
            let listed = Player(clock: ManualClock()).play(frames, on: listSink, state: state)
            #expect(sink.attemptedFrames == listSink.attemptedFrames, "failing \(failing)")
            #expect(streamed.finalState == listed.finalState, "failing \(failing)")
            guard case .failed(_, let written) = streamed.outcome else {
                Issue.record("expected failed, got \(streamed.outcome)")
                continue
            }
            #expect(written == failing)
            #expect(stream.tally.wait() == frames.count)
        }
    }

    @Test("A long play keeps at most its look-ahead of frames built ahead, and fills it before its first frame")
    func boundedLookAhead() throws {
        // 20,000 frames of ten fingers, 64 at a time.
        let gesture = longGesture(fingers: 10, samples: 20_000)
        let stream = try FrameStream(gesture, builder: try FrameBuilder(target: touchscreen), lookAhead: 64)
        let mostAhead = Atomic(0)
        let firstSeen = Atomic(-1)
        let writes = Atomic(0)
        let sink = CountingSink { index in
            let ahead = stream.framesBuilt - index
            if index == 0 { firstSeen.store(stream.framesBuilt, ordering: .relaxed) }
            while true {
                let most = mostAhead.load(ordering: .relaxed)
                if ahead <= most || mostAhead.compareExchange(expected: most, desired: ahead, ordering: .relaxed).exchanged { break }
            }
            writes.add(1, ordering: .relaxed)
        }
        let result = Player(clock: ManualClock()).play(stream, on: sink)
        #expect(result.isCompleted)
        // A frame a sample, and the lift.
        #expect(writes.load(ordering: .relaxed) == 20_001)
        #expect(stream.tally.count == 20_001)
        // Built ahead of the frame being written: never more than the ring.
        #expect(mostAhead.load(ordering: .relaxed) <= 64)
        #expect(firstSeen.load(ordering: .relaxed) == 64)
        #expect(result.lateness.count == 20_001)
        #expect(stream.ring.capacity == 64)
    }

    @Test("Progress counts frames written; the total is 0 until the last frame is built, then the count")
    func progress() throws {
        let gesture = longGesture(fingers: 2, samples: 50)
        let log = ProgressLog()
        let short = try FrameStream(gesture, builder: try FrameBuilder(target: touchscreen))
        _ = Player(clock: ManualClock()).play(short, on: RecordingSink(), progress: { log.add($0) })
        // Shorter than its look-ahead: every frame built before the first was written.
        // A frame a sample, and the lift.
        #expect(log.entries.map(\.framesWritten) == Array(1...51))
        #expect(log.entries.allSatisfy { $0.totalFrames == 51 })
        let long = try FrameStream(gesture, builder: try FrameBuilder(target: touchscreen), lookAhead: 4)
        let longLog = ProgressLog()
        _ = Player(clock: ManualClock()).play(long, on: RecordingSink(), progress: { longLog.add($0) })
        #expect(longLog.entries.map(\.framesWritten) == Array(1...51))
        #expect(longLog.entries.first?.totalFrames == 0)
        // 0, then (once the builder has seen its last frame) the count.
        let totals = longLog.entries.map(\.totalFrames)
        #expect(totals.allSatisfy { $0 == 0 || $0 == 51 } && totals == totals.sorted())
        #expect(long.tally.count == 51)
    }

    @Test("A stream plays once; one never played stops building; a cancel before the first frame lifts nothing")
    func oncePlayedAndAbandoned() throws {
        let gesture = longGesture(fingers: 2, samples: 30)
        let builder = try FrameBuilder(target: touchscreen)
        let stream = try FrameStream(gesture, builder: builder)
        #expect(Player(clock: ManualClock()).play(stream, on: RecordingSink()).isCompleted)
        let again = Player(clock: ManualClock()).play(stream, on: RecordingSink())
        guard case .failed(let error as PlaybackError, 0) = again.outcome else {
            Issue.record("expected failed, got \(again.outcome)")
            return
        }
        #expect(error == .streamPlayedAlready)
        // Never played: its tally reads 0 unless the builder finished first.
        let unplayed = try FrameStream(longGesture(fingers: 10, samples: 5_000), builder: builder, lookAhead: 2)
        let tally = unplayed.tally
        _ = consume unplayed
        #expect(tally.count == 0 || tally.count == 5_001)
        let signal = CancellationSignal()
        signal.cancel()
        let sink = RecordingSink()
        let cancelled = Player(clock: ManualClock()).play(
            try FrameStream(gesture, builder: builder, lookAhead: 2), on: sink, cancellation: signal)
        guard case .cancelled(0) = cancelled.outcome else {
            Issue.record("expected cancelled before the first frame, got \(cancelled.outcome)")
            return
        }
        #expect(sink.frames.isEmpty)
    }

    @Test("On its own thread (and through a session), a stream completes as time advances and can be cancelled")
    func threadedStream() throws {
        let clock = ManualClock(mode: .waitsForAdvance)
        let session = PlaybackSession(profile: touchscreen, sink: RecordingSink(), devnode: nil, linger: .zero, clock: clock)
        let gesture = longGesture(fingers: 3, samples: 200)
        let handle = try session.start(try FrameStream(gesture, builder: try FrameBuilder(target: touchscreen), from: session.state, lookAhead: 16))
        // Let a few frames go, then cancel while it waits for the next.
        for _ in 0..<5 {
            guard let deadline = clock.nextWaitingDeadline(cancellation: handle.cancellation) else { break }
            clock.advance(to: deadline)
        }
        handle.cancel()
        let result = handle.wait()
        guard case .cancelled(let written) = result.outcome else {
            Issue.record("expected cancelled, got \(result.outcome)")
            return
        }
        #expect(written >= 4)
        #expect(result.finalState.isReleased)
        #expect(session.state.isReleased)
        #expect(!session.isBusy)
        session.close()
    }
}

extension StreamedPlayTests {
    @Test("A gesture fits a look-ahead by its samples and lifts over all repetitions, and then has no more frames than that")
    func fitsByItsSamples() throws {
        let gesture = longGesture(fingers: 2, samples: 100)
        let once = try FrameBuilder(target: touchscreen).check(gesture)
        #expect(once.fits(in: 202) && !once.fits(in: 201))
        #expect(try once.frames().count <= 202)
        let thrice = try FrameBuilder(target: touchscreen, options: PlaybackOptions(repeatCount: 3)).check(gesture)
        #expect(thrice.fits(in: 606) && !thrice.fits(in: 605))
        #expect(once.fits())
        #expect(!(try FrameBuilder(target: touchscreen).check(longGesture(fingers: 10, samples: 410))).fits())
    }
}

/// A sink that counts writes and calls `body` with each index, keeping
/// nothing (a long play's frames are not held by the test).
private final class CountingSink: FrameSink, Sendable {
    private let next = Atomic(0)
    private let body: @Sendable (Int) -> Void
    init(_ body: @escaping @Sendable (Int) -> Void) { self.body = body }
    func write(_ frame: InputFrame) throws { body(next.add(1, ordering: .relaxed).oldValue) }
}

@Suite("Lateness histogram")
struct LatenessHistogramTests {
    @Test("Median and p99 are exact below 16.384 ms and within 0.2 % above; the maximum is exact")
    func matchesEveryValue() {
        var random = SplitMix64(seed: 3)
        for round in 0..<60 {
            let count = 1 + Int(random.next() % 3_000)
            // Mostly punctual, sometimes far behind: the spread of real plays.
            let scale: UInt64 = round % 3 == 0 ? 16_000 : (round % 3 == 1 ? 2_000_000 : 500)
            let values = (0..<count).map { _ in Microseconds(Int64(random.next() % scale) - 50) }
            var histogram = LatenessHistogram()
            for value in values { histogram.record(value) }
            let exact = LatenessStatistics(latenesses: values)
            let kept = histogram.statistics
            #expect(kept.count == exact.count)
            #expect(kept.maximum == exact.maximum)
            for (got, wanted) in [(kept.median, exact.median), (kept.percentile99, exact.percentile99)] {
                if wanted.rawValue < Int64(LatenessHistogram.exactLimit) {
                    #expect(got == wanted, "round \(round)")
                } else {
                    #expect(got <= wanted && Double(wanted.rawValue - got.rawValue) <= Double(wanted.rawValue) / 512, "round \(round)")
                }
            }
        }
        #expect(LatenessHistogram().statistics == LatenessStatistics(latenesses: []))
    }

    @Test("Every counter's smallest value falls in it, and counters are in order")
    func buckets() {
        var previous = -1
        for value in [0, 1, 16_383, 16_384, 16_415, 16_416, 1 << 20, (1 << 20) + 2_047, (1 << 41) - 1, 1 << 42, Int64.max] as [Int64] {
            let bucket = LatenessHistogram.bucket(of: value)
            #expect(bucket >= previous && bucket < LatenessHistogram.bucketCount)
            #expect(LatenessHistogram.smallestValue(of: bucket) <= value)
            previous = bucket
        }
        for bucket in [0, 16_383, 16_384, 16_385, 20_000, LatenessHistogram.bucketCount - 1] {
            #expect(LatenessHistogram.bucket(of: LatenessHistogram.smallestValue(of: bucket)) == bucket)
        }
    }
}
