import GestureModel
import InputSystem

/// Turns a gesture into the evdev frames that play it on a target device.
///
/// Every frame ends with `SYN_REPORT 0` and holds at most 64 events
/// including it (libinput drops larger frames). Only values that changed
/// since the previous frame are written, judged against a ``DeviceState``
/// as the kernel judges them. Event times are zero, so that the kernel
/// stamps the events itself; a frame's ``InputFrame/time`` is when it is
/// due, from the start of the play.
///
/// - Touchscreen and touchpad: multi-touch protocol B. Slots are taken
///   lowest free first (a slot freed in a frame is reused from the next
///   one); tracking ids increase from the state's last one (wrapping at the
///   axis maximum); `BTN_TOUCH` goes to 1 with the first contact and 0
///   with the last lift; `ABS_X`/`ABS_Y` follow the oldest contact, as the
///   kernel's pointer emulation does. A touchpad also gets exactly one
///   `BTN_TOOL_*` for the finger count while anything touches.
/// - Mouse: relative moves and a button per stroke.
/// - Tablet: one pen at a time, with proximity, touch and pressure.
///
/// Speed and repetitions are applied here (``PlaybackOptions``): the
/// frames' times are already scaled, and repetition *n + 1* starts
/// ``PlaybackOptions/repeatGap`` after repetition *n*'s last frame.
/// Tracking ids keep increasing across repetitions.
public struct FrameBuilder: Sendable {
    /// The most events in one frame, the `SYN_REPORT` included.
    public static let maximumEventsPerFrame = 64
    /// The most contacts held at once, whatever the slots: a frame then
    /// needs at most 4 events per slot (`ABS_MT_SLOT`, `TRACKING_ID`,
    /// `POSITION_X`, `POSITION_Y`; a slot never lifts and touches down in
    /// the same frame) plus `BTN_TOUCH`, two `BTN_TOOL_*`, `ABS_X`, `ABS_Y`
    /// and `SYN_REPORT`: 14 × 4 + 6 = 62 ≤ 64, so a frame without optional
    /// axes always fits. Ten-finger gestures fit with room to spare.
    public static let maximumContacts = 14
    /// The most events of a play held in memory, all repetitions together
    /// (16 million, about 256 MB), so that `--repeat` cannot exhaust memory.
    /// It limits repetitions only: one repetition of any valid gesture is
    /// always accepted, and frames made one at a time have no limit: text
    /// written frame by frame (``forEachFrame(for:from:_:)``: export,
    /// `play --print`) and a play streamed from its gesture (``FrameStream``,
    /// every play longer than a look-ahead), which holds a look-ahead of
    /// frames however many the repetitions.
    public static let maximumEvents = 16_000_000

    /// The device played on.
    public let target: VirtualDeviceProfile
    /// Placement, speed and repetitions.
    public let options: PlaybackOptions

    /// Creates a builder after checking the options and that the target
    /// has what its kind needs: slots, tracking ids and positions for touch;
    /// `REL_X`/`REL_Y` and `BTN_LEFT` for a mouse; `ABS_X`/`ABS_Y` and
    /// `BTN_TOOL_PEN` for a tablet. A keyboard or other kind plays nothing.
    /// - Throws: ``PlaybackError/invalidOption(name:message:)``,
    ///   ``PlaybackError/targetLacks(device:kind:missing:)``, or
    ///   ``PlaybackError/cannotClassify(device:)`` for a keyboard or other.
    public init(target: VirtualDeviceProfile, options: PlaybackOptions = PlaybackOptions()) throws(PlaybackError) {
        try options.validate()
        let description = target.description
        func require(_ type: EventType, _ codes: [EventCode]) throws(PlaybackError) {
            for code in codes where !description.supports(type, code) {
                throw .targetLacks(device: description.name, kind: target.kind, missing: code.nameOrNumber(type: type))
            }
        }
        func requireAxes(_ codes: [EventCode]) throws(PlaybackError) {
            try require(.absolute, codes)
            for code in codes {
                guard let axis = description.absoluteAxes[code], axis.maximum > axis.minimum else {
                    throw .targetLacks(
                        device: description.name, kind: target.kind,
                        missing: "usable range on \(code.nameOrNumber(type: .absolute))")
                }
            }
        }
        switch target.kind {
        case .touchscreen, .touchpad:
            try requireAxes([.multitouchPositionX, .multitouchPositionY, .multitouchTrackingID])
            try require(.absolute, [.multitouchSlot])
            if description.slotCount < 1 {
                throw .targetLacks(device: description.name, kind: target.kind, missing: "ABS_MT_SLOT range")
            }
            if let ids = description.absoluteAxes[.multitouchTrackingID], ids.maximum < 0 {
                throw .targetLacks(device: description.name, kind: target.kind, missing: "tracking ids ≥ 0")
            }
        case .mouse:
            try require(.relative, [.relativeX, .relativeY])
            try require(.key, [.buttonLeft])
        case .tablet:
            try requireAxes([.absoluteX, .absoluteY])
            try require(.key, [.buttonToolPen])
        case .keyboard, .other:
            throw .cannotClassify(device: description.name)
        }
        self.target = target
        self.options = options
    }

    /// The frames that play `gesture`, all repetitions included, starting
    /// from `state` (default: a freshly created device), e.g. a session's
    /// state after earlier plays so that the selected slot and tracking ids
    /// carry on. The last frame leaves everything lifted and released.
    ///
    /// One repetition of any valid gesture is always accepted; more are
    /// refused when all of them together would exceed ``maximumEvents``
    /// (the frames are held in memory). Writers of text use
    /// ``forEachFrame(for:from:_:)``, which holds one frame at a time.
    ///
    /// - Throws: ``PlaybackError/invalidGesture(_:)`` (see
    ///   ``Gesture/validate()``); ``PlaybackError/tooManyContacts(contacts:limit:device:at:)``
    ///   when more contacts are held at once than the target has slots (or
    ///   than ``maximumContacts``); ``PlaybackError/oneContactOnly(kind:contacts:)``
    ///   for several at once on a mouse or tablet;
    ///   ``PlaybackError/tooManyEvents(limit:repetitions:)``. All before any frame is played.
    ///   `eventLimit` is ``maximumEvents`` but for tests.
    public func frames(
        for gesture: Gesture, from state: DeviceState? = nil, eventLimit: Int = FrameBuilder.maximumEvents
    ) throws(PlaybackError) -> [InputFrame] {
        try frames(of: try checkedTimeline(gesture), gesture: gesture, from: state, eventLimit: eventLimit)
    }

    /// ``frames(for:from:eventLimit:)`` of a gesture whose timeline is checked already.
    fileprivate func frames(
        of timeline: ContactTimeline, gesture: Gesture, from state: DeviceState?, eventLimit: Int
    ) throws(PlaybackError) -> [InputFrame] {
        var frames: [InputFrame] = []
        var eventCount = 0
        try forEachFrame(of: timeline, gesture: gesture, from: state) { (frame: InputFrame, repetition: Int) -> Bool in
            eventCount += frame.events.count
            if repetition > 0 && eventCount > eventLimit { return false }
            frames.append(frame)
            return true
        }
        if eventCount > eventLimit && options.repeatCount > 1 {
            throw .tooManyEvents(limit: eventLimit, repetitions: options.repeatCount)
        }
        return frames
    }

    /// Checks `gesture` against the target, then calls `body` with each
    /// frame that plays it, in order, and the repetition it belongs to
    /// (0 for the first), until `body` returns false. Only one moment's
    /// frames exist at a time, so the memory used does not grow with the
    /// gesture's length or the repetitions: for writing a long play as text.
    ///
    /// - Throws: as ``frames(for:from:)`` (but never too many events),
    ///   every check before the first frame.
    public func forEachFrame(
        for gesture: Gesture, from state: DeviceState? = nil, _ body: (InputFrame, Int) -> Bool
    ) throws(PlaybackError) {
        try forEachFrame(of: try checkedTimeline(gesture), gesture: gesture, from: state, body)
    }

    fileprivate func forEachFrame(
        of timeline: ContactTimeline, gesture: Gesture, from state: DeviceState?, _ body: (InputFrame, Int) -> Bool
    ) throws(PlaybackError) {
        var deviceState = state ?? DeviceState(description: target.description)
        var writer = try makeWriter(for: gesture)
        var offset = Microseconds.zero
        var lastTime: Microseconds?
        // One moment's frames: one array, emptied for each moment.
        var momentFrames: [InputFrame] = []
        for repetition in 0..<options.repeatCount {
            var stopped = false
            try timeline.forEachMoment { (moment: Moment) throws(PlaybackError) -> Bool in
                momentFrames.removeAll(keepingCapacity: true)
                try writer.appendFrames(for: moment, at: offset + moment.time, state: &deviceState, to: &momentFrames)
                for frame in momentFrames {
                    lastTime = frame.time
                    guard body(frame, repetition) else {
                        stopped = true
                        return false
                    }
                }
                return true
            }
            if stopped { return }
            offset = (lastTime ?? offset) + options.repeatGap
        }
    }

    /// Checks `gesture` against the target as building its frames would,
    /// without building them: valid, and never more contacts at once than
    /// the target takes. What is left for building to refuse is only the
    /// event limit of many repetitions (``PlaybackError/tooManyEvents(limit:repetitions:)``).
    /// A queue checks a play with it when the play is queued, and builds
    /// its frames from the result when its turn comes, without checking
    /// the gesture a second time.
    /// - Throws: as ``frames(for:from:eventLimit:)``, but never too many events.
    @discardableResult
    public func check(_ gesture: Gesture) throws(PlaybackError) -> CheckedGesture {
        CheckedGesture(builder: self, timeline: try checkedTimeline(gesture), gesture: gesture)
    }

    private func checkedTimeline(_ gesture: Gesture) throws(PlaybackError) -> ContactTimeline {
        do throws(GestureValidationError) {
            try gesture.validate()
        } catch {
            throw .invalidGesture(error)
        }
        let timeline = ContactTimeline(gesture: gesture, speed: options.speed, liftDelay: options.liftDelay)
        let most = timeline.mostContacts
        switch target.kind {
        case .touchscreen, .touchpad:
            let limit = min(target.description.slotCount, Self.maximumContacts)
            if most.count > limit {
                throw .tooManyContacts(contacts: most.count, limit: limit, device: target.description.name, at: most.time)
            }
        case .mouse, .tablet:
            if most.count > 1 { throw .oneContactOnly(kind: target.kind, contacts: most.count) }
        case .keyboard, .other:
            break  // refused by init
        }
        return timeline
    }

    /// The frame that lifts every contact and releases every button of
    /// `state` (see ``DeviceState/liftAllFrame(time:)``); `nil` when
    /// nothing is down. Used when a play is aborted.
    public func liftAllFrame(state: DeviceState, time: Microseconds = .zero) -> InputFrame? {
        state.liftAllFrame(time: time)
    }

    private func makeWriter(for gesture: Gesture) throws(PlaybackError) -> any FrameWriter {
        let description = target.description
        switch target.kind {
        case .touchscreen, .touchpad:
            return TouchFrameWriter(gesture: gesture, target: target, options: options)
        case .mouse:
            return MouseFrameWriter(gesture: gesture, description: description, options: options)
        case .tablet:
            return PenFrameWriter(gesture: gesture, description: description, options: options)
        case .keyboard, .other:
            throw .cannotClassify(device: description.name)  // refused by init
        }
    }
}

/// A gesture that passed ``FrameBuilder/check(_:)``: valid, and playable
/// on the builder's target with its options. Its frames are built without
/// checking it again. It shares the gesture's storage (no copy of the samples).
public struct CheckedGesture: Sendable {
    /// The builder it was checked by: its target and options.
    public let builder: FrameBuilder
    fileprivate let timeline: ContactTimeline
    fileprivate let gesture: Gesture

    /// The frames, as ``FrameBuilder/frames(for:from:eventLimit:)`` builds
    /// them, but without its checks, made already.
    public func frames(from state: DeviceState? = nil, eventLimit: Int = FrameBuilder.maximumEvents) throws(PlaybackError)
        -> [InputFrame]
    {
        try builder.frames(of: timeline, gesture: gesture, from: state, eventLimit: eventLimit)
    }

    /// Whether its frames surely fit in `limit` (a stream's look-ahead):
    /// at most `limit` samples and lifts over all its repetitions, as a
    /// frame needs at least one of them (a mouse's moment may make two or
    /// three frames: still few). Known without reading a sample (a mapped
    /// stroke knows its count). A play builds such a gesture's frames into
    /// a list at once, as it always did: a stream's thread would only delay
    /// its first frame (the daemon's taps and swipes); a longer one streams.
    public func fits(in limit: Int = FrameStream.defaultLookAhead) -> Bool {
        let perRepetition = gesture.sampleCount + gesture.strokes.count
        let (total, overflow) = perRepetition.multipliedReportingOverflow(by: builder.options.repeatCount)
        return !overflow && total <= limit
    }

    /// Calls `body` with each frame, as ``FrameBuilder/forEachFrame(for:from:_:)``
    /// does, but without its checks, made already: one moment's frames at a
    /// time, however long the gesture and however many its repetitions
    /// (no event limit: nothing is held). A play streams them
    /// (``FrameStream``).
    /// - Throws: ``PlaybackError`` only from building a frame
    ///   (``PlaybackError/frameTooLarge(events:at:)``), never a check's.
    public func forEachFrame(from state: DeviceState? = nil, _ body: (InputFrame, Int) -> Bool) throws(PlaybackError) {
        try builder.forEachFrame(of: timeline, gesture: gesture, from: state, body)
    }
}

/// Builds the frames of one kind of device, moment by moment, keeping
/// what it needs between moments (slots, pointer position).
protocol FrameWriter {
    /// Appends the frames that take readers who know `state` through
    /// `moment`, at `time`; `state` follows them.
    mutating func appendFrames(
        for moment: Moment, at time: Microseconds, state: inout DeviceState, to frames: inout [InputFrame]
    ) throws(PlaybackError)
}

/// The absolute, relative and key codes a device supports, as bit sets
/// made once per play: asking is a shift, where the description's
/// dictionary of sets costs two hash lookups for every value of every frame.
struct SupportedCodes: Sendable {
    private var absolute: UInt64 = 0
    private var relative: UInt64 = 0
    /// Key codes 0 … `KEY_MAX` (0x2ff), 64 to a word.
    private var keys = [UInt64](repeating: 0, count: 12)

    init(_ description: InputDeviceDescription) {
        for code in description.codes[.absolute] ?? [] where code.rawValue < 64 { absolute |= 1 << UInt64(code.rawValue) }
        for code in description.codes[.relative] ?? [] where code.rawValue < 64 { relative |= 1 << UInt64(code.rawValue) }
        for code in description.codes[.key] ?? [] where Int(code.rawValue) < keys.count * 64 {
            keys[Int(code.rawValue) / 64] |= 1 << UInt64(code.rawValue % 64)
        }
    }

    /// Whether the device has `code` of `type` (always false for a type
    /// other than absolute, relative and key: frames write no other).
    func supports(_ type: EventType, _ code: EventCode) -> Bool {
        let raw = Int(code.rawValue)
        switch type {
        case .absolute: return raw < 64 && absolute & (1 << UInt64(raw)) != 0
        case .relative: return raw < 64 && relative & (1 << UInt64(raw)) != 0
        case .key: return raw < keys.count * 64 && keys[raw / 64] & (1 << UInt64(raw % 64)) != 0
        default: return false
        }
    }
}

/// An event list being built against a state: each value is written only
/// when it differs from the state's, and the state follows.
///
/// It takes the caller's state over while the frame is built (``init(supported:taking:capacity:)``)
/// and gives it back at the end (``end(at:into:)``): the state's arrays are
/// then referenced once, so setting a value changes them in place, where a
/// copy of the state would copy them for every frame.
struct FrameAssembler {
    let supported: SupportedCodes
    private(set) var state: DeviceState
    private(set) var events: [InputEvent] = []

    /// Starts a frame against `state`, which is left empty (``DeviceState/init()``)
    /// until ``end(at:into:)``; room for `capacity` events is made at once.
    init(supported: SupportedCodes, taking state: inout DeviceState, capacity: Int = 8) {
        self.supported = supported
        self.state = state
        state = DeviceState()
        events.reserveCapacity(capacity)
    }

    /// Sets a non-slot absolute axis, if the device has it.
    mutating func setAbsolute(_ code: EventCode, _ value: Int32) {
        guard supported.supports(.absolute, code), state.absoluteValue(code) != value else { return }
        append(InputEvent(type: .absolute, code: code, value: value))
    }

    /// Sets an `ABS_MT_*` value in `slot`, selecting the slot first if needed.
    mutating func setSlotValue(_ slot: Int, _ code: EventCode, _ value: Int32) {
        guard supported.supports(.absolute, code), state.slotValue(slot: slot, code: code) != value else { return }
        if state.currentSlot != slot { append(InputEvent(type: .absolute, code: .multitouchSlot, value: Int32(slot))) }
        append(InputEvent(type: .absolute, code: code, value: value))
    }

    /// Presses or releases a key, if the device has it.
    mutating func setKey(_ code: EventCode, _ down: Bool) {
        guard supported.supports(.key, code), state.pressedKeys.contains(code) != down else { return }
        append(InputEvent(type: .key, code: code, value: down ? 1 : 0))
    }

    /// Adds a relative move, if non-zero and the device has the axis.
    mutating func addRelative(_ code: EventCode, _ value: Int32) {
        guard value != 0, supported.supports(.relative, code) else { return }
        append(InputEvent(type: .relative, code: code, value: value))
    }

    private mutating func append(_ event: InputEvent) {
        events.append(event)
        state.apply(event)
    }

    /// Ends the frame: puts the state, with the frame's events applied,
    /// into `state`, and returns the frame at `time`, ended by
    /// `SYN_REPORT 0`; `nil` when nothing changed.
    mutating func end(at time: Microseconds, into state: inout DeviceState) -> InputFrame? {
        swap(&state, &self.state)
        guard !events.isEmpty else { return nil }
        events.append(.synchronizationReport())
        defer { events = [] }
        return InputFrame(time: time, events: events)
    }
}
