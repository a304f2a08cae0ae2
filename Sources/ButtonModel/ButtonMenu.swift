import GestureMenu
import GestureModel

/// One item of the button's menu, as the window shows it: the label it
/// shows (and a screen reader speaks as its name), a longer description
/// (its tooltip and accessible description), and what choosing it does.
public struct ButtonMenuItem: Hashable, Sendable {
    /// What choosing an item does.
    public indirect enum Action: Hashable, Sendable {
        /// Presses a key of the daemon's virtual keyboard (`press`, a tap);
        /// `force` for power, which the menu only offers after asking.
        case press(key: String, force: Bool)
        /// Opens a sub-menu of these items.
        case submenu([ButtonMenuItem])
        /// Opens the Saved gestures sub-menu: the daemon's library, listed
        /// when the menu opens (``ButtonMenu/savedGestureItems(_:)``).
        case savedGestures
        /// Starts placing a saved gesture: the next click on the screen plays it there.
        case place(gesture: String)
        /// Create New Gesture: opens the full-screen canvas, recording
        /// through the daemon (``CanvasFlow``).
        case create
        /// Starts this many live fingertips through the daemon (``FingertipsFlow``).
        case fingertips(Int)
        /// Something the button does not do yet: says so (the text), rather than nothing.
        case notAvailable(String)
        /// Shows this text (a problem, or the daemon's absence): the menu
        /// tries the daemon again when it opens next.
        case message(String)
        /// Closes the menu and does nothing (power's "No").
        case close
        /// Opens "Customize Top Level Menu" (``MenuCustomizer``).
        case customize
        /// Hides the button: the program ends.
        case hide
    }

    /// What it shows, and the name a screen reader speaks.
    public var label: String
    /// More about it: its tooltip and accessible description.
    public var description: String
    /// What choosing it does.
    public var action: Action

    /// Creates an item.
    public init(label: String, description: String, action: Action) {
        self.label = label
        self.description = description
        self.action = action
    }
}

/// The button's menu, made from the same `menu.json` as `gesturectl menu`
/// and the daemon's menu (GestureMenu's ``GestureMenu/MenuConfiguration``),
/// as items the window shows. Pure: no GTK, no daemon.
public enum ButtonMenu {
    /// A saved gesture as the daemon's `list` gives it.
    public struct SavedGesture: Hashable, Sendable {
        /// Its name in the library.
        public var name: String
        /// Its spoken description (`list`'s summary).
        public var summary: String

        /// Creates one.
        public init(name: String, summary: String) {
            self.name = name
            self.summary = summary
        }
    }

    /// The top level for `configuration`, then "Customize Top Level Menu"
    /// and "Hide the button".
    public static func items(for configuration: MenuConfiguration) -> [ButtonMenuItem] {
        configuration.items.map(item) + [customizeItem, hideItem]
    }

    /// "Customize Top Level Menu": moves, adds and removes the top level's
    /// items, or resets it (after the items, before "Hide the button").
    public static let customizeItem = ButtonMenuItem(
        label: MenuCustomizer.title, description: "Move, add or remove the items of this menu, or reset it to the default one",
        action: .customize)

    /// The top level from the user's `menu.json` (the defaults without one):
    /// the items, and the problem with the file when it cannot be used (then
    /// the items are the defaults', after an item that shows the problem).
    public static func load(environment: [String: String]) -> (items: [ButtonMenuItem], problem: String?) {
        guard let path = MenuConfigurationFile.userPath(environment: environment) else {
            return (items(for: .defaults), nil)
        }
        do throws(MenuConfigurationError) {
            return (items(for: try MenuConfigurationFile.load(path: path) ?? .defaults), nil)
        } catch {
            let problem = "menu.json is not used, so the menu is the default one: \(error.message)"
            let shown = ButtonMenuItem(label: "menu.json has a problem", description: problem, action: .message(problem))
            return ([shown] + items(for: .defaults), problem)
        }
    }

    /// "Hide the button": ends the program (the last item of the top level).
    public static let hideItem = ButtonMenuItem(
        label: "Hide the button", description: "Closes the on-screen button until it is started again", action: .hide)

    /// The item a configuration's entry is.
    public static func item(_ entry: MenuEntry) -> ButtonMenuItem {
        let label = DisplayText.escaped(entry.shownLabel)
        switch entry.action {
        case .press(let key):
            if key.codeNumber == KeyboardKeys.powerCode { return powerItem(label: label, key: key.name) }
            return ButtonMenuItem(label: label, description: "Presses \(label)", action: .press(key: key.name, force: false))
        case .play(let name):
            let shown = DisplayText.escaped(name)
            return ButtonMenuItem(
                label: label, description: "Plays the saved gesture \(shown) where you click next",
                action: .place(gesture: name))
        case .buttons:
            return ButtonMenuItem(
                label: label, description: "Volume, mute, lock screen, screenshot, home, back, power",
                action: .submenu(MenuConfiguration.buttonItems.map(item)))
        case .gestures:
            return ButtonMenuItem(
                label: entry.label.map { DisplayText.escaped($0) } ?? "Saved gestures", description: "Your saved gestures: choose one, then click where to play it",
                action: .savedGestures)
        case .create:
            return ButtonMenuItem(
                label: label, description: "Opens a full-screen canvas: draw a gesture, then review, redo, save or discard it",
                action: .create)
        case .fingertipsMenu:
            return ButtonMenuItem(
                label: label, description: "Live fingertips: 2, 3, 4 or 5",
                action: .submenu(MenuConfiguration.fingertipsItems.map(item)))
        case .fingertips(let count):
            return ButtonMenuItem(
                label: label,
                description: "\(count) fingertips moved together by your touch or pointer device; they end after a pause, or with a tap on the button",
                action: .fingertips(count))
        case .menu(let title, let items):
            return ButtonMenuItem(
                label: label, description: "The \(DisplayText.escaped(title)) menu", action: .submenu(items.map(item)))
        }
    }

    /// Power asks first: a sub-menu whose first item presses it.
    static func powerItem(label: String, key: String) -> ButtonMenuItem {
        ButtonMenuItem(
            label: label, description: "Asks first: pressing power can switch the computer off",
            action: .submenu([
                ButtonMenuItem(
                    label: "Press \(label) now", description: "Presses the power button: this can switch the computer off",
                    action: .press(key: key, force: true)),
                ButtonMenuItem(label: "Do not press \(label)", description: "Closes the menu", action: .close),
            ]))
    }

    /// The Saved gestures sub-menu for the daemon's list: each gesture by
    /// its name, its spoken description as its description; one item that
    /// says so when there is none.
    public static func savedGestureItems(_ gestures: [SavedGesture]) -> [ButtonMenuItem] {
        guard !gestures.isEmpty else {
            let text = "No saved gestures yet: record one with gesturectl record NAME"
            return [ButtonMenuItem(label: "No saved gestures yet", description: text, action: .message(text))]
        }
        return gestures.map { gesture in
            let name = DisplayText.escaped(gesture.name)
            let summary = gesture.summary.isEmpty ? name : DisplayText.escaped(gesture.summary)
            return ButtonMenuItem(label: name, description: summary, action: .place(gesture: gesture.name))
        }
    }

    /// What the menu shows while the daemon's list is on its way.
    public static let loadingItem = ButtonMenuItem(
        label: "Loading saved gestures…", description: "Asking the gesturectl daemon for its saved gestures",
        action: .message("The daemon has not answered yet; open the menu again in a moment"))

    /// What to start when the daemon cannot be reached, as shown.
    public static let startHint =
        "start it with: systemctl --user start gesturectl.socket (or for everyone: sudo systemctl enable --now gesturectl.socket)"

    /// The items that say the daemon cannot be reached (at the top of the
    /// menu): what is wrong, and what to start. Choosing one shows it all;
    /// the menu tries the daemon again when it opens next.
    public static func daemonMissingItems(reason: String) -> [ButtonMenuItem] {
        let text = "No gesturectl daemon: \(DisplayText.escaped(reason)); \(startHint)"
        return [
            ButtonMenuItem(label: "The gesturectl daemon is not running", description: text, action: .message(text)),
            ButtonMenuItem(label: "Start it: systemctl --user start gesturectl.socket", description: text, action: .message(text)),
            ButtonMenuItem(label: "or: sudo systemctl enable --now gesturectl.socket", description: text, action: .message(text)),
        ]
    }
}
