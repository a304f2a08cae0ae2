import GestureModel
import InputSystem
import OperatingSystem

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
/// the same ticks.
///
/// With a ``framePeriod`` (`export`'s default, one display frame: 1/60 s),
/// a frame is kept when a finger touches or lifts in it, and otherwise
/// whenever a finger that is down has moved and a frame period has passed
/// since the last kept frame: each moving stroke gets a `pointerMove` per
/// display frame of its movement, at the file's positions at those times,
/// as a real finger on a 60 Hz screen does, so that an app that tracks
/// velocity (a fling, momentum scrolling) sees the movement, not a pause
/// and a jump (issue 39).
///
/// Without one (`--moves sparse`, and `gliding`), not every frame is
/// written. chromedriver spends about a display frame
/// on each tick that moves a touch, beyond the tick's duration, and
/// dispatches a `pointerMove` at the start of its tick without
/// interpolating. So a frame is *kept* when a finger touches or lifts in
/// it, or when the fingers' positions between the last kept frame and
/// this one leave the straight, evenly timed line between them by more
/// than ``tolerance`` pixels; a frame kept only for that comes at least
/// ``minimumTick`` ms after the last kept one. A straight, even swipe is
/// its first and last frame; a curve keeps a point wherever it bends away
/// from the chord. Each kept frame makes
///
/// 1. a pause tick lasting the time since the last kept frame (whole
///    milliseconds, rounded from the start so that they add up), `pause`
///    for every source;
/// 2. a move tick of duration 0: a `pointerMove` (origin `viewport`,
///    integer x and y) for every finger that is down and moved, or that is
///    about to go down (to its first position), `pause` 0 for the others;
/// 3. when a finger goes down or up in the frame, a tick of `pointerDown`
///    / `pointerUp` (button 0), with `pause`s of 0 for the others;
/// 4. for a slot whose finger lifts and another goes down in the same
///    frame, a move and a down tick more (duration 0).
///
/// So every position a driver dispatches is one of the frames', at that
/// frame's time, whether the driver interpolates moves (the W3C spec) or
/// not (chromedriver).
///
/// With ``gliding`` moves, a finger that stays down and moves instead gets
/// its `pointerMove` in the first tick, lasting the time since the last
/// kept frame: a driver that moves the pointer through a move's duration
/// (the W3C spec, Appium, geckodriver) then glides along the straight line
/// the kept frames were chosen to fit, at the file's speed, instead of
/// holding still and jumping. chromedriver dispatches such a move at its
/// tick's start, so for it the default (a pause, then a move of duration
/// 0) is the one that keeps time.
///
/// The device's axis ranges map onto the viewport: minimum to pixel 0,
/// maximum to the last pixel, so touches land at the same place in
/// percent of the surface.
public struct WebDriverActionsWriter {
    /// The device the frames are for.
    public let description: InputDeviceDescription
    /// The viewport the coordinates are for.
    public let viewport: WebDriverViewport

    /// One display frame at 60 Hz, in µs: ``framePeriod`` by default in `export`.
    public static let displayFrame: Int64 = 16_667

    /// When given (µs), a frame where a finger moved is kept once this long
    /// has passed since the last kept frame (moves at this rate); `nil`:
    /// only where the path bends (``minimumTick``, ``tolerance``).
    public let framePeriod: Int64?

    /// The shortest time, in ms, between two kept frames when the later one
    /// is kept only because the path bends (frames where a finger touches
    /// or lifts are always kept).
    public let minimumTick: Int64
    /// Whether a moving finger's `pointerMove` lasts the time since the last
    /// kept frame (for drivers that interpolate), rather than a pause and a
    /// move of duration 0 (for chromedriver).
    public let gliding: Bool
    /// What a driver is known to spend on a tick that moves a finger that
    /// is down, beyond the tick's duration, in ms: taken out of the pause
    /// before each such move (never below 0), so that the moves and the
    /// lift land when the file says in that driver. 0 keeps the file's
    /// own times (the pauses add up to the gesture's duration).
    public let moveCost: Int64

    /// chromedriver's cost of a tick that moves a touch (Chromium 156): it
    /// waits for the page's next display frame, about 16 ms.
    public static let chromedriverMoveCost: Int64 = 16

    /// The default ``minimumTick``: chromedriver (Chromium 156) adds about
    /// 17 ms to each tick that moves a touch, so moves 250 ms apart keep a
    /// gesture's duration within 7% there.
    public static let defaultMinimumTick: Int64 = 250
    /// The largest ``minimumTick`` accepted (ms).
    public static let maximumMinimumTick: Int64 = 60_000
    /// How far, in CSS pixels, the fingers may be from the straight, evenly
    /// timed line between two kept frames in the frames left out.
    public static let tolerance = 0.5
    /// At most this many frames are left out in a row (a long, straight
    /// line still gets a point now and then, and the work per frame stays
    /// bounded).
    static let longestRun = 512

    /// A writer for frames of `description` onto `viewport`, keeping frames
    /// at least `minimumTick` ms apart where only a bend asks for them
    /// (clamped into 0…``maximumMinimumTick``).
    /// `gliding`: see ``gliding``. `framePeriod`: see ``framePeriod``
    /// (clamped into 1 ms…``maximumMinimumTick``).
    public init(
        description: InputDeviceDescription, viewport: WebDriverViewport, minimumTick: Int64 = Self.defaultMinimumTick,
        gliding: Bool = false, moveCost: Int64 = 0, framePeriod: Int64? = nil
    ) {
        self.framePeriod = framePeriod.map { min(max($0, 1_000), Self.maximumMinimumTick * 1_000) }
        self.moveCost = min(max(moveCost, 0), Self.maximumMinimumTick)
        self.description = description
        self.viewport = viewport
        self.minimumTick = min(max(minimumTick, 0), Self.maximumMinimumTick)
        self.gliding = gliding
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
        if sources.count > 1, let spills = SourceSpills(count: sources.count) {
            try writeInOnePass(frames: frames, sources: sources, spills: spills, write: write)
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
            for tick in ticks.finish() {
                text += separator
                separator = ",\n  "
                Self.append(tick[index], to: &text)
            }
            text += "\n ]}"
        }
        text += "\n]}\n"
        try write(text)
    }

    /// ``write(frames:write:)`` with the frames run once more, not once per
    /// source (issue 39: an hour of ten fingers took ten passes over the
    /// gesture): each source's actions go to its own unlinked temporary
    /// file as they come, and the files are copied out in order. The text
    /// is the same.
    private func writeInOnePass(
        frames: ((InputFrame) -> Bool) throws -> Void, sources: [Int32], spills: SourceSpills,
        write: @escaping (String) throws -> Void
    ) throws {
        var texts = [String](repeating: "", count: sources.count)
        var ticks = TickMaker(writer: self, sources: sources)
        var separator = "\n  "
        var failure: (any Error)?
        func add(_ tick: [Action]) {
            for index in sources.indices {
                texts[index] += separator
                Self.append(tick[index], to: &texts[index])
            }
            separator = ",\n  "
        }
        try frames { frame in
            for tick in ticks.ticks(for: frame) { add(tick) }
            for index in sources.indices where texts[index].utf8.count >= 1 << 16 {
                do {
                    try spills.append(texts[index], to: index)
                } catch {
                    failure = error
                    return false
                }
                texts[index].removeAll(keepingCapacity: true)
            }
            return true
        }
        if let failure { throw failure }
        for tick in ticks.finish() { add(tick) }
        var text = "{\"actions\": ["
        for index in sources.indices {
            text += index == 0 ? "\n" : ",\n"
            text += " {\"type\": \"pointer\", \"id\": \"finger\(index + 1)\", \"parameters\": {\"pointerType\": \"touch\"}, \"actions\": ["
            try write(text)
            text = ""
            try spills.copy(index) { piece in try write(piece) }
            text = texts[index] + "\n ]}"
        }
        text += "\n]}\n"
        try write(text)
    }

    /// One unlinked temporary file per source (in `$TMPDIR` or `/tmp`),
    /// written as the actions come and read back in order.
    final class SourceSpills {
        private var files: [(writer: FileDescriptor, reader: FileDescriptor)] = []

        /// nil when the files cannot be made (the payload is then made a
        /// pass per source, as before).
        init?(count: Int) {
            let folder = ProcessEnvironment.variables()["TMPDIR"] ?? "/tmp"
            for _ in 0..<count {
                // Harmless: without the files the payload is made a pass per source.
                guard let (writer, path) = try? FileSystem.createTemporaryFile(prefix: folder + "/gesturectl-webdriver-")
                else { return nil }
                // Harmless: as above; the file is then unlinked and closed.
                let reader = try? FileDescriptor.open(path, .readOnly)
                // Harmless: an unlinked file goes at its last close; one left is only a temporary file.
                try? FileSystem.unlink(path)
                guard let reader else {
                    writer.close()
                    return nil
                }
                files.append((writer, reader))
            }
        }

        deinit {
            for file in files {
                file.writer.close()
                file.reader.close()
            }
        }

        func append(_ text: String, to index: Int) throws {
            try files[index].writer.writeAll(Array(text.utf8))
        }

        /// Hands source `index`'s text to `body` in pieces, from the start.
        func copy(_ index: Int, _ body: (String) throws -> Void) throws {
            let reader = files[index].reader
            while let piece = try reader.read(upTo: 1 << 16), !piece.isEmpty {
                // The actions are ASCII: a piece never splits a character.
                try body(String(decoding: piece, as: UTF8.self))
            }
        }
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
        min(max(Int(position(value, axis: axis, side: side).rounded()), 0), side - 1)
    }

    /// A device value in pixels of the viewport, unrounded and unclamped.
    func position(_ value: Int32, axis: EventCode, side: Int) -> Double {
        guard let info = description.absoluteAxes[axis], info.maximum > info.minimum else { return 0 }
        let fraction = (Double(value) - Double(info.minimum)) / (Double(info.maximum) - Double(info.minimum))
        return fraction * Double(side - 1)
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

    /// The contacts after a frame, and when it was.
    struct Moment {
        var time: Int64
        var contacts: [Int32: Tracker.Contact]
        /// Slots whose contact lifted inside the frame.
        var lifted: Set<Int32> = []
    }

    /// Turns frames into ticks, each tick one action per source, keeping
    /// only the frames the path needs (see the type's comment).
    struct TickMaker {
        let writer: WebDriverActionsWriter
        let sources: [Int32]
        var tracker = Tracker()
        var first: Int64?
        var lastMilliseconds: Int64 = 0
        /// The last kept frame: ticks are written up to it.
        var anchor: Moment?
        /// The frames since the anchor, not written (yet).
        var pending: [Moment] = []

        init(writer: WebDriverActionsWriter, sources: [Int32]) {
            self.writer = writer
            self.sources = sources
        }

        /// The ticks `frame` lets out: none while it may be left out,
        /// those of the frames kept before it and of itself otherwise.
        mutating func ticks(for frame: InputFrame) -> [[Action]] {
            // Ids of a contact seen inside the frame, to find a lift and a
            // new touch in one slot within one frame.
            var lifted = Set<Int32>()
            var slot = tracker.slot
            var changesContacts = false
            for event in frame.events where event.type == .absolute {
                if event.code == .multitouchSlot { slot = event.value }
                if event.code == .multitouchTrackingID {
                    changesContacts = true
                    if event.value < 0 { lifted.insert(slot) }
                }
            }
            tracker.apply(frame)
            let moment = Moment(time: frame.time.rawValue, contacts: tracker.contacts, lifted: lifted)
            guard let anchor else { return keep(moment) }
            if changesContacts {
                // The fingers' last positions before a touch or a lift are kept.
                var ticks: [[Action]] = []
                if let last = pending.last, last.contacts != anchor.contacts { ticks += keep(last) }
                return ticks + keep(moment)
            }
            if let period = writer.framePeriod { return displayRateTicks(moment, period: period) }
            if pending.count < WebDriverActionsWriter.longestRun, fits(moment, after: anchor) {
                pending.append(moment)
                return []
            }
            guard let last = pending.last else { return keep(moment) }
            if last.time - anchor.time >= writer.minimumTick * 1_000 || pending.count >= WebDriverActionsWriter.longestRun {
                let ticks = keep(last)
                pending = [moment]
                return ticks
            }
            // Too soon after the anchor for another tick: wait for the
            // first frame far enough from it.
            if moment.time - anchor.time >= writer.minimumTick * 1_000 { return keep(moment) }
            pending.append(moment)
            return []
        }

        /// At display rate: a kept moment every `period` µs after the last
        /// one, at the fingers' positions then (between the frames around
        /// it, on the straight line the player itself draws between them),
        /// while a finger moves; a still stretch only moves the next one
        /// later. Only the latest frame waits (for the positions before a
        /// touch or a lift), so memory does not grow with a still finger.
        mutating func displayRateTicks(_ moment: Moment, period: Int64) -> [[Action]] {
            var ticks: [[Action]] = []
            // The frame before this one (never a point made here: rounding
            // would add up from point to point).
            guard let before = pending.last ?? anchor else { return keep(moment) }
            while var current = anchor, moment.time - current.time >= period {
                let due = current.time + period
                let point = Self.interpolated(before, moment, at: due)
                if point.contacts == current.contacts {
                    current.time = due
                    anchor = current
                } else {
                    ticks += keep(point)
                }
            }
            pending = [moment]
            return ticks
        }

        /// The contacts at `time`, between `before` and `after` (no touch
        /// or lift between them): each finger down in both on the straight
        /// line between its two positions, rounded to the device's units.
        static func interpolated(_ before: Moment, _ after: Moment, at time: Int64) -> Moment {
            let span = after.time - before.time
            let fraction = span > 0 ? min(max(Double(time - before.time) / Double(span), 0), 1) : 1
            var contacts = after.contacts
            for (slot, start) in before.contacts {
                guard var end = contacts[slot], start.trackingID >= 0, end.trackingID == start.trackingID else { continue }
                end.x = Int32((Double(start.x) + (Double(end.x) - Double(start.x)) * fraction).rounded())
                end.y = Int32((Double(start.y) + (Double(end.y) - Double(start.y)) * fraction).rounded())
                contacts[slot] = end
            }
            return Moment(time: time, contacts: contacts)
        }

        /// The pending frames' ticks at the end of the frames.
        mutating func finish() -> [[Action]] {
            guard let last = pending.last else { return [] }
            return keep(last)
        }

        /// Whether every pending frame and `moment` stay within the
        /// tolerance of the straight, evenly timed line from `anchor` to
        /// `moment` (the contacts are the anchor's: a frame that changes
        /// them is always kept).
        func fits(_ moment: Moment, after anchor: Moment) -> Bool {
            let span = Double(moment.time - anchor.time)
            for (slot, start) in anchor.contacts where start.trackingID >= 0 {
                guard let end = moment.contacts[slot] else { return false }
                let (x0, y0) = pixels(start)
                let (x1, y1) = pixels(end)
                for between in pending {
                    guard let contact = between.contacts[slot] else { return false }
                    let fraction = span > 0 ? Double(between.time - anchor.time) / span : 1
                    let (x, y) = pixels(contact)
                    let dx = x - (x0 + (x1 - x0) * fraction)
                    let dy = y - (y0 + (y1 - y0) * fraction)
                    if dx * dx + dy * dy > WebDriverActionsWriter.tolerance * WebDriverActionsWriter.tolerance { return false }
                }
            }
            return true
        }

        func pixels(_ contact: Tracker.Contact) -> (Double, Double) {
            (
                writer.position(contact.x, axis: .multitouchPositionX, side: writer.viewport.width),
                writer.position(contact.y, axis: .multitouchPositionY, side: writer.viewport.height)
            )
        }

        /// Writes `moment` (the new anchor): the ticks from the anchor's
        /// contacts to its own.
        private mutating func keep(_ moment: Moment) -> [[Action]] {
            let before = anchor?.contacts ?? [:]
            anchor = moment
            pending = []
            let first = self.first ?? moment.time
            self.first = first
            let (difference, overflow) = moment.time.subtractingReportingOverflow(first)
            let elapsed = overflow ? 0 : max(0, difference)
            let milliseconds = (elapsed + 500) / 1_000
            let duration = max(0, milliseconds - lastMilliseconds)
            lastMilliseconds = max(lastMilliseconds, milliseconds)

            var glide = Array(repeating: Action.pause(duration), count: sources.count)
            var move: [Action] = []
            var buttons: [Action] = []
            var secondMove: [Action] = []
            var secondDown: [Action] = []
            var needButtons = false
            var needSecond = false
            var anyMove = false
            // A finger that is down moves in the move tick (not only one about to go down).
            var downMoves = false
            for (index, source) in sources.enumerated() {
                let old = before[source] ?? Tracker.Contact()
                let new = moment.contacts[source] ?? Tracker.Contact()
                let wasDown = old.trackingID >= 0
                let isDown = new.trackingID >= 0
                let restarted = wasDown && isDown && (old.trackingID != new.trackingID || moment.lifted.contains(source))
                let position = Action.move(
                    x: writer.pixel(new.x, axis: .multitouchPositionX, side: writer.viewport.width),
                    y: writer.pixel(new.y, axis: .multitouchPositionY, side: writer.viewport.height),
                    duration: 0)
                if restarted {
                    move.append(.pause(0))
                    buttons.append(.up)
                    secondMove.append(position)
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
                    move.append(.pause(0))
                    buttons.append(.up)
                    secondMove.append(.pause(0))
                    secondDown.append(.pause(0))
                    needButtons = true
                } else if isDown && (old.x != new.x || old.y != new.y) {
                    if writer.gliding && duration > 0, case .move(let x, let y, _) = position {
                        glide[index] = .move(x: x, y: y, duration: duration)
                        move.append(.pause(0))
                    } else {
                        move.append(position)
                        anyMove = true
                        downMoves = true
                    }
                    buttons.append(.pause(0))
                    secondMove.append(.pause(0))
                    secondDown.append(.pause(0))
                } else {
                    move.append(.pause(0))
                    buttons.append(.pause(0))
                    secondMove.append(.pause(0))
                    secondDown.append(.pause(0))
                }
            }
            var ticks: [[Action]] = []
            if duration > 0 {
                // The driver's cost of the move to come, paid by the pause before it.
                let paid = downMoves ? min(duration, writer.moveCost) : 0
                ticks.append(paid > 0 ? glide.map { $0 == .pause(duration) ? .pause(duration - paid) : $0 } : glide)
            }
            if anyMove { ticks.append(move) }
            if needButtons { ticks.append(buttons) }
            if needSecond {
                ticks.append(secondMove)
                ticks.append(secondDown)
            }
            return ticks
        }
    }
}
