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
    /// name, and the code (GestureModel's table, ``GestureModel/KeyboardKeys``,
    /// which front ends without devices share).
    public typealias Key = KeyboardKey

    /// The named buttons, in the order the help lists them.
    public static var buttons: [Key] { KeyboardKeys.buttons }

    /// The other keys it may press, by kernel name (see the type's notes
    /// for why these and no others).
    public static var extraKeys: [Key] { KeyboardKeys.extraKeys }

    /// Every key the keyboard has.
    public static var keys: [Key] { KeyboardKeys.keys }

    /// Keys that need `force`: `KEY_POWER` can switch the machine off
    /// (logind's `HandlePowerKey=poweroff` is the default).
    public static let needsForce: Set<EventCode> = [EventCode(rawValue: KeyboardKeys.powerCode)]

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
    public static func key(named text: String) throws(KeyNameError) -> Key { try KeyboardKeys.key(named: text) }

    /// The key of a code, if the keyboard has it.
    public static func key(code: EventCode) -> Key? { keys.first { $0.code == code } }
}

/// Why a key name was refused (GestureModel's, where the keys' names are).
public typealias KeyNameError = KeyboardKeyNameError

extension KeyboardKey {
    /// The `EV_KEY` code.
    public var code: EventCode { EventCode(rawValue: codeNumber) }
}

extension VirtualDeviceProfile {
    /// The virtual keyboard that presses buttons (``VirtualKeyboard/profile()``).
    public static func keyboard() -> VirtualDeviceProfile { VirtualKeyboard.profile() }
}
