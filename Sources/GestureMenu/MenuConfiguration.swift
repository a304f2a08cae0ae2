import GestureEditing
import GestureModel

/// One item of the menu of actions as a configuration names it: what it
/// does, and optionally the label shown and spoken instead of the usual one.
public struct MenuEntry: Hashable, Sendable {
    /// What choosing an item does.
    public indirect enum Action: Hashable, Sendable {
        /// Press a button (or a key) of the virtual keyboard: `volume-up`,
        /// `KEY_PLAYPAUSE`. Power is always confirmed first.
        case press(KeyboardKey)
        /// Play a saved gesture of the library on a virtual device.
        case play(String)
        /// The sub-menu of every named button.
        case buttons
        /// The sub-menu of the saved gestures (the library, as it is when
        /// opened), shown as "Saved gestures menu": AssistiveTouch's Custom.
        case gestures
        /// AssistiveTouch's "Create New Gesture": the create flow, then back to the menu.
        case create
        /// AssistiveTouch's Device > More > Gestures: the sub-menu of live
        /// fingertips, 2, 3, 4 and 5 (``MenuConfiguration/fingertipsItems``),
        /// shown as "Gestures menu" as AssistiveTouch calls it.
        case fingertipsMenu
        /// Live fingertips (`gesturectl fingertips N`) on the menu's pointing
        /// device, until the switch is pressed or they go away by themselves.
        case fingertips(Int)
        /// A sub-menu of one's own, with this title and these items.
        case menu(title: String, items: [MenuEntry])
    }

    /// What it does.
    public var action: Action
    /// The label to show and speak instead of the usual one.
    public var label: String?

    /// Creates an entry.
    public init(_ action: Action, label: String? = nil) {
        self.action = action
        self.label = label
    }

    /// A button press by name, for the defaults (the names are known to exist).
    package static func button(_ name: String) -> MenuEntry {
        // The defaults only name buttons the virtual keyboard has.
        .init(.press(KeyboardKeys.buttons.first { $0.name == name }!))
    }

    /// The label people see and hear.
    public var shownLabel: String {
        if let label { return label }
        switch action {
        case .press(let key): return Self.buttonLabels[key.name] ?? key.kernelName
        case .play(let name): return name
        case .buttons: return "Buttons menu"
        case .gestures: return "Saved gestures menu"
        case .create: return "Create New Gesture"
        case .fingertipsMenu: return "Gestures menu"
        case .fingertips(let count): return "\(count) fingertips"
        case .menu(let title, _): return "\(title) menu"
        }
    }

    /// How the keys are called in menus, in words a speech synthesiser
    /// reads well (`back` and `menu` say "key" so that they are not taken
    /// for going back or for a sub-menu; `KEY_HOME` is "Home key" beside
    /// the Home button).
    package static let buttonLabels: [String: String] = [
        "volume-up": "Volume up", "volume-down": "Volume down", "mute": "Mute", "lock": "Lock screen",
        "screenshot": "Screenshot", "home": "Home", "back": "Back key", "menu": "Menu key", "power": "Power",
        "KEY_PLAYPAUSE": "Play or pause", "KEY_NEXTSONG": "Next track", "KEY_PREVIOUSSONG": "Previous track",
        "KEY_STOPCD": "Stop playing", "KEY_MICMUTE": "Microphone mute", "KEY_BRIGHTNESSUP": "Brightness up",
        "KEY_BRIGHTNESSDOWN": "Brightness down", "KEY_SEARCH": "Search", "KEY_ESC": "Escape key", "KEY_ENTER": "Enter key",
        "KEY_TAB": "Tab key", "KEY_SPACE": "Space key", "KEY_UP": "Up arrow", "KEY_DOWN": "Down arrow",
        "KEY_LEFT": "Left arrow", "KEY_RIGHT": "Right arrow", "KEY_PAGEUP": "Page up", "KEY_PAGEDOWN": "Page down",
        "KEY_HOME": "Home key", "KEY_END": "End key",
    ]
}

/// The menu's configuration: the items of the top level, in order
/// (AssistiveTouch's "Customize Top Level Menu"). Read from `menu.json`
/// by the front end; the defaults when there is none.
public struct MenuConfiguration: Hashable, Sendable {
    /// The deepest nesting of one's own sub-menus.
    public static let maximumDepth = 4
    /// The most items a menu may have (scanning through more is too slow).
    public static let maximumItems = 30

    /// The top level's items.
    public var items: [MenuEntry]

    /// Creates a configuration.
    public init(items: [MenuEntry]) { self.items = items }

    /// The defaults: Home, Back, Volume up and down, the Buttons and
    /// Saved gestures sub-menus, Create New Gesture, and Gestures (the
    /// live fingertips' sub-menu).
    public static let defaults = MenuConfiguration(items: [
        .button("home"), .button("back"), .button("volume-up"), .button("volume-down"),
        MenuEntry(.buttons), MenuEntry(.gestures), MenuEntry(.create), MenuEntry(.fingertipsMenu),
    ])

    /// How many live fingertips an item may ask for (as `gesturectl fingertips`).
    public static let fingertipsRange = GestureEditor.fingerCountRange

    /// The Gestures sub-menu: 2, 3, 4 and 5 live fingertips, as
    /// AssistiveTouch's Gestures offers.
    public static let fingertipsItems: [MenuEntry] = (2...5).map { MenuEntry(.fingertips($0)) }

    /// The Buttons sub-menu: every named button, power last (always confirmed).
    public static let buttonItems: [MenuEntry] = KeyboardKeys.buttons.map { MenuEntry(.press($0)) }
}
