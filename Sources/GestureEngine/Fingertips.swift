import GestureEditing
import GestureModel
import InputSystem

/// How a source drives live fingertips (`gesturectl fingertips`), by what
/// the source device is.
public enum FingertipsSourceKind: String, Hashable, Sendable {
    /// The first contact drives every fingertip: where it is, they are;
    /// while it touches, they touch. Further contacts are ignored.
    case touchscreen
    /// A mouse, trackball or head pointer: motion moves the fingertips
    /// (`--speed`), a held button puts them down.
    case pointer
    /// The first contact's motion moves the fingertips and the pad's button
    /// puts them down; with `--absolute`, as a touchscreen.
    case touchpad
    /// The pen's motion moves the fingertips and its tip puts them down;
    /// with `--absolute`, the pen's place on the tablet is theirs.
    case tablet

    /// The source kind of a device of `kind`; `nil` for a keyboard or other
    /// device, which drives nothing.
    public init?(_ kind: DeviceKind) {
        switch kind {
        case .touchscreen: self = .touchscreen
        case .touchpad: self = .touchpad
        case .tablet: self = .tablet
        case .mouse: self = .pointer
        case .keyboard, .other: return nil
        }
    }

    /// The state line a screen reader speaks once the fingertips are ready,
    /// e.g. `3 fingertips ready: move the pointer, hold the button to touch.`
    public func readyLine(count: Int, absolute: Bool) -> String {
        let what: String
        switch self {
        case .touchscreen: what = "touch the screen with one finger; every fingertip follows it."
        case .pointer: what = "move the pointer, hold the button to touch."
        case .touchpad:
            what = absolute
                ? "touch the touchpad with one finger; every fingertip follows it."
                : "move a finger on the touchpad, hold the button to touch."
        case .tablet:
            what = absolute
                ? "point with the pen; its tip on the tablet touches."
                : "move the pen, put its tip down to touch."
        }
        return "\(count) fingertips ready: " + what
    }
}

/// What live fingertips are asked to do: how many, how they are arranged,
/// how the source moves them and when they go away.
public struct FingertipsOptions: Hashable, Sendable {
    /// The fewest and most fingertips: 2 to 10, as `fingers` makes.
    public static let countRange = GestureEditor.fingerCountRange
    /// The idle time unless told: 5 s without input while the fingertips
    /// are up.
    public static let defaultIdle = Microseconds(5_000_000)
    /// The speed unless told: 1.
    public static let defaultSpeed = 1.0
    /// The speeds accepted: 0.01 to 100.
    public static let speedRange = 0.01...100.0
    /// At speed 1, this many counts of a pointer's motion cross the target's
    /// width, as a pointer crosses a screen this many pixels wide.
    public static let pointerCountsAcross = 1920.0

    /// How many fingertips.
    public var count: Int
    /// How they are arranged around the point the source drives (``GestureEditing/FingerLayout``).
    public var layout: FingerLayout
    /// The distance between neighbouring fingertips, in millimetres.
    public var spacingMM: Double
    /// How far relative motion moves the fingertips: 2 twice as far.
    public var speed: Double
    /// A touchpad's or tablet's surface maps onto the target (otherwise its
    /// motion moves the fingertips, as a pointer's does).
    public var absolute: Bool
    /// How long without input, while the fingertips are up, before they go
    /// away; `nil` for never.
    public var idle: Microseconds?

    /// Creates options; see each property.
    public init(
        count: Int, layout: FingerLayout = .row, spacingMM: Double = GestureEditor.defaultFingerSpacingMM,
        speed: Double = defaultSpeed, absolute: Bool = false, idle: Microseconds? = defaultIdle
    ) {
        self.count = count
        self.layout = layout
        self.spacingMM = spacingMM
        self.speed = speed
        self.absolute = absolute
        self.idle = idle
    }

    /// Checks every value.
    /// - Throws: ``FingertipsError`` naming the value and what it must be.
    public func validate() throws(FingertipsError) {
        guard Self.countRange.contains(count) else {
            throw FingertipsError("fingertips must be \(Self.countRange.lowerBound) to \(Self.countRange.upperBound), not \(count)")
        }
        guard spacingMM.isFinite, spacingMM > 0 else {
            throw FingertipsError("--spacing must be a positive number of millimetres")
        }
        guard speed.isFinite, Self.speedRange.contains(speed) else {
            throw FingertipsError("--speed must be 0.01 to 100")
        }
        if let idle, idle <= .zero { throw FingertipsError("--idle must be positive, or 0 for never") }
    }
}

/// Why live fingertips cannot start or go on, for people.
public struct FingertipsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message.
    public var description: String
    /// Creates an error with its message.
    public init(_ description: String) { self.description = description }
}

/// Something live fingertips tell once.
public enum FingertipsNotice: Hashable, Sendable, CustomStringConvertible {
    /// A contact touched while another drove the fingertips; it and any
    /// later one are ignored (said once per session; not on a relative
    /// touchpad, where a second finger makes a click a turn).
    case extraContactsIgnored
    /// The hover pen could not be made or written (the reason): the
    /// fingertips work on without it.
    case hoverUnavailable(String)

    /// A line for people.
    public var description: String {
        switch self {
        case .extraContactsIgnored: "further contacts are ignored: the first one drives every fingertip"
        case .hoverUnavailable(let reason): "no hover cursor (\(reason)); the fingertips work without it"
        }
    }
}

/// Where the fingertips are after a source frame.
public struct FingertipsChange: Sendable {
    /// Whether they touch.
    public var isDown: Bool
    /// Each fingertip's position on the target, in its units, left to right
    /// (where they touch, or would touch); in turn mode, each where the
    /// turn took it.
    public var positions: [(x: Int, y: Int)]
    /// The point the source drives, the fingertips' centre, in the
    /// target's units: where a hover cursor shows them while they are up.
    public var centre: (x: Int, y: Int)

    /// The contacts to show on the target: every fingertip while down, none while up.
    public var contacts: [Int: (x: Int, y: Int)] {
        guard isDown else { return [:] }
        var contacts: [Int: (x: Int, y: Int)] = [:]
        for (index, position) in positions.enumerated() { contacts[index] = position }
        return contacts
    }
}

/// The live fingertips' state, fed the source's events one by one: a pure
/// model (no device, no clock of its own), so every mapping is testable.
///
/// Positions are kept as the hand's centre in millimetres on the target's
/// surface; each fingertip sits at its ``GestureEditing/FingerLayout``
/// offset from it. The centre stays on the surface, and so does each
/// fingertip (clamped to the edge). A change is reported at the end of a
/// source frame (`SYN_REPORT`) when the fingertips moved, touched or lifted.
///
/// Turn mode (``FingertipsTurn``): a pointer's secondary button (`BTN_RIGHT`
/// or `BTN_MIDDLE`) puts the fingertips down with the centre held still,
/// and the motion turns and spreads them instead of moving them; so does a
/// relative touchpad's button (`BTN_RIGHT`, `BTN_MIDDLE`, or a click with
/// two fingers on the pad, as libinput's clickfinger), and a relative pen's
/// tip touching with a side button held. The layout comes back when they lift.
public struct FingertipsModel: Sendable {
    /// The options.
    public let options: FingertipsOptions
    /// How the source drives the fingertips.
    public let sourceKind: FingertipsSourceKind
    /// The target's surface (positions are in its units).
    public let target: DeviceGeometry
    /// The source's surface for absolute positions; `nil` for a pointer.
    private let sourceSurface: DeviceGeometry?
    private let offsets: [(x: Double, y: Double)]

    /// The hand's centre, mm from the target's top-left corner.
    public private(set) var centreMM: (x: Double, y: Double)
    /// Whether the fingertips touch.
    public private(set) var isDown = false
    /// When the source last sent anything (its events' times).
    public private(set) var lastActivity: Microseconds
    private var notices: [FingertipsNotice] = []
    private var toldIgnored = false

    // The source's state.
    private var buttons: Set<EventCode> = []
    private var pendingMotion = (x: 0.0, y: 0.0)
    private var frameHadInput = false
    private var currentSlot = 0
    private var slots: [Int: Contact] = [:]
    private var driver: Int?
    private var nextOrder = 0
    private var lastDriverPosition: (x: Int, y: Int)?
    private var singleTouch = Contact(order: 0)
    private var penTip = false
    /// The pen's side buttons held (`BTN_STYLUS`, `BTN_STYLUS2`).
    private var penButtons: Set<EventCode> = []
    /// The turn while the fingertips are down in turn mode.
    private var turn: FingertipsTurn?
    /// Whether the pen is in proximity (assumed until it says otherwise).
    private var penNear = true

    private struct Contact: Sendable {
        var active = false
        var ignored = false
        var order: Int
        var x: Int?
        var y: Int?
    }

    /// Creates the model.
    /// - Parameters:
    ///   - source: What the source is (its axes give absolute positions).
    ///   - target: The target's surface (``GesturePlayback/LiveTouchFrames/surface``).
    ///   - start: Now, on the clock of the source's events (the idle time counts from it).
    /// - Throws: ``FingertipsError`` for bad options, a source that drives
    ///   nothing (a keyboard) or lacks the axes its kind needs, or a target
    ///   with fewer slots than fingertips.
    public init(
        options: FingertipsOptions, source: InputDeviceDescription, target: DeviceGeometry, start: Microseconds
    ) throws(FingertipsError) {
        try options.validate()
        let kind = DeviceClassifier.kind(of: source)
        guard let sourceKind = FingertipsSourceKind(kind) else {
            throw FingertipsError(
                "\(source.name) is a \(kind.listingName) device; fingertips follow a touchscreen, touchpad, tablet or mouse")
        }
        guard target.slots >= options.count else {
            throw FingertipsError("the target tracks \(target.slots) contacts at once; \(options.count) fingertips need \(options.count)")
        }
        self.options = options
        self.sourceKind = sourceKind
        self.target = target
        if sourceKind == .pointer {
            sourceSurface = nil
        } else {
            let axes = source.absoluteAxes
            let useMultitouch = sourceKind != .tablet && axes[.multitouchPositionX] != nil && axes[.multitouchPositionY] != nil
            guard let x = useMultitouch ? axes[.multitouchPositionX] : axes[.absoluteX],
                let y = useMultitouch ? axes[.multitouchPositionY] : axes[.absoluteY], x.maximum > x.minimum,
                y.maximum > y.minimum
            else {
                throw FingertipsError("\(source.name) reports no usable X and Y position axes")
            }
            sourceSurface = DeviceGeometry(
                kind: kind, x: AxisRange(minimum: Int(x.minimum), maximum: Int(x.maximum), resolution: Int(x.resolution)),
                y: AxisRange(minimum: Int(y.minimum), maximum: Int(y.maximum), resolution: Int(y.resolution)),
                slots: max(1, source.slotCount))
        }
        offsets = options.layout.offsetsMM(count: options.count, spacingMM: options.spacingMM)
        centreMM = (target.surfaceWidthMM / 2, target.surfaceHeightMM / 2)
        lastActivity = start
    }

    /// Whether the source's contacts are followed by position (touchscreen,
    /// or `--absolute` on a touchpad or tablet).
    private var followsPosition: Bool {
        sourceKind == .touchscreen || (options.absolute && sourceKind != .pointer)
    }

    /// Counts the idle time from `time` (the ready line), not from the
    /// start: making the device and waiting for udev can take seconds
    /// under load, and a person invited to touch gets the whole idle time.
    public mutating func restartIdle(at time: Microseconds) {
        lastActivity = max(lastActivity, time)
    }

    /// When the fingertips go away by themselves as things stand: the idle
    /// time after the last input, while they are up; `nil` while they are
    /// down or without an idle time.
    public var idleDeadline: Microseconds? {
        guard let idle = options.idle, !isDown else { return nil }
        let (sum, overflow) = lastActivity.rawValue.addingReportingOverflow(idle.rawValue)
        return Microseconds(overflow ? Int64.max : sum)
    }

    /// Where every fingertip is now (see ``FingertipsChange``).
    public var current: FingertipsChange {
        let centre = target.units(xMM: centreMM.x, yMM: centreMM.y)
        return FingertipsChange(
            isDown: isDown, positions: (turn?.turnedOffsets ?? offsets).map { position(offset: $0) },
            centre: (target.x.clamp(centre.x), target.y.clamp(centre.y)))
    }

    /// What was noticed since the last call (each notice once per session).
    public mutating func takeNotices() -> [FingertipsNotice] {
        defer { notices = [] }
        return notices
    }

    /// Feeds one event of the source (a resync's events too); at the end
    /// of a frame, the fingertips' new state when it changed.
    public mutating func feed(_ event: InputEvent) -> FingertipsChange? {
        switch event.type {
        case .synchronization:
            guard event.code == .synchronizationReport else { return nil }
            return endFrame(at: event.time)
        case .relative:
            frameHadInput = true
            guard sourceKind == .pointer else { return nil }
            if event.code == .relativeX { pendingMotion.x += Double(event.value) }
            if event.code == .relativeY { pendingMotion.y += Double(event.value) }
        case .key:
            frameHadInput = true
            guard event.value != 2 else { return nil }  // autorepeat: still held
            if Self.isButton(event.code) {
                if event.value != 0 { buttons.insert(event.code) } else { buttons.remove(event.code) }
            } else if event.code == .buttonStylus || event.code == .buttonStylus2 {
                if event.value != 0 { penButtons.insert(event.code) } else { penButtons.remove(event.code) }
            } else if event.code == .buttonToolPen || event.code == .buttonToolRubber {
                penNear = event.value != 0
            } else if event.code == .buttonTouch {
                penTip = event.value != 0
                singleTouch.active = event.value != 0
            }
        case .absolute:
            frameHadInput = true
            absolute(event)
        default:
            break
        }
        return nil
    }

    /// `BTN_LEFT` … `BTN_TASK`: a mouse's buttons, a touchpad's click.
    private static func isButton(_ code: EventCode) -> Bool { (0x110...0x117).contains(code.rawValue) }

    /// The buttons that put the fingertips down in turn mode.
    public static let turnButtons: Set<EventCode> = [.buttonRight, .buttonMiddle]

    /// Whether the fingertips are down in turn mode (see ``FingertipsTurn``).
    public var isTurning: Bool { turn != nil }

    private mutating func absolute(_ event: InputEvent) {
        switch event.code {
        case .multitouchSlot:
            currentSlot = Int(event.value)
        case .multitouchTrackingID:
            var contact = slots[currentSlot] ?? Contact(order: 0)
            if event.value >= 0, !contact.active {
                contact.active = true
                contact.ignored = false
                contact.order = nextOrder
                nextOrder += 1
            } else if event.value < 0 {
                contact.active = false
            }
            slots[currentSlot] = contact
        case .multitouchPositionX:
            slots[currentSlot, default: Contact(order: 0)].x = Int(event.value)
        case .multitouchPositionY:
            slots[currentSlot, default: Contact(order: 0)].y = Int(event.value)
        case .absoluteX:
            singleTouch.x = Int(event.value)
        case .absoluteY:
            singleTouch.y = Int(event.value)
        default:
            break
        }
    }

    private mutating func endFrame(at time: Microseconds) -> FingertipsChange? {
        guard frameHadInput else { return nil }
        frameHadInput = false
        lastActivity = max(lastActivity, time)
        let before = (centreMM, isDown, turn?.angle, turn?.scale)
        switch sourceKind {
        case .pointer:
            let millimetresPerCount = target.surfaceWidthMM / Self.countsAcross * options.speed
            let touching = !buttons.isEmpty
            if touching, !isDown { startTurn(if: !buttons.isDisjoint(with: Self.turnButtons)) }
            move(by: (pendingMotion.x * millimetresPerCount, pendingMotion.y * millimetresPerCount))
            pendingMotion = (0, 0)
            setDown(touching)
        case .tablet:
            // Out of proximity the pen drives nothing: where it comes back
            // starts no motion.
            let point = penNear ? singleTouch.x.flatMap { x in singleTouch.y.map { (x: x, y: $0) } } : nil
            let touching = penTip && penNear
            if touching, !isDown, !options.absolute { startTurn(if: !penButtons.isEmpty) }
            follow(point, touching: touching)
        case .touchscreen, .touchpad:
            let point = chooseDriver()
            let touching = followsPosition ? point != nil : !buttons.isEmpty
            if touching, !isDown, !followsPosition {
                // A click with two fingers on the pad is a secondary click, as libinput's clickfinger.
                let fingers = slots.values.filter(\.active).count
                startTurn(if: !buttons.isDisjoint(with: Self.turnButtons) || fingers >= 2)
            }
            follow(point, touching: touching)
        }
        let moved = abs(before.0.x - centreMM.x) > 1e-9 || abs(before.0.y - centreMM.y) > 1e-9
            || before.2 != turn?.angle || before.3 != turn?.scale
        guard moved || before.1 != isDown else { return nil }
        return current
    }

    /// Starts turn mode when `turning` (the fingertips are about to touch).
    private mutating func startTurn(if turning: Bool) {
        turn = turning ? FingertipsTurn(offsets: offsets) : nil
    }

    /// Whether the fingertips touch; lifting ends turn mode (the layout comes back).
    private mutating func setDown(_ down: Bool) {
        isDown = down
        if !down { turn = nil }
    }

    /// Relative motion of `delta` mm: the centre's, or in turn mode the handle's.
    private mutating func move(by delta: (x: Double, y: Double)) {
        guard var turning = turn else {
            moveCentre(by: delta)
            return
        }
        // No motion leaves the layout as it is (a click is a tap of the layout).
        guard delta.x != 0 || delta.y != 0 else { return }
        turning.moveHandle(by: delta, centre: centreMM, width: target.surfaceWidthMM, height: target.surfaceHeightMM)
        turn = turning
    }

    private static let countsAcross = FingertipsOptions.pointerCountsAcross

    /// Follows the driving point: to it (absolute), or by its motion since
    /// the last frame (relative; a new point starts no motion).
    private mutating func follow(_ point: (x: Int, y: Int)?, touching: Bool) {
        if let point, let surface = sourceSurface {
            if followsPosition {
                let fraction = surface.normalised(x: point.x, y: point.y)
                centreMM = (fraction.x * target.surfaceWidthMM, fraction.y * target.surfaceHeightMM)
                clampCentre()
            } else if let last = lastDriverPosition {
                // The same scale on both axes: crossing the source's width
                // crosses the target's at speed 1.
                let scale = target.surfaceWidthMM / surface.surfaceWidthMM * options.speed
                move(
                    by: (
                        Double(point.x - last.x) * surface.mmPerUnitX * scale,
                        Double(point.y - last.y) * surface.mmPerUnitY * scale
                    ))
            }
        }
        lastDriverPosition = point
        setDown(touching)
    }

    /// The driving contact's position after this frame: the contact that
    /// touched while none drove (the lowest slot among several at once);
    /// the others are ignored until they lift. A single-touch source's one
    /// contact drives. `nil` while none drives.
    private mutating func chooseDriver() -> (x: Int, y: Int)? {
        if slots.isEmpty {
            guard singleTouch.active, let x = singleTouch.x, let y = singleTouch.y else {
                lastDriverPosition = nil
                return nil
            }
            return (x, y)
        }
        if let current = driver, slots[current]?.active != true {
            driver = nil
            lastDriverPosition = nil
        }
        let waiting = slots.filter { $0.value.active && !$0.value.ignored && $0.key != driver }
            .sorted { ($0.value.order, $0.key) < ($1.value.order, $1.key) }
        for (slot, _) in waiting {
            if driver == nil {
                driver = slot
            } else {
                slots[slot]?.ignored = true
                // On a relative touchpad a second finger is expected: it
                // makes a click a turn (see the type's description).
                if !toldIgnored, followsPosition {
                    toldIgnored = true
                    notices.append(.extraContactsIgnored)
                }
            }
        }
        guard let driver, let contact = slots[driver], let x = contact.x, let y = contact.y else {
            return driver == nil ? nil : lastDriverPosition
        }
        return (x, y)
    }

    private mutating func moveCentre(by delta: (x: Double, y: Double)) {
        centreMM = (centreMM.x + delta.x, centreMM.y + delta.y)
        clampCentre()
    }

    private mutating func clampCentre() {
        centreMM = (
            min(max(centreMM.x, 0), target.surfaceWidthMM), min(max(centreMM.y, 0), target.surfaceHeightMM)
        )
    }

    /// A fingertip's position in target units, clamped to the surface.
    private func position(offset: (x: Double, y: Double)) -> (x: Int, y: Int) {
        let xMM = min(max(centreMM.x + offset.x, 0), target.surfaceWidthMM)
        let yMM = min(max(centreMM.y + offset.y, 0), target.surfaceHeightMM)
        let units = target.units(xMM: xMM, yMM: yMM)
        return (target.x.clamp(units.x), target.y.clamp(units.y))
    }
}
