import GestureModel
import InputSystem
import OperatingSystem

/// What a ``RecordingSession`` ended with.
public struct RecordingSessionResult: Sendable {
    /// Why it stopped.
    public var stopReason: RecordingStopReason
    /// The recorder as it was at the stop, e.g. to show a final status.
    public var recorder: StrokeRecorder
    /// The finished gesture, or ``RecordingError/noContact`` when nothing
    /// was recorded.
    public var gesture: Result<RecordedGesture, RecordingError>
}

/// The capture loop: waits on the device, feeds the recorder, and stops on
/// cancellation, Enter, an idle timeout, the maximum duration, a size
/// limit, a vanished device or a read error — always keeping the strokes
/// recorded so far.
///
/// ``run()`` blocks the calling thread until the recording stops; run it
/// on a thread of its own, never on Swift's cooperative pool (which has as
/// many threads as cores): ``start(_:handle:)`` does that. Each
/// wait is one `poll` on the device, the cancellation pipe and the Enter
/// descriptor, with a timeout up to the next status report or deadline;
/// a wait allocates nothing. After a wake-up that read events it pauses
/// ``batchInterval`` (a cancel or Enter ends the pause) so that fast
/// devices' frames are read a few at a time.
/// After each wake-up at most ``maximumOutcomesPerWakeup`` outcomes are
/// read, so a flooding device cannot starve the timeouts. The status and
/// warning handlers run on the session's thread.
///
/// Time comes from the injected ``RecordingClock``, which must be the
/// events' clock (CLOCK_MONOTONIC): timeouts compare it with the kernel
/// times of the first and latest contacts.
public final class RecordingSession {
    /// Called about every ``RecordingSessionOptions/statusInterval`` with the
    /// status for a live line (first right at the start).
    public var statusHandler: ((RecordingStatus) -> Void)?
    /// Called with each ``RecorderNotice`` (dropped events, a limit reached).
    public var warningHandler: ((RecorderNotice) -> Void)?
    /// Called with each stroke as its contact lifts (see
    /// ``StrokeRecorder/takeFinishedStrokes()``); strokes still down when
    /// the session stops are only in the result.
    public var strokeHandler: ((Stroke) -> Void)?
    /// Called once, on the session's thread, when it has polled the source
    /// and read what waited there: from then on the reader runs, and a
    /// front end may tell a person to touch (issue 24: a "draw now" said
    /// before this lost what was drawn at once). Not called when the
    /// session stops before that.
    public var listeningHandler: (() -> Void)?

    /// The most outcomes read after one wake-up before timeouts are checked again.
    public static let maximumOutcomesPerWakeup = 256

    /// After a wake-up that read every event waiting, the session waits this long (on
    /// the cancellation and Enter only) before it waits on the device
    /// again, so that a fast device's frames are read several at a time:
    /// a ten-finger touchscreen at 1 kHz woke it for every frame, and under
    /// emulation the wake-up (poll, two reads, the clock, the scheduler)
    /// cost more than the frame's 22 events (issue 9). 4 ms is 4 frames at
    /// 1 kHz, far below what the kernel buffers for a reader (~23 frames of
    /// ten fingers), and delays a live status or stroke by no more.
    public static let batchInterval = Microseconds(4_000)

    private let source: any EventSource
    private var recorder: StrokeRecorder
    private let details: RecordingDetails
    private let options: RecordingSessionOptions
    private let clock: any RecordingClock
    private let cancellation: CancellationSignal

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - source: The device (an ``InputSystem/EvdevDevice``) or a test double.
    ///   - recorder: A recorder for that device.
    ///   - details: The name and metadata for the finished gesture.
    ///   - options: Timeouts, the status interval, and the Enter descriptor.
    ///   - clock: The time source, by default CLOCK_MONOTONIC.
    ///   - cancellation: Stops the session when cancelled.
    /// - Throws: ``RecordingError/invalidOption(_:)`` for a duration that
    ///   is not positive.
    public init(
        source: any EventSource, recorder: StrokeRecorder, details: RecordingDetails,
        options: RecordingSessionOptions = RecordingSessionOptions(), clock: any RecordingClock = SystemClock(),
        cancellation: CancellationSignal
    ) throws(RecordingError) {
        try options.validate()
        self.source = source
        self.recorder = recorder
        self.details = details
        self.options = options
        self.clock = clock
        self.cancellation = cancellation
    }

    /// Records until a stop condition; blocks the calling thread.
    public func run() -> RecordingSessionResult {
        let reason = loop()
        let gesture: Result<RecordedGesture, RecordingError>
        do {
            gesture = .success(try recorder.finish(details, reason: reason))
        } catch {
            gesture = .failure(error)
        }
        return RecordingSessionResult(stopReason: reason, recorder: recorder, gesture: gesture)
    }

    private func loop() -> RecordingStopReason {
        let sessionStart = clock.now()
        var enterDescriptor = options.enterDescriptor
        var nextStatus = sessionStart
        // The descriptors waited on, made once (again only when Enter's
        // closes): a wake-up allocates nothing, and at 1,000 frames a
        // second there is one wake-up a frame.
        var waiting: Poll.Group?
        // The cancellation and Enter alone: waited on for ``batchInterval``
        // after a wake-up that read events.
        var pausing: Poll.Group?
        // The first turn only looks (a poll without waiting) and reads what
        // is there; then ``listeningHandler`` says that the reader runs.
        var listening = false
        while true {
            let now = clock.now()
            if let reason = deadlineReached(now: now, sessionStart: sessionStart) {
                // What the device delivered before the deadline is read
                // first. A timeout for want of contact is no timeout when
                // the drain found a contact that moves it (the first
                // contact, a later touch): then recording goes on.
                let drained = drain()
                if let stopped = drained.reason { return Self.stopReason(requested: reason, drained: stopped) }
                guard drained.outcomes > 0 else { return reason }
                if let still = deadlineReached(now: now, sessionStart: sessionStart) { return still }
                continue
            }
            if let statusHandler, now >= nextStatus {
                statusHandler(recorder.status(now: now))
                nextStatus = Self.adding(options.statusInterval, to: now)
            }

            if waiting == nil {
                let cancelled: FileDescriptor
                do {
                    cancelled = try cancellation.fileDescriptor
                } catch {
                    return .readFailed(error)
                }
                var descriptors: [(FileDescriptor, Poll.Events)] = [(source.fileDescriptor, .readable), (cancelled, .readable)]
                if let enterDescriptor { descriptors.append((enterDescriptor, .readable)) }
                waiting = Poll.Group(descriptors)
                pausing = Poll.Group(Array(descriptors.dropFirst()))
            }
            // Events the source read but has not passed on yet (a wake-up
            // ended at the most outcomes) do not make its descriptor
            // readable: look, but do not wait.
            let buffered = source.hasBufferedEvents
            do {
                try waiting?.wait(
                    timeoutMilliseconds: buffered || !listening
                        ? 0 : pollTimeout(now: now, nextStatus: nextStatus, sessionStart: sessionStart))
            } catch {
                return .readFailed(error)
            }
            guard let ready = waiting else { continue }

            // The device first, so that what is already waiting is recorded
            // before a stop request is honoured.
            let deviceEvents = ready.events(at: 0)
            if deviceEvents.contains(.invalid) {
                return .readFailed(SystemError(call: "poll", errorNumber: ErrorNumber.badDescriptor, detail: "the device descriptor is not open"))
            }
            var outcomesRead = 0
            // The first turn reads even when the poll saw nothing: the
            // reader has then read the source once before it says it listens.
            if !deviceEvents.isEmpty || buffered || !listening {
                let hangUp = !deviceEvents.isDisjoint(with: [.hangUp, .error])
                if let reason = readAvailable(hangUp: hangUp, outcomesRead: &outcomesRead) { return reason }
            }
            if !listening {
                listening = true
                listeningHandler?()
            }
            if !ready.events(at: 1).isEmpty || cancellation.isCancelled { return stop(.cancelled) }
            if ready.count > 2, !ready.events(at: 2).isEmpty, let descriptor = enterDescriptor {
                switch LineInput.read(descriptor) {
                case .line: return stop(.enterPressed)
                case .nothing: break
                case .closed:
                    enterDescriptor = nil
                    waiting = nil
                    pausing = nil
                }
            }
            // Only after a wake-up that read everything waiting: with a
            // backlog (the most outcomes read, more waiting) the next read
            // comes at once, or a stall's backlog would drain at 256
            // outcomes every 4 ms and the kernel's buffer could overflow.
            if outcomesRead > 0, outcomesRead < Self.maximumOutcomesPerWakeup, pausing != nil {
                // Let a few frames gather before the next read (see
                // ``batchInterval``); a cancel or Enter ends the pause, and
                // the next turn sees it. (`now` is this turn's: the pause
                // may end a fraction of a millisecond after a deadline,
                // which the next turn then honours.)
                let untilNext = pollTimeout(now: now, nextStatus: nextStatus, sessionStart: sessionStart)
                let milliseconds = min(Poll.milliseconds(roundingUp: Self.batchInterval.rawValue), untilNext ?? .max)
                if milliseconds > 0 {
                    do {
                        try pausing?.wait(timeoutMilliseconds: milliseconds)
                    } catch {
                        return .readFailed(error)
                    }
                }
            }
        }
    }

    /// The most wake-ups' worth of outcomes a stop drains
    /// (``maximumOutcomesPerWakeup`` each): far more than the kernel
    /// buffers for one reader (evdev keeps a few thousand events), so a
    /// drain ends because the source would block, yet a device that floods
    /// cannot hold a stop back for ever.
    public static let maximumDrainRounds = 64

    /// A stop the caller asked for (a cancel, Enter): what the source had
    /// already delivered is recorded first (issue 40: a stroke lifted just
    /// before "stop", on a busy machine, was lost because the reader had
    /// not read it yet).
    private func stop(_ requested: RecordingStopReason) -> RecordingStopReason {
        guard let stopped = drain().reason else { return requested }
        return Self.stopReason(requested: requested, drained: stopped)
    }

    /// Reads everything the source has delivered, until it would block (at
    /// most ``maximumDrainRounds`` wake-ups' worth): the outcomes read, and
    /// the reason reading itself stopped, if it did.
    private func drain() -> (outcomes: Int, reason: RecordingStopReason?) {
        var total = 0
        for _ in 0..<Self.maximumDrainRounds {
            var outcomesRead = 0
            if let reason = readAvailable(hangUp: false, outcomesRead: &outcomesRead) {
                return (total + outcomesRead, reason)
            }
            total += outcomesRead
            if outcomesRead < Self.maximumOutcomesPerWakeup { break }
        }
        return (total, nil)
    }

    /// The reason a stop reports when its drain stopped reading: a limit or
    /// the maximum duration cut the recording where the drain found it, so
    /// they are the truth; a device gone or a read failing after a stop
    /// was asked for keeps the stop's own reason (the strokes read are kept
    /// either way).
    static func stopReason(requested: RecordingStopReason, drained: RecordingStopReason) -> RecordingStopReason {
        switch drained {
        case .maximumDuration, .limitReached: drained
        default: requested
        }
    }

    /// Reads and records what is waiting; a stop reason when reading must end.
    private func readAvailable(hangUp: Bool, outcomesRead: inout Int) -> RecordingStopReason? {
        // The recorder is passed in once for the whole wake-up: each access
        // to a class's stored property is checked for exclusivity at run
        // time, and at 22 events a frame those checks cost more than
        // recording the events.
        Self.readAvailable(
            from: source, into: &recorder, hangUp: hangUp, maximumDuration: options.maximumDuration,
            warningHandler: warningHandler, strokeHandler: strokeHandler, outcomesRead: &outcomesRead)
    }

    private static func readAvailable(
        from source: any EventSource, into recorder: inout StrokeRecorder, hangUp: Bool, maximumDuration: Microseconds?,
        warningHandler: ((RecorderNotice) -> Void)?, strokeHandler: ((Stroke) -> Void)?, outcomesRead: inout Int
    ) -> RecordingStopReason? {
        for index in 0..<Self.maximumOutcomesPerWakeup {
            outcomesRead = index
            let outcome: ReadOutcome
            do {
                outcome = try source.nextEvent()
            } catch {
                return error.kind == .deviceVanished ? .deviceVanished(error) : .readFailed(error)
            }
            if case .wouldBlock = outcome {
                // A hang-up with nothing to read: the device is gone, even if
                // the read did not say ENODEV.
                if hangUp && index == 0 {
                    return .deviceVanished(
                        SystemError(call: "poll", errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished, detail: "the device hung up"))
                }
                return nil
            }
            if let maximumDuration, let start = recorder.startTime,
                case .event(let event) = outcome,
                StrokeRecorder.relative(event.time, to: start) > maximumDuration
            {
                return .maximumDuration
            }
            if let notice = recorder.feed(outcome) { warningHandler?(notice) }
            if let strokeHandler {
                for stroke in recorder.takeFinishedStrokes() { strokeHandler(stroke) }
            }
            if recorder.limitReached { return .limitReached }
        }
        outcomesRead = Self.maximumOutcomesPerWakeup
        return nil
    }

    /// The stop reason of a timeout that has passed at `now`, if any (the
    /// maximum duration before the idle timeout when both have).
    private func deadlineReached(now: Microseconds, sessionStart: Microseconds) -> RecordingStopReason? {
        var reached: RecordingStopReason?
        forEachDeadline(sessionStart: sessionStart) { deadline, reason in
            if reached == nil, now >= deadline { reached = reason }
        }
        return reached
    }

    /// Calls `body` with each moment at which the session stops by itself,
    /// as things stand, and the reason it would stop (no array: this runs
    /// twice on every wake-up).
    private func forEachDeadline(sessionStart: Microseconds, _ body: (Microseconds, RecordingStopReason) -> Void) {
        if let start = recorder.startTime {
            if let maximumDuration = options.maximumDuration {
                body(Self.adding(maximumDuration, to: start), .maximumDuration)
            }
            if let idleTimeout = options.idleTimeout, recorder.contactsDown == 0, let last = recorder.lastActivity {
                body(Self.adding(idleTimeout, to: last), .idleTimeout)
            }
        } else if let firstContactTimeout = options.firstContactTimeout {
            body(Self.adding(firstContactTimeout, to: sessionStart), .noContactTimeout)
        }
    }

    /// Milliseconds until the next status report or deadline, rounded up;
    /// `nil` (no limit) when there is neither.
    private func pollTimeout(now: Microseconds, nextStatus: Microseconds, sessionStart: Microseconds) -> Int32? {
        var next: Microseconds? = statusHandler != nil ? nextStatus : nil
        forEachDeadline(sessionStart: sessionStart) { deadline, _ in next = min(next ?? deadline, deadline) }
        guard let next else { return nil }
        return Poll.milliseconds(roundingUp: StrokeRecorder.relative(next, to: now).rawValue)
    }

    /// `time + duration`, saturating instead of overflowing.
    private static func adding(_ duration: Microseconds, to time: Microseconds) -> Microseconds {
        let (sum, overflow) = time.rawValue.addingReportingOverflow(duration.rawValue)
        return Microseconds(overflow ? Int64.max : sum)
    }
}
