import DeviceDiscovery
import GestureModel
import GesturePlayback
import HIDOutput
import InputSystem
import OperatingSystem
import Synchronization

/// The engine under every front end (the CLI, the daemon, an interactive
/// flow): it opens input devices, keeps virtual devices across plays, and
/// runs plays, recordings, imports and device watches as jobs on threads
/// of their own, each with a ``OperatingSystem/JobHandle`` to cancel it,
/// follow it and wait for it.
///
/// Front ends parse, call the engine and print; they hold no loops over
/// events, no device selection and no signal handling (see ``SignalRouter``).
/// One engine per process is the rule; it is `Sendable`, so any thread or
/// task may use it.
public final class Engine: Sendable {
    /// A kept device is found by its profile and its output: the same
    /// touchscreen through uinput and through uhid are two devices.
    struct KeptKey: Hashable, Sendable {
        var profile: VirtualDeviceProfile
        var output: PlayOutput
    }

    private struct Kept: Sendable {
        var sessions: [KeptKey: PlaybackSession] = [:]
    }

    private let kept = Mutex(Kept())
    let uinputPath: String
    let udevTimeout: Microseconds
    let gadgetPaths: GadgetPaths

    /// Creates an engine. `uinputPath`, `udevTimeout` and `gadgetPaths`
    /// (where configfs, the USB device controllers and /dev are) are for
    /// tests and unusual systems.
    public init(
        uinputPath: String = "/dev/uinput", udevTimeout: Microseconds = UdevSettle.defaultTimeout,
        gadgetPaths: GadgetPaths = .system
    ) {
        self.uinputPath = uinputPath
        self.udevTimeout = udevTimeout
        self.gadgetPaths = gadgetPaths
    }

    // MARK: Playing

    /// The virtual device profile a play on `target` uses for `gesture`.
    /// - Throws: device selection and opening errors for `.clone`,
    ///   ``GesturePlayback/PlaybackError`` when a cloned device cannot play.
    public func profile(for target: PlayTarget, gesture: Gesture) throws -> VirtualDeviceProfile {
        switch target {
        case .kind(let kind):
            return try VirtualDeviceProfile.profile(for: kind, fitting: gesture.device)
        case .clone(let specification, let kind):
            let device = try InputDevices.open(specification)
            return try VirtualDeviceProfile.cloning(description: device.evdev.description, as: kind)
        case .profile(let profile):
            return profile
        }
    }

    /// The frames of a play, times from its first frame (no lead-in), all
    /// in memory (see ``FrameBuilder/frames(for:from:)`` for its limit).
    public func frames(for request: PlayRequest) throws -> (profile: VirtualDeviceProfile, frames: [InputFrame]) {
        let stream = try frameStream(for: request)
        return (stream.profile, try stream.builder.frames(for: stream.gesture))
    }

    /// What a play of `request` needs to be written frame by frame, as
    /// `play --print` and `export` write it (memory independent of the
    /// gesture's length): the device profile, the builder and the placed
    /// gesture; ``FrameBuilder/forEachFrame(for:from:_:)`` makes the frames.
    public func frameStream(for request: PlayRequest) throws -> (
        profile: VirtualDeviceProfile, builder: FrameBuilder, gesture: Gesture
    ) {
        let request = try request.resolvingPlacement().request
        let profile = try profile(for: request)
        return (profile, try FrameBuilder(target: profile, options: request.options), request.gesture)
    }

    /// Starts a play: builds the frames first (so that nothing but the
    /// lead-in stands between udev announcing the device and the first
    /// frame), creates the virtual device or reuses a kept one, waits until
    /// udev has set it up, and plays on a dedicated thread.
    ///
    /// Blocks the calling thread while the device is created and udev
    /// answers (up to the udev timeout).
    /// - Throws: ``GesturePlayback/PlaybackError`` (a gesture that cannot
    ///   play there), ``OperatingSystem/SystemError`` (no uinput, no access),
    ///   ``GestureEditing/Placement/Failure`` (a bad placement).
    public func startPlay(_ request: PlayRequest, handle: PlaybackHandle = PlaybackHandle()) throws -> PlayJob {
        let request = try request.resolvingPlacement().request
        if let priority = request.realtimePriority { try Player.checkRealtime(priority: priority) }
        let profile = try profile(for: request)
        let key = KeptKey(profile: profile, output: request.output)
        let keptSession = request.keepDevice ? kept.withLock { $0.sessions[key] } : nil
        let builder = try FrameBuilder(target: profile, options: request.options)
        let built = try keptSession.map { try builder.frames(for: request.gesture, from: $0.state) }
            ?? (try builder.frames(for: request.gesture))
        let frames = built.map { InputFrame(time: $0.time + request.leadIn, events: $0.events) }
        let session: PlaybackSession
        if let keptSession, !keptSession.isClosed {
            session = keptSession
        } else {
            session = try makeSession(request.output, profile: profile, linger: request.linger)
            if request.keepDevice { kept.withLock { $0.sessions[key] = session } }
        }
        return try start(
            frames, on: session, handle: handle, closesSession: !request.keepDevice,
            realtimePriority: request.realtimePriority, startGate: request.startGate)
    }

    /// The profile a play of `request` uses: the target's, except on a
    /// gadget, whose HID functions were made with their geometry by
    /// `gadget up` (``gadgetProfile(name:kind:)``).
    public func profile(for request: PlayRequest) throws -> VirtualDeviceProfile {
        if case .gadget(let name) = request.output {
            let kind: DeviceKind = switch request.target {
            case .kind(let kind): kind
            case .clone(_, let kind): kind ?? .touchscreen
            case .profile(let profile): profile.kind
            }
            return try gadgetProfile(name: name, kind: kind)
        }
        if request.output == .uhid, case .clone = request.target {
            // A clone promises the real device's evdev description; through
            // uhid the HID driver makes the evdev device, not us.
            throw PlayOutputError.unavailable(
                output: "uhid",
                reason: "a clone copies a device's evdev description, which only uinput reproduces; play a kind instead")
        }
        return try profile(for: request.target, gesture: request.gesture)
    }

    /// A new device of `profile` through `output`, udev waited for.
    func makeSession(_ output: PlayOutput, profile: VirtualDeviceProfile, linger: Microseconds) throws -> PlaybackSession {
        switch output {
        case .uinput:
            try PlaybackSession(profile: profile, linger: linger, udevTimeout: udevTimeout, uinputPath: uinputPath)
        case .uhid:
            try uhidSession(profile: profile, linger: linger)
        case .gadget(let name):
            try gadgetSession(name: name, profile: profile, linger: linger)
        }
    }

    /// Starts `frames` (already including any lead-in) on a session the
    /// caller made: another kind of output, or a test double.
    public func startPlay(
        _ frames: [InputFrame], on session: PlaybackSession, handle: PlaybackHandle = PlaybackHandle(),
        closesSession: Bool
    ) throws -> PlayJob {
        try start(frames, on: session, handle: handle, closesSession: closesSession)
    }

    private func start(
        _ frames: [InputFrame], on session: PlaybackSession, handle: PlaybackHandle, closesSession: Bool,
        realtimePriority: Int32? = nil, startGate: FileDescriptor? = nil
    ) throws -> PlayJob {
        // A real-time play also keeps its memory in place where permitted
        // (issue 9): the frames are built and in memory, and what the play
        // touches later is locked as it is faulted in (MCL_ONFAULT).
        let memoryLocked = realtimePriority.map { _ in MemoryLock.lockCurrentPages() }
        do {
            _ = try session.start(frames, handle: handle, realtimePriority: realtimePriority, startGate: startGate)
        } catch {
            if closesSession { session.close() }
            throw error
        }
        return PlayJob(
            handle: handle, session: session, frameCount: frames.count, closesSession: closesSession,
            memoryLocked: memoryLocked)
    }

    /// The kept device of `profile` through `output`, created (and udev
    /// waited for) when there is none or the kept one was closed: the
    /// daemon's ready devices.
    /// - Throws: ``OperatingSystem/SystemError`` when it cannot be created,
    ///   ``PlayOutputError`` or ``HIDOutput/HIDDevicePlan/Failure`` when the
    ///   output cannot make it.
    public func readyDevice(
        _ profile: VirtualDeviceProfile, output: PlayOutput = .uinput, linger: Microseconds = PlaybackSession.defaultLinger
    ) throws -> PlaybackSession {
        let key = KeptKey(profile: profile, output: output)
        if let session = kept.withLock({ $0.sessions[key] }), !session.isClosed { return session }
        let session = try makeSession(output, profile: profile, linger: linger)
        let replaced: PlaybackSession? = kept.withLock { current in
            if let other = current.sessions[key], !other.isClosed { return other }
            current.sessions[key] = session
            return nil
        }
        // Another thread made one meanwhile: keep that one.
        if let replaced {
            session.close()
            return replaced
        }
        return session
    }

    /// The profile of the ready device of `kind` through `output`: the
    /// built-in profile of the kind at its default size (the keyboard's for
    /// `.keyboard`), or, on a gadget, the geometry its HID function was made
    /// with.
    /// - Throws: ``GesturePlayback/PlaybackError`` for a kind that plays
    ///   nothing, ``PlayOutputError`` for a gadget without that function.
    public func readyProfile(kind: DeviceKind, output: PlayOutput = .uinput) throws -> VirtualDeviceProfile {
        if case .gadget(let name) = output { return try gadgetProfile(name: name, kind: kind) }
        return try Self.builtinReadyProfile(kind: kind)
    }

    /// The profile of the ready device of `kind` through uinput or uhid:
    /// the kind's built-in profile at its default size, the keyboard's for
    /// `.keyboard`. The one place that decides it (the daemon's
    /// ``readyProfile(kind:output:)`` and its own lookups come here).
    /// - Throws: ``GesturePlayback/PlaybackError`` for a kind that plays nothing.
    public static func builtinReadyProfile(kind: DeviceKind) throws(PlaybackError) -> VirtualDeviceProfile {
        kind == .keyboard ? .keyboard() : try VirtualDeviceProfile.profile(for: kind)
    }

    /// Closes and forgets the kept device of `profile` through `output`
    /// (e.g. after it vanished, before making a new one).
    public func forgetDevice(_ profile: VirtualDeviceProfile, output: PlayOutput = .uinput) {
        let session = kept.withLock { $0.sessions.removeValue(forKey: KeptKey(profile: profile, output: output)) }
        session?.close()
    }

    /// The virtual devices kept for later plays.
    public var keptDevices: [PlaybackSession] { kept.withLock { Array($0.sessions.values) } }

    /// Closes every kept virtual device (each lifts what is down, lingers,
    /// and is destroyed). Blocks; for shutting down.
    public func closeKeptDevices() {
        let sessions = kept.withLock { current in
            defer { current.sessions = [:] }
            return Array(current.sessions.values)
        }
        for session in sessions { session.close() }
    }
}
