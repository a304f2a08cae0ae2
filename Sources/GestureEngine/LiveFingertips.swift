import DeviceDiscovery
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem

/// The device live fingertips are shown on (made through the request's ``PlayOutput``).
public enum FingertipsTarget: Hashable, Sendable {
    /// For a touchscreen source, a uinput copy of it (its geometry and
    /// description, so the desktop treats and maps it as it does the
    /// source); for any other source the built-in touchscreen.
    case automatic
    /// The built-in profile of this kind: a touchscreen or a touchpad.
    case kind(DeviceKind)
    /// A uinput copy of a real device's description (a `--device` string),
    /// as `kind` when given (a touchscreen or a touchpad).
    case clone(device: String, as: DeviceKind?)
}

/// Everything live fingertips need.
public struct FingertipsRequest: Sendable {
    /// The source (`--device`); `nil` for the only touch or pointer device.
    public var device: String?
    /// How many fingertips, where, how they move, when they go away.
    public var options: FingertipsOptions
    /// Where they are shown.
    public var target: FingertipsTarget
    /// How long the device is kept after the last frame so readers get it.
    public var linger: Microseconds
    /// How the device is made: uinput (the default), uhid, or the USB
    /// gadget, whose host (a phone, another computer) then gets the fingertips.
    public var output: PlayOutput
    /// Whether a hover pen shows where the fingertips will land while they
    /// are up (``Engine/startFingertips(_:clock:events:)``); only through
    /// uinput, and never for a touchscreen source (the finger itself shows it).
    public var hover: Bool

    /// Creates a request; see each property.
    public init(
        device: String? = nil, options: FingertipsOptions, target: FingertipsTarget = .automatic,
        linger: Microseconds = PlaybackSession.defaultLinger, output: PlayOutput = .uinput, hover: Bool = true
    ) {
        self.device = device
        self.options = options
        self.target = target
        self.linger = linger
        self.output = output
        self.hover = hover
    }
}

/// What a running live session tells as it happens.
public enum FingertipsEvent: Sendable {
    /// The source is open, grabbed and being read, and the device exists:
    /// the line to say (``FingertipsSourceKind/readyLine(count:absolute:)``).
    case ready(String)
    /// The fingertips touched (`true`) or lifted (`false`).
    case touching(Bool)
    /// Something said once (``FingertipsNotice``).
    case notice(FingertipsNotice)
}

/// Why a live session ended.
public enum FingertipsStopReason: Sendable, CustomStringConvertible {
    /// No input for the idle time while the fingertips were up.
    case idle
    /// Cancelled (Ctrl-C, SIGTERM, a front end).
    case cancelled
    /// The source was unplugged or went away.
    case sourceVanished(SystemError)
    /// Reading the source or writing the device failed.
    case failed(any Error)

    /// Whether it ended by an error (the source going away is one).
    public var isFailure: Bool {
        switch self {
        case .idle, .cancelled: false
        case .sourceVanished, .failed: true
        }
    }

    /// A phrase for people.
    public var description: String {
        switch self {
        case .idle: "no input for the idle time"
        case .cancelled: "stopped"
        case .sourceVanished(let error): "the source went away (\(error))"
        case .failed(let error): "\(error)"
        }
    }
}

/// How a live session ended: why, and whether everything was lifted.
public struct FingertipsOutcome: Sendable {
    /// Why it ended.
    public var reason: FingertipsStopReason
    /// Frames written to the device, the last lift included.
    public var framesWritten: Int
    /// Why the frame lifting every fingertip could not be written, if it
    /// could not (the device's destruction lifts them then).
    public var liftAllError: (any Error)?
}

/// A running live session: the source, the device, the handle.
public final class FingertipsJob: Sendable {
    /// The source.
    public let source: DeviceInfo
    /// How it drives the fingertips.
    public let sourceKind: FingertipsSourceKind
    /// The device's profile.
    public let profile: VirtualDeviceProfile
    /// The device's event node, if known.
    public let devnode: String?
    /// Whether udev set the device up in time (warn when not: libinput may ignore it).
    public let isInitialisedByUdev: Bool
    /// The hover pen's event node, when there is a hover pen and its node is known.
    public let hoverDevnode: String?
    /// Cancel (lifts everything, gives the source back, destroys the
    /// device), events, outcome. The outcome comes once all of that is done.
    public let handle: JobHandle<FingertipsOutcome, FingertipsEvent>

    init(
        source: DeviceInfo, sourceKind: FingertipsSourceKind, session: PlaybackSession, hover: PlaybackSession?,
        handle: JobHandle<FingertipsOutcome, FingertipsEvent>
    ) {
        self.source = source
        self.sourceKind = sourceKind
        profile = session.profile
        devnode = session.devnode
        isInitialisedByUdev = session.isInitialisedByUdev
        hoverDevnode = hover?.devnode
        self.handle = handle
    }

    /// Ends the session: every fingertip lifts.
    public func cancel() { handle.cancel() }

    /// The outcome, without blocking a thread.
    public func finished() async -> FingertipsOutcome { await handle.finished() }
}

extension Engine {
    /// How a live session's thread is set up: named `gesturectl-tips`.
    public static let fingertipsThread = ThreadOptions(name: "gesturectl-tips")

    /// Whether `name` is one of gesturectl's own virtual devices (a built-in
    /// profile's or a clone's): never a source of live input.
    public static func isOwnVirtualDevice(name: String) -> Bool {
        name.hasPrefix("gesturectl virtual") || name.hasPrefix("gesturectl clone of")
    }

    /// Starts live fingertips (`gesturectl fingertips`): opens and grabs the
    /// source through the engine's ``InputFactory``, makes the device
    /// through the engine's ``DeviceFactory`` and the request's output
    /// (udev waited for), and on a
    /// dedicated thread writes every change of the source's frames as the
    /// fingertips' frame (``GesturePlayback/LiveTouchFrames`` through the
    /// session's ``GesturePlayback/LivePlay``) until the idle time passes,
    /// the job is cancelled, the source goes away or an error. Then every
    /// fingertip is lifted in one frame, the source is let go (which ends
    /// the grab) and the device lingers and is destroyed, in that order,
    /// before the handle finishes.
    ///
    /// With ``FingertipsRequest/hover`` (through uinput, a source that is
    /// not a touchscreen) a second device is made beside it, a hover pen
    /// (``GesturePlayback/VirtualDeviceProfile/hoverPen(for:)``): in
    /// proximity at the fingertips' centre from the ready line on while they
    /// are up, out of proximity before they touch (its frame written first)
    /// and back after they lift, and out of proximity before it is
    /// destroyed, after the fingertips' device. Its frames are written only
    /// while the fingertips are up, with the fingertips' own batching and
    /// pacing. A pen that cannot be made or written is told as a
    /// ``FingertipsNotice/hoverUnavailable(_:)`` and the fingertips go on
    /// without it.
    ///
    /// Blocks while the device is made: never call it on Swift's
    /// cooperative pool (``startFingertipsWithoutBlocking(_:clock:events:)``).
    /// - Parameters:
    ///   - clock: The clock of the source's event times (the idle time).
    ///   - events: Called on the session's thread with each event, the
    ///     ``FingertipsEvent/ready(_:)`` line first.
    /// - Throws: ``FingertipsError`` (bad options; a source that is grabbed
    ///   elsewhere, is gesturectl's own, or drives nothing; a target that
    ///   is not a touchscreen or touchpad), device selection and opening
    ///   errors, ``GesturePlayback/PlaybackError``, ``OperatingSystem/SystemError``
    ///   (no uinput, no thread), ``PlayOutputError`` (an output that cannot
    ///   make the device). Nothing is left grabbed or made then.
    public func startFingertips(
        _ request: FingertipsRequest, clock: sending any RecordingClock = SystemClock(),
        events: (@Sendable (FingertipsEvent) -> Void)? = nil
    ) throws -> FingertipsJob {
        try request.options.validate()
        let input = try inputs.openLiveSource(request.device)
        if Self.isOwnVirtualDevice(name: input.description.name) || Self.isOwnVirtualDevice(name: input.info.name) {
            throw FingertipsError.ownDevice(name: input.info.name, node: input.info.node)
        }
        let profile = try fingertipsProfile(request, source: input.description)
        let frames = try LiveTouchFrames(target: profile)
        let model = try FingertipsModel(
            options: request.options, source: input.description, target: frames.surface, start: clock.now())
        let session = try makeSession(request.output, profile: profile, linger: request.linger)
        var hover: PlaybackSession?
        var hoverProblem: String?
        if request.hover, request.output == .uinput, model.sourceKind != .touchscreen {
            do {
                hover = try makeSession(.uinput, profile: .hoverPen(for: profile), linger: request.linger)
            } catch {
                hoverProblem = "\(error)"
            }
        }
        let handle = JobHandle<FingertipsOutcome, FingertipsEvent>()
        let job = FingertipsJob(
            source: input.info, sourceKind: model.sourceKind, session: session, hover: hover, handle: handle)
        let run = FingertipsRun(
            source: input.source, model: model, frames: frames, session: session, hover: hover, clock: clock,
            handle: handle, events: events)
        if let hoverProblem { run.hoverProblem = hoverProblem }
        do {
            try DedicatedThread.start(Self.fingertipsThread) { run.run() }
        } catch {
            hover?.close()
            session.close()
            throw error
        }
        return job
    }

    /// ``startFingertips(_:clock:events:)`` for a front end on Swift's
    /// cooperative pool: the device is made on a dedicated thread.
    public func startFingertipsWithoutBlocking(
        _ request: FingertipsRequest, events: (@Sendable (FingertipsEvent) -> Void)? = nil
    ) async throws -> FingertipsJob {
        let result = await Background.value(Self.prepareThread) {
            Result { try self.startFingertips(request, events: events) }
        }
        return try result.get()
    }

    /// The profile of the device that shows the fingertips: see ``FingertipsTarget``.
    /// Its slots are widened to hold every fingertip when a copy has fewer.
    func fingertipsProfile(_ request: FingertipsRequest, source: InputDeviceDescription) throws -> VirtualDeviceProfile {
        var profile: VirtualDeviceProfile
        switch request.target {
        case .automatic:
            let isTouchscreen = DeviceClassifier.kind(of: source) == .touchscreen
            let hasMultitouch = source.absoluteAxes[.multitouchPositionX] != nil
                && source.absoluteAxes[.multitouchPositionY] != nil && source.slotCount > 0
            profile = isTouchscreen && hasMultitouch
                ? try VirtualDeviceProfile.cloning(description: source, as: .touchscreen)
                : VirtualDeviceProfile.touchscreen()
        case .kind(let kind):
            guard kind == .touchscreen || kind == .touchpad else {
                throw FingertipsError("fingertips are shown on a touchscreen or a touchpad, not a \(kind.rawValue)")
            }
            profile = try VirtualDeviceProfile.profile(for: kind)
        case .clone(let device, let kind):
            let opened = try InputDevices.open(device)
            profile = try VirtualDeviceProfile.cloning(description: opened.evdev.description, as: kind)
            guard profile.kind == .touchscreen || profile.kind == .touchpad else {
                throw FingertipsError(
                    "\(opened.info.name) is a \(profile.kind.rawValue); fingertips are shown on a touchscreen or a touchpad (--as)")
            }
        }
        let wanted = Int32(request.options.count - 1)
        if let slots = profile.description.absoluteAxes[.multitouchSlot], slots.maximum < wanted {
            profile.description.absoluteAxes[.multitouchSlot]?.maximum = wanted
        }
        if profile.description.absoluteAxes[.multitouchTrackingID] == nil {
            profile.description.absoluteAxes[.multitouchTrackingID] = VirtualDeviceProfile.trackingIDRange
        }
        return profile
    }
}

extension FingertipsError {
    /// The source is one of gesturectl's own virtual devices.
    static func ownDevice(name: String, node: String) -> FingertipsError {
        FingertipsError(
            "\(DisplayText.escaped(name)) (\(node)) is one of gesturectl's own virtual devices; choose a real touchscreen, touchpad, tablet or mouse with --device"
        )
    }

    /// The grab of the source failed: another program holds it (EBUSY), or another reason.
    public static func grabFailed(_ error: SystemError, name: String, node: String) -> any Error {
        guard error.errorNumber == ErrorNumber.busy else { return error }
        return FingertipsError(
            "\(DisplayText.escaped(name)) (\(node)) is grabbed by another program (EVIOCGRAB: \(error.errorMessage)); fingertips need it alone: stop that program (another gesturectl, evtest --grab, a remapper) and try again"
        )
    }
}

/// One live session's work on its thread. Everything in it is handed to
/// that thread when it starts and used by it alone.
private final class FingertipsRun: @unchecked Sendable {
    /// The most outcomes read in one wake-up before looking at cancellation.
    static let maximumOutcomesPerWakeup = 256

    private var source: (any EventSource)?
    private var model: FingertipsModel
    private var frames: LiveTouchFrames
    private let session: PlaybackSession
    private let hoverSession: PlaybackSession?
    /// The hover pen while it works.
    private var hover: HoverPen?
    /// Why the hover pen could not be made, told with the ready line.
    var hoverProblem: String?
    private let clock: any RecordingClock
    private let handle: JobHandle<FingertipsOutcome, FingertipsEvent>
    private let events: (@Sendable (FingertipsEvent) -> Void)?
    /// The least time between two moves written to a touchpad: a touchpad
    /// reports every 7–12 ms, and libinput takes a step written sooner
    /// (source frames that came bunched) for a touch jump and discards the
    /// touch. Moves in between are merged; touches and lifts are written
    /// once the moves before them are. `nil` for a touchscreen: every
    /// change at once.
    private var pacing: Microseconds? { steps == nil ? nil : Self.touchpadPacing }
    /// On a touchpad (`nil` on a touchscreen): each step cut short where
    /// libinput would take it for a jump (a backlog caught up), the rest
    /// written in the next paced writes.
    private var steps: TouchpadStepGuard?
    /// When the last frame's write began and ended (on a touchpad).
    private var lastWrite: (began: Microseconds, ended: Microseconds)?
    /// The changes read and not yet written, in order: a run of moves is
    /// one entry (the last), each touch and lift one of its own. Only a
    /// touchpad's paced moves make it longer than one entry for long.
    private var pending: [FingertipsChange] = []
    /// Whether the fingertips touch as last written.
    private var wasDown = false

    /// A touchpad's least interval between moves.
    static let touchpadPacing = Microseconds(8_000)
    /// The most changes waiting: beyond it (a source that taps faster than
    /// a touchpad's catch-up goes), moves are written whole and unpaced, so
    /// that the queue cannot grow without end.
    static let pendingLimit = 64

    init(
        source: any EventSource, model: FingertipsModel, frames: LiveTouchFrames, session: PlaybackSession,
        hover: PlaybackSession?, clock: any RecordingClock, handle: JobHandle<FingertipsOutcome, FingertipsEvent>,
        events: (@Sendable (FingertipsEvent) -> Void)?
    ) {
        self.source = source
        self.model = model
        self.frames = frames
        self.session = session
        hoverSession = hover
        self.clock = clock
        self.handle = handle
        self.events = events
        steps = frames.target.kind == .touchpad ? TouchpadStepGuard(surface: frames.surface) : nil
    }

    private func tell(_ event: FingertipsEvent) {
        events?(event)
        handle.report(event)
    }

    func run() {
        let reason: FingertipsStopReason
        var outcome = FingertipsOutcome(reason: .cancelled, framesWritten: 0, liftAllError: nil)
        do {
            // The session's play shares the job's cancellation: closing the
            // device from elsewhere (an engine shutting down) ends this too.
            let live = try session.startLive(handle: PlaybackHandle(cancellation: handle.cancellation))
            if let hoverSession {
                do {
                    hover = HoverPen(try hoverSession.startLive(handle: PlaybackHandle(cancellation: handle.cancellation)))
                } catch {
                    hoverProblem = "\(error)"
                }
            }
            warmUp(live)
            reason = loop(live)
            // The pen leaves first: never left in proximity.
            hover?.live.finish(.cancelled(framesWritten: hover?.live.framesWritten ?? 0))
            hover = nil
            let result = live.finish(
                reason.isFailure
                    ? .failed(FingertipsError(reason.description), framesWritten: live.framesWritten)
                    : .cancelled(framesWritten: live.framesWritten))
            outcome = FingertipsOutcome(reason: reason, framesWritten: live.framesWritten, liftAllError: result.liftAllError)
        } catch {
            outcome.reason = .failed(error)
        }
        // Closing the source ends the grab; then the devices linger and go.
        source = nil
        hover = nil
        session.close()
        hoverSession?.close()
        handle.finish(outcome)
    }

    /// Runs the path of a frame once on copies (the model, the frames, the
    /// device's state), before the ready line: the one-time costs of a first
    /// frame (the runtime setting up the types and code it uses, pages
    /// touched for the first time) are paid before anyone touches, not by
    /// the first touch. Under emulation they held the first frame back
    /// 40–160 ms, while the kernel's small buffer of a 1 kHz mouse overflowed
    /// and its motion was lost. Nothing is written.
    private func warmUp(_ live: LivePlay) {
        var model = model
        var frames = frames
        var state = live.state
        let events: [(EventType, EventCode, Int32)] = [
            (.key, .buttonLeft, 1), (.key, .buttonTouch, 1), (.relative, .relativeX, 1), (.absolute, .multitouchSlot, 0),
            (.absolute, .multitouchTrackingID, 1), (.absolute, .multitouchPositionX, 1), (.absolute, .multitouchPositionY, 1),
            (.absolute, .absoluteX, 1), (.absolute, .absoluteY, 1),
        ]
        for (type, code, value) in events { _ = model.feed(InputEvent(time: model.lastActivity, type: type, code: code, value: value)) }
        let change = model.feed(.synchronizationReport(time: model.lastActivity)) ?? model.current
        _ = model.takeNotices()
        var down = change
        down.isDown = true
        if let frame = try? frames.frame(down.contacts, state: &state) { state.apply(frame) }
        _ = try? frames.frame([:], state: &state)
    }

    private func loop(_ live: LivePlay) -> FingertipsStopReason {
        guard let source else { return .cancelled }
        let cancelled: FileDescriptor
        do {
            cancelled = try handle.cancellation.fileDescriptor
        } catch {
            return .failed(error)
        }
        var waiting = Poll.Group([(source.fileDescriptor, .readable), (cancelled, .readable)])
        showHover(at: model.current.centre)
        if let hoverProblem { tell(.notice(.hoverUnavailable(hoverProblem))) }
        model.restartIdle(at: clock.now())
        tell(.ready(model.sourceKind.readyLine(count: model.options.count, absolute: model.options.absolute)))
        while true {
            if handle.isCancelled { return stop(.cancelled, from: source, into: live) }
            var timeout: Int32?
            // The clock is read only when an idle time runs (not while the
            // fingertips are down): under emulation a clock read can cost a
            // system call, and a 1 kHz source wakes this loop every frame.
            if let deadline = model.idleDeadline {
                let now = clock.now()
                if now >= deadline {
                    // Idle only if what the source already delivered
                    // leaves it idle: a touch read now goes on.
                    let (read, reason) = drain(source, into: live)
                    if let reason { return reason }
                    if read == 0 { return .idle }
                    continue
                }
                timeout = Poll.milliseconds(roundingUp: (deadline - now).rawValue)
            }
            if let reason = flush(into: live) { return reason }
            if let due = pacingDue() {
                let wait = Poll.milliseconds(roundingUp: due.rawValue)
                timeout = min(timeout ?? wait, wait)
            }
            let buffered = source.hasBufferedEvents
            do {
                try waiting.wait(timeoutMilliseconds: buffered ? 0 : timeout)
            } catch {
                return .failed(error)
            }
            let sourceEvents = waiting.events(at: 0)
            if sourceEvents.contains(.invalid) {
                return .failed(
                    SystemError(call: "poll", errorNumber: ErrorNumber.badDescriptor, detail: "the source's descriptor is not open"))
            }
            if !sourceEvents.isEmpty || buffered {
                let hangUp = !sourceEvents.isDisjoint(with: [.hangUp, .error])
                if let reason = readAvailable(from: source, into: live, hangUp: hangUp) { return reason }
            }
            if !waiting.events(at: 1).isEmpty || handle.isCancelled { return stop(.cancelled, from: source, into: live) }
        }
    }

    /// The most outcomes a stop drains: far more than the kernel buffers
    /// for one reader, so a drain ends because the source would block, yet
    /// a flooding source cannot hold a stop back for ever.
    static let maximumDrainOutcomes = 64 * maximumOutcomesPerWakeup

    /// A stop that was asked for: what the source had already delivered is
    /// read and written first (issue 40), then the caller lifts everything.
    private func stop(_ reason: FingertipsStopReason, from source: any EventSource, into live: LivePlay) -> FingertipsStopReason {
        drain(source, into: live).reason ?? reason
    }

    /// Reads everything the source has delivered until it would block (at
    /// most ``maximumDrainOutcomes``) and writes what it changes: the
    /// outcomes read, and the reason to stop that reading or writing met.
    private func drain(_ source: any EventSource, into live: LivePlay) -> (read: Int, reason: FingertipsStopReason?) {
        var read = 0
        let reason = readBatch(from: source, hangUp: false, untilWouldBlock: Self.maximumDrainOutcomes, read: &read)
        return (read, reason ?? flush(into: live))
    }

    /// Reads what is waiting and writes the changes; a stop reason when
    /// the session must end.
    ///
    /// What one read of the kernel brought (a batch: frames that queued up
    /// while this thread was not running) is written as it ends: a run of
    /// moves as one frame where the source left the fingertips, every touch
    /// and lift in between kept (a tap in a batch is still a tap). A reader
    /// that is behind so catches up with one write instead of one a source
    /// frame, and the fingertips show where the source is now rather than
    /// where it was; no motion is lost (positions are where the source's
    /// frames put them). On a touchpad that one write is cut into steps
    /// libinput accepts (``TouchpadStepGuard``), 8 ms apart. Reading stops
    /// when the batch is used up, so a wake-up costs one read, not a second
    /// one that finds nothing.
    private func readAvailable(from source: any EventSource, into live: LivePlay, hangUp: Bool) -> FingertipsStopReason? {
        let reason = readBatch(from: source, hangUp: hangUp)
        let flushed = flush(into: live)
        return reason ?? flushed
    }

    /// How long until the pacing lets the move waiting first be written;
    /// `nil` when it may be now, or no move waits first.
    private func pacingDue() -> Microseconds? {
        guard let pacing, let lastWrite, let first = pending.first, first.isDown, wasDown else { return nil }
        let left = lastWrite.ended + pacing - clock.now()
        return left > .zero ? left : nil
    }

    /// Adds a change read to ``pending``: merged into the run of moves it
    /// continues, else an entry of its own.
    private func enqueue(_ change: FingertipsChange) {
        if let last = pending.last {
            let before = pending.count > 1 ? pending[pending.count - 2].isDown : wasDown
            // The last entry is a move (no touch or lift) and this continues it.
            if last.isDown == before && change.isDown == last.isDown {
                pending[pending.count - 1] = change
                return
            }
        }
        pending.append(change)
    }

    /// ``readAvailable(from:into:hangUp:)``'s reading: the changes read are left in ``pending``.
    /// With `untilWouldBlock`, it reads up to that many outcomes until the
    /// source would block, not only to a frame's end (a stop's drain), and
    /// counts them in `read`.
    private func readBatch(from source: any EventSource, hangUp: Bool) -> FingertipsStopReason? {
        var read = 0
        return readBatch(from: source, hangUp: hangUp, untilWouldBlock: nil, read: &read)
    }

    private func readBatch(
        from source: any EventSource, hangUp: Bool, untilWouldBlock limit: Int?, read: inout Int
    ) -> FingertipsStopReason? {
        for index in 0..<(limit ?? Self.maximumOutcomesPerWakeup) {
            read = index
            let next: ReadOutcome
            do {
                next = try source.nextEvent()
            } catch {
                return error.kind == .deviceVanished ? .sourceVanished(error) : .failed(error)
            }
            let event: InputEvent
            switch next {
            case .event(let value), .resyncEvent(let value): event = value
            case .resyncNeeded, .resyncDone: continue
            case .wouldBlock:
                // A hang-up with nothing to read: the device is gone, even
                // if the read did not say ENODEV.
                if hangUp && index == 0 {
                    return .sourceVanished(
                        SystemError(
                            call: "poll", errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished,
                            detail: "the device hung up"))
                }
                return nil
            }
            if let change = model.feed(event) {
                for notice in model.takeNotices() { tell(.notice(notice)) }
                // A touch or a lift ends the run of moves before it; a touch
                // is written where it touched, before the moves after it
                // in the batch (they would put it at their end).
                enqueue(change)
            }
            // The batch is used up at a frame's end: back to poll, which
            // says at once when more is waiting.
            if limit == nil, event.type == .synchronization, !source.hasBufferedEvents { return nil }
        }
        read = limit ?? Self.maximumOutcomesPerWakeup
        return nil
    }

    /// Puts the hover pen in proximity at `point` (target units), or moves it there.
    private func showHover(at point: (x: Int, y: Int)) {
        guard var pen = hover else { return }
        do {
            try pen.show(at: point)
            hover = pen
        } catch {
            dropHover(error)
        }
    }

    /// Takes the hover pen out of proximity.
    private func hideHover() {
        guard var pen = hover else { return }
        do {
            try pen.hide()
            hover = pen
        } catch {
            dropHover(error)
        }
    }

    /// A hover pen that failed to write is given up (the device's
    /// destruction ends its proximity); the fingertips go on.
    private func dropHover(_ error: any Error) {
        hover?.live.finish(.failed(error, framesWritten: hover?.live.framesWritten ?? 0))
        hover = nil
        tell(.notice(.hoverUnavailable("\(error)")))
    }

    /// Writes the pending changes the pacing lets through now, and says
    /// when the fingertips touched or lifted; a stop reason when a write
    /// failed. A touchpad's move may be written only in part (the rest
    /// stays first in line).
    private func flush(into live: LivePlay) -> FingertipsStopReason? {
        while let change = pending.first {
            let isMove = change.isDown && wasDown
            // Over the limit, moves go whole and at once until it is met again.
            let paced = isMove && pending.count <= Self.pendingLimit
            if paced && pacingDue() != nil { return nil }
            var contacts = change.contacts
            var reached = true
            if paced, let steps, let lastWrite {
                (contacts, reached) = steps.step(toward: contacts, sinceLastWrite: clock.now() - lastWrite.ended)
            }
            // The pen leaves before the fingertips touch.
            if change.isDown { hideHover() }
            do {
                try write(contacts, into: live)
            } catch {
                return .failed(error)
            }
            if !reached { return nil }
            pending.removeFirst()
            if !change.isDown { showHover(at: change.centre) }
            if change.isDown != wasDown {
                wasDown = change.isDown
                tell(.touching(change.isDown))
            }
        }
        return nil
    }

    /// Writes the frame that leaves `contacts` down, if it changes anything;
    /// on a touchpad, notes when and what for the pacing and the steps.
    private func write(_ contacts: [Int: (x: Int, y: Int)], into live: LivePlay) throws {
        var state = live.state
        guard let frame = try frames.frame(contacts, state: &state) else { return }
        guard var guarded = steps else {
            try live.write(frame)
            return
        }
        let began = clock.now()
        try live.write(frame)
        let ended = clock.now()
        guarded.wrote(contacts, longestInterval: lastWrite.map { ended - $0.began })
        steps = guarded
        lastWrite = (began, ended)
    }
}

/// The hover pen's writing: in proximity at a point, or out of it. Frames
/// carry only what changed (the kernel drops repeated values anyway).
///
/// libinput takes a tablet that never sent a proximity out of its own for
/// one that never will, and forces one after 50 ms without events (its
/// proximity-out quirk): the desktop's cursor would vanish whenever the
/// pointer rests. A real proximity out turns that off for the device, so
/// the pen goes out and back in at once twice: when it first comes into
/// proximity (a desktop opens the device as it appears) and at the first
/// motion after that (for a reader that opened it later).
private struct HoverPen {
    let live: LivePlay
    private var near = false
    private var last: (x: Int, y: Int)?
    /// Out-and-in cycles still to write (see the type's description).
    private var cyclesLeft = 2

    init(_ live: LivePlay) { self.live = live }

    /// Into proximity at `point`, or there when already in.
    mutating func show(at point: (x: Int, y: Int)) throws {
        // The second cycle: at the first motion after the first showing.
        if near, cyclesLeft > 0 {
            cyclesLeft -= 1
            try hide()
        }
        var events: [InputEvent] = []
        if last?.x != point.x || !near { events.append(InputEvent(type: .absolute, code: .absoluteX, value: Int32(point.x))) }
        if last?.y != point.y || !near { events.append(InputEvent(type: .absolute, code: .absoluteY, value: Int32(point.y))) }
        if !near { events.append(InputEvent(type: .key, code: .buttonToolPen, value: 1)) }
        guard !events.isEmpty else { return }
        try live.write(InputFrame(time: .zero, events: events + [.synchronizationReport()]))
        let first = last == nil
        near = true
        last = point
        // The first cycle: as it first comes into proximity.
        if first, cyclesLeft > 0 {
            cyclesLeft -= 1
            try hide()
            try show(at: point)
        }
    }

    /// Out of proximity, when in.
    mutating func hide() throws {
        guard near else { return }
        try live.write(InputFrame(time: .zero, events: [InputEvent(type: .key, code: .buttonToolPen, value: 0), .synchronizationReport()]))
        near = false
    }
}
