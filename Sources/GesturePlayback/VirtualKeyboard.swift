import GestureModel
import InputSystem

/// The keys gesturectl's virtual keyboard can press, by name, and the one
/// device that sends them (`gesturectl press`, the daemon's `press`).
///
/// **The named buttons** (AssistiveTouch's on-screen buttons):
///
/// | name          | key              | code |
/// |---------------|------------------|------|
/// | `volume-up`   | `KEY_VOLUMEUP`   | 115  |
/// | `volume-down` | `KEY_VOLUMEDOWN` | 114  |
/// | `mute`        | `KEY_MUTE`       | 113  |
/// | `lock`        | `KEY_SCREENLOCK` | 152  | (the kernel's alias of `KEY_COFFEE`: libevdev and `libinput debug-events` print that name)
/// | `screenshot`  | `KEY_SYSRQ`      | 99   |
/// | `home`        | `KEY_HOMEPAGE`   | 172  |
/// | `back`        | `KEY_BACK`       | 158  |
/// | `menu`        | `KEY_MENU`       | 139  |
/// | `power`       | `KEY_POWER`      | 116  |
///
/// **Other keys, by their `KEY_*` name** (``extraKeys``): media keys
/// (`KEY_PLAYPAUSE`, `KEY_NEXTSONG`, `KEY_PREVIOUSSONG`, `KEY_STOPCD`),
/// `KEY_MICMUTE`, `KEY_BRIGHTNESSUP`/`DOWN`, `KEY_SEARCH`, and the keys a
/// switch user navigates with: `KEY_ESC`, `KEY_ENTER`, `KEY_TAB`,
/// `KEY_SPACE`, the four arrows, `KEY_PAGEUP`/`DOWN`, `KEY_HOME`, `KEY_END`.
/// Every other `KEY_*` name is refused, by choice:
/// - no letters, digits or punctuation: the keyboard cannot type a command
///   into a terminal or a password field;
/// - no modifiers (Ctrl, Alt, Shift, Super): no key it sends can become a
///   shortcut, even when one is held with `down`;
/// - nothing that suspends, hibernates, reboots or cuts the radio
///   (`KEY_SLEEP`, `KEY_SUSPEND`, `KEY_RESTART`, `KEY_POWER2`, `KEY_RFKILL`,
///   …): logind and desktops act on them at once. `KEY_POWER` is the one
///   such key, and it needs `force` (``needsForce``).
///
/// The device exposes exactly these keys (29), so it cannot send anything
/// else whatever asks it; its lift-all frame (one event per key and the
/// report) always fits libinput's 64 events.
public enum VirtualKeyboard {
    /// A key the keyboard can press: the name a person uses (a named button
    /// such as `volume-up`, or the kernel name for the others), the kernel
    /// name, and the code.
    public struct Key: Hashable, Sendable {
        /// `volume-up`, or `KEY_ENTER` for a key without a button name.
        public var name: String
        /// The kernel's name, e.g. `KEY_VOLUMEUP`.
        public var kernelName: String
        /// The `EV_KEY` code.
        public var code: EventCode

        init(_ name: String, _ kernelName: String, _ code: UInt16) {
            self.name = name
            self.kernelName = kernelName
            self.code = EventCode(rawValue: code)
        }
    }

    /// The named buttons, in the order the help lists them.
    public static let buttons: [Key] = [
        Key("volume-up", "KEY_VOLUMEUP", 115), Key("volume-down", "KEY_VOLUMEDOWN", 114), Key("mute", "KEY_MUTE", 113),
        Key("lock", "KEY_SCREENLOCK", 152), Key("screenshot", "KEY_SYSRQ", 99), Key("home", "KEY_HOMEPAGE", 172),
        Key("back", "KEY_BACK", 158), Key("menu", "KEY_MENU", 139), Key("power", "KEY_POWER", 116),
    ]

    /// The other keys it may press, by kernel name (see the type's notes
    /// for why these and no others).
    public static let extraKeys: [Key] = [
        ("KEY_PLAYPAUSE", 164), ("KEY_NEXTSONG", 163), ("KEY_PREVIOUSSONG", 165), ("KEY_STOPCD", 166),
        ("KEY_MICMUTE", 248), ("KEY_BRIGHTNESSUP", 225), ("KEY_BRIGHTNESSDOWN", 224), ("KEY_SEARCH", 217),
        ("KEY_ESC", 1), ("KEY_ENTER", 28), ("KEY_TAB", 15), ("KEY_SPACE", 57), ("KEY_UP", 103), ("KEY_DOWN", 108),
        ("KEY_LEFT", 105), ("KEY_RIGHT", 106), ("KEY_PAGEUP", 104), ("KEY_PAGEDOWN", 109), ("KEY_HOME", 102),
        ("KEY_END", 107),
    ].map { Key($0.0, $0.0, $0.1) }

    /// Every key the keyboard has.
    public static var keys: [Key] { buttons + extraKeys }

    /// Keys that need `force`: `KEY_POWER` can switch the machine off
    /// (logind's `HandlePowerKey=poweroff` is the default).
    public static let needsForce: Set<EventCode> = [EventCode(rawValue: 116)]

    /// The product id of the keyboard: 0x0005.
    public static let product: UInt16 = 0x0005

    /// The keyboard: `gesturectl virtual keyboard`, bus 0x06, vendor
    /// 0x4753, product 0x0005, `EV_KEY` with exactly ``keys`` (and `EV_SYN`,
    /// which uinput always adds). No `EV_REP`: the kernel does not repeat a
    /// key held with `down`; desktops repeat held keys themselves, as for
    /// any keyboard. udev's input_id gives it `ID_INPUT_KEY` (not
    /// `ID_INPUT_KEYBOARD`: it lacks the letter keys), which libinput takes
    /// for a keyboard device and reports as `KEYBOARD_KEY` events.
    public static func profile() -> VirtualDeviceProfile {
        VirtualDeviceProfile(
            kind: .keyboard,
            description: InputDeviceDescription(
                name: VirtualDeviceProfile.name(for: .keyboard), bus: VirtualDeviceProfile.bus,
                vendor: VirtualDeviceProfile.vendor, product: product, version: VirtualDeviceProfile.version,
                codes: [.key: Set(keys.map(\.code))]))
    }

    /// The key a name means: a button name (`volume-up`) or a `KEY_*` name
    /// of a key the keyboard has (`KEY_VOLUMEUP`, `KEY_ENTER`; upper or
    /// lower case).
    /// - Throws: ``KeyNameError`` saying why not: an unknown name, or a
    ///   `KEY_*` the keyboard does not have.
    public static func key(named text: String) throws(KeyNameError) -> Key {
        if let button = buttons.first(where: { $0.name == text.lowercased() }) { return button }
        let upper = text.uppercased()
        if let key = keys.first(where: { $0.kernelName == upper }) { return key }
        if upper.hasPrefix("KEY_") { throw .notOnKeyboard(text) }
        throw .unknown(text)
    }

    /// The key of a code, if the keyboard has it.
    public static func key(code: EventCode) -> Key? { keys.first { $0.code == code } }
}

/// Why a key name was refused.
public enum KeyNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Neither a button name nor a `KEY_*` name.
    case unknown(String)
    /// A `KEY_*` name the virtual keyboard does not have.
    case notOnKeyboard(String)

    public var description: String {
        switch self {
        case .unknown(let name):
            "unknown button \"\(name)\"; buttons: \(VirtualKeyboard.buttons.map(\.name).joined(separator: ", ")), "
                + "or one of the keys \(VirtualKeyboard.extraKeys.map(\.kernelName).joined(separator: ", "))"
        case .notOnKeyboard(let name):
            "\(name) is not a key gesturectl's virtual keyboard sends (no letters, modifiers or keys that suspend "
                + "or reboot); it sends the buttons \(VirtualKeyboard.buttons.map(\.name).joined(separator: ", ")) "
                + "and \(VirtualKeyboard.extraKeys.map(\.kernelName).joined(separator: ", "))"
        }
    }
}

extension VirtualDeviceProfile {
    /// The virtual keyboard that presses buttons (``VirtualKeyboard/profile()``).
    public static func keyboard() -> VirtualDeviceProfile { VirtualKeyboard.profile() }
}
