import GestureModel
import InputSystem

/// The recorder's state machine: evdev read outcomes in, strokes out.
///
/// Feed it every ``ReadOutcome`` in order (``feed(_:)``). Events are
/// applied at `SYN_REPORT`, a frame at a time; at the end of each frame the
/// contacts down are compared with the previous frame's:
/// - a new contact starts a stroke with one sample;
/// - a contact whose position, pressure or size changed gets a sample
///   (unchanged contacts get none while others move);
/// - a contact that lifted ends its stroke with one more sample at the
///   lift's time and its last position, when that is later than its last
///   sample, so a long press keeps its length.
///
/// The recording starts at the first contact: sample times are the frame's
/// kernel time minus the time of the frame in which the first contact came
/// down; nothing before it is recorded (state such as the pointer position
/// is still followed). Frame times that go backwards are treated as the
/// latest time seen, so sample times never decrease. Positions, pressure and
/// size are clamped into the geometry's axes, so a device that reports
/// beyond its own ranges still gives a valid gesture. Both changes are
/// counted (``repairs``) and said in the finished recording's warnings,
/// never made silently.
///
/// `SYN_DROPPED` (``ReadOutcome/resyncNeeded(_:)``) is counted and
/// reported as a ``RecorderNotice``; the resync events that follow are
/// applied as the device's state after the gap (the reader sends only the
/// difference, see ``InputSystem/DropRecovery``), so a touch that ended in
/// the gap ends, and a slot whose tracking id changed is taken as in any
/// frame (a new finger, or on a partly tracking device the finger it
/// continues, see ``SlotTracker``); the frames the kernel kept after the gap follow
/// as normal events. Events of a frame seen before the drop are kept,
/// because the reader's state, which the difference is relative to,
/// includes them.
///
/// ``finish(_:reason:)`` works at any moment and leaves the recorder as it
/// was.
public struct StrokeRecorder: Sendable {
    /// What the recorder made of the device.
    public let profile: RecordingDeviceProfile
    /// The options it was created with.
    public let options: RecorderOptions
    /// Where full chunks of samples go instead of memory (an import's: see
    /// ``spillSamples(into:)``).
    private var spill: SampleSpill?
    /// The most samples kept: ``GestureModel/GestureLimits/maximumSamples``
    /// in memory; the streamed limit once they are spilled to a file.
    private var sampleLimit = GestureLimits.maximumSamples

    private var tracker: any ContactTracker
    /// The contacts down at the end of the last frame, as the tracker
    /// reported them, in key order.
    private var previousContacts: [ContactEntry] = []
    /// The list of the frame before the last, emptied: the next frame's
    /// contacts are written into its storage, so that none is made a frame.
    private var spareContacts: [ContactEntry] = []
    /// Contacts already down when recording began: followed, not recorded.
    private var ignoredContacts: Set<ContactKey> = []
    /// The stroke (index into `strokes`) of each contact down.
    private var openStrokes: [ContactKey: Int] = [:]
    /// Strokes recorded so far, finished and in progress; their samples in
    /// chunks, so that a long stroke never stalls the reading thread.
    private var strokes: [StrokeInProgress] = []
    /// Strokes (indices into `strokes`) whose contact lifted since the
    /// last ``takeFinishedStrokes()``.
    private var finishedSinceTaken: [Int] = []
    private var sampleCount = 0
    /// The times repaired so far (``repairs`` adds the clamping counts).
    private var retiming = RecordingRepairs()
    /// How far back the frame being committed went (0 when it did not).
    private var currentStepBack = Microseconds.zero
    /// Whether the frame being committed gave a retimed sample.
    private var currentFrameRetimed = false
    /// Scratch space for ``commitFrame(at:contacts:)``: the keys lifted in
    /// a frame; kept empty between frames.
    private var liftedScratch: [ContactKey] = []
    /// Per axis (x, y, pressure, size): samples clamped and the farthest value.
    private var clampCounts: [(samples: Int, farthest: Int)] = Array(repeating: (0, 0), count: 4)

    /// Kernel time of the frame in which the first contact came down;
    /// `nil` until then.
    public private(set) var startTime: Microseconds?
    /// Kernel time of the latest frame.
    public private(set) var latestFrameTime: Microseconds?
    /// Kernel time of the latest frame in which a contact was down or
    /// lifted; `nil` before the first contact. Idle timeouts count from it
    /// while ``contactsDown`` is 0.
    public private(set) var lastActivity: Microseconds?
    /// How many times the kernel dropped events (`SYN_DROPPED`).
    public private(set) var droppedEventCount = 0
    /// Whether a resync after `SYN_DROPPED` is in progress.
    public private(set) var isResyncing = false
    /// Whether a limit of ``GestureLimits`` was reached; nothing more is
    /// recorded once it is.
    public private(set) var limitReached = false

    /// Keeps the samples of strokes begun from now on in an unlinked
    /// temporary file rather than in memory, a chunk of 1,024 at a time
    /// (issue 39: an import of an hour of ten fingers then holds no more
    /// than one of a minute): in the first of the options' ``RecorderOptions/spillFolders``
    /// where one can be made, else in `folder`. For imports, not for live
    /// recordings (whose reading thread must not wait for a disk). Without
    /// a file anywhere, the samples stay in memory.
    public mutating func spillSamples(into folder: String) {
        spill = SampleSpill.make(folders: options.spillFolders + [SpillFolders.Folder(path: folder)])
        spillMade()
    }

    /// ``spillSamples(into:)`` with the file mapped by `map` (tests inject its failure).
    mutating func spillSamples(into folder: String, map: @escaping SampleSpill.Mapper) {
        spill = SampleSpill.make(folder: folder, map: map)
        spillMade()
    }

    /// Samples spilled to a file may be as many as a file's: the streamed
    /// limit. (Samples begun before the spill stay in memory; there are
    /// never more than the held limit of those, as the spill comes first.)
    private mutating func spillMade() {
        if spill != nil { sampleLimit = GestureLimits.maximumStreamedSamples }
    }

    /// A recorder for `device`.
    ///
    /// - Parameters:
    ///   - device: The device's description; it decides the input kind and
    ///     the geometry (see ``RecordingDeviceProfile``).
    ///   - options: The virtual screen for pointers, and sequential mode.
    ///   - initialState: The device's state when recording begins (see
    ///     ``DeviceStateSnapshot``); by default slot 0 is selected and
    ///     nothing is down.
    /// - Throws: ``RecordingError`` when the device cannot be recorded from
    ///   or an option is out of range.
    public init(
        device: InputDeviceDescription, options: RecorderOptions = RecorderOptions(),
        initialState: DeviceStateSnapshot = DeviceStateSnapshot()
    ) throws(RecordingError) {
        let profile = try RecordingDeviceProfile(device: device, options: options)
        self.profile = profile
        self.options = options
        switch profile.inputKind {
        case .multitouchSlots:
            let geometry = profile.geometry
            let spacing = Int((Self.estimatedFingerSpacingMM / geometry.mmPerUnitX).rounded())
            tracker = SlotTracker(
                slotCount: geometry.slots, estimatedSpacing: max(1, spacing),
                xAxis: geometry.x.minimum...max(geometry.x.minimum, geometry.x.maximum),
                isSemiMultitouch: device.properties.contains(.semiMultitouch))
        case .multitouchProtocolA: tracker = ProtocolATracker()
        case .singleTouch: tracker = SingleContactTracker(kind: .finger, requiresProximity: false)
        case .pen:
            tracker = SingleContactTracker(
                kind: .pen,
                requiresProximity: device.supports(.key, .buttonToolPen) || device.supports(.key, .buttonToolRubber))
        case .relativePointer:
            tracker = PointerTracker(width: options.virtualScreenWidth, height: options.virtualScreenHeight)
        case .absolutePointer:
            tracker = PointerTracker(absolute: (profile.geometry.x.minimum, profile.geometry.y.minimum))
        }
        tracker.load(initialState)
        tracker.endFrame(into: &previousContacts)
        ignoredContacts = Set(previousContacts.map(\.key))
    }

    /// How far apart fingers a touchpad reported down but did not track
    /// are placed (the distance between fingertips in `fingers`' default row).
    public static let estimatedFingerSpacingMM = 18.0

    /// The geometry of the recorded gesture.
    public var geometry: DeviceGeometry { profile.geometry }

    /// Whether the first contact has been seen.
    public var hasStarted: Bool { startTime != nil }

    /// Strokes so far, finished and in progress.
    public var strokeCount: Int { strokes.count }

    /// Contacts being recorded now.
    public var contactsDown: Int { openStrokes.count }

    /// The status for a live line; `now` (kernel clock) gives the elapsed
    /// time, by default the latest frame's time.
    public func status(now: Microseconds? = nil) -> RecordingStatus {
        var elapsed = Microseconds.zero
        if let startTime, let reference = now ?? latestFrameTime {
            elapsed = Self.relative(reference, to: startTime)
        }
        return RecordingStatus(
            hasStarted: hasStarted, elapsed: elapsed, strokeCount: strokeCount, contactsDown: contactsDown,
            droppedEvents: droppedEventCount, pointer: tracker.pointerPosition)
    }

    /// The strokes whose contact lifted since the last call, in the order
    /// they lifted, each with its lift sample: for a caller that reports
    /// strokes as they are drawn (the daemon's `record` event). Strokes
    /// still down are not in it. Times are from the first contact, as in
    /// the finished gesture.
    public mutating func takeFinishedStrokes() -> [Stroke] {
        // Asked after every event: nothing to do most of the time.
        guard !finishedSinceTaken.isEmpty else { return [] }
        defer { finishedSinceTaken = [] }
        return finishedSinceTaken.map { strokes[$0].stroke }
    }

    /// Applies one read outcome.
    ///
    /// - Returns: a notice for the caller to show (events dropped, a limit
    ///   reached), or `nil`.
    @discardableResult
    public mutating func feed(_ outcome: ReadOutcome) -> RecorderNotice? {
        let wasFull = limitReached
        switch outcome {
        case .event(let event):
            if event.isSynchronizationReport {
                var contacts = spareContacts
                spareContacts = []
                tracker.endFrame(into: &contacts)
                commitFrame(at: event.time, contacts: contacts)
            } else if event.isSynchronizationDropped {
                // A SYN_DROPPED seen as a plain event (a source without
                // a resync): count it; later frames are the truth.
                droppedEventCount &+= 1
                tracker.beginResync()
                return .eventsDropped(total: droppedEventCount)
            } else {
                tracker.apply(event)
            }
        case .resyncNeeded:
            droppedEventCount &+= 1
            isResyncing = true
            tracker.beginResync()
            return .eventsDropped(total: droppedEventCount)
        case .resyncEvent(let event):
            if event.isSynchronizationReport {
                if let resynced = tracker.endResyncFrame() {
                    var contacts: [ContactEntry] = []
                    resynced.sortedEntries(into: &contacts)
                    commitFrame(at: event.time, contacts: contacts)
                }
            } else {
                tracker.apply(event)
            }
        case .resyncDone:
            isResyncing = false
        case .wouldBlock:
            break
        }
        if limitReached && !wasFull { return .limitReached(limitDescription) }
        return nil
    }

    /// Applies one event (``feed(_:)`` with ``ReadOutcome/event(_:)``).
    @discardableResult
    public mutating func feed(_ event: InputEvent) -> RecorderNotice? { feed(.event(event)) }

    // MARK: Frames

    /// Compares `contacts` (in key order) with the previous frame's.
    private mutating func commitFrame(at reportedTime: Microseconds, contacts: [ContactEntry]) {
        let frameTime = max(reportedTime, latestFrameTime ?? reportedTime)
        latestFrameTime = frameTime
        currentStepBack = StrokeRecorder.relative(frameTime, to: reportedTime)
        currentFrameRetimed = false
        defer {
            if currentFrameRetimed {
                retiming.backwardFrames += 1
                retiming.largestStepBack = max(retiming.largestStepBack, currentStepBack)
            }
        }
        var active = false

        // The keys lifted, found by walking both lists in key order, in an
        // array kept from frame to frame: at 1,000 frames a second under
        // emulation, dictionaries made, keys hashed and arrays allocated
        // each frame cost more than the recording itself.
        var lifted = liftedScratch
        liftedScratch = []
        defer {
            lifted.removeAll(keepingCapacity: true)
            liftedScratch = lifted
        }
        var next = 0
        for (key, _) in previousContacts {
            while next < contacts.count && contacts[next].key < key { next += 1 }
            if next < contacts.count && contacts[next].key == key { continue }
            lifted.append(key)
        }
        for key in lifted {
            if ignoredContacts.remove(key) != nil { continue }
            guard let index = openStrokes.removeValue(forKey: key) else { continue }
            active = true
            endStroke(index, at: frameTime)
            finishedSinceTaken.append(index)
        }
        for (key, point) in contacts where ignoredContacts.isEmpty || !ignoredContacts.contains(key) {
            active = true
            let sample = makeSample(point, at: frameTime)
            if let index = openStrokes[key] {
                guard Self.moved(from: strokes[index].samples.last, to: sample) else { continue }
                if let sample, append(sample, to: index) { countRepairs(of: point) }
            } else {
                if startTime == nil { startTime = frameTime }
                startStroke(for: key, point: point, at: frameTime)
            }
        }
        if active { lastActivity = frameTime }
        var spare = previousContacts
        previousContacts = contacts
        spare.removeAll(keepingCapacity: true)
        spareContacts = spare
    }

    private mutating func startStroke(for key: ContactKey, point: ContactPoint, at time: Microseconds) {
        guard !limitReached else { return }
        guard strokes.count < GestureLimits.maximumStrokes else {
            limitReached = true
            return
        }
        guard let sample = makeSample(point, at: time), reserveSample() else { return }
        strokes.append(
            StrokeInProgress(
                kind: point.kind, button: point.button, isEstimated: point.isEstimated,
                samples: SampleChunks(first: sample, stagger: strokes.count, spill: spill)))
        openStrokes[key] = strokes.count - 1
        countRepairs(of: point)
    }

    private mutating func endStroke(_ index: Int, at time: Microseconds) {
        guard let startTime else { return }
        let last = strokes[index].samples.last
        let liftTime = Self.relative(time, to: startTime)
        guard liftTime > last.time, liftTime <= GestureLimits.maximumDuration, reserveSample() else { return }
        var lift = last
        lift.time = liftTime
        strokes[index].samples.append(lift)
        // The lift repeats the last position (already counted if clamped); only its time can be repaired.
        countRetime()
    }

    /// Appends `sample`; false when the gesture is full.
    private mutating func append(_ sample: Sample, to index: Int) -> Bool {
        guard reserveSample() else { return false }
        strokes[index].samples.append(sample)
        return true
    }

    /// Counts what was changed in the sample just recorded for `point`:
    /// its time (when its frame went back in time) and the values clamped
    /// into the axes.
    private mutating func countRepairs(of point: ContactPoint) {
        countRetime()
        // One axis at a time, not an array of the four: this runs for every sample.
        let geometry = profile.geometry
        countClamping(axis: 0, range: geometry.x, value: point.x)
        countClamping(axis: 1, range: geometry.y, value: point.y)
        countClamping(axis: 2, range: geometry.pressure, value: point.pressure)
        countClamping(axis: 3, range: geometry.size, value: point.size)
    }

    /// Counts `value` on `axis` (x, y, pressure, size) when it lies outside `range`.
    private mutating func countClamping(axis index: Int, range: AxisRange?, value: Int?) {
        guard let range, let value, value < range.minimum || value > range.maximum else { return }
        let distance = { (value: Int) in value < range.minimum ? range.minimum - value : value - range.maximum }
        let counts = clampCounts[index]
        clampCounts[index] = (
            counts.samples + 1, counts.samples == 0 || distance(value) > distance(counts.farthest) ? value : counts.farthest
        )
    }

    /// Counts a sample whose time was raised to the latest frame time.
    private mutating func countRetime() {
        guard currentStepBack > .zero else { return }
        retiming.retimedSamples += 1
        currentFrameRetimed = true
    }

    /// Counts one more sample; false (and the limit marked) when the
    /// gesture is full.
    private mutating func reserveSample() -> Bool {
        guard !limitReached, sampleCount < sampleLimit else {
            limitReached = true
            return false
        }
        sampleCount += 1
        return true
    }

    /// The sample for `point` at kernel time `time`, clamped into the
    /// geometry; `nil` (and the limit marked) beyond the longest gesture.
    private mutating func makeSample(_ point: ContactPoint, at time: Microseconds) -> Sample? {
        let relativeTime = Self.relative(time, to: startTime ?? time)
        guard relativeTime <= GestureLimits.maximumDuration else {
            limitReached = true
            return nil
        }
        let geometry = profile.geometry
        return Sample(
            time: relativeTime, x: geometry.x.clamp(point.x), y: geometry.y.clamp(point.y),
            pressure: geometry.pressure.clampOptional(point.pressure), size: geometry.size.clampOptional(point.size))
    }

    /// Whether a stroke whose last sample is `last` has a new `sample`
    /// (a `nil` sample, past the limits, counts as moved so the limit is marked).
    private static func moved(from last: Sample, to sample: Sample?) -> Bool {
        guard let sample else { return true }
        return sample.x != last.x || sample.y != last.y || sample.pressure != last.pressure || sample.size != last.size
    }

    /// `time − start`, at least 0, saturating instead of overflowing.
    static func relative(_ time: Microseconds, to start: Microseconds) -> Microseconds {
        let (difference, overflow) = time.rawValue.subtractingReportingOverflow(start.rawValue)
        if overflow { return Microseconds(time.rawValue < start.rawValue ? 0 : Int64.max) }
        return Microseconds(max(0, difference))
    }

    private var limitDescription: String {
        if strokes.count >= GestureLimits.maximumStrokes { return "\(GestureLimits.maximumStrokes) strokes" }
        if sampleCount >= sampleLimit { return "\(sampleLimit) samples" }
        return GestureLimits.maximumDurationWords
    }

    // MARK: Finishing

    /// The gesture recorded so far.
    ///
    /// Contacts still down are ended at their last sample (no sample is
    /// invented at the moment of stopping), so nothing recorded is lost.
    /// Strokes are kept as drawn: merging strokes drawn one after another
    /// (`record --sequential`) is the caller's step (GestureEngine's
    /// `SequentialMerge`), so recording does not depend on editing.
    ///
    /// - Parameters:
    ///   - details: The name and metadata the caller supplies; the device
    ///     name and the dropped-event count come from the recorder.
    ///   - reason: Why recording stopped, kept in the result.
    /// - Throws: ``RecordingError/noContact`` when no stroke was recorded.
    public func finish(_ details: RecordingDetails, reason: RecordingStopReason) throws(RecordingError) -> RecordedGesture {
        guard !strokes.isEmpty else { throw .noContact }
        // Every sample written to the temporary file readable from here on, or the import fails.
        try spill?.finish()
        var warnings: [String] = []
        let stillDown = openStrokes.count
        if stillDown > 0 {
            warnings.append(
                stillDown == 1
                    ? "1 contact was still down when recording stopped; it ends at its last sample"
                    : "\(stillDown) contacts were still down when recording stopped; they end at their last samples")
        }
        if droppedEventCount > 0 {
            warnings.append(
                "the kernel dropped events \(droppedEventCount == 1 ? "once" : "\(droppedEventCount) times"); touches that began and ended in a gap are lost"
            )
        }
        if limitReached { warnings.append("the recording reached the limit of \(limitDescription) and was cut short") }
        let estimated = strokes.count(where: \.isEstimated)
        if estimated > 0 {
            warnings.append(
                "the device reported more fingers down (BTN_TOOL_DOUBLETAP…QUINTTAP, or a slot without a position) than it tracked: "
                    + (estimated == 1 ? "1 finger was" : "\(estimated) fingers were")
                    + " placed beside the tracked ones and marked \"estimated\"")
        }
        warnings += repairs.messages

        let metadata = RecordingMetadata(
            recordedAt: details.recordedAt, tool: details.tool, deviceName: profile.deviceName,
            deviceID: details.deviceID, droppedEvents: droppedEventCount)
        var gesture = Gesture(name: details.name, device: profile.geometry, strokes: strokes.map(\.stroke), metadata: metadata)
        gesture.sortStrokes()
        // The fingers the device reported down, tracked or not, so that the
        // gesture plays with all of them (within what uinput accepts).
        if estimated > 0 { gesture.device.slots = min(max(gesture.device.slots, gesture.maximumSimultaneousContacts), 100) }

        return RecordedGesture(
            gesture: gesture, stopReason: reason, contactsEndedAtFinish: stillDown, warnings: warnings, repairs: repairs)
    }

    /// What was changed so far to keep the gesture valid (see
    /// ``RecordingRepairs``); ``finish(_:reason:)`` puts it in the result
    /// and its warnings.
    public var repairs: RecordingRepairs {
        var repairs = retiming
        let geometry = profile.geometry
        let axes: [(String, AxisRange?)] = [("x", geometry.x), ("y", geometry.y), ("pressure", geometry.pressure), ("size", geometry.size)]
        for (index, (axis, range)) in axes.enumerated() where clampCounts[index].samples > 0 {
            guard let range else { continue }
            repairs.clampings.append(
                RecordingRepairs.Clamping(
                    axis: axis, range: range, samples: clampCounts[index].samples, farthest: clampCounts[index].farthest))
        }
        return repairs
    }
}
