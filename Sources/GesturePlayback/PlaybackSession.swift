import GestureModel
import InputSystem
import OperatingSystem
import Synchronization

/// A virtual device kept for several plays (the daemon keeps one per kind;
/// `gesturectl play` keeps one for a single play), with what its readers
/// know of it between plays.
///
/// One play at a time: the device is written only by the playing thread
/// while a play runs. ``close()`` cancels a running play (which lifts
/// everything), keeps the device ``linger`` longer (default 200 ms: readers
/// lose the events they have not read when a device is destroyed, libinput
/// included), then destroys it. Safe from any thread; the first ``close()``
/// does the work and every other call waits until it is done.
public final class PlaybackSession: Sendable {
    private struct Guarded: Sendable {
        var sink: (any FrameSink & Sendable)?
        var state: DeviceState
        var busy = false
        var closing = false
        var running: PlaybackHandle?
    }

    /// What the device was created from.
    public let profile: VirtualDeviceProfile
    /// The event node, e.g. `/dev/input/event7`, if known.
    public let devnode: String?
    /// Whether udev reported the device within the timeout. When false,
    /// warn: libinput may ignore a device udev has not tagged.
    public let isInitialisedByUdev: Bool
    /// How long ``close()`` keeps the device after the last frame.
    public let linger: Microseconds
    private let clock: any PlaybackClock
    private let guarded: Mutex<Guarded>
    private let closed = Semaphore(value: 0)

    /// The default time a device is kept after the last frame: 200 ms.
    public static let defaultLinger = Microseconds(200_000)

    /// Creates the device of `profile` through uinput, having opened a udev
    /// monitor first, and waits (up to `udevTimeout`) until udev has set it
    /// up (``UdevSettle``). Without udev it goes on at once.
    ///
    /// - Throws: ``OperatingSystem/SystemError`` from ``InputSystem/UinputDevice/init(description:uinputPath:)``
    ///   (e.g. `.permissionDenied` for /dev/uinput, `.notFound` without uinput).
    public convenience init(
        profile: VirtualDeviceProfile, linger: Microseconds = defaultLinger,
        udevTimeout: Microseconds = UdevSettle.defaultTimeout, uinputPath: String = "/dev/uinput",
        clock: any PlaybackClock = SystemClock()
    ) throws(SystemError) {
        // Harmless: without a monitor isInitialisedByUdev is false, which play and press warn about.
        let monitor = try? Udev().monitor()
        let device = try UinputDevice(description: profile.description, uinputPath: uinputPath)
        var initialised = false
        if let monitor, let node = device.devnode {
            initialised = UdevSettle.waitForDevice(monitor: monitor, devnode: node, timeout: udevTimeout, clock: clock)
        }
        self.init(
            profile: profile, sink: UinputFrameSink(device: device), devnode: device.devnode,
            isInitialisedByUdev: initialised, linger: linger, clock: clock)
    }

    /// Creates a session over any sink: another kind of output, or a test
    /// double. The session owns the sink and drops it on ``close()``.
    public init(
        profile: VirtualDeviceProfile, sink: any FrameSink & Sendable, devnode: String?,
        isInitialisedByUdev: Bool = true, linger: Microseconds = defaultLinger, clock: any PlaybackClock = SystemClock()
    ) {
        self.profile = profile
        self.devnode = devnode
        self.isInitialisedByUdev = isInitialisedByUdev
        self.linger = linger
        self.clock = clock
        guarded = Mutex(Guarded(sink: sink, state: DeviceState(description: profile.description)))
    }

    deinit { close() }

    /// The surface a play's pacing keeps to when the device is a touchpad
    /// (``Player/touchpad``).
    private var touchpad: DeviceGeometry? {
        profile.kind == .touchpad ? LiveTouchFrames.surface(of: profile) : nil
    }

    /// What readers know of the device now (between plays).
    public var state: DeviceState { guarded.withLock { $0.state } }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { guarded.withLock { $0.closing } }

    /// Whether a play is running.
    public var isBusy: Bool { guarded.withLock { $0.busy } }

    /// The frames that play `gesture` on this device from its current state.
    /// - Throws: ``PlaybackError`` (see ``FrameBuilder``).
    public func frames(for gesture: Gesture, options: PlaybackOptions = PlaybackOptions()) throws(PlaybackError)
        -> [InputFrame]
    {
        try FrameBuilder(target: profile, options: options).frames(for: gesture, from: state)
    }

    /// Starts playing `frames` on a dedicated thread (see
    /// ``Player/start(_:on:state:handle:completion:)``); the session's state
    /// follows the play.
    /// - Throws: ``PlaybackError/sessionBusy`` while another play runs,
    ///   ``PlaybackError/sessionClosed`` after ``close()``,
    ///   ``PlaybackError/cannotStart(_:)`` when the thread cannot be started.
    ///
    /// `releasesAtEnd: false` leaves down what the frames leave down when
    /// they all play (a key pressed with `down`): it stays down, in
    /// ``state``, until a later play releases it or ``close()`` does.
    /// `realtimePriority` plays at SCHED_FIFO (``Player/realtimePriority``);
    /// refused with ``PlaybackError/cannotStart(_:)`` (EPERM) without the
    /// capability (``Player/checkRealtime(priority:)`` asks first).
    public func start(
        _ frames: [InputFrame], handle: PlaybackHandle = PlaybackHandle(), releasesAtEnd: Bool = true,
        realtimePriority: Int32? = nil, startGate: FileDescriptor? = nil
    ) throws(PlaybackError) -> PlaybackHandle {
        let (sink, initial) = try claim(for: handle)
        do throws(SystemError) {
            return try Player(clock: clock, realtimePriority: realtimePriority, touchpad: touchpad).start(
                frames, on: sink, state: initial, handle: handle, releasesAtEnd: releasesAtEnd, startGate: startGate
            ) { [self] result in release(finalState: result.finalState) }
        } catch {
            release(finalState: nil)
            throw .cannotStart(error)
        }
    }

    /// Plays `frames` on the calling thread, as ``start(_:handle:releasesAtEnd:realtimePriority:startGate:)``
    /// does on a thread of its own: for a thread that exists to play this
    /// device's queue (``Player/threadOptions``' timer slack is the caller's
    /// to set). Returns when the play has ended, its `handle` finished and
    /// the session's state updated. `warmsUp`: false when this thread has
    /// played on this session before (``Player/play(_:on:state:cancellation:progress:releasesAtEnd:startGate:warmsUp:)``).
    /// - Throws: ``PlaybackError/sessionBusy`` while another play runs,
    ///   ``PlaybackError/sessionClosed`` after ``close()``; nothing was
    ///   played then and `handle` is not finished.
    public func playHere(
        _ frames: [InputFrame], handle: PlaybackHandle, releasesAtEnd: Bool = true, startGate: FileDescriptor? = nil,
        warmsUp: Bool = true
    ) throws(PlaybackError) -> PlaybackResult {
        let (sink, initial) = try claim(for: handle)
        let result = Player(clock: clock, touchpad: touchpad).play(
            frames, on: sink, state: initial, cancellation: handle.cancellation, progress: { handle.report($0) },
            releasesAtEnd: releasesAtEnd, startGate: startGate, warmsUp: warmsUp)
        release(finalState: result.finalState)
        handle.finish(result)
        return result
    }

    /// Starts playing `stream` on a dedicated thread as it is built, as
    /// ``start(_:handle:releasesAtEnd:realtimePriority:startGate:)`` plays
    /// a list (see ``Player/play(_:on:cancellation:progress:releasesAtEnd:startGate:warmsUp:)``
    /// for a stream's play). The stream must have been built from this
    /// device's ``state``.
    /// - Throws: as the list's.
    public func start(
        _ stream: FrameStream, handle: PlaybackHandle = PlaybackHandle(), releasesAtEnd: Bool = true,
        realtimePriority: Int32? = nil, startGate: FileDescriptor? = nil
    ) throws(PlaybackError) -> PlaybackHandle {
        let (sink, _) = try claim(for: handle)
        do throws(SystemError) {
            return try Player(clock: clock, realtimePriority: realtimePriority, touchpad: touchpad).start(
                stream, on: sink, handle: handle, releasesAtEnd: releasesAtEnd, startGate: startGate
            ) { [self] result in release(finalState: result.finalState) }
        } catch {
            release(finalState: nil)
            throw .cannotStart(error)
        }
    }

    /// Plays `stream` on the calling thread as it is built, as
    /// ``playHere(_:handle:releasesAtEnd:startGate:warmsUp:)`` plays a
    /// list. The stream must have been built from this device's ``state``.
    /// - Throws: as the list's.
    public func playHere(
        _ stream: FrameStream, handle: PlaybackHandle, releasesAtEnd: Bool = true, startGate: FileDescriptor? = nil,
        warmsUp: Bool = true
    ) throws(PlaybackError) -> PlaybackResult {
        let (sink, _) = try claim(for: handle)
        let result = Player(clock: clock, touchpad: touchpad).play(
            stream, on: sink, cancellation: handle.cancellation, progress: { handle.report($0) },
            releasesAtEnd: releasesAtEnd, startGate: startGate, warmsUp: warmsUp)
        release(finalState: result.finalState)
        handle.finish(result)
        return result
    }

    /// Takes the device for a play of `handle`: its sink and the state
    /// readers know.
    /// - Throws: ``PlaybackError/sessionClosed``, ``PlaybackError/sessionBusy``.
    private func claim(for handle: PlaybackHandle) throws(PlaybackError) -> (any FrameSink & Sendable, DeviceState) {
        let claimed: Result<(any FrameSink & Sendable, DeviceState), PlaybackError> = guarded.withLock { current in
            if current.closing { return .failure(.sessionClosed) }
            if current.busy { return .failure(.sessionBusy) }
            guard let sink = current.sink else { return .failure(.sessionClosed) }
            current.busy = true
            current.running = handle
            return .success((sink, current.state))
        }
        return try claimed.get()
    }

    /// Takes the device for frames made as they come (live input:
    /// `gesturectl fingertips`) instead of a play's list: see ``LivePlay``,
    /// whose ``LivePlay/finish(_:)`` lifts everything and gives the device
    /// back. ``close()`` meanwhile cancels `handle` and waits until the live
    /// play has finished it, as it does for a play.
    /// - Throws: ``PlaybackError/sessionBusy`` while a play runs,
    ///   ``PlaybackError/sessionClosed`` after ``close()``.
    public func startLive(handle: PlaybackHandle) throws(PlaybackError) -> LivePlay {
        let (sink, initial) = try claim(for: handle)
        return LivePlay(session: self, sink: sink, state: initial, handle: handle)
    }

    /// Gives the device back after a play, with the state it left (`nil`:
    /// nothing was played).
    func release(finalState: DeviceState?) {
        guarded.withLock { current in
            if let finalState { current.state = finalState }
            current.busy = false
            current.running = nil
        }
    }

    /// Writes the frame that releases what is down between plays (keys a
    /// `down` press left down), when no play runs; the playing thread does
    /// it otherwise. A failed write is left to the device's destruction,
    /// which releases every key too.
    private func releaseHeld() {
        let claimed: (any FrameSink & Sendable, InputFrame)? = guarded.withLock { current in
            guard !current.busy, let sink = current.sink, let frame = current.state.liftAllFrame() else { return nil }
            current.busy = true
            return (sink, frame)
        }
        guard let (sink, frame) = claimed else { return }
        var written = true
        do { try sink.write(frame) } catch { written = false }
        guarded.withLock { current in
            if written { current.state.apply(frame) }
            current.busy = false
        }
    }

    /// Builds and plays `gesture`, blocking until the play ends.
    /// - Throws: ``PlaybackError`` before anything is played.
    public func play(
        _ gesture: Gesture, options: PlaybackOptions = PlaybackOptions(), handle: PlaybackHandle = PlaybackHandle()
    ) throws(PlaybackError) -> PlaybackResult {
        let frames = try frames(for: gesture, options: options)
        return try start(frames, handle: handle).wait()
    }

    /// Cancels a running play and waits for it (it lifts everything),
    /// releases what is still down between plays (keys held by a `down`
    /// press) in one frame, keeps the device ``linger`` longer so that
    /// readers receive the last frames, then destroys it. Any thread may call it, any number of times: the
    /// first call does this, later ones wait until it is done.
    public func close() {
        let first: (isFirst: Bool, running: PlaybackHandle?) = guarded.withLock { current in
            if current.closing { return (false, nil) }
            current.closing = true
            return (true, current.running)
        }
        guard first.isFirst else {
            closed.wait()
            closed.signal()
            return
        }
        if let running = first.running {
            running.cancel()
            _ = running.wait()
        }
        releaseHeld()
        keepForLinger()
        guarded.withLock { $0.sink = nil }
        closed.signal()
    }

    /// Waits ``linger`` on the clock. A wait that cannot be set up (no
    /// descriptor left for its timer) sleeps instead, so that readers still
    /// get the last frames before the device goes.
    private func keepForLinger() {
        do {
            _ = try clock.wait(until: clock.now() + linger, cancellation: .never)
        } catch {
            // Harmless: clock_nanosleep of a valid deadline fails only with EINTR, which it sleeps through.
            try? MonotonicClock.sleep(untilMicroseconds: MonotonicClock.nowMicroseconds() + linger.rawValue)
        }
    }
}
