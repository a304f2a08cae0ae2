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
        var queues: [KeptKey: PlayQueue] = [:]
    }

    private let kept = Mutex(Kept())
    let uinputPath: String
    let udevTimeout: Microseconds
    let gadgetPaths: GadgetPaths
    /// The devices' maker when not the system's (tests).
    private let factory: DeviceFactory?
    /// Where recordings and trigger watches read from.
    let inputs: InputFactory
    /// The plays and presses started through the engine, by job id.
    public let jobs = EngineJobs()

    /// Creates an engine. `uinputPath`, `udevTimeout` and `gadgetPaths`
    /// (where configfs, the USB device controllers and /dev are) are for
    /// tests and unusual systems; `inputs` (what recordings and trigger
    /// watches read) is the system's unless a test gives doubles.
    public init(
        uinputPath: String = "/dev/uinput", udevTimeout: Microseconds = UdevSettle.defaultTimeout,
        gadgetPaths: GadgetPaths = .system, inputs: InputFactory = .system
    ) {
        self.uinputPath = uinputPath
        self.udevTimeout = udevTimeout
        self.gadgetPaths = gadgetPaths
        factory = nil
        self.inputs = inputs
    }

    /// Creates an engine whose virtual devices `devices` makes, and whose
    /// recordings and trigger watches read `inputs` (test doubles):
    /// everything else (kept devices, queues, jobs, the recording and
    /// watch loops) is the engine's own.
    public init(devices: DeviceFactory, inputs: InputFactory = .system) {
        uinputPath = "/dev/uinput"
        udevTimeout = UdevSettle.defaultTimeout
        gadgetPaths = .system
        factory = devices
        self.inputs = inputs
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

    /// Starts a play. On a kept device (`keepDevice`), the play is queued
    /// on the device's ``PlayQueue`` behind any other; otherwise its frames
    /// start being built first (a ``GesturePlayback/FrameStream``, whose
    /// look-ahead fills while the device is made, so that nothing but the
    /// lead-in stands between udev announcing the device and the first
    /// frame), then a new device is made and the play starts on it through
    /// a queue of its own. Either way the gesture is checked once, and its
    /// frames are built once, a bounded way ahead of the play: memory does
    /// not grow with the gesture's length (issue 39).
    ///
    /// This (with ``startPress(_:job:handle:)`` and ``startFingertips(_:clock:events:)``)
    /// is the one way any front end starts work: the play is in ``jobs``
    /// from now until it ends, as `options` say whose it is, how long its
    /// queue may be and what the front end is told as it goes.
    ///
    /// Blocks the calling thread while the device is created and udev
    /// answers (up to the udev timeout): never call it on Swift's
    /// cooperative pool (``startPlayWithoutBlocking(_:job:handle:)``).
    /// - Throws: ``GesturePlayback/PlaybackError`` (a gesture that cannot
    ///   play there), ``OperatingSystem/SystemError`` (no uinput, no access),
    ///   ``GestureEditing/Placement/Failure`` (a bad placement),
    ///   ``PlayQueueError`` (a kept device's queue refused it).
    public func startPlay(
        _ request: PlayRequest, job options: JobOptions = JobOptions(), handle: PlaybackHandle = PlaybackHandle()
    ) throws -> PlayJob {
        let request = try request.resolvingPlacement().request
        if let priority = request.realtimePriority { try Player.checkRealtime(priority: priority) }
        let profile = try profile(for: request)
        return try jobs.listed(.play, device: profile.kind, output: request.output, options: options, handle: handle) { id in
            try startListedPlay(request, profile: profile, id: id, options: options, handle: handle)
        }
    }

    /// ``startPlay(_:job:handle:)`` once the play is in ``jobs`` as `id`.
    private func startListedPlay(
        _ request: PlayRequest, profile: VirtualDeviceProfile, id: Int, options: JobOptions, handle: PlaybackHandle
    ) throws -> PlayJob {
        if request.keepDevice {
            let session = try readyDevice(profile, output: request.output, linger: request.linger)
            let memoryLocked = request.realtimePriority.map { _ in MemoryLock.lockCurrentPages() }
            let tally = FrameTally()
            let job = PlayJob(id: id, handle: handle, session: session, frames: tally, closesSession: false, memoryLocked: memoryLocked)
            try enqueue(
                QueuedPlay(
                    .gesture(request.gesture, options: request.options, leadIn: request.leadIn), handle: handle,
                    realtimePriority: request.realtimePriority, startGate: request.startGate, tally: tally,
                    started: jobs.starting(id, options: options)),
                on: queue(for: profile, output: request.output), id: id, options: options)
            return job
        }
        let checked = try FrameBuilder(target: profile, options: request.options).check(request.gesture)
        // A new device's readers know nothing yet: the frames can be built
        // from that before the device exists.
        let fresh = DeviceState(description: profile.description)
        let work: QueuedWork
        let tally: FrameTally
        if checked.fits() {
            // Short: built now, whole, as plays always were.
            let frames = try checked.frames(from: fresh).map { InputFrame(time: $0.time + request.leadIn, events: $0.events) }
            (work, tally) = (.frames(frames), FrameTally(count: frames.count))
        } else {
            let stream = try FrameStream(checked, from: fresh, delay: request.leadIn)
            (work, tally) = (.stream(stream), stream.tally)
        }
        let session = try makeSession(request.output, profile: profile, linger: request.linger)
        // Every output's new device starts as `fresh` (the session's state is
        // made from the profile's description): nothing to build again.
        return try startOneShot(
            QueuedPlay(
                work, handle: handle, realtimePriority: request.realtimePriority, startGate: request.startGate,
                tally: tally, started: jobs.starting(id, options: options)),
            on: session, id: id)
    }

    /// Queues job `id` on `queue` (a kept device's), limited and announced
    /// as its options say; a gesture the device cannot play is refused as
    /// the ``GesturePlayback/PlaybackError`` itself.
    func enqueue(_ play: QueuedPlay, on queue: PlayQueue, id: Int, options: JobOptions) throws {
        jobs.setQueue(id, queue)
        do {
            try queue.enqueue(play, limit: options.queueLimit) { options.queued?(id) }
        } catch {
            if case .cannotPlay(let refusal) = error { throw refusal }
            throw error
        }
    }

    /// ``startPlay(_:job:handle:)`` for a front end on Swift's cooperative pool,
    /// which must never block: the device is made, and udev waited for, on
    /// a dedicated thread.
    public func startPlayWithoutBlocking(
        _ request: PlayRequest, job options: JobOptions = JobOptions(), handle: PlaybackHandle = PlaybackHandle()
    ) async throws -> PlayJob {
        let result = await Background.value(Self.prepareThread) { Result { try self.startPlay(request, job: options, handle: handle) } }
        return try result.get()
    }

    /// The thread that makes a device for a front end on the cooperative
    /// pool: named `gesturectl-prep`.
    public static let prepareThread = ThreadOptions(name: "gesturectl-prep")

    /// Starts `play` on `session`, a one-shot device that is closed (it
    /// lingers, then is destroyed) once the play ends; closed at once when
    /// the play cannot start.
    /// `closesSession: false` (a test's session) leaves it open either way.
    func startOneShot(
        _ play: QueuedPlay, on session: PlaybackSession, id: Int = 0, closesSession: Bool = true
    ) throws -> PlayJob {
        // A real-time play also keeps its memory in place where permitted
        // (issue 9): what is in memory now (the code, the first frames
        // built) stays, and what the play touches later is locked as it is
        // faulted in (MCL_ONFAULT) — but for a mapped gesture file's pages,
        // which are unlocked before they are given back (GestureLibrary's
        // GestureFile.decode, issue 39), or locking would pin every page of
        // the file that the frames are built from.
        let memoryLocked = play.realtimePriority.map { _ in MemoryLock.lockCurrentPages() }
        let queue = PlayQueue(profile: session.profile, output: .uinput, device: .oneShot(session), threadName: Player.threadOptions.name)
        do {
            try queue.enqueueUnwrapped(play)
        } catch {
            if closesSession { session.close() }
            throw error
        }
        if case .failed(let error, 0)? = play.handle.result?.outcome {
            // It ended before it started (its thread could not be made).
            if closesSession { session.close() }
            throw error
        }
        return PlayJob(
            id: id, handle: play.handle, session: session, frames: play.tally, closesSession: closesSession,
            memoryLocked: memoryLocked)
    }

    /// The queue of the kept device of `profile` through `output`, made on
    /// first use (the device itself is made when a job needs it, or by
    /// ``readyDevice(_:output:linger:)``). Every play and press on a kept
    /// device goes through it, whoever asks: the daemon's clients, its
    /// bindings, a menu. Only the engine queues work
    /// (``startPlay(_:job:handle:)``, ``startPress(_:job:handle:)``).
    func queue(for profile: VirtualDeviceProfile, output: PlayOutput = .uinput) -> PlayQueue {
        let key = KeptKey(profile: profile, output: output)
        return kept.withLock { current in
            if let queue = current.queues[key], !queue.isRetired { return queue }
            let queue = PlayQueue(
                profile: profile, output: output, device: .kept(self), threadName: Self.queueThread(profile.kind, output).name)
            current.queues[key] = queue
            return queue
        }
    }

    /// The thread of a kept device's queue, which plays its jobs one after
    /// another: `gesturectl-q-ts` through uinput, `gesturectl-h-ts` through
    /// uhid, `gesturectl-g-ts` through a gadget (`ts`, `tp`, `ms`, `tb`, `kb`
    /// by kind: the kernel keeps 15 bytes of a name).
    public static func queueThread(_ kind: DeviceKind, _ output: PlayOutput) -> ThreadOptions {
        let short: String
        switch kind {
        case .touchscreen: short = "ts"
        case .touchpad: short = "tp"
        case .mouse: short = "ms"
        case .tablet: short = "tb"
        case .keyboard: short = "kb"
        default: short = "ot"
        }
        let letter: String
        switch output {
        case .uinput: letter = "q"
        case .uhid: letter = "h"
        case .gadget: letter = "g"
        }
        return ThreadOptions(name: "gesturectl-\(letter)-" + short)
    }

    /// The profile a play of `request` uses: the target's, except on a
    /// gadget, whose HID functions were made with their geometry by
    /// `gadget up` (``gadgetProfile(name:kind:)``).
    public func profile(for request: PlayRequest) throws -> VirtualDeviceProfile {
        if case .gadget = request.output {
            let kind: DeviceKind = switch request.target {
            case .kind(let kind): kind
            case .clone(_, let kind): kind ?? .touchscreen
            case .profile(let profile): profile.kind
            }
            return try readyProfile(kind: kind, output: request.output)
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
        if let factory { return try factory.make(profile, output, linger) }
        switch output {
        case .uinput:
            return try PlaybackSession(profile: profile, linger: linger, udevTimeout: udevTimeout, uinputPath: uinputPath)
        case .uhid:
            return try uhidSession(profile: profile, linger: linger)
        case .gadget(let name):
            return try gadgetSession(name: name, profile: profile, linger: linger)
        }
    }

    /// Starts `frames` (already including any lead-in) on a session the
    /// caller made (a test double), through a queue of its own.
    public func startPlay(
        _ frames: [InputFrame], on session: PlaybackSession, handle: PlaybackHandle = PlaybackHandle(),
        closesSession: Bool
    ) throws -> PlayJob {
        try startOneShot(
            QueuedPlay(.frames(frames), handle: handle, tally: FrameTally(count: frames.count)), on: session,
            closesSession: closesSession)
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

    /// Keeps the device of `profile` through `output` ready for plays (a
    /// daemon's ready device): made now (udev waited for) unless it is
    /// already; `remade` is told each time it vanished under a play and was
    /// made again (with the new device, or `nil` when it could not be).
    /// - Throws: as ``readyDevice(_:output:linger:)``.
    public func keepReady(
        _ profile: VirtualDeviceProfile, output: PlayOutput = .uinput,
        remade: @escaping @Sendable (PlaybackSession?, SystemError) -> Void
    ) throws -> PlaybackSession {
        let session = try readyDevice(profile, output: output)
        queue(for: profile, output: output).observeRemade(remade)
        return session
    }

    /// Stops keeping the device of `profile` through `output` ready: its
    /// waiting jobs end cancelled at once, and the device goes once the
    /// running one has ended.
    public func retireReady(_ profile: VirtualDeviceProfile, output: PlayOutput = .uinput) {
        let key = KeptKey(profile: profile, output: output)
        guard let queue = kept.withLock({ $0.queues.removeValue(forKey: key) }) else {
            forgetDevice(profile, output: output)
            return
        }
        queue.retire { [self] in forgetDevice(profile, output: output) }
    }

    /// Every kept device's queue takes no more jobs, and its waiting ones
    /// end cancelled (shutting down; ``closeKeptDevices()`` after).
    public func retireQueues() {
        for queue in kept.withLock({ Array($0.queues.values) }) { queue.retire() }
    }

    /// The emergency stop: cancels every job (running plays lift every
    /// finger, waiting ones never start), then releases every key down on
    /// each kept keyboard, queued behind the cancelled jobs so that each
    /// finds the keyboard free. Never makes a device: a keyboard not made,
    /// or destroyed, has no key down (issue 37). How many jobs it cancelled.
    @discardableResult
    public func emergencyStop() -> Int {
        let cancelled = jobs.cancelAll()
        let keyboards = kept.withLock { current in
            current.sessions.filter { key, session in key.profile.kind == .keyboard && !session.isClosed }
        }
        for (key, session) in keyboards.sorted(by: { $0.key.output.word < $1.key.output.word }) {
            for code in session.state.pressedKeys.sorted(by: { $0.rawValue < $1.rawValue }) {
                let handle = PlaybackHandle()
                let options = JobOptions()
                do {
                    try jobs.listed(.press, device: .keyboard, output: key.output, options: options, handle: handle) { id in
                        try enqueue(
                            QueuedPlay(
                                .press(KeyPress(key: code, action: .up), leadIn: .zero), handle: handle,
                                started: jobs.starting(id, options: options)),
                            on: queue(for: key.profile, output: key.output), id: id, options: options)
                    }
                } catch {
                    // Retired (shutting down): closing the keyboard releases its keys.
                }
            }
        }
        return cancelled
    }

    /// The kept device of `profile` through `output` if it is made and open;
    /// `nil` otherwise. Never makes one: for a question (`devices`) or a
    /// release of held keys, where making a device would be a side effect
    /// (issue 37: a `devices` query made a device, and the emergency stop
    /// could make a keyboard to release keys on it).
    public func existingReadyDevice(_ profile: VirtualDeviceProfile, output: PlayOutput = .uinput) -> PlaybackSession? {
        let key = KeptKey(profile: profile, output: output)
        guard let session = kept.withLock({ $0.sessions[key] }), !session.isClosed else { return nil }
        return session
    }

    /// The profile of the ready device of `kind` through `output`: the
    /// built-in profile of the kind at its default size (the keyboard's for
    /// `.keyboard`), or, on a gadget, the geometry its HID function was made
    /// with.
    /// - Throws: ``GesturePlayback/PlaybackError`` for a kind that plays
    ///   nothing, ``PlayOutputError`` for a gadget without that function.
    public func readyProfile(kind: DeviceKind, output: PlayOutput = .uinput) throws -> VirtualDeviceProfile {
        if let factory { return try factory.readyProfile(kind, output) }
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
        let (sessions, queues) = kept.withLock { current in
            defer {
                current.sessions = [:]
                current.queues = [:]
            }
            return (Array(current.sessions.values), Array(current.queues.values))
        }
        for queue in queues { queue.retire() }
        for session in sessions { session.close() }
    }
}

/// How an ``Engine`` makes its virtual devices when they are not the
/// system's: sessions over test doubles. The engine keeps, queues and
/// re-makes them as it does real ones.
public struct DeviceFactory: Sendable {
    /// A new device of a profile through an output, lingering this long when closed.
    public var make: @Sendable (VirtualDeviceProfile, PlayOutput, Microseconds) throws -> PlaybackSession
    /// The profile of the ready device of a kind through an output.
    public var readyProfile: @Sendable (DeviceKind, PlayOutput) throws -> VirtualDeviceProfile

    /// Creates a factory from its two operations. `readyProfile` defaults
    /// to the built-in profiles (``Engine/builtinReadyProfile(kind:)``).
    public init(
        make: @escaping @Sendable (VirtualDeviceProfile, PlayOutput, Microseconds) throws -> PlaybackSession,
        readyProfile: @escaping @Sendable (DeviceKind, PlayOutput) throws -> VirtualDeviceProfile = { kind, _ in
            try Engine.builtinReadyProfile(kind: kind)
        }
    ) {
        self.make = make
        self.readyProfile = readyProfile
    }
}
