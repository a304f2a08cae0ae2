import GestureModel
import InputSystem
import Synchronization

/// A virtual device kept for several plays (the daemon keeps one per kind;
/// `gesturectl play` keeps one for a single play), with what its readers
/// know of it between plays.
///
/// One play at a time. The device is used only by the playing thread while
/// a play runs, and destroyed by ``close()`` after a last wait of
/// ``linger`` (default 200 ms): readers lose the events they have not read
/// when a device is destroyed, libinput included, so the final lifts must
/// have time to arrive.
public final class PlaybackSession: @unchecked Sendable {
    // @unchecked: `device` is touched only by the playing thread while
    // `busy` is set, and by close() once it is clear; the rest is behind
    // `guarded`.
    private struct Guarded: Sendable {
        var state: DeviceState
        var busy = false
        var closed = false
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
    private var device: UinputDevice?
    private let guarded: Mutex<Guarded>

    /// The default time a device is kept after the last frame: 200 ms.
    public static let defaultLinger = Microseconds(200_000)

    /// Creates the device of `profile` through uinput, having opened a udev
    /// monitor first, and waits (up to `udevTimeout`) until udev has set it
    /// up (``UdevSettle``). Without udev it goes on at once.
    ///
    /// - Throws: ``SystemError`` from ``UinputDevice/init(description:uinputPath:)``
    ///   (e.g. `.permissionDenied` for /dev/uinput, `.notFound` without uinput).
    public init(
        profile: VirtualDeviceProfile, linger: Microseconds = defaultLinger,
        udevTimeout: Microseconds = UdevSettle.defaultTimeout, uinputPath: String = "/dev/uinput",
        clock: any PlaybackClock = SystemClock()
    ) throws(SystemError) {
        let monitor = try? Udev().monitor()
        let device = try UinputDevice(description: profile.description, uinputPath: uinputPath)
        self.profile = profile
        self.device = device
        self.devnode = device.devnode
        self.linger = linger
        self.clock = clock
        if let monitor, let node = device.devnode {
            isInitialisedByUdev = UdevSettle.waitForDevice(
                monitor: monitor, devnode: node, timeout: udevTimeout, clock: clock)
        } else {
            isInitialisedByUdev = false
        }
        guarded = Mutex(Guarded(state: DeviceState(description: profile.description)))
    }

    deinit { close() }

    /// What readers know of the device now (between plays).
    public var state: DeviceState { guarded.withLock { $0.state } }

    /// The frames that play `gesture` on this device from its current state.
    /// - Throws: ``PlaybackError`` (see ``FrameBuilder``).
    public func frames(for gesture: Gesture, options: PlaybackOptions = PlaybackOptions()) throws(PlaybackError)
        -> [InputFrame]
    {
        try FrameBuilder(target: profile, options: options).frames(for: gesture, from: state)
    }

    /// Starts playing `frames` on a dedicated thread (see
    /// ``Player/start(_:on:state:cancellation:progress:completion:)``); the
    /// session's state follows the play.
    /// - Throws: ``PlaybackError/sessionBusy`` while another play runs,
    ///   ``PlaybackError/sessionClosed`` after ``close()``.
    public func start(
        _ frames: [InputFrame], cancellation: CancellationSignal = CancellationSignal(),
        progress: (@Sendable (PlaybackProgress) -> Void)? = nil
    ) throws(PlaybackError) -> PlaybackHandle {
        let handle = PlaybackHandle(cancellation: cancellation)
        let outcome: Result<DeviceState, PlaybackError> = guarded.withLock { current in
            if current.closed { return .failure(.sessionClosed) }
            if current.busy { return .failure(.sessionBusy) }
            current.busy = true
            current.running = handle
            return .success(current.state)
        }
        let initial = try outcome.get()
        guard let device else {
            guarded.withLock { current in
                current.busy = false
                current.running = nil
            }
            throw .sessionClosed
        }
        Player(clock: clock).run(
            frames, on: UinputFrameSink(device: device), state: initial, handle: handle, progress: progress
        ) { [self] result in
            guarded.withLock { current in
                current.state = result.finalState
                current.busy = false
                current.running = nil
            }
        }
        return handle
    }

    /// Builds and plays `gesture`, blocking until the play ends.
    /// - Throws: ``PlaybackError`` before anything is played.
    public func play(
        _ gesture: Gesture, options: PlaybackOptions = PlaybackOptions(),
        cancellation: CancellationSignal = CancellationSignal(),
        progress: (@Sendable (PlaybackProgress) -> Void)? = nil
    ) throws(PlaybackError) -> PlaybackResult {
        let frames = try frames(for: gesture, options: options)
        return try start(frames, cancellation: cancellation, progress: progress).wait()
    }

    /// Cancels a running play and waits for it (it lifts everything), keeps
    /// the device ``linger`` longer so that readers receive the last frames,
    /// then destroys it. Later calls do nothing.
    public func close() {
        let running: PlaybackHandle? = guarded.withLock { current in
            if current.closed { return nil }
            current.closed = true
            return current.running
        }
        guard device != nil else { return }
        if let running {
            running.cancel()
            _ = running.wait()
        }
        _ = clock.wait(until: clock.now() + linger, cancellation: .never)
        device = nil
    }
}
