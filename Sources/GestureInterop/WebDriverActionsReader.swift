import GestureModel
import InputSystem

/// Reads a W3C WebDriver Actions payload (`{"actions": [...]}`) back into
/// the events of a multi-touch screen the size of the viewport.
///
/// Every `pointer` source is one contact slot, whatever its `pointerType`
/// (a mouse that presses and drags draws a stroke like a finger). The
/// ticks are run as WebDriver runs them: tick *n* holds every source's
/// *n*th action and lasts as long as its longest `pause` or
/// `pointerMove`; a source with fewer actions takes no part in later
/// ticks. A `pointerMove` reaches its target at the end of its tick;
/// `pointerDown` and `pointerUp` happen at the end of theirs
/// (`pointerCancel` is an up). Moves with origin `viewport` (the default)
/// or `pointer` (relative) are understood; an element origin cannot be
/// resolved without the page and is refused. `key`, `none` and `wheel`
/// sources count for the ticks' durations and are otherwise skipped.
///
/// The device: `ABS_MT_POSITION_X` 0…width−1 and `_Y` 0…height−1 of the
/// viewport with resolution 0 (the size in millimetres is unknown),
/// `INPUT_PROP_DIRECT`, one slot per pointer source.
public enum WebDriverActionsReader {
    /// The most pointer sources (slots) a payload may have.
    public static let maximumPointers = 64
    /// The name of the device the events are given for.
    public static let deviceName = "WebDriver touch pointers"

    /// What the payload describes.
    public struct Recording: Hashable, Sendable {
        /// A touchscreen the size of the viewport, one slot per pointer.
        public var description: InputDeviceDescription
        /// The events, with times in µs from the first tick.
        public var events: [InputEvent]
        /// The viewport used: the one given, or the smallest holding every
        /// position of the payload.
        public var viewport: WebDriverViewport
    }

    /// Reads the payload's bytes. Positions are in `viewport`; without one,
    /// the smallest viewport holding every position is used.
    public static func read(bytes: [UInt8], source: String, viewport: WebDriverViewport? = nil) throws(InteropError) -> Recording {
        let result: Result<Recording, InteropError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(InteropError) {
                var input = JSONInput(bytes: buffer, source: source, lenient: false)
                let sources = try readPayload(&input)
                return .success(try run(sources, viewport: viewport, input: input))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads a text; see ``read(bytes:source:viewport:)``.
    public static func read(_ text: String, source: String, viewport: WebDriverViewport? = nil) throws(InteropError) -> Recording {
        try read(bytes: Array(text.utf8), source: source, viewport: viewport)
    }

    // MARK: Reading

    enum Kind { case pointer, other }

    struct Action {
        enum Kind { case pause, move, down, up, other }
        var kind: Kind
        var duration: Int64 = 0
        var x: Double = 0
        var y: Double = 0
        var relative = false
        var offset: Int
    }

    struct Source {
        var kind: Kind
        var id: String
        var actions: [Action]
        var offset: Int
        /// The source's place in the payload, for messages (`actions[0]`).
        var index = 0

        /// `actions[S].actions[A]`, as messages name an action.
        func actionName(_ action: Int) -> String { "actions[\(index)].actions[\(action)]" }
    }

    /// The longest tick accepted: as long as the longest gesture.
    static let maximumDuration = GestureLimits.maximumDuration.rawValue / 1_000

    static func readPayload(_ input: inout JSONInput) throws(InteropError) -> [Source] {
        var sources: [Source]?
        input.scanner.skipWhitespace()
        let start = input.scanner.position
        try input.object("the payload") { (input, key, offset) throws(InteropError) in
            switch key {
            case "actions":
                var list: [Source] = []
                try input.array("actions") { (input, index) throws(InteropError) in
                    list.append(try readSource(&input, index: index))
                }
                sources = list
            default: try input.skipValue()
            }
        }
        input.scanner.skipWhitespace()
        if !input.scanner.isAtEnd {
            throw input.error(.malformed, "text after the payload's closing '}'")
        }
        guard let sources else {
            throw input.error(.malformed, "no \"actions\" in the payload", at: start)
        }
        return sources
    }

    static func readSource(_ input: inout JSONInput, index: Int) throws(InteropError) -> Source {
        let at = input.scanner.position
        let what = "actions[\(index)]"
        var type: String?
        var id = "\(index + 1)"
        var actions: [Action]?
        try input.object(what) { (input, key, offset) throws(InteropError) in
            switch key {
            case "type": type = try input.string("\(what).type")
            case "id": id = try input.string("\(what).id")
            case "parameters":
                try input.object("\(what).parameters") { (input, parameter, _) throws(InteropError) in
                    if parameter == "pointerType" {
                        let pointerType = try input.string("\(what).parameters.pointerType")
                        guard ["touch", "mouse", "pen"].contains(pointerType) else {
                            throw input.error(.malformed, "\(what).parameters.pointerType \"\(pointerType)\": WebDriver knows mouse, pen and touch")
                        }
                    } else {
                        try input.skipValue()
                    }
                }
            case "actions":
                var list: [Action] = []
                try input.array("\(what).actions") { (input, item) throws(InteropError) in
                    list.append(try readAction(&input, what: "\(what).actions[\(item)]"))
                }
                actions = list
            default: try input.skipValue()
            }
        }
        guard let type else { throw input.error(.malformed, "\(what) has no \"type\"", at: at) }
        guard let actions else { throw input.error(.malformed, "\(what) has no \"actions\"", at: at) }
        let kind: Kind
        switch type {
        case "pointer": kind = .pointer
        case "key", "none", "wheel": kind = .other
        default:
            throw input.error(.malformed, "\(what).type \"\(type)\": WebDriver knows pointer, key, wheel and none", at: at)
        }
        for action in actions where kind == .other && (action.kind == .move || action.kind == .down || action.kind == .up) {
            throw input.error(.malformed, "\(what): a \(type) source cannot have pointer actions", at: action.offset)
        }
        return Source(kind: kind, id: id, actions: actions, offset: at, index: index)
    }

    static func readAction(_ input: inout JSONInput, what: String) throws(InteropError) -> Action {
        input.scanner.skipWhitespace()
        var action = Action(kind: .other, offset: input.scanner.position)
        var type: String?
        try input.object(what) { (input, key, keyOffset) throws(InteropError) in
            switch key {
            case "type": type = try input.string("\(what).type")
            case "duration": action.duration = try input.integer("\(what).duration", in: 0...maximumDuration)
            case "x": action.x = try input.number("\(what).x", in: -maximumCoordinate...maximumCoordinate)
            case "y": action.y = try input.number("\(what).y", in: -maximumCoordinate...maximumCoordinate)
            case "origin":
                input.scanner.skipWhitespace()
                guard input.scanner.current == UInt8(ascii: "\"") else {
                    throw input.error(
                        .malformed, "\(what).origin: an element cannot be resolved without the page; use \"viewport\" or \"pointer\"")
                }
                let origin = try input.string("\(what).origin")
                switch origin {
                case "viewport": action.relative = false
                case "pointer": action.relative = true
                default:
                    throw input.error(.malformed, "\(what).origin \"\(origin)\": use \"viewport\" or \"pointer\"", at: keyOffset)
                }
            default: try input.skipValue()  // button, width, pressure, value, …
            }
        }
        guard let type else { throw input.error(.malformed, "\(what) has no \"type\"", at: action.offset) }
        switch type {
        case "pause": action.kind = .pause
        case "pointerMove": action.kind = .move
        case "pointerDown": action.kind = .down
        case "pointerUp", "pointerCancel": action.kind = .up
        case "keyDown", "keyUp", "scroll": action.kind = .other
        default:
            throw input.error(.malformed, "\(what).type \"\(type)\" is not a WebDriver action", at: action.offset)
        }
        if action.kind == .pause || action.kind == .move || type == "scroll" {
            // Only these take time.
        } else {
            action.duration = 0
        }
        return action
    }

    // MARK: Running the ticks

    static func run(_ sources: [Source], viewport given: WebDriverViewport?, input: JSONInput) throws(InteropError) -> Recording {
        let pointers = sources.indices.filter { sources[$0].kind == .pointer }
        if pointers.count > maximumPointers {
            throw input.error(
                .tooLarge, "\(pointers.count) pointer sources; at most \(maximumPointers) fingers are read",
                at: sources[pointers[maximumPointers]].offset)
        }
        var seen = Set<String>()
        for source in sources where !seen.insert(source.id).inserted {
            throw input.error(.malformed, "two sources have the id \"\(source.id)\"", at: source.offset)
        }
        struct Pointer {
            var x = 0.0
            var y = 0.0
            var down = false
        }
        var state = [Pointer](repeating: Pointer(), count: pointers.count)
        var positions: [(slot: Int, x: Double, y: Double, down: Bool, time: Int64, change: Bool)] = []
        let tickCount = sources.map(\.actions.count).max() ?? 0
        var time: Int64 = 0
        var largestX = 0.0
        var largestY = 0.0
        for tick in 0..<tickCount {
            var duration: Int64 = 0
            var longest = 0
            for source in sources where tick < source.actions.count && source.actions[tick].duration >= duration {
                duration = source.actions[tick].duration
                longest = source.actions[tick].offset
            }
            time += duration * 1_000
            if time > GestureLimits.maximumDuration.rawValue {
                throw input.error(
                    .tooLarge, "the ticks add up to more than \(GestureLimits.maximumDuration.rawValue / 3_600_000_000) hours, the longest gesture",
                    at: longest)
            }
            for (slot, index) in pointers.enumerated() where tick < sources[index].actions.count {
                let action = sources[index].actions[tick]
                switch action.kind {
                case .move:
                    state[slot].x = action.relative ? state[slot].x + action.x : action.x
                    state[slot].y = action.relative ? state[slot].y + action.y : action.y
                    // Relative moves can add up past what one move may give:
                    // said as the sum it is, not clamped to the limit.
                    if abs(state[slot].x) > maximumCoordinate || abs(state[slot].y) > maximumCoordinate {
                        let (axis, value) =
                            abs(state[slot].x) > maximumCoordinate ? ("x", state[slot].x) : ("y", state[slot].y)
                        throw input.error(
                            .outOfRange,
                            "\(sources[index].actionName(tick)): the relative moves add up to \(axis) = "
                                + "\(DecimalText.shortest(value)), beyond ±1000000000",
                            at: action.offset)
                    }
                    largestX = max(largestX, state[slot].x)
                    largestY = max(largestY, state[slot].y)
                    if state[slot].down {
                        positions.append((slot, state[slot].x, state[slot].y, true, time, false))
                    }
                case .down where !state[slot].down:
                    state[slot].down = true
                    positions.append((slot, state[slot].x, state[slot].y, true, time, true))
                case .up where state[slot].down:
                    state[slot].down = false
                    positions.append((slot, state[slot].x, state[slot].y, false, time, true))
                default: break
                }
            }
        }
        let viewport = given ?? extentViewport(largestX: largestX, largestY: largestY)
        let description = touchscreen(viewport: viewport, slots: max(1, pointers.count))
        var events: [InputEvent] = []
        events.reserveCapacity(positions.count * 4)
        var trackingID: Int32 = 0
        var downCount = 0
        var index = 0
        while index < positions.count {
            let frameTime = Microseconds(positions[index].time)
            let before = downCount
            // Every change at one time is one frame, except that a slot
            // that moved or lifted in it starts the next frame to go down
            // or up: a recorder would drop a move made in a lift's frame,
            // and cannot see a lift and a touch of one slot in one frame.
            var inFrame = Set<Int>()
            while index < positions.count && positions[index].time == frameTime.rawValue {
                let position = positions[index]
                if !inFrame.insert(position.slot).inserted && position.change { break }
                events.append(InputEvent(time: frameTime, type: .absolute, code: .multitouchSlot, value: Int32(position.slot)))
                if position.change {
                    if position.down {
                        trackingID = trackingID == 65_535 ? 0 : trackingID + 1
                        downCount += 1
                        events.append(InputEvent(time: frameTime, type: .absolute, code: .multitouchTrackingID, value: trackingID))
                    } else {
                        downCount -= 1
                        events.append(InputEvent(time: frameTime, type: .absolute, code: .multitouchTrackingID, value: -1))
                        index += 1
                        continue
                    }
                }
                events.append(
                    InputEvent(time: frameTime, type: .absolute, code: .multitouchPositionX, value: clampedPixel(position.x)))
                events.append(
                    InputEvent(time: frameTime, type: .absolute, code: .multitouchPositionY, value: clampedPixel(position.y)))
                index += 1
            }
            if (before == 0) != (downCount == 0) {
                events.append(InputEvent(time: frameTime, type: .key, code: .buttonTouch, value: downCount > 0 ? 1 : 0))
            }
            events.append(.synchronizationReport(time: frameTime))
        }
        return Recording(description: description, events: events, viewport: viewport)
    }

    /// The largest coordinate a position may have, either way.
    static let maximumCoordinate = 1e9

    /// The side of the viewport given to a payload whose positions span
    /// nothing at all (a tap at 0, 0), in CSS pixels.
    public static let degenerateSide = 100

    /// The smallest viewport that holds every position, when none is
    /// given. A side the positions do not span (every touch on x = 0, a
    /// swipe along the left edge) would be an axis of one value, which no
    /// device can have: it takes the other side's length instead, and a
    /// payload that spans neither (a tap at 0, 0) gets a square of
    /// ``degenerateSide``.
    static func extentViewport(largestX: Double, largestY: Double) -> WebDriverViewport {
        var width = Int(largestX.rounded()) + 1
        var height = Int(largestY.rounded()) + 1
        switch (width < 2, height < 2) {
        case (true, true): (width, height) = (degenerateSide, degenerateSide)
        case (true, false): width = max(height, 2)
        case (false, true): height = max(width, 2)
        case (false, false): break
        }
        return WebDriverViewport(width: width, height: height)
    }

    /// A position as an axis value (pixels rounded; far beyond any viewport
    /// is kept within 32 bits, and the recorder's range check then says so).
    static func clampedPixel(_ value: Double) -> Int32 {
        Int32(min(max(value.rounded(), -1e9), 1e9))
    }

    /// The touchscreen a payload plays on.
    public static func touchscreen(viewport: WebDriverViewport, slots: Int) -> InputDeviceDescription {
        InputDeviceDescription(
            name: deviceName, properties: [.direct],
            codes: [.key: [.buttonTouch]],
            absoluteAxes: [
                .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: Int32(slots - 1)),
                .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65_535),
                .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: Int32(viewport.width - 1)),
                .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: Int32(viewport.height - 1)),
            ])
    }
}
