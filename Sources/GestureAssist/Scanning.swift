import GestureEngine
import GestureModel

/// How automatic scanning moves, and how a switch's presses are read.
/// The defaults follow Android Switch Access: 1 s per item, the first item
/// held 0.7 s longer, two loops and then a pause until the next press, no
/// debounce; a long press (800 ms, the daemon's custom actions' default)
/// goes back and holding 3 s is the emergency stop.
public struct ScanSettings: Hashable, Sendable {
    /// The shortest interval between items.
    public static let minimumInterval = Microseconds(300_000)
    /// The longest interval between items.
    public static let maximumInterval = Microseconds(10_000_000)
    /// The default interval: 1 s.
    public static let defaultInterval = Microseconds(1_000_000)
    /// The default extra hold of the first item: 0.7 s.
    public static let defaultFirstItemHold = Microseconds(700_000)
    /// The default number of loops before scanning pauses: 2.
    public static let defaultLoops = 2
    /// The default debounce: none.
    public static let defaultDebounce = Microseconds.zero
    /// The default long press (back): 800 ms.
    public static let defaultLongPress = Microseconds(800_000)

    /// How long each item stays highlighted (0.3 s to 10 s; default 1 s).
    public var interval: Microseconds
    /// How much longer the first item stays highlighted (default 0.7 s).
    public var firstItemHold: Microseconds
    /// How many times scanning goes through the items before it pauses
    /// until the next press (default 2).
    public var loops: Int
    /// The long press (back), the emergency stop and the debounce (a
    /// press that starts less than this after the previous one ended is
    /// ignored; default 0). Double presses are never used: a single press
    /// is acted on at its release.
    public var press: PressTimings

    /// Creates settings; see each property for the defaults.
    public init(
        interval: Microseconds = defaultInterval, firstItemHold: Microseconds = defaultFirstItemHold,
        loops: Int = defaultLoops, debounce: Microseconds = defaultDebounce,
        longPress: Microseconds = defaultLongPress, emergencyStop: Microseconds = Microseconds(3_000_000)
    ) {
        self.interval = interval
        self.firstItemHold = firstItemHold
        self.loops = loops
        press = PressTimings(
            longPress: longPress, emergencyStop: emergencyStop, recognizesDoublePress: false, debounce: debounce)
    }

    /// Why these settings cannot work, or `nil`.
    public var problem: String? {
        if interval < Self.minimumInterval || interval > Self.maximumInterval {
            return "the scanning interval must be from 0.3 s to 10 s"
        }
        if firstItemHold < .zero { return "the first item's extra hold cannot be negative" }
        if loops < 1 || loops > 100 { return "scanning loops must be from 1 to 100" }
        return press.problem
    }
}

/// What scanning did at a moment.
public enum ScanEvent: Hashable, Sendable {
    /// This item is now highlighted.
    case highlight(Int)
    /// Scanning went through its loops and waits for a press.
    case paused
}

/// Automatic scanning over a list of items: one item highlighted at a
/// time, moving on by itself. Pure logic driven by the caller's clock
/// (``advance(to:)`` at ``nextDeadline``), like ``GestureEngine/PressRecognizer``.
///
/// The rules, with `I` the interval and `F` the first item's extra hold:
/// item 0 is highlighted for `I + F`, every other item for `I`; after the
/// last item scanning starts again at item 0, and after the configured
/// number of loops it pauses (nothing highlighted) until ``resume(at:)``.
public struct Scanner: Sendable {
    /// The settings.
    public let settings: ScanSettings
    /// How many items there are.
    public private(set) var itemCount = 0
    /// The highlighted item; `nil` while paused or before ``start(items:at:)``.
    public private(set) var highlighted: Int?
    private var moveAt: Microseconds?
    private var loopsDone = 0

    /// Creates a scanner with nothing to scan.
    public init(settings: ScanSettings = ScanSettings()) { self.settings = settings }

    /// Whether scanning has paused after its loops.
    public var isPaused: Bool { itemCount > 0 && highlighted == nil }

    /// When ``advance(to:)`` must next be called; `nil` while paused.
    public var nextDeadline: Microseconds? { moveAt }

    /// Starts scanning `items` items at `time`, highlighting the first.
    public mutating func start(items: Int, at time: Microseconds) -> [ScanEvent] {
        itemCount = max(0, items)
        loopsDone = 0
        guard itemCount > 0 else {
            highlighted = nil
            moveAt = nil
            return []
        }
        return highlight(0, at: time)
    }

    /// Starts again at the first item after a pause (or at any time).
    public mutating func resume(at time: Microseconds) -> [ScanEvent] { start(items: itemCount, at: time) }

    /// Tells the scanner the time; returns what moved, in order.
    public mutating func advance(to now: Microseconds) -> [ScanEvent] {
        var events: [ScanEvent] = []
        while let due = moveAt, now >= due, let current = highlighted {
            let next = current + 1
            if next < itemCount {
                events += highlight(next, at: due)
                continue
            }
            loopsDone += 1
            if loopsDone >= settings.loops {
                highlighted = nil
                moveAt = nil
                events.append(.paused)
            } else {
                events += highlight(0, at: due)
            }
        }
        return events
    }

    private mutating func highlight(_ index: Int, at time: Microseconds) -> [ScanEvent] {
        highlighted = index
        moveAt = time + settings.interval + (index == 0 ? settings.firstItemHold : .zero)
        return [.highlight(index)]
    }
}

/// What one switch's presses mean in a scanning flow.
public enum SwitchAction: Hashable, Sendable {
    /// A short press: pick the highlighted item (or resume a paused scan).
    case select
    /// A long press: go back.
    case back
    /// Held for the emergency-stop time: cancel and release everything.
    case emergencyStop
}

extension SwitchAction {
    /// What a recognised press means (a double press means nothing: the
    /// flows use none, so a single is acted on at its release).
    public init?(_ press: TriggerPress) {
        switch press {
        case .single: self = .select
        case .long: self = .back
        case .emergencyStop: self = .emergencyStop
        case .double: return nil
        }
    }
}
