/// What a tap, a double tap or a long press on the button does, named with
/// the daemon's binding words (docs/PROTOCOL.md): `menu` opens the menu,
/// `none` does nothing.
public enum ButtonAction: String, CaseIterable, Hashable, Sendable {
    case menu
    case none
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

    public init() {}

    /// The action for `gesture`.
    public func action(for gesture: ButtonGesture) -> ButtonAction {
        switch gesture {
        case .singleTap: singleTapAction
        case .doubleTap: doubleTapAction
        case .longPress: longPressAction
        }
    }
}
