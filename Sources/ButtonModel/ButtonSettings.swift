import GestureMenu
import GestureModel

/// What a tap, a double tap or a long press on the button does
/// (AssistiveTouch's Custom Actions), named with the words of the daemon's
/// binding actions (docs/PROTOCOL.md, "bind"): `menu` opens the menu,
/// `press:KEY` presses a button or key as `press` does (`press:screenshot`,
/// `press:KEY_PLAYPAUSE`), `play:NAME` plays a saved gesture where the next
/// click is (as choosing it in the menu does), `create` opens Create New
/// Gesture's canvas, `fingertips:N` starts N live fingertips (2 to 10, as
/// the daemon's `fingertips` takes them), and `none` does nothing.
public enum ButtonAction: Hashable, Sendable, CustomStringConvertible {
    /// Open the menu.
    case menu
    /// Do nothing.
    case none
    /// Press this key of the daemon's virtual keyboard (its name as
    /// GestureModel's ``GestureModel/KeyboardKeys`` gives it; never power,
    /// which only the menu offers, after asking).
    case press(String)
    /// Place this saved gesture with the next click, then play it there.
    case play(String)
    /// Open Create New Gesture's canvas.
    case create
    /// Start this many live fingertips.
    case fingertips(Int)

    /// The word, as given: `menu`, `none`, `press:volume-up`, `play:NAME`.
    public var description: String {
        switch self {
        case .menu: "menu"
        case .none: "none"
        case .press(let key): "press:\(key)"
        case .play(let name): "play:\(name)"
        case .create: "create"
        case .fingertips(let count): "fingertips:\(count)"
        }
    }

    /// What the help and messages list.
    public static let words = "menu, press:KEY, play:NAME, create, fingertips:N or none"

    /// How many live fingertips an action may start: the daemon's range.
    public static let fingertipsCounts = 2...10

    /// The action a word names.
    /// - Throws: ``ButtonUsageError`` (without the option's name) saying what is accepted.
    public static func parse(_ text: String) throws(ButtonUsageError) -> ButtonAction {
        let (word, argument): (String, String?) =
            if let colon = text.firstIndex(of: ":") {
                (String(text[..<colon]), String(text[text.index(after: colon)...]))
            } else {
                (text, nil)
            }
        switch (word, argument) {
        case ("menu", nil): return .menu
        case ("none", nil): return .none
        case ("press", let name?):
            let key: KeyboardKey
            do throws(KeyboardKeyNameError) {
                key = try KeyboardKeys.key(named: name)
            } catch {
                throw ButtonUsageError("press: \(DisplayText.escaped(error.description))")
            }
            guard key.codeNumber != KeyboardKeys.powerCode else {
                throw ButtonUsageError(
                    "press:\(DisplayText.escaped(name)): power can switch the computer off, so only the menu's Buttons offers it, after asking")
            }
            return .press(key.name)
        case ("play", let name?):
            if let problem = MenuConfigurationFile.problem(withGestureName: name) {
                throw ButtonUsageError("play: \(DisplayText.escaped(problem))")
            }
            return .play(name)
        case ("create", nil):
            return .create
        case ("fingertips", let count?):
            guard let number = Int(count), fingertipsCounts.contains(number) else {
                throw ButtonUsageError(
                    "fingertips:\(DisplayText.escaped(count)): give how many, \(fingertipsCounts.lowerBound) to \(fingertipsCounts.upperBound) (AssistiveTouch offers 2 to 5)")
            }
            return .fingertips(number)
        case ("fingertips", nil):
            throw ButtonUsageError("fingertips needs how many: fingertips:3")
        case ("press", nil), ("play", nil):
            throw ButtonUsageError("\(word) needs what to \(word): \(word == "press" ? "press:volume-up" : "play:NAME")")
        default:
            throw ButtonUsageError("the actions are \(words), e.g. press:screenshot")
        }
    }
}

/// The three ways the button is pressed, as AssistiveTouch's Custom Actions
/// name them.
public enum ButtonGesture: String, CaseIterable, Hashable, Sendable {
    case singleTap = "single-tap"
    case doubleTap = "double-tap"
    case longPress = "long-press"
}

/// The button's settings: size, fade and the timings of its gestures.
/// Times are in microseconds of the monotonic clock.
public struct ButtonSettings: Hashable, Sendable {
    /// The smallest button: Material's minimum touch target, 48 px.
    public static let minimumSize = 48
    /// The largest button accepted (a quarter of a small screen is plenty).
    public static let maximumSize = 512

    /// Width and height of the round button, in logical pixels (60).
    public var size = 60
    /// The opacity once idle, 0.1…1 (AssistiveTouch's 40 %: 0.4).
    public var idleOpacity = 0.4
    /// How long untouched, unhovered, before fading ("a few seconds": 3 s).
    public var idleMicroseconds: Int64 = 3_000_000
    /// How long the fade itself takes (0.3 s).
    public var fadeMicroseconds: Int64 = 300_000
    /// How often the view is woken while the fade runs (about 30 per second).
    public var fadeStepMicroseconds: Int64 = 33_000
    /// The longest wait from a tap's release to the second tap's press that
    /// still makes a double tap (0.3 s). Only waited for when the double
    /// tap has an action: otherwise a tap acts at once.
    public var doubleTapMicroseconds: Int64 = 300_000
    /// How long a press is held still to be a long press (0.8 s).
    public var longPressMicroseconds: Int64 = 800_000
    /// How far the pointer moves, pressed, before the press is a drag (8 px):
    /// a finger's tremor is still a tap.
    public var dragSlop = 8.0
    /// The gap between the resting button and its edge (4 px).
    public var edgeGap = 4
    /// What a single tap does (`menu`).
    public var singleTapAction = ButtonAction.menu
    /// What a double tap does (`none`, as AssistiveTouch's default).
    public var doubleTapAction = ButtonAction.none
    /// What a long press does (`none`, as AssistiveTouch's default).
    public var longPressAction = ButtonAction.none

    /// The defaults.
    /// The daemon's socket given with `--socket`; `nil`: found as
    /// `gesturectl` finds it (GestureProtocol's `DaemonPaths.clientSocket`).
    public var socketPath: String?
    /// The drawing device of Create New Gesture and the source of live
    /// fingertips (`--device`: as `gesturectl record --device` takes it);
    /// `nil`: the daemon's only touch or pointer device.
    public var device: String?

    public init() {}

    /// The desktop's text scale from its font resolution (`dpi`, GDK's
    /// screen resolution: 96 at 100 %, larger when the person asked for
    /// larger text); 1 when it says none (0 or less), and never below 1 or
    /// above 4: targets grow with the text, never shrink.
    public static func textScale(dpi: Double) -> Double {
        guard dpi > 0, dpi.isFinite else { return 1 }
        return min(4, max(1, dpi / 96))
    }

    /// The smallest target at this text scale: 48 px grown with the text.
    public static func minimumTarget(textScale: Double) -> Int {
        Int((Double(minimumSize) * max(1, textScale)).rounded())
    }

    /// These settings on a desktop whose text is `textScale` times the
    /// usual size: the button grows with it (up to ``maximumSize``). The
    /// desktop's own scale (HiDPI) needs nothing here: GTK's logical pixels
    /// grow with it already.
    public func scaled(textScale: Double) -> ButtonSettings {
        var scaled = self
        scaled.size = min(Self.maximumSize, Int((Double(size) * max(1, textScale)).rounded()))
        return scaled
    }

    /// The action for `gesture`.
    public func action(for gesture: ButtonGesture) -> ButtonAction {
        switch gesture {
        case .singleTap: singleTapAction
        case .doubleTap: doubleTapAction
        case .longPress: longPressAction
        }
    }
}
