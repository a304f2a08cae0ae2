/// How udev classified an input device: its `ID_INPUT_*` properties, set
/// by udev's input_id builtin from the device's capabilities. libinput
/// ignores a device without any of them.
public enum InputDeviceClass: String, Hashable, Sendable, CaseIterable {
    /// `ID_INPUT_TOUCHSCREEN`.
    case touchscreen = "ID_INPUT_TOUCHSCREEN"
    /// `ID_INPUT_TOUCHPAD`.
    case touchpad = "ID_INPUT_TOUCHPAD"
    /// `ID_INPUT_TABLET`: a pen tablet.
    case tablet = "ID_INPUT_TABLET"
    /// `ID_INPUT_TABLET_PAD`: the buttons and rings of a tablet.
    case tabletPad = "ID_INPUT_TABLET_PAD"
    /// `ID_INPUT_MOUSE`.
    case mouse = "ID_INPUT_MOUSE"
    /// `ID_INPUT_POINTINGSTICK`.
    case pointingStick = "ID_INPUT_POINTINGSTICK"
    /// `ID_INPUT_TRACKBALL`.
    case trackball = "ID_INPUT_TRACKBALL"
    /// `ID_INPUT_KEYBOARD`: a full keyboard.
    case keyboard = "ID_INPUT_KEYBOARD"
    /// `ID_INPUT_KEY`: has some keys (power button, volume keys, …).
    case key = "ID_INPUT_KEY"
    /// `ID_INPUT_JOYSTICK`.
    case joystick = "ID_INPUT_JOYSTICK"
    /// `ID_INPUT_ACCELEROMETER`.
    case accelerometer = "ID_INPUT_ACCELEROMETER"
    /// `ID_INPUT_SWITCH`: lid or tablet-mode switches.
    case `switch` = "ID_INPUT_SWITCH"

    /// The udev property that marks the class, e.g. `ID_INPUT_TOUCHPAD`.
    public var propertyName: String { rawValue }
}
