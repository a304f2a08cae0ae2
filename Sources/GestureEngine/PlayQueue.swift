import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Glibc
import Synchronization

/// What a queued job writes on its device.
public enum QueuedWork: Sendable {
    /// A gesture: checked when queued, its frames streamed from the
    /// device's state when its turn comes (``GesturePlayback/FrameStream``:
    /// built a look-ahead ahead of the play), `leadIn` before the first.
    case gesture(Gesture, options: PlaybackOptions, leadIn: Microseconds)
    /// A key press (``GesturePlayback/KeyPress``): a `down` leaves its key
    /// down on a kept keyboard.
    case press(KeyPress, leadIn: Microseconds)
    /// Frames built already, for a device in its initial state, any lead-in
    /// included (a test's list).
    case frames([InputFrame])
    /// Frames being built for a device in its initial state, any lead-in
    /// included: a one-shot device's play, whose stream starts before the
    /// device is made so that only the lead-in stands between udev
    /// announcing it and the first frame.
    case stream(FrameStream)
}

/// One job for a ``PlayQueue``: the work, its handle, and how it runs.
public struct QueuedPlay: Sendable {
    /// What it writes.
    public var work: QueuedWork
    /// Cancel it (queued or running), follow it, get its result. The queue
    /// finishes it exactly once, also when the job never starts.
    public var handle: PlaybackHandle
    /// SCHED_FIFO priority of the playing thread; `nil` for the normal scheduler.
    public var realtimePriority: Int32?
    /// Held at the device until this descriptor is readable (``PlayRequest/startGate``).
    public var startGate: FileDescriptor?
    /// Told how many frames the job has once they are known: when its turn
    /// comes for a list or a press, once its last frame is built for a
    /// gesture (a ``QueuedWork/stream(_:)``'s own tally is told instead).
    public var tally: FrameTally
    /// Called with the device just before the job's frames start (the job
    /// is running from then on); on the thread that starts it.
    public var started: (@Sendable (PlaybackSession) -> Void)?

    /// Creates a job; see each property.
    public init(
        _ work: QueuedWork, handle: PlaybackHandle = PlaybackHandle(), realtimePriority: Int32? = nil,
        startGate: FileDescriptor? = nil, tally: FrameTally = FrameTally(),
        started: (@Sendable (PlaybackSession) -> Void)? = nil
    ) {
        self.work = work
        self.handle = handle
        self.realtimePriority = realtimePriority
        self.startGate = startGate
        self.tally = tally
        self.started = started
    }
}

/// Why a job was not queued.
public enum PlayQueueError: Error, Sendable, CustomStringConvertible {
    /// The gesture cannot play on the queue's device (checked when queued).
    case cannotPlay(PlaybackError)
    /// `limit` jobs wait already.
    case full(waiting: Int)
    /// The queue takes no more jobs (its device was removed, the daemon stops).
    case retired

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .cannotPlay(let error): "\(error)"
        case .full(let waiting): "\(waiting) jobs are waiting"
        case .retired: "the device is gone"
        }
    }
}

/// The one way a gesture or a key press gets played: a serial queue of jobs
/// on one device, owned by the ``Engine``. Each kept device has one
/// (``Engine/queue(for:output:)``), and each one-shot play makes one for its
/// own device (``Engine/startPlay(_:job:handle:)``).
///
/// A job is checked once when queued (``FrameBuilder/check(_:)``: the
/// gesture against the device, without building frames), and its frames
/// are built once, from the device's state when its turn comes, by a
/// ``GesturePlayback/FrameStream`` a bounded look-ahead ahead of the play.
/// A kept device's queue has one thread (`gesturectl-q-ts`, …, made at its
/// first job, with the player's timer slack) that starts each job's frames
/// and writes them itself, one job after another: no thread waits for
/// another to play. A kept device that vanished is made again once, and the job
/// played whole on the new one. A one-shot device's job plays on a
/// `gesturectl-play` thread of its own.
public final class PlayQueue: Sendable {
    /// The device's profile.
    public let profile: VirtualDeviceProfile
    /// Its transport.
    public let output: PlayOutput
    /// How the queue's device is had: the engine's kept one (made again
    /// when it vanished), or a one-shot device's own session.
    enum Device: Sendable {
        case kept(Engine)
        case oneShot(PlaybackSession)
    }

    private struct Entry: Sendable {
        var play: QueuedPlay
        /// What it writes, as queued: a gesture with its check, from which
        /// its frames are built without checking the gesture again.
        var work: Work
    }

    /// ``QueuedWork`` once queued.
    private enum Work: Sendable {
        case gesture(CheckedGesture, leadIn: Microseconds)
        case press(KeyPress, leadIn: Microseconds)
        case frames([InputFrame])
        case stream(FrameStream)
    }

    private struct State: Sendable {
        var pending: [Entry] = []
        var running = false
        var retired = false
        var remade: [@Sendable (PlaybackSession?, SystemError) -> Void] = []
        var whenIdle: [@Sendable () -> Void] = []
        /// A kept device's thread is serving the queue.
        var serving = false
    }

    private let device: Device
    private let threadOptions: ThreadOptions
    private let state = Mutex(State())
    /// A kept device's thread waits on it for work: one signal a job queued
    /// (and one when the queue is retired).
    private let work = Semaphore(value: 0)

    init(profile: VirtualDeviceProfile, output: PlayOutput, device: Device, threadName: String) {
        self.profile = profile
        self.output = output
        self.device = device
        // A kept device's thread writes the frames itself: the player's
        // timer slack (1 ns), so that its wakes are exact.
        threadOptions = ThreadOptions(name: threadName, timerSlackNanoseconds: Player.threadOptions.timerSlackNanoseconds)
    }

    /// Jobs waiting (not counting the running one).
    public var waiting: Int { state.withLock { $0.pending.count } }

    /// Whether a job runs or waits.
    public var isBusy: Bool { state.withLock { $0.running || !$0.pending.isEmpty } }

    /// Calls `observer` each time the queue's kept device vanished and was
    /// made again (with the new device, or `nil` when it could not be).
    public func observeRemade(_ observer: @escaping @Sendable (PlaybackSession?, SystemError) -> Void) {
        state.withLock { $0.remade.append(observer) }
    }

    /// Queues `play` behind the jobs already there, after checking a
    /// gesture against the device. `limit`: refused as full when that many
    /// wait already (`nil`: never).
    /// `accepted` runs once it is queued, before it can start (under the
    /// queue's lock: it must not call the queue), e.g. to say it is queued
    /// before anyone can say it runs.
    /// - Throws: ``PlayQueueError``; nothing is queued then, and the
    ///   handle is not finished.
    func enqueue(
        _ play: QueuedPlay, limit: Int? = nil, accepted: (() -> Void)? = nil
    ) throws(PlayQueueError) {
        let queued: Work
        switch play.work {
        case .gesture(let gesture, let options, let leadIn):
            do {
                queued = .gesture(try FrameBuilder(target: profile, options: options).check(gesture), leadIn: leadIn)
            } catch {
                throw .cannotPlay(error)
            }
        case .press(let press, let leadIn): queued = .press(press, leadIn: leadIn)
        case .frames(let frames): queued = .frames(frames)
        case .stream(let stream): queued = .stream(stream)
        }
        if case .kept(let engine) = device {
            let startsThread = try state.withLock { current throws(PlayQueueError) -> Bool in
                if current.retired { throw .retired }
                if let limit, current.pending.count >= limit { throw .full(waiting: current.pending.count) }
                current.pending.append(Entry(play: play, work: queued))
                accepted?()
                defer { current.serving = true }
                return !current.serving
            }
            work.signal()
            guard startsThread else { return }
            do {
                try DedicatedThread.start(threadOptions) { [self] in serve(engine) }
            } catch {
                // No thread to spare: the jobs end failed, each saying why.
                let failed = state.withLock { current in
                    current.serving = false
                    defer { current.pending = [] }
                    return current.pending
                }
                for entry in failed {
                    entry.play.handle.finish(PlaybackResult.failedBeforeStart(PlaybackError.cannotStart(error), state: idleState))
                }
            }
            return
        }
        let startsNow = try state.withLock { current throws(PlayQueueError) -> Bool in
            if current.retired { throw .retired }
            if let limit, current.pending.count >= limit { throw .full(waiting: current.pending.count) }
            current.pending.append(Entry(play: play, work: queued))
            accepted?()
            guard !current.running else { return false }
            current.running = true
            return true
        }
        // A one-shot device's caller made the device and waits for the play to start.
        if startsNow { runNext() }
    }

    /// ``enqueue(_:limit:)`` for the engine's own front-end calls, whose
    /// callers expect a refused gesture as the ``GesturePlayback/PlaybackError`` itself.
    func enqueueUnwrapped(_ play: QueuedPlay) throws {
        do {
            try enqueue(play)
        } catch {
            if case .cannotPlay(let refusal) = error { throw refusal }
            throw error
        }
    }

    /// Takes a job that has not started out of the queue and finishes its
    /// handle as cancelled before it started. False when it is not waiting
    /// (running, ended, or never queued here).
    @discardableResult
    func remove(_ handle: PlaybackHandle) -> Bool {
        let removed = state.withLock { current -> Entry? in
            guard let index = current.pending.firstIndex(where: { $0.play.handle === handle }) else { return nil }
            return current.pending.remove(at: index)
        }
        guard let removed else { return false }
        removed.play.handle.finish(PlaybackResult.cancelledBeforeStart(state: idleState))
        return true
    }

    /// Takes no more jobs, and ends every waiting one as cancelled before
    /// it started; the running one plays on (cancel its handle to stop it).
    /// `whenIdle` runs once no job runs any more: at once, or on the
    /// thread of the job that ends last.
    public func retire(whenIdle: (@Sendable () -> Void)? = nil) {
        let (drained, idleNow) = state.withLock { current -> ([Entry], Bool) in
            current.retired = true
            defer { current.pending = [] }
            if let whenIdle, current.running { current.whenIdle.append(whenIdle) }
            return (current.pending, !current.running)
        }
        // A kept device's thread wakes, finds nothing, and ends.
        work.signal()
        for entry in drained { entry.play.handle.finish(PlaybackResult.cancelledBeforeStart(state: idleState)) }
        if idleNow { whenIdle?() }
    }

    /// Whether ``retire()`` was called.
    public var isRetired: Bool { state.withLock { $0.retired } }

    /// A device state with nothing down, for the results of jobs that never ran.
    private var idleState: DeviceState { DeviceState(description: profile.description) }

    /// A kept device's thread: plays the queue's jobs one after another,
    /// the frames written on this thread, until the queue is retired.
    private func serve(_ engine: Engine) {
        // The session this thread has played on: its path is warm.
        var warmed: PlaybackSession?
        while true {
            work.wait()
            let (next, ends) = state.withLock { current -> (Entry?, Bool) in
                guard !current.pending.isEmpty else {
                    // A job taken out (its signal is left over), or retired.
                    if current.retired { current.serving = false }
                    return (nil, current.retired)
                }
                current.running = true
                return (current.pending.removeFirst(), false)
            }
            if ends { return }
            guard let entry = next else { continue }
            play(entry, engine: engine, warmed: &warmed)
            let idle = state.withLock { current -> [@Sendable () -> Void] in
                current.running = false
                guard current.pending.isEmpty else { return [] }
                defer { current.whenIdle = [] }
                return current.whenIdle
            }
            for body in idle { body() }
        }
    }

    /// Plays one job of a kept device on this thread, its handle finished
    /// whatever happens; a device that vanished is made again once.
    /// `warmed`: the session this thread last played on (its frame path
    /// needs no warm-up), updated.
    private func play(_ entry: Entry, engine: Engine, warmed: inout PlaybackSession?) {
        let caller = entry.play.handle
        var remadeOnce = false
        while true {
            if caller.isCancelled {
                caller.finish(PlaybackResult.cancelledBeforeStart(state: idleState))
                return
            }
            let session: PlaybackSession
            do {
                session = try engine.readyDevice(profile, output: output)
            } catch let error as SystemError where error.kind == .deviceVanished && !remadeOnce {
                remadeOnce = true
                remake(engine, after: error)
                continue
            } catch {
                caller.finish(PlaybackResult.failedBeforeStart(error, state: idleState))
                return
            }
            let frames: Frames
            do {
                frames = try Self.frames(of: entry, from: session.state)
            } catch {
                caller.finish(PlaybackResult.failedBeforeStart(error, state: session.state))
                return
            }
            // A kept keyboard keeps what `down` pressed.
            var releasesAtEnd = true
            if case .press = entry.work { releasesAtEnd = false }
            // The player gets a handle of its own that shares the caller's
            // cancellation: a job whose device vanished plays again on the
            // new one before the caller hears of any result.
            let attempt = PlaybackHandle(cancellation: caller.cancellation)
            attempt.observeProgress { caller.report($0) }
            entry.play.started?(session)
            let result: PlaybackResult
            do {
                if let priority = entry.play.realtimePriority {
                    // A real-time play gets a thread at that priority.
                    result = try frames.start(
                        on: session, handle: attempt, releasesAtEnd: releasesAtEnd, realtimePriority: priority,
                        startGate: entry.play.startGate
                    ).wait()
                } else {
                    let warmsUp = warmed !== session
                    warmed = session
                    result = try frames.playHere(
                        on: session, handle: attempt, releasesAtEnd: releasesAtEnd, startGate: entry.play.startGate,
                        warmsUp: warmsUp)
                }
            } catch PlaybackError.sessionClosed where !remadeOnce {
                // Closed between being handed out and playing (forgotten by another thread).
                remadeOnce = true
                remake(
                    engine,
                    after: SystemError(
                        call: "write", path: session.devnode, errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished,
                        detail: "the device was closed"))
                continue
            } catch {
                caller.finish(PlaybackResult.failedBeforeStart(error, state: session.state))
                return
            }
            if case .failed(let error as SystemError, _) = result.outcome, error.kind == .deviceVanished, !remadeOnce {
                remadeOnce = true
                remake(engine, after: error)
                continue
            }
            caller.finish(result)
            return
        }
    }

    /// Forgets the kept device that vanished, makes it again, and tells the observers.
    private func remake(_ engine: Engine, after error: SystemError) {
        engine.forgetDevice(profile, output: output)
        let session = try? engine.readyDevice(profile, output: output)
        for observer in state.withLock({ $0.remade }) { observer(session, error) }
    }

    /// Starts the next job of a one-shot device, or marks the queue idle.
    /// Runs on the caller's thread, or on the thread of the job that just ended.
    private func runNext() {
        while true {
            let (next, idle) = state.withLock { current -> (Entry?, [@Sendable () -> Void]) in
                guard !current.pending.isEmpty else {
                    current.running = false
                    defer { current.whenIdle = [] }
                    return (nil, current.whenIdle)
                }
                return (current.pending.removeFirst(), [])
            }
            guard let entry = next else {
                for body in idle { body() }
                return
            }
            if start(entry) { return }
        }
    }

    /// Starts one job of a one-shot device; true when it is playing (its
    /// end runs the next), false when it ended before it started (its
    /// handle finished).
    private func start(_ entry: Entry) -> Bool {
        let caller = entry.play.handle
        guard case .oneShot(let session) = device else { return false }
        if caller.isCancelled {
            caller.finish(PlaybackResult.cancelledBeforeStart(state: idleState))
            return false
        }
        let frames: Frames
        do {
            frames = try Self.frames(of: entry, from: session.state)
        } catch {
            caller.finish(PlaybackResult.failedBeforeStart(error, state: session.state))
            return false
        }
        caller.onCompletion { [self] _ in runNext() }
        entry.play.started?(session)
        do {
            // A one-shot device releases everything when it is destroyed.
            _ = try frames.start(
                on: session, handle: caller, releasesAtEnd: true, realtimePriority: entry.play.realtimePriority,
                startGate: entry.play.startGate)
        } catch {
            caller.finish(PlaybackResult.failedBeforeStart(error, state: session.state))
            return false
        }
        return true
    }
}

extension PlayQueue {
    /// A job's frames when its turn comes: a list, or a stream being built.
    private enum Frames {
        case list([InputFrame])
        case stream(FrameStream)

        /// Starts them on `session`'s dedicated thread.
        func start(
            on session: PlaybackSession, handle: PlaybackHandle, releasesAtEnd: Bool, realtimePriority: Int32?,
            startGate: FileDescriptor?
        ) throws(PlaybackError) -> PlaybackHandle {
            switch self {
            case .list(let frames):
                try session.start(
                    frames, handle: handle, releasesAtEnd: releasesAtEnd, realtimePriority: realtimePriority,
                    startGate: startGate)
            case .stream(let stream):
                try session.start(
                    stream, handle: handle, releasesAtEnd: releasesAtEnd, realtimePriority: realtimePriority,
                    startGate: startGate)
            }
        }

        /// Plays them on the calling thread.
        func playHere(
            on session: PlaybackSession, handle: PlaybackHandle, releasesAtEnd: Bool, startGate: FileDescriptor?,
            warmsUp: Bool
        ) throws(PlaybackError) -> PlaybackResult {
            switch self {
            case .list(let frames):
                try session.playHere(
                    frames, handle: handle, releasesAtEnd: releasesAtEnd, startGate: startGate, warmsUp: warmsUp)
            case .stream(let stream):
                try session.playHere(
                    stream, handle: handle, releasesAtEnd: releasesAtEnd, startGate: startGate, warmsUp: warmsUp)
            }
        }
    }

    /// The frames of a job on a device whose readers know `state`, when
    /// the job's turn comes, from its gesture's check when it was queued:
    /// a gesture longer than a look-ahead starts being built now, streamed
    /// a look-ahead ahead of the play (its count told to the job's tally
    /// once the last is built); a shorter one's, a press's or a list's are
    /// built and counted at once.
    private static func frames(of entry: Entry, from state: DeviceState) throws(PlaybackError) -> Frames {
        switch entry.work {
        case .gesture(let checked, let leadIn) where checked.fits():
            // Short (a tap, a swipe): built here at once, as always; a
            // stream's thread would only delay the first frame.
            let frames = try checked.frames(from: state).map { InputFrame(time: $0.time + leadIn, events: $0.events) }
            entry.play.tally.finish(frames.count)
            return .list(frames)
        case .gesture(let checked, let leadIn):
            return .stream(try FrameStream(checked, from: state, delay: leadIn, tally: entry.play.tally))
        case .press(let press, let leadIn):
            let frames = press.frames(from: state, start: leadIn)
            entry.play.tally.finish(frames.count)
            return .list(frames)
        case .frames(let built):
            entry.play.tally.finish(built.count)
            return .list(built)
        case .stream(let stream):
            return .stream(stream)
        }
    }
}
