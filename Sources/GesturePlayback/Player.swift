import GestureModel
import InputSystem
import OperatingSystem

/// Plays frames onto a sink at their absolute deadlines.
///
/// Frame *i* is due at `start + frames[i].time`, where `start` is the
/// clock's time when the play begins; the frames' times already include the
/// speed (``FrameBuilder``). A late frame is written as soon as it may and
/// does not move the deadlines after it, so timing never drifts.
///
/// The frames come from a list built before the play, or from a
/// ``FrameStream`` that builds them on a thread of its own a bounded
/// look-ahead ahead of the play (issue 39: what a play holds does not grow
/// with its gesture). Both go through the same loop, with the same
/// deadlines, catch-up, lifting and progress; the playing thread reads a
/// streamed frame where the builder left it and allocates nothing per
/// frame either way. How late frames were is counted in a histogram of
/// fixed size (``LatenessStatistics``), not kept frame by frame.
///
/// After a stall, late frames catch up at twice the gesture's speed at most:
/// a frame never goes out sooner than half its interval after the previous
/// frame's write *ended* (the kernel stamps a frame inside its write, so a
/// thread delayed between reading the clock and writing cannot make two
/// stamps closer than that). Every frame is still written, so the path is
/// the gesture's own; what a stall of S costs is schedule: the frames after
/// it come up to S late, and the play is back on its deadlines after 2 × S
/// of the gesture. Written back to back instead, late frames would reach
/// readers with timestamps microseconds apart, and libinput takes a touch
/// that moves a frame's distance in no time for a jump (it normalises each
/// step to a 12 ms interval): it logs "kernel bug: Touch jump detected and
/// discarded" and drops the motion (touchpads: after a stall, or when the
/// thread is preempted between the clock and the write). On a touchpad
/// (``touchpad``) twice the speed can itself be a jump for a fast stroke,
/// so a late frame there also waits until each contact's step is one
/// libinput accepts (``TouchpadPacing``): the catch-up of a fast stroke
/// starts slower and grows. Every output (uinput, uhid, a gadget) is
/// written through this one loop. That spacing is kept without the timer's
/// own latency added to it (see `waitForSpacing`): under emulation the timer
/// wakes ~1 ms late, more than half an interval at 1 kHz, and a play that
/// waited it out fell further behind with every frame.
///
/// Nothing is left pressed: when the play is cancelled, when a write fails,
/// or when the frames end with something still down, the player writes the
/// one frame that lifts every contact and releases every button and key
/// (``DeviceState/liftAllFrame(time:)``) before returning. The one
/// exception is asked for: `releasesAtEnd: false` leaves down what the
/// frames left down when they all played (a key pressed with
/// `gesturectl press --down`, ``KeyPress``); a cancel or a failed write
/// still releases everything. It does not keep
/// the device afterwards: whoever destroys the device waits a moment first
/// (``PlaybackSession/close()``).
///
/// The first frame is as punctual as the rest: before taking the start
/// time the player runs the path of a frame once — the sink's
/// ``FrameSink/warmUp()`` (a write readers never see) and the clock's
/// ``PlaybackClock/warmUp()`` (a 100 µs timer wait) — and touches the
/// memory it fills while playing, so that code and pages used for the
/// first time are not paid for between the first deadline and its write
/// (issue 9: otherwise the first frame comes late against the cadence of
/// the rest). A thread that plays one device's frames again and again
/// (a kept device's queue) warms that path once, not before every play
/// (`warmsUp` false): after its first play the path is warm, and a warm-up
/// before a first frame that is due at once would only delay that frame.
/// With a start gate, the path is warmed before the gate is waited on, so
/// that the first frame follows the gate at once.
public struct Player: Sendable {
    /// The clock deadlines are measured and waited on.
    public let clock: any PlaybackClock
    /// The SCHED_FIFO priority of the playing thread, `nil` for the normal
    /// scheduler (``threadOptions`` at that priority).
    public let realtimePriority: Int32?

    /// The surface of the touchpad played on, whose late frames are also
    /// spaced so that libinput takes no step for a touch jump
    /// (``TouchpadPacing``); `nil` for any other device.
    public let touchpad: DeviceGeometry?

    /// Creates a player on `clock` (CLOCK_MONOTONIC by default), playing
    /// at `realtimePriority` (SCHED_FIFO) when given, on a touchpad with
    /// `touchpad`'s surface when given.
    public init(clock: any PlaybackClock = SystemClock(), realtimePriority: Int32? = nil, touchpad: DeviceGeometry? = nil) {
        self.clock = clock
        self.realtimePriority = realtimePriority
        self.touchpad = touchpad
    }

    /// How the playing thread is set up: named `gesturectl-play` (as `ps -L`
    /// shows it), with a timer slack of 1 ns so that wakes are exact.
    public static let threadOptions = ThreadOptions(name: "gesturectl-play", timerSlackNanoseconds: 1)


    /// Whether this process may run a thread at SCHED_FIFO `priority`: starts
    /// a thread set up so (``OperatingSystem/DedicatedThread``) that does
    /// nothing. Ask before creating a device, so a refusal costs nothing.
    /// - Throws: ``PlaybackError/realtimeRefused(priority:_:)`` (EPERM
    ///   without CAP_SYS_NICE or a high enough RLIMIT_RTPRIO).
    public static func checkRealtime(priority: Int32) throws(PlaybackError) {
        do throws(SystemError) {
            try DedicatedThread.checkRealtime(priority: priority)
        } catch {
            throw .realtimeRefused(priority: priority, error)
        }
    }

    /// Plays `frames` on the calling thread and returns when done. Call it
    /// from a dedicated thread (``start(_:on:state:handle:releasesAtEnd:startGate:completion:)``
    /// does), never from Swift's cooperative pool: it blocks.
    ///
    /// - Parameters:
    ///   - state: what readers know of the device before the play.
    ///   - cancellation: stops the play at the next wait.
    ///   - progress: called on the playing thread after each frame written.
    ///   - releasesAtEnd: whether a play that completes releases what its
    ///     frames left down (default true; see the type's notes).
    ///   - startGate: when given, the play's clock starts only once this
    ///     descriptor is readable (a byte written to it, or its writer
    ///     closing it): `play --start-on-fd`. A cancel while waiting ends
    ///     the play with no frame written.
    ///   - warmsUp: whether to run a frame's path once before the first
    ///     (default true; false on a thread that has just played on this
    ///     sink: see the type's notes).
    public func play(
        _ frames: [InputFrame], on sink: some FrameSink, state: DeviceState,
        cancellation: CancellationSignal = CancellationSignal(),
        progress: (@Sendable (PlaybackProgress) -> Void)? = nil, releasesAtEnd: Bool = true,
        startGate: FileDescriptor? = nil, warmsUp: Bool = true
    ) -> PlaybackResult {
        var listed = ListedFrames(frames: frames, initial: state)
        return run(
            &listed, on: sink, state: state, cancellation: cancellation, progress: progress, releasesAtEnd: releasesAtEnd,
            startGate: startGate, warmsUp: warmsUp)
    }

    /// Plays `stream`'s frames on the calling thread as they are built, and
    /// returns when done, as ``play(_:on:state:cancellation:progress:releasesAtEnd:startGate:warmsUp:)``
    /// plays a list: the same deadlines, catch-up, lifting and progress
    /// (whose ``PlaybackProgress/totalFrames`` is 0 until the stream's last
    /// frame is built). What readers know before the play is the state the
    /// stream was built from (``FrameStream/initialState``).
    ///
    /// Before the warm-up and the start gate, it waits until the stream's
    /// look-ahead is full or its last frame built (cancellable), so the
    /// first frames are as punctual as a list's; a frame the builder has
    /// not made when it is due is waited for, and counts as a stall (the
    /// frames after it catch up as after any other). A stream plays once:
    /// played again, it ends failed with no frame written.
    public func play(
        _ stream: FrameStream, on sink: some FrameSink, cancellation: CancellationSignal = CancellationSignal(),
        progress: (@Sendable (PlaybackProgress) -> Void)? = nil, releasesAtEnd: Bool = true,
        startGate: FileDescriptor? = nil, warmsUp: Bool = true
    ) -> PlaybackResult {
        guard stream.claim() else {
            return PlaybackResult.failedBeforeStart(PlaybackError.streamPlayedAlready, state: stream.initialState)
        }
        var streamed = StreamedFrames(ring: stream.ring)
        return run(
            &streamed, on: sink, state: stream.initialState, cancellation: cancellation, progress: progress,
            releasesAtEnd: releasesAtEnd, startGate: startGate, warmsUp: warmsUp)
    }

    /// The play itself, from a list or a stream.
    private func run<Frames: FrameSupply>(
        _ frames: inout Frames, on sink: some FrameSink, state: DeviceState, cancellation: CancellationSignal,
        progress: (@Sendable (PlaybackProgress) -> Void)?, releasesAtEnd: Bool, startGate: FileDescriptor?,
        warmsUp: Bool
    ) -> PlaybackResult {
        let initial = state
        // Made before the clock starts, as the rest of the play's memory
        // (the histogram's counters are touched now).
        var latenesses = LatenessHistogram()
        var touchpadPacing = touchpad.map { TouchpadPacing(surface: $0, state: initial) }
        var gateOutcome: PlaybackResult.Outcome?
        if !frames.prepare(cancellation: cancellation) { gateOutcome = .cancelled(framesWritten: 0) }
        if warmsUp, gateOutcome == nil {
            sink.warmUp()
            clock.warmUp()
        }
        if let startGate, gateOutcome == nil {
            do throws(SystemError) {
                if try !Self.waitForGate(startGate, cancellation: cancellation) {
                    gateOutcome = .cancelled(framesWritten: 0)
                }
            } catch {
                gateOutcome = .failed(error, framesWritten: 0)
            }
        }
        let start = clock.now()

        /// Ends the play: what readers know after the first `count` frames
        /// (and `partly`, a frame whose write failed: part of it may have
        /// arrived), lifted unless it completed and keeps what is down.
        func finish(_ outcome: PlaybackResult.Outcome, after count: Int, partly: InputFrame? = nil) -> PlaybackResult {
            // What readers know, worked out only now, not kept up to date
            // frame by frame: at 1 kHz with ten fingers that bookkeeping
            // cost more time per frame than the write under emulation.
            var lifted = frames.end(readersStateAfter: count)
            if let partly {
                var after = lifted
                after.apply(partly)
                lifted = lifted.including(after)
            }
            var releases = true
            if case .completed = outcome { releases = releasesAtEnd }
            let (liftFrame, liftError) = releases ? sink.liftAll(&lifted, time: clock.now() - start) : (nil, nil)
            return PlaybackResult(
                outcome: outcome, lateness: latenesses.statistics, liftAllFrame: liftFrame, liftAllError: liftError,
                finalState: lifted)
        }

        if let gateOutcome { return finish(gateOutcome, after: 0) }

        // When the previous write had ended: no later than that the kernel
        // had stamped the frame.
        var previousWrite: Microseconds?
        var previousTime = Microseconds.zero
        var wakeLatency = WakeLatency()
        var index = 0
        while true {
            frames.release(before: index)
            let frame: InputFrame
            switch frames.frame(at: index, cancellation: cancellation) {
            case .frame(let next): frame = next
            case .end: return finish(.completed, after: index)
            case .cancelled: return finish(.cancelled(framesWritten: index), after: index)
            case .failed(let error): return finish(.failed(error, framesWritten: index), after: index)
            }
            let due = start + frame.time
            // After a stall: not before half an interval after the previous
            // write, nor (on a touchpad) before its steps are no jump.
            let stepSpacing = touchpadPacing?.prepare(frame) ?? .zero
            var spacing: (end: Microseconds, previousWrite: Microseconds)?
            if let previousWrite, index > 0 {
                let half = Microseconds(max(frame.time - previousTime, .zero).rawValue / 2)
                let end = previousWrite + max(half, stepSpacing)
                if end > due { spacing = (end, previousWrite) }
            }
            // When the frame may go out; nil when the play was cancelled.
            let reached: Microseconds?
            do {
                if let spacing {
                    reached = try waitForSpacing(
                        until: spacing.end, after: spacing.previousWrite, cancellation: cancellation, latency: &wakeLatency)
                } else {
                    reached = try clock.wait(until: due, cancellation: cancellation) == .cancelled ? nil : clock.now()
                }
            } catch {
                return finish(.failed(error, framesWritten: index), after: index)
            }
            guard let now = reached else {
                return finish(.cancelled(framesWritten: index), after: index)
            }
            latenesses.record(now - due)
            do {
                try sink.write(frame)
                // Read after the write, not before: the kernel stamps the
                // frame somewhere inside it, and a thread preempted between
                // the clock and the write (a busy host) stamps it late. Spaced
                // from the earlier reading, the next frame could follow the
                // late one within microseconds (issue 23: libinput's touch
                // jump under load).
                let ended = clock.now()
                previousWrite = ended
                touchpadPacing?.wrote(began: now, ended: ended)
            } catch {
                // Part of the frame may have arrived: lift what was down
                // before it and what it put down.
                return finish(.failed(error, framesWritten: index), after: index, partly: frame)
            }
            previousTime = frame.time
            index += 1
            progress?(PlaybackProgress(framesWritten: index, totalFrames: frames.totalFrames))
        }
    }

    /// Waits until `gate` is readable or hangs up (true), or until
    /// `cancellation` fires (false).
    /// - Throws: ``OperatingSystem/SystemError`` when the descriptor is not
    ///   open (POLLNVAL) or poll fails.
    static func waitForGate(_ gate: FileDescriptor, cancellation: CancellationSignal) throws(SystemError) -> Bool {
        let cancelled = try cancellation.fileDescriptor
        while true {
            if cancellation.isCancelled { return false }
            let events = try Poll.wait([(gate, .readable), (cancelled, .readable)], timeoutMilliseconds: nil)
            if events[0].contains(.invalid) {
                throw SystemError(call: "poll", path: gate.description, errorNumber: ErrorNumber.badDescriptor, detail: "the start descriptor is not open")
            }
            if !events[0].isEmpty { return !cancellation.isCancelled }
        }
    }

    /// Waits until `spacingEnd` (a late frame's earliest moment, half an
    /// interval after the previous write at `previousWrite`) and returns the
    /// time then; `nil` when cancelled.
    ///
    /// The timer wakes a thread late — ~1 ms under emulation, more than
    /// half an interval at 1 kHz: waiting for `spacingEnd` itself would
    /// space late frames by half an interval *plus* that latency, and a
    /// play that had fallen behind fell further behind with every frame
    /// (issue 9). So the timer is asked for `spacingEnd` minus the latency
    /// it has shown lately (``WakeLatency``), and only when that is still
    /// ahead; the rest, shorter than the timer could wait it, is spent
    /// reading the clock until it passes. The frame never goes out before
    /// `spacingEnd`.
    private func waitForSpacing(
        until spacingEnd: Microseconds, after previousWrite: Microseconds, cancellation: CancellationSignal,
        latency: inout WakeLatency
    ) throws(SystemError) -> Microseconds? {
        var now = clock.now()
        let aim = spacingEnd - min(latency.estimate, spacingEnd - previousWrite)
        if aim > now {
            if try clock.wait(until: aim, cancellation: cancellation) == .cancelled { return nil }
            now = clock.now()
            latency.record(now - aim)
        }
        while now < spacingEnd {
            if cancellation.isCancelled { return nil }
            now = clock.now()
        }
        return now
    }

    /// Starts playing on a new dedicated thread (``threadOptions``) and
    /// returns at once. The sink belongs to that thread until the play
    /// ends. Cancel through the handle; get the result with
    /// ``OperatingSystem/JobHandle/wait()`` or ``OperatingSystem/JobHandle/finished()``.
    /// `completion` runs on the playing thread before waiters are woken.
    /// - Throws: ``OperatingSystem/SystemError`` when the thread cannot be
    ///   started or set up; nothing was played then.
    public func start(
        _ frames: [InputFrame], on sink: sending any FrameSink, state: DeviceState,
        handle: PlaybackHandle = PlaybackHandle(), releasesAtEnd: Bool = true, startGate: FileDescriptor? = nil,
        completion: (@Sendable (PlaybackResult) -> Void)? = nil
    ) throws(SystemError) -> PlaybackHandle {
        try onThread(sink, handle: handle, completion: completion) { player, sink in
            player.play(
                frames, on: sink, state: state, cancellation: handle.cancellation,
                progress: { handle.report($0) }, releasesAtEnd: releasesAtEnd, startGate: startGate)
        }
    }

    /// Starts playing `stream` on a new dedicated thread, as
    /// ``start(_:on:state:handle:releasesAtEnd:startGate:completion:)``
    /// starts a list (see ``play(_:on:cancellation:progress:releasesAtEnd:startGate:warmsUp:)``
    /// for a stream's play).
    /// - Throws: ``OperatingSystem/SystemError`` when the thread cannot be
    ///   started or set up; nothing was played then.
    public func start(
        _ stream: FrameStream, on sink: sending any FrameSink, handle: PlaybackHandle = PlaybackHandle(),
        releasesAtEnd: Bool = true, startGate: FileDescriptor? = nil,
        completion: (@Sendable (PlaybackResult) -> Void)? = nil
    ) throws(SystemError) -> PlaybackHandle {
        try onThread(sink, handle: handle, completion: completion) { player, sink in
            player.play(
                stream, on: sink, cancellation: handle.cancellation, progress: { handle.report($0) },
                releasesAtEnd: releasesAtEnd, startGate: startGate)
        }
    }

    /// Runs `play` on a new dedicated thread (at the player's priority)
    /// with `sink`, then `completion`, then finishes `handle`: what both
    /// ``start`` methods do around their own play.
    private func onThread(
        _ sink: sending any FrameSink, handle: PlaybackHandle, completion: (@Sendable (PlaybackResult) -> Void)?,
        _ play: @escaping @Sendable (Player, any FrameSink) -> PlaybackResult
    ) throws(SystemError) -> PlaybackHandle {
        let transfer = SinkTransfer(sink: sink)
        let player = self
        try DedicatedThread.start(Self.threadOptions.atRealtimePriority(realtimePriority)) {
            let result = play(player, transfer.sink)
            completion?(result)
            handle.finish(result)
        }
        return handle
    }
}

/// How late the timer has woken the player lately: the least overshoot
/// (time after a wait minus its deadline) of its last 16 waits for a
/// late frame's spacing (0 before the first). The least, so that one wait
/// the scheduler delayed does not count as the timer's latency. Kept in
/// place, with no allocation, for a play of 1,000 frames a second.
struct WakeLatency {
    private var recent: (
        Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64
    ) = (.max, .max, .max, .max, .max, .max, .max, .max, .max, .max, .max, .max, .max, .max, .max, .max)
    private var next = 0

    /// The least of the last 16 overshoots; 0 before the first.
    var estimate: Microseconds {
        let least = withUnsafeBytes(of: recent) { $0.bindMemory(to: Int64.self).min() ?? .max }
        return Microseconds(least == .max ? 0 : least)
    }

    /// Counts a wait that ended `overshoot` after its deadline.
    mutating func record(_ overshoot: Microseconds) {
        let index = next
        withUnsafeMutableBytes(of: &recent) { $0.bindMemory(to: Int64.self)[index] = max(0, overshoot.rawValue) }
        next = (next + 1) % 16
    }
}

/// Hands a sink to the playing thread. @unchecked: the caller gave the sink
/// up (`sending`) and only the playing thread touches it.
private struct SinkTransfer: @unchecked Sendable {
    let sink: any FrameSink
}
