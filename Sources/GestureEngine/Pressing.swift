import GestureModel
import HIDOutput
import GesturePlayback
import InputSystem
import OperatingSystem

/// Everything a press of a button needs: which key, how, and the moments
/// around it (as ``PlayRequest``'s).
public struct PressRequest: Sendable {
    /// The key, the action and the hold.
    public var press: KeyPress
    /// Time between the keyboard being ready and the first frame, so
    /// readers can open it (default ``PlayRequest/defaultLeadIn``).
    public var leadIn: Microseconds
    /// Time the keyboard is kept after the last frame so readers get it
    /// (default ``GesturePlayback/PlaybackSession/defaultLinger``).
    public var linger: Microseconds
    /// Keep the keyboard for later presses instead of destroying it after
    /// this one. A `down` press is possible only on a kept keyboard: a
    /// keyboard that is destroyed releases every key.
    public var keepDevice: Bool
    /// How the keyboard is made (default uinput): through uhid or a USB
    /// gadget, the keys are the HID buttons (``HIDOutput/HIDButtonsLayout``).
    public var output: PlayOutput
    /// When given, the press waits on its ready keyboard until this
    /// descriptor is readable before its lead-in (`press --start-on-fd`,
    /// as ``PlayRequest/startGate``).
    public var startGate: FileDescriptor?

    /// Creates a request; see each property for the defaults.
    public init(
        press: KeyPress, leadIn: Microseconds = PlayRequest.defaultLeadIn,
        linger: Microseconds = PlaybackSession.defaultLinger, keepDevice: Bool = false, output: PlayOutput = .uinput,
        startGate: FileDescriptor? = nil
    ) {
        self.output = output
        self.startGate = startGate
        self.press = press
        self.leadIn = leadIn
        self.linger = linger
        self.keepDevice = keepDevice
    }
}

extension Engine {
    /// Starts a press on the virtual keyboard (``GesturePlayback/VirtualKeyboard``):
    /// the kept one when `keepDevice` (made when missing), else a new one
    /// that lingers and is destroyed once the press ends. A press is a play
    /// of its frames (``GesturePlayback/KeyPress/frames(from:start:)``) on
    /// the keyboard's session, on the play's dedicated thread.
    ///
    /// Blocks the calling thread while the keyboard is created and udev
    /// answers (up to the udev timeout).
    /// - Throws: ``OperatingSystem/SystemError`` (no uinput, no access),
    ///   ``PlayQueueError`` (the kept keyboard's queue takes no more).
    public func startPress(
        _ request: PressRequest, job options: JobOptions = JobOptions(), handle: PlaybackHandle = PlaybackHandle()
    ) throws -> PlayJob {
        if request.output != .uinput, HIDButtonsLayout.usage(for: request.press.key) == nil {
            // The HID buttons would drop it without a word.
            throw PlayOutputError.unsupportedKey(output: request.output.word, key: request.press.key)
        }
        let profile = try readyProfile(kind: .keyboard, output: request.output)
        return try jobs.listed(.press, device: .keyboard, output: request.output, options: options, handle: handle) { id in
            try startListedPress(request, profile: profile, id: id, options: options, handle: handle)
        }
    }

    /// ``startPress(_:job:handle:)`` once the press is in ``jobs`` as `id`.
    private func startListedPress(
        _ request: PressRequest, profile: VirtualDeviceProfile, id: Int, options: JobOptions, handle: PlaybackHandle
    ) throws -> PlayJob {
        let work = QueuedWork.press(request.press, leadIn: request.leadIn)
        guard request.keepDevice else {
            let session = try makeSession(request.output, profile: profile, linger: request.linger)
            return try startOneShot(
                QueuedPlay(work, handle: handle, startGate: request.startGate, started: jobs.starting(id, options: options)),
                on: session, id: id)
        }
        // Queued on the kept keyboard behind its other presses and plays.
        let session = try readyDevice(profile, output: request.output, linger: request.linger)
        let tally = FrameTally()
        let job = PlayJob(id: id, handle: handle, session: session, frames: tally, closesSession: false)
        try enqueue(
            QueuedPlay(
                work, handle: handle, startGate: request.startGate, tally: tally, started: jobs.starting(id, options: options)),
            on: queue(for: profile, output: request.output), id: id, options: options)
        return job
    }

    /// ``startPress(_:job:handle:)`` for a front end on Swift's cooperative
    /// pool: the keyboard is made, and udev waited for, on a dedicated thread.
    public func startPressWithoutBlocking(
        _ request: PressRequest, job options: JobOptions = JobOptions(), handle: PlaybackHandle = PlaybackHandle()
    ) async throws -> PlayJob {
        let result = await Background.value(Self.prepareThread) { Result { try self.startPress(request, job: options, handle: handle) } }
        return try result.get()
    }

    /// Starts a press on a keyboard session the caller holds (the daemon's
    /// ready keyboard, or a test double), from what the session's readers
    /// know: a `down` leaves its key down (the play does not release it at
    /// its end), anything cancelled releases every key.
    public func startPress(
        _ press: KeyPress, on session: PlaybackSession, leadIn: Microseconds = .zero,
        handle: PlaybackHandle = PlaybackHandle(), closesSession: Bool, startGate: FileDescriptor? = nil
    ) throws -> PlayJob {
        let frames = press.frames(from: session.state, start: leadIn)
        do {
            // A session that is closed once this press ends releases
            // everything anyway; a kept one keeps what `down` pressed.
            _ = try session.start(frames, handle: handle, releasesAtEnd: closesSession, startGate: startGate)
        } catch {
            if closesSession { session.close() }
            throw error
        }
        return PlayJob(handle: handle, session: session, frames: FrameTally(count: frames.count), closesSession: closesSession)
    }
}
