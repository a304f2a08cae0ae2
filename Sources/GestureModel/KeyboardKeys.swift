/// A key gesturectl's virtual keyboard can press, as people and menus name
/// it: the name a person uses (a named button such as `volume-up`, or the
/// kernel name for the others), the kernel name, and the `EV_KEY` code.
/// Pure data, so that a front end without the device layer (the on-screen
/// button, the menu's configuration) knows the same keys as the keyboard
/// itself (GesturePlayback's `VirtualKeyboard`, whose `Key` this is).
public struct KeyboardKey: Hashable, Sendable {
    /// `volume-up`, or `KEY_ENTER` for a key without a button name.
    public var name: String
    /// The kernel's name, e.g. `KEY_VOLUMEUP`.
    public var kernelName: String
    /// The `EV_KEY` code, as a number (GesturePlayback gives it as an `EventCode`).
    public var codeNumber: UInt16

    /// Creates a key.
    public init(_ name: String, _ kernelName: String, _ code: UInt16) {
        self.name = name
        self.kernelName = kernelName
        self.codeNumber = code
    }
}

/// The keys of gesturectl's virtual keyboard, by name: the one table that
/// `gesturectl press`, the daemon's `press`, `menu.json` and the on-screen
/// button share (see GesturePlayback's `VirtualKeyboard` for why these keys
/// and no others).
public enum KeyboardKeys {
    /// The named buttons, in the order the help lists them.
    public static let buttons: [KeyboardKey] = [
        KeyboardKey("volume-up", "KEY_VOLUMEUP", 115), KeyboardKey("volume-down", "KEY_VOLUMEDOWN", 114),
        KeyboardKey("mute", "KEY_MUTE", 113), KeyboardKey("lock", "KEY_SCREENLOCK", 152),
        KeyboardKey("screenshot", "KEY_SYSRQ", 99), KeyboardKey("home", "KEY_HOMEPAGE", 172),
        KeyboardKey("back", "KEY_BACK", 158), KeyboardKey("menu", "KEY_MENU", 139), KeyboardKey("power", "KEY_POWER", 116),
    ]

    /// The other keys it may press, by kernel name.
    public static let extraKeys: [KeyboardKey] = [
        ("KEY_PLAYPAUSE", 164), ("KEY_NEXTSONG", 163), ("KEY_PREVIOUSSONG", 165), ("KEY_STOPCD", 166),
        ("KEY_MICMUTE", 248), ("KEY_BRIGHTNESSUP", 225), ("KEY_BRIGHTNESSDOWN", 224), ("KEY_SEARCH", 217),
        ("KEY_ESC", 1), ("KEY_ENTER", 28), ("KEY_TAB", 15), ("KEY_SPACE", 57), ("KEY_UP", 103), ("KEY_DOWN", 108),
        ("KEY_LEFT", 105), ("KEY_RIGHT", 106), ("KEY_PAGEUP", 104), ("KEY_PAGEDOWN", 109), ("KEY_HOME", 102),
        ("KEY_END", 107),
    ].map { KeyboardKey($0.0, $0.0, $0.1) }

    /// Every key the keyboard has.
    public static var keys: [KeyboardKey] { buttons + extraKeys }

    /// The code of `KEY_POWER`, the one key that needs `force`.
    public static let powerCode: UInt16 = 116

    /// The key a name means: a button name (`volume-up`) or a `KEY_*` name
    /// of a key the keyboard has (`KEY_VOLUMEUP`, `KEY_ENTER`; upper or
    /// lower case).
    /// - Throws: ``KeyboardKeyNameError`` saying why not.
    public static func key(named text: String) throws(KeyboardKeyNameError) -> KeyboardKey {
        if let button = buttons.first(where: { $0.name == text.lowercased() }) { return button }
        let upper = text.uppercased()
        if let key = keys.first(where: { $0.kernelName == upper }) { return key }
        if upper.hasPrefix("KEY_") { throw .notOnKeyboard(text) }
        throw .unknown(text)
    }
}

/// Why a key name was refused.
public enum KeyboardKeyNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Neither a button name nor a `KEY_*` name.
    case unknown(String)
    /// A `KEY_*` name the virtual keyboard does not have.
    case notOnKeyboard(String)

    public var description: String {
        switch self {
        case .unknown(let name):
            "unknown button \"\(name)\"; buttons: \(KeyboardKeys.buttons.map(\.name).joined(separator: ", ")), "
                + "or one of the keys \(KeyboardKeys.extraKeys.map(\.kernelName).joined(separator: ", "))"
        case .notOnKeyboard(let name):
            "\(name) is not a key gesturectl's virtual keyboard sends (no letters, modifiers or keys that suspend "
                + "or reboot); it sends the buttons \(KeyboardKeys.buttons.map(\.name).joined(separator: ", ")) "
                + "and \(KeyboardKeys.extraKeys.map(\.kernelName).joined(separator: ", "))"
        }
    }
}
