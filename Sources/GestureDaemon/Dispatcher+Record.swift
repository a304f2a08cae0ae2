import DeviceDiscovery
import GestureBindings
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GestureProtocol
import GestureRecording
import InputSystem
import OperatingSystem

/// The daemon's one recording slot (``Dispatcher/recordingSlot``).
struct RecordingSlot: Sendable {
    /// The one recording, until collected.
    var recording: RecordingRecord?
    /// A record-start is between its check and its recording's start.
    var starting = false
}

/// The daemon's one recording, from `record-start` until a `record-stop`
/// collects its result (or the client that started it goes away).
struct RecordingRecord: Sendable {
    /// A `record-stop` waiting for the recording to end.
    struct Waiter: Sendable {
        let clientID: Int
        let requestID: JSONValue
        let save: String?
        let force: Bool
    }

    let job: Int
    let clientID: Int
    /// The user whose client started it.
    var owner: UInt32? = nil
    let recording: RecordJob
    /// Whether record-start named the gesture (else a save names it).
    let named: Bool
    /// Set once the recording has stopped; kept until collected.
    var outcome: RecordingOutcome?
    var waiter: Waiter?
}

extension Dispatcher {
    /// `record-start` {device, sequential, idle_timeout_ms, max_duration_ms,
    /// grab, name}: starts the daemon's one recording.
    func recordStart(_ request: DaemonRequest, _ arguments: Arguments, client: Int) throws -> JSONValue {
        let device = try arguments.string(.device)
        let sequential = try arguments.bool(.sequential, default: false)
        let grab = try arguments.bool(.grab, default: false)
        let longest = Double(GestureLimits.maximumDuration.rawValue) / 1_000
        // From 1 µs, as the command line's --idle-timeout and --max-duration.
        let idle = try arguments.number(.idleTimeoutMilliseconds, in: 0.001...longest).map(Self.microseconds)
            ?? (sequential ? RecordingSessionOptions.defaultIdleTimeout : nil)
        let maximum = try arguments.number(.maximumDurationMilliseconds, in: 0.001...longest).map(Self.microseconds)
        let named = arguments.has(.name)
        let name = try arguments.string(.name) ?? "recording"
        if let problem = GestureName.problem(with: name) {
            throw DaemonError(.badArgument, "record-start: \"name\": \(problem)")
        }
        // The slot is taken here, under the lock: two workers may serve two
        // clients' record-start at once.
        let busy: String? = state.withLock { current in
            if current.stopping { return "the daemon is stopping" }
            return recordingSlot.withLock { slot in
                if slot.starting { return "another recording is starting; one recording at a time" }
                if let recording = slot.recording {
                    return recording.outcome == nil
                        ? "recording \(recording.job) is running; one recording at a time (record-stop it first)"
                        : "recording \(recording.job) has stopped and waits for a record-stop to collect it"
                }
                slot.starting = true
                return nil
            }
        }
        if let busy { throw DaemonError(.busy, busy) }
        defer { recordingSlot.withLock { $0.starting = false } }
        let recordRequest = RecordRequest(
            device: device, grab: grab, sequential: sequential,
            sessionOptions: RecordingSessionOptions(idleTimeout: idle, maximumDuration: maximum),
            details: RecordingDetails(name: name, recordedAt: WallClock.iso8601(), tool: "gesturectl \(version)"))
        let job = engine.jobs.nextID()
        let recording: RecordJob
        do {
            recording = try engine.startRecording(
                recordRequest,
                strokes: { [self] stroke in
                    broadcast(RecordEvent(job: job, stroke: GestureFileFormat.json(stroke)))
                })
        } catch {
            throw Self.recordStartError(error)
        }
        // The slot is still free (recordingStarts); a client that went away
        // meanwhile (its request waited in a lane) gets no recording.
        let live = state.withLock { current -> Bool in
            guard current.liveClients.contains(client) else { return false }
            let record = RecordingRecord(job: job, clientID: client, owner: current.user(of: client), recording: recording, named: named)
            recordingSlot.withLock { $0.recording = record }
            return true
        }
        guard live else {
            recording.cancel()
            throw DaemonError(.cancelled, "the client went away before its recording started")
        }
        recording.handle.onCompletion { [self] outcome in recordingStopped(job, outcome) }
        log.client(client, .info, "client \(client) records from \(recording.device.node) (\(DaemonLog.oneLine(recording.device.name))), job \(job)")
        return RecordStartResult(job: job, device: recording.device.node, name: recording.device.name).json
    }

    /// `record-stop` {save, force, wait}: stops the recording (or, with
    /// `wait`, waits until it stops by itself) and answers with the result.
    func recordStop(_ request: DaemonRequest, _ arguments: Arguments, client: Int) throws -> JSONValue? {
        let save = try arguments.string(.save)
        if let save, let problem = GestureName.problem(with: save) {
            throw DaemonError(.badArgument, "record-stop: \"save\": \(problem)")
        }
        let force = try arguments.bool(.force, default: false)
        let wait = try arguments.bool(.wait, default: false)
        let waiter = RecordingRecord.Waiter(clientID: client, requestID: request.id, save: save, force: force)
        enum Next { case collect(RecordingRecord), stop(RecordJob), later }
        let next: Next = try state.withLock { current throws(DaemonError) -> Next in
            try recordingSlot.withLock { slot throws(DaemonError) -> Next in
                guard var recording = slot.recording else {
                    throw DaemonError(.notFound, "no recording (start one with record-start)")
                }
                // Another user's recording is theirs to stop and collect (issue 36).
                guard current.mayAct(on: recording.owner, client: client) else { throw ServerState.notYours("recording", recording.job) }
                if recording.outcome != nil { return .collect(recording) }
                if let other = recording.waiter {
                    throw DaemonError(.busy, "a record-stop (from client \(other.clientID)) already waits for recording \(recording.job)")
                }
                recording.waiter = waiter
                slot.recording = recording
                return wait ? .later : .stop(recording.recording)
            }
        }
        switch next {
        case .collect(let recording):
            return try collect(recording, save: save, force: force)
        case .stop(let job):
            // The reply comes from recordingStopped, once the thread has finished.
            job.cancel()
            return nil
        case .later:
            log.debug("client \(client) waits for the recording to stop")
            return nil
        }
    }

    /// Stops the recording `job` for a `cancel`; false when `job` is not
    /// the recording. Its result waits for a `record-stop`.
    func cancelRecording(_ job: Int, client: Int) throws(DaemonError) -> Bool {
        let recording = try state.withLock { current throws(DaemonError) -> RecordJob? in
            guard let record = recordingSlot.withLock({ $0.recording }), record.job == job else { return nil }
            guard current.mayAct(on: record.owner, client: client) else { throw ServerState.notYours("recording", job) }
            return record.recording
        }
        recording?.cancel()
        return recording != nil
    }

    /// The client that started the recording went away: the recording is
    /// stopped and its result dropped. A client that only waited for it
    /// just stops waiting.
    func recordingClientLeft(_ client: Int) {
        let dropped: RecordingRecord? = recordingSlot.withLock { slot in
            guard var recording = slot.recording else { return nil }
            if recording.clientID == client {
                slot.recording = nil
                return recording
            }
            if recording.waiter?.clientID == client {
                recording.waiter = nil
                slot.recording = recording
            }
            return nil
        }
        guard let dropped else { return }
        dropped.recording.cancel()
        log.info("recording \(dropped.job) dropped: client \(client), which started it, disconnected")
    }

    /// Stops the recording when the daemon stops (a waiting record-stop is
    /// answered with what was recorded).
    func stopRecordingForShutdown() {
        let recording = recordingSlot.withLock { $0.recording?.recording }
        recording?.cancel()
        _ = recording?.handle.wait()
    }

    /// The recording thread ended: keep the outcome, and answer a waiting
    /// record-stop.
    private func recordingStopped(_ job: Int, _ outcome: RecordingOutcome) {
        let waiting: (RecordingRecord, RecordingRecord.Waiter)? = recordingSlot.withLock { slot in
            guard var recording = slot.recording, recording.job == job else { return nil }
            recording.outcome = outcome
            slot.recording = recording
            guard let waiter = recording.waiter else { return nil }
            recording.waiter = nil
            slot.recording = recording
            return (recording, waiter)
        }
        log.info("recording \(job) stopped: \(outcome.stopReason)")
        guard let (recording, waiter) = waiting else { return }
        do {
            let result = try collect(recording, save: waiter.save, force: waiter.force)
            reply(waiter.clientID, DaemonReply.success(id: waiter.requestID, result: result))
        } catch let error as DaemonError {
            reply(waiter.clientID, DaemonReply.failure(id: waiter.requestID, error: error))
        } catch {
            reply(waiter.clientID, DaemonReply.failure(id: waiter.requestID, error: DaemonError(.internal, "\(error)")))
        }
    }

    /// The reply to a record-stop of a stopped recording; the recording is
    /// forgotten unless saving failed (then it can be collected again).
    private func collect(_ recording: RecordingRecord, save: String?, force: Bool) throws -> JSONValue {
        guard let outcome = recording.outcome else { throw DaemonError(.internal, "the recording has not stopped") }
        var result = RecordStopResult(
            job: recording.job, device: recording.recording.device.node, stopCode: RecordingStopCode(outcome.stopReason),
            stopped: outcome.stopReason.description, gesture: nil, message: nil, warnings: [], saved: nil)
        switch outcome.gesture {
        case .failure(let error):
            // A save that saved nothing is no success (issue 40): the
            // result stays to be collected, as after any failed save.
            if let save {
                throw DaemonError(
                    .nothingRecorded, "record-stop: nothing was saved as \"\(save)\": \(error.description) (stopped: \(outcome.stopReason))")
            }
            result.message = error.description
        case .success(let recorded):
            var gesture = recorded.gesture
            if let save, !recording.named { gesture.name = save }
            result.gesture = GestureFileFormat.json(gesture)
            result.warnings = recorded.warnings
            if let save {
                let library = state.withLock { $0.library }
                let entry = try libraryCall { () throws(LibraryError) in try library.save(gesture, as: save, overwrite: force) }
                result.saved = SavedEntry(name: entry.name, path: entry.path, hidesBuiltin: entry.hidesBuiltin)
                log.info("recording \(recording.job) saved as \(save)")
            }
        }
        recordingSlot.withLock { slot in
            if slot.recording?.job == recording.job { slot.recording = nil }
        }
        return result.json
    }

    private static func microseconds(_ milliseconds: Double) -> Microseconds {
        Microseconds(Int64((milliseconds * 1_000).rounded()))
    }

    /// A device that cannot be found, opened or recorded from, as a protocol error.
    private static func recordStartError(_ error: any Error) -> DaemonError {
        let what = DaemonOperation.recordStart.rawValue
        if let refusal = inputDeviceError(error, what: what) { return refusal }
        if let error = error as? RecordingError { return DaemonError(.badArgument, "\(what): \(error)") }
        return DaemonError(.internal, "\(what): \(error)")
    }

    /// An input device that cannot be found or opened, as a protocol error
    /// of the operation `what`; `nil` for another error.
    static func inputDeviceError(_ error: any Error, what: String) -> DaemonError? {
        switch error {
        case let error as DeviceSelectionError:
            return DaemonError(error.kind == .notFound ? .notFound : .badArgument, "\(what): \"device\": \(error)")
        case let error as SystemError where error.kind == .permissionDenied:
            return DaemonError(.permissionDenied, "\(what): the daemon may not read the device: \(error)")
        case let error as SystemError where error.kind == .notFound || error.kind == .deviceVanished:
            return DaemonError(.notFound, "\(what): \"device\": \(error)")
        default:
            return nil
        }
    }
}
