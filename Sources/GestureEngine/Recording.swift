import DeviceDiscovery
import GestureInterop
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem

/// Everything a recording needs.
public struct RecordRequest: Sendable {
    /// The `--device` string; `nil` for the only touch or pointer device.
    public var device: String?
    /// Take the device for this recording alone (EVIOCGRAB).
    public var grab: Bool
    /// Strokes drawn one after another start together in the result
    /// (``SequentialMerge``).
    public var sequential: Bool
    /// The virtual screen relative pointers move on.
    public var recorderOptions: RecorderOptions
    /// When the recording stops by itself. Its Enter descriptor, when set,
    /// stops the recording on a line (standard input on a terminal).
    public var sessionOptions: RecordingSessionOptions
    /// The name and metadata of the result. The engine fills in the
    /// device's stable id when this has none.
    public var details: RecordingDetails
    /// Record on a thread at this SCHED_FIFO priority
    /// (``OperatingSystem/DedicatedThread/defaultRealtimePriority`` for
    /// `record --realtime`); `nil` (default) for the normal scheduler. A
    /// process without the right gets
    /// ``GestureRecording/RecordingError/realtimeRefused(priority:_:)``
    /// before the device is opened.
    public var realtimePriority: Int32?

    /// Creates a request.
    public init(
        device: String? = nil, grab: Bool = false, sequential: Bool = false,
        recorderOptions: RecorderOptions = RecorderOptions(), sessionOptions: RecordingSessionOptions = RecordingSessionOptions(),
        details: RecordingDetails, realtimePriority: Int32? = nil
    ) {
        self.realtimePriority = realtimePriority
        self.device = device
        self.grab = grab
        self.sequential = sequential
        self.recorderOptions = recorderOptions
        self.sessionOptions = sessionOptions
        self.details = details
    }
}

/// How a recording ended: why, and what it recorded (merged when sequential).
public struct RecordingOutcome: Sendable {
    /// Why it stopped.
    public var stopReason: RecordingStopReason
    /// The finished gesture, or ``GestureRecording/RecordingError/noContact``
    /// when nothing was recorded.
    public var gesture: Result<RecordedGesture, RecordingError>
}

/// A recording that has started: the device it reads and its handle.
public final class RecordJob: Sendable {
    /// What the device is (node, name, links, ids).
    public let device: DeviceInfo
    /// The device's stable id (by-id link name, else vendor:product).
    public let stableID: String?
    /// The geometry the strokes are recorded in (the device's axes and size).
    public let geometry: DeviceGeometry
    /// Cancel (the strokes so far are kept), status, result.
    public let handle: JobHandle<RecordingOutcome, RecordingStatus>

    init(device: DeviceInfo, stableID: String?, geometry: DeviceGeometry, handle: JobHandle<RecordingOutcome, RecordingStatus>) {
        self.device = device
        self.stableID = stableID
        self.geometry = geometry
        self.handle = handle
    }

    /// Stops the recording; what was recorded is kept.
    public func cancel() { handle.cancel() }

    /// The outcome, without blocking a thread.
    public func finished() async -> RecordingOutcome { await handle.finished() }
}

extension Engine {
    /// Opens the device (through the engine's ``InputFactory``), sets up
    /// the recorder from its description and current state, and records on
    /// a dedicated thread until a stop condition, cancellation, or the
    /// device going away. Returns once that thread reads the device (it
    /// has polled it and read what waited), so that whatever the caller
    /// says next ("recording from", "draw now") is true: what is drawn
    /// from then on is recorded.
    ///
    /// - Parameter notices: called on the recording thread with each notice
    ///   (dropped events, a limit reached) as it happens.
    /// - Throws: device selection or opening errors, ``OperatingSystem/SystemError``
    ///   for the grab, ``GestureRecording/RecordingError`` for a device that
    ///   records nothing (a keyboard), bad options, or real-time recording
    ///   that is not permitted (checked before the device is opened).
    public func startRecording(
        _ request: RecordRequest, notices: (@Sendable (RecorderNotice) -> Void)? = nil,
        strokes: (@Sendable (Stroke) -> Void)? = nil
    ) throws -> RecordJob {
        if let priority = request.realtimePriority { try RecordingSession.checkRealtime(priority: priority) }
        let input = try inputs.openRecording(request)
        return try startRecording(
            request, source: input.source, description: input.description, device: input.info,
            stableID: input.stableID, initialState: input.initialState, notices: notices, strokes: strokes)
    }

    /// Records from a source the caller opened (another kind of input, or
    /// a test double) as ``startRecording(_:notices:strokes:)`` does from a
    /// device: `request.device` and `request.grab` are not used.
    ///
    /// - Parameters:
    ///   - description: What the source is (it decides the recorder's geometry).
    ///   - device, stableID: What the job reports as its device.
    ///   - clock: The sources' clock (CLOCK_MONOTONIC for a real device).
    ///   - strokes: called on the recording thread with each stroke as its
    ///     contact lifts, as drawn (before any sequential merge).
    public func startRecording(
        _ request: RecordRequest, source: sending any EventSource, description: InputDeviceDescription,
        device info: DeviceInfo, stableID: String?, initialState: DeviceStateSnapshot = DeviceStateSnapshot(),
        clock: sending any RecordingClock = SystemClock(),
        notices: (@Sendable (RecorderNotice) -> Void)? = nil, strokes: (@Sendable (Stroke) -> Void)? = nil
    ) throws -> RecordJob {
        let recorder = try StrokeRecorder(
            device: description, options: request.recorderOptions, initialState: initialState)
        // Before the job exists (and a front end says recording has begun):
        // the first frames then do not run the recorder's code cold.
        recorder.warmUp()
        var details = request.details
        if details.deviceID == nil { details.deviceID = stableID }
        let handle = JobHandle<RecordingOutcome, RecordingStatus>()
        let session = try RecordingSession(
            source: source, recorder: recorder, details: details, options: request.sessionOptions, clock: clock,
            cancellation: handle.cancellation)
        let sequential = request.sequential
        let geometry = recorder.geometry
        let listening = Semaphore()
        try DedicatedThread.start(RecordingSession.threadOptions.atRealtimePriority(request.realtimePriority)) {
            session.statusHandler = { handle.report($0) }
            session.warningHandler = notices
            session.strokeHandler = strokes
            session.listeningHandler = { listening.signal() }
            let result = session.run()
            handle.finish(
                RecordingOutcome(
                    stopReason: result.stopReason,
                    gesture: result.gesture.map { sequential ? SequentialMerge.apply(to: $0) : $0 }))
            // A session that stopped before it listened (cancelled, the
            // device gone) must not leave the caller waiting.
            listening.signal()
        }
        // Back only once the thread has polled the source and read what
        // waited: a front end's "recording from" or "draw now" then comes
        // when what is drawn is read (issue 24). The wait is the thread's
        // start and one poll that does not wait.
        listening.wait()
        return RecordJob(device: info, stableID: stableID, geometry: geometry, handle: handle)
    }

    /// How an import's thread is set up: named `gesturectl-imp`.
    public static let importThread = ThreadOptions(name: "gesturectl-imp")

    /// Runs an evemu or libinput recording's events through the recorder
    /// that `record` uses, on a dedicated thread: one stroke per contact,
    /// the device's geometry from its description. Progress counts the
    /// events fed.
    /// - Throws: ``OperatingSystem/SystemError`` when the thread cannot start.
    public func startImport(
        _ recording: InteropRecording, options: RecorderOptions = RecorderOptions(), sequential: Bool = false,
        details: RecordingDetails
    ) throws(SystemError) -> JobHandle<Result<RecordedGesture, RecordingError>, Int> {
        let handle = JobHandle<Result<RecordedGesture, RecordingError>, Int>()
        try DedicatedThread.start(Self.importThread) {
            handle.finish(
                Engine.importRecording(
                    recording, options: options, sequential: sequential, details: details,
                    cancellation: handle.cancellation, progress: { handle.report($0) }))
        }
        return handle
    }

    /// The import's work, on the calling thread (see ``startImport(_:options:sequential:details:)``).
    /// A cancelled import finishes with the strokes fed so far.
    public static func importRecording(
        _ recording: InteropRecording, options: RecorderOptions = RecorderOptions(), sequential: Bool = false,
        details: RecordingDetails, cancellation: CancellationSignal = .never,
        progress: ((Int) -> Void)? = nil
    ) -> Result<RecordedGesture, RecordingError> {
        do throws(RecordingError) {
            var recorder = try StrokeRecorder(device: recording.description, options: options)
            for (index, event) in recording.events.enumerated() {
                if index % 4096 == 0 {
                    if cancellation.isCancelled { break }
                    progress?(index)
                }
                _ = recorder.feed(event)
            }
            progress?(recording.events.count)
            let recorded = try recorder.finish(details, reason: .cancelled)
            return .success(sequential ? SequentialMerge.apply(to: recorded) : recorded)
        } catch {
            return .failure(error)
        }
    }
}
