import GestureEngine
import GestureMenu
import GestureModel

/// How automatic scanning moves, and how a switch's presses are read.
/// The defaults follow Android Switch Access: 1 s per item, the first item
/// held 0.7 s longer, two loops and then a pause until the next press, no
/// debounce; a long press (800 ms, the daemon's custom actions' default)
/// goes back and holding 3 s is the emergency stop.
public struct ScanSettings: Hashable, Sendable {
    /// The shortest interval between items.
    public static let minimumInterval = ScanTimings.minimumInterval
    /// The longest interval between items.
    public static let maximumInterval = ScanTimings.maximumInterval
    /// The default interval: 1 s.
    public static let defaultInterval = ScanTimings.defaultInterval
    /// The default extra hold of the first item: 0.7 s.
    public static let defaultFirstItemHold = ScanTimings.defaultFirstItemHold
    /// The default number of loops before scanning pauses: 2.
    public static let defaultLoops = ScanTimings.defaultLoops
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

    /// How the highlight moves (what ``GestureMenu/Scanner`` needs).
    public var timings: ScanTimings { ScanTimings(interval: interval, firstItemHold: firstItemHold, loops: loops) }

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

extension Scanner {
    /// A scanner that moves as `settings` say.
    public init(settings: ScanSettings) { self.init(timings: settings.timings) }
}
