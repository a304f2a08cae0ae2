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

    /// What an import read: the recorder's outcome, the format found, and
    /// the lines passed over (neither an event nor a comment).
    public struct Imported: Sendable {
        /// The recorder's outcome.
        public var result: Result<RecordedGesture, RecordingError>
        /// The format the text was in.
        public var format: InteropFormat
        /// The lines passed over, 1-based.
        public var ignoredLines: [Int]
    }

    /// Why an import stopped before the recorder's outcome.
    public enum ImportError: Error, Sendable {
        /// `viewport` was given for a format that carries its own device size.
        case viewportNotApplicable(InteropFormat)
        /// Cancelled before the device's description was read.
        case cancelledBeforeDevice
    }

    /// Imports an evemu, libinput record, Android uinput or WebDriver text
    /// read in pieces (`open` is called on the import's thread and gives
    /// the next bytes, empty at the end), through the recorder `record`
    /// uses, on a dedicated thread (`gesturectl-imp`): one stroke per
    /// contact, the device's geometry from its description. The recorder
    /// is fed as the text is read, so memory is the gesture's size, not
    /// the text's. A cancel keeps the strokes fed so far, as a cancelled
    /// recording does. The details' `tool` gets the format added.
    ///
    /// The handle finishes with ``Imported``, or with the error reading
    /// threw (``GestureInterop/InteropError``, what `open` or its pieces
    /// threw, ``ImportError``).
    /// - Throws: ``OperatingSystem/SystemError`` when the thread cannot start.
    public func startImport(
        source: String, viewport: WebDriverViewport? = nil, options: RecorderOptions = RecorderOptions(),
        sequential: Bool = false, details: RecordingDetails,
        open: @escaping @Sendable () throws -> () throws -> [UInt8]
    ) throws(SystemError) -> JobHandle<Result<Imported, any Error>, Int> {
        let handle = JobHandle<Result<Imported, any Error>, Int>()
        try DedicatedThread.start(Self.importThread) {
            handle.finish(
                Result { () throws -> Imported in
                    try Self.importRecording(
                        source: source, viewport: viewport, options: options, sequential: sequential, details: details,
                        nextPiece: try open(), cancellation: handle.cancellation)
                })
        }
        return handle
    }

    /// The import's work, on the calling thread (see ``startImport(source:viewport:options:sequential:details:open:)``).
    static func importRecording(
        source: String, viewport: WebDriverViewport?, options: RecorderOptions, sequential: Bool,
        details: RecordingDetails, nextPiece: () throws -> [UInt8], cancellation: CancellationSignal
    ) throws -> Imported {
        var recorder: StrokeRecorder?
        var failure: RecordingError?
        var format = InteropFormat.unknown
        struct Cancelled: Error {}
        let read: (format: InteropFormat, ignoredLines: [Int])
        do {
            read = try InteropReader.stream(
                source: source, viewport: viewport,
                nextPiece: {
                    if cancellation.isCancelled { throw Cancelled() }
                    return try nextPiece()
                },
                begin: { found, description in
                    format = found
                    if viewport != nil && found != .webdriver { throw ImportError.viewportNotApplicable(found) }
                    do throws(RecordingError) {
                        recorder = try StrokeRecorder(device: description, options: options)
                        // An import's samples go to a temporary file, not memory (issue 39).
                        recorder?.spillSamples(into: ProcessEnvironment.variables()["TMPDIR"] ?? "/tmp")
                    } catch {
                        failure = error
                    }
                },
                events: { batch in
                    guard recorder != nil else { return }
                    for event in batch { _ = recorder!.feed(event) }
                })
        } catch is Cancelled {
            // As a cancelled recording: the strokes fed so far.
            read = (format, [])
        }
        if let failure { return Imported(result: .failure(failure), format: read.format, ignoredLines: read.ignoredLines) }
        guard let recorder else { throw ImportError.cancelledBeforeDevice }
        var named = details
        named.tool = "\(details.tool ?? "import") (\(read.format.rawValue))"
        do throws(RecordingError) {
            let recorded = try recorder.finish(named, reason: .cancelled)
            return Imported(
                result: .success(sequential ? SequentialMerge.apply(to: recorded) : recorded), format: read.format,
                ignoredLines: read.ignoredLines)
        } catch {
            return Imported(result: .failure(error), format: read.format, ignoredLines: read.ignoredLines)
        }
    }
}
