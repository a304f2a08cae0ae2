import GestureModel
import InputSystem

/// A viewport in CSS pixels: where WebDriver's `pointerMove` coordinates
/// (origin `viewport`) live.
public struct WebDriverViewport: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels, 1…``maximumSide``.
    public var width: Int
    /// Height in pixels, 1…``maximumSide``.
    public var height: Int
    /// The largest side accepted: far beyond any screen, small enough that
    /// coordinates stay exact in every client.
    public static let maximumSide = 100_000

    /// Creates a viewport (sides clamped into 1…``maximumSide``).
    public init(width: Int, height: Int) {
        self.width = min(max(width, 1), Self.maximumSide)
        self.height = min(max(height, 1), Self.maximumSide)
    }

    /// CSS pixels per millimetre: the CSS pixel is 1/96 inch.
    public static let pixelsPerMillimetre = 96.0 / 25.4

    /// The viewport of a surface `width` × `height` mm at 96 CSS pixels per
    /// inch: touches keep their size in millimetres on a browser at zoom 1.
    public init(millimetresWide width: Double, high height: Double) {
        func pixels(_ millimetres: Double) -> Int {
            guard millimetres.isFinite, millimetres > 0 else { return 1 }
            return Int(min((millimetres * Self.pixelsPerMillimetre).rounded(), Double(Self.maximumSide)))
        }
        self.init(width: pixels(width), height: pixels(height))
    }

    /// Reads `WxH` (`1080x1920`); nil for anything else or a side outside
    /// 1…``maximumSide``.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let width = Int(parts[0]), let height = Int(parts[1]),
            (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height)
        else { return nil }
        self.init(width: width, height: height)
    }

    /// `WxH`.
    public var description: String { "\(width)x\(height)" }
}

/// Writes a W3C WebDriver Actions payload (`POST /session/{id}/actions`,
/// Selenium's and Appium's "perform actions") that plays a multi-touch
/// device's frames: one `pointer` source with `pointerType` `touch` per
/// slot the frames use (ids `finger1`, `finger2`, … in slot order).
///
/// WebDriver runs actions in ticks: each source has one action per tick,
/// and a tick lasts as long as its longest action. So every source gets
/// the same ticks. Each frame makes
///
/// 1. a move tick lasting the time since the previous frame (whole
///    milliseconds, rounded from the start so that they add up): a
///    `pointerMove` (origin `viewport`, integer x and y) for every finger
///    that is down and moved, or that is about to go down (to its first
///    position), a `pause` of the same duration for every other source;
/// 2. when a finger goes down or up in the frame, a tick of `pointerDown`
///    / `pointerUp` (button 0), with `pause`s of 0 for the others;
/// 3. for a slot whose finger lifts and another goes down in the same
///    frame, a move and a down tick more (duration 0).
///
/// The device's axis ranges map onto the viewport: minimum to pixel 0,
/// maximum to the last pixel, so touches land at the same place in
/// percent of the surface.
public struct WebDriverActionsWriter {
    /// The device the frames are for.
    public let description: InputDeviceDescription
    /// The viewport the coordinates are for.
    public let viewport: WebDriverViewport

    /// A writer for frames of `description` onto `viewport`.
    public init(description: InputDeviceDescription, viewport: WebDriverViewport) {
        self.description = description
        self.viewport = viewport
    }

    /// One source's action in one tick.
    enum Action: Equatable {
        case pause(Int64)
        case move(x: Int, y: Int, duration: Int64)
        case down
        case up
    }

    /// Writes the payload: `frames` is called once to find the slots in
    /// use, then once per source (it must give the same frames each time;
    /// the engine's frame builder does), so that memory does not grow with
    /// the gesture. `write` receives the text in pieces.
    public func write(
        frames: ((InputFrame) -> Bool) throws -> Void, write: (String) throws -> Void
    ) throws {
        // The frames' body flushes pieces through `write`; it never outlives this call.
        try withoutActuallyEscaping(write) { write in try self.write(frames: frames, escapingWrite: write) }
    }

    private func write(
        frames: ((InputFrame) -> Bool) throws -> Void, escapingWrite write: @escaping (String) throws -> Void
    ) throws {
        var slots = Set<Int32>()
        var tracker = Tracker()
        try frames { frame in
            tracker.apply(frame)
            slots.formUnion(tracker.touched)
            return true
        }
        let sources = slots.sorted()
        var text = "{\"actions\": ["
        if sources.isEmpty {
            try write(text + "]}\n")
            return
        }
        for index in sources.indices {
            text += index == 0 ? "\n" : ",\n"
            text += " {\"type\": \"pointer\", \"id\": \"finger\(index + 1)\", \"parameters\": {\"pointerType\": \"touch\"}, \"actions\": ["
            var ticks = TickMaker(writer: self, sources: sources)
            var separator = "\n  "
            var failure: (any Error)?
            try frames { frame in
                for tick in ticks.ticks(for: frame) {
                    text += separator
                    separator = ",\n  "
                    Self.append(tick[index], to: &text)
                }
                guard text.utf8.count >= 1 << 16 else { return true }
                do {
                    try write(text)
                } catch {
                    failure = error
                    return false
                }
                text.removeAll(keepingCapacity: true)
                return true
            }
            if let failure { throw failure }
            text += "\n ]}"
        }
        text += "\n]}\n"
        try write(text)
    }

    /// The whole payload for `frames` at once (tests, small gestures).
    public func document(frames: [InputFrame]) -> String {
        var text = ""
        // Harmless: nothing here throws (the frames are an array, the write appends to a string).
        try? write(
            frames: { body in
                for frame in frames where !body(frame) { break }
            },
            write: { text += $0 })
        return text
    }

    static func append(_ action: Action, to text: inout String) {
        switch action {
        case .pause(let duration): text += "{\"type\": \"pause\", \"duration\": \(duration)}"
        case .move(let x, let y, let duration):
            text += "{\"type\": \"pointerMove\", \"duration\": \(duration), \"origin\": \"viewport\", \"x\": \(x), \"y\": \(y)}"
        case .down: text += "{\"type\": \"pointerDown\", \"button\": 0}"
        case .up: text += "{\"type\": \"pointerUp\", \"button\": 0}"
        }
    }

    /// A device value as a pixel of the viewport.
    func pixel(_ value: Int32, axis: EventCode, side: Int) -> Int {
        guard let info = description.absoluteAxes[axis], info.maximum > info.minimum else { return 0 }
        let fraction = (Double(value) - Double(info.minimum)) / (Double(info.maximum) - Double(info.minimum))
        return min(max(Int((fraction * Double(side - 1)).rounded()), 0), side - 1)
    }

    /// The slots' contacts as the frames leave them (protocol B).
    struct Tracker {
        struct Contact: Equatable {
            var trackingID: Int32 = -1
            var x: Int32 = 0
            var y: Int32 = 0
        }
        var slot: Int32 = 0
        var contacts: [Int32: Contact] = [:]
        /// The slots the last frame touched.
        var touched: Set<Int32> = []

        mutating func apply(_ frame: InputFrame) {
            touched = []
            for event in frame.events where event.type == .absolute {
                switch event.code {
                case .multitouchSlot: slot = event.value
                case .multitouchTrackingID:
                    contacts[slot, default: Contact()].trackingID = event.value < 0 ? -1 : event.value
                    touched.insert(slot)
                case .multitouchPositionX:
                    contacts[slot, default: Contact()].x = event.value
                    touched.insert(slot)
                case .multitouchPositionY:
                    contacts[slot, default: Contact()].y = event.value
                    touched.insert(slot)
                default: break
                }
            }
        }
    }

    /// Turns frames into ticks, each tick one action per source.
    struct TickMaker {
        let writer: WebDriverActionsWriter
        let sources: [Int32]
        var tracker = Tracker()
        var first: Int64?
        var lastMilliseconds: Int64 = 0

        init(writer: WebDriverActionsWriter, sources: [Int32]) {
            self.writer = writer
            self.sources = sources
        }

        mutating func ticks(for frame: InputFrame) -> [[Action]] {
            let before = tracker.contacts
            // Ids of a contact seen inside the frame, to find a lift and a
            // new touch in one slot within one frame.
            var lifted = Set<Int32>()
            var slot = tracker.slot
            for event in frame.events where event.type == .absolute {
                if event.code == .multitouchSlot { slot = event.value }
                if event.code == .multitouchTrackingID && event.value < 0 { lifted.insert(slot) }
            }
            tracker.apply(frame)
            let first = self.first ?? frame.time.rawValue
            self.first = first
            let (difference, overflow) = frame.time.rawValue.subtractingReportingOverflow(first)
            let elapsed = overflow ? 0 : max(0, difference)
            let milliseconds = (elapsed + 500) / 1_000
            let duration = max(0, milliseconds - lastMilliseconds)
            lastMilliseconds = max(lastMilliseconds, milliseconds)

            var move: [Action] = []
            var buttons: [Action] = []
            var secondMove: [Action] = []
            var secondDown: [Action] = []
            var needButtons = false
            var needSecond = false
            var anyMove = false
            for source in sources {
                let old = before[source] ?? Tracker.Contact()
                let new = tracker.contacts[source] ?? Tracker.Contact()
                let wasDown = old.trackingID >= 0
                let isDown = new.trackingID >= 0
                let restarted = wasDown && isDown && (old.trackingID != new.trackingID || lifted.contains(source))
                let position = Action.move(
                    x: writer.pixel(new.x, axis: .multitouchPositionX, side: writer.viewport.width),
                    y: writer.pixel(new.y, axis: .multitouchPositionY, side: writer.viewport.height),
                    duration: duration)
                if restarted {
                    move.append(.pause(duration))
                    buttons.append(.up)
                    secondMove.append(
                        .move(
                            x: writer.pixel(new.x, axis: .multitouchPositionX, side: writer.viewport.width),
                            y: writer.pixel(new.y, axis: .multitouchPositionY, side: writer.viewport.height), duration: 0))
                    secondDown.append(.down)
                    needButtons = true
                    needSecond = true
                } else if !wasDown && isDown {
                    move.append(position)
                    anyMove = true
                    buttons.append(.down)
                    secondMove.append(.pause(0))
                    secondDown.append(.pause(0))
                    needButtons = true
                } else if wasDown && !isDown {
                    move.append(.pause(duration))
                    buttons.append(.up)
                    secondMove.append(.pause(0))
                    secondDown.append(.pause(0))
                    needButtons = true
                } else if isDown && (old.x != new.x || old.y != new.y) {
                    move.append(position)
                    anyMove = true
                    buttons.append(.pause(0))
                    secondMove.append(.pause(0))
                    secondDown.append(.pause(0))
                } else {
                    move.append(.pause(duration))
                    buttons.append(.pause(0))
                    secondMove.append(.pause(0))
                    secondDown.append(.pause(0))
                }
            }
            var ticks: [[Action]] = []
            if anyMove || duration > 0 { ticks.append(move) }
            if needButtons { ticks.append(buttons) }
            if needSecond {
                ticks.append(secondMove)
                ticks.append(secondDown)
            }
            return ticks
        }
    }
}
