import CLibevdev
import GestureModel

/// What kind of device an evdev device is: the one classifier behind
/// `devices`, device selection, `play --clone` and the recorder.
///
/// It follows udev's input_id builtin (systemd `udev-builtin-input_id.c`),
/// which sets the `ID_INPUT_*` properties libinput and compositors go by,
/// so gesturectl calls a device what the desktop treats it as:
///
/// 1. Accelerometer: `INPUT_PROP_ACCELEROMETER`, or `ABS_X`/`ABS_Y`/`ABS_Z`
///    without any key; nothing else is tested.
/// 2. With both `ABS_X` and `ABS_Y`, the first that fits: `BTN_STYLUS` or
///    `BTN_TOOL_PEN` → tablet; `BTN_TOOL_FINGER` (without `BTN_TOOL_PEN`)
///    and no `INPUT_PROP_DIRECT` → touchpad; a mouse button
///    (`BTN_LEFT`…`BTN_TASK`) → mouse (an absolute pointer, like VMware's);
///    `BTN_TOUCH` or `INPUT_PROP_DIRECT` → touchscreen; joystick buttons
///    or axes → joystick. Without them, joystick buttons or axes → joystick.
/// 3. With both `ABS_MT_POSITION_X` and `ABS_MT_POSITION_Y` (unless the
///    device claims every axis, `ABS_MT_SLOT − 1` included), the same
///    first three tests without the mouse one: tablet, touchpad, touchscreen.
/// 4. Mouse buttons with `REL_X` and `REL_Y`, or with no `ABS_X`/`ABS_Y`,
///    on a device that is not a tablet, touchpad or joystick → mouse
///    (a pointing stick on I²C; `INPUT_PROP_POINTING_STICK` too).
/// 5. Any `KEY_*` code (below `BTN_MISC`, or in the high key blocks) → key;
///    `KEY_ESC` to `KEY_S` (the first 32 codes but `KEY_RESERVED`) all
///    present → keyboard. A device that is none of the above but has
///    `REL_WHEEL` or `REL_HWHEEL` → key (a lone wheel).
///
/// A device can get several classes (a touchscreen that also reports
/// `BTN_LEFT` is a mouse and a touchscreen; a mouse with media keys is a
/// mouse and a key device): the kind is the first of touchscreen, touchpad,
/// tablet, mouse, keyboard (``GestureModel/DeviceKind``'s order); joysticks,
/// accelerometers and switches are ``GestureModel/DeviceKind/other``.
///
/// What udev itself said (the classes of a ``UdevInputDevice``) wins when it
/// names a kind: it includes hardware-database corrections the capabilities
/// cannot show. The capabilities decide only when udev is silent (no udev
/// in a container, a node udev does not know, or no `ID_INPUT_*` class).
public enum DeviceClassifier {
    /// The kind of `description`'s device.
    /// - Parameter udevClasses: what udev set for the device, when known;
    ///   they decide when they name a kind.
    public static func kind(of description: InputDeviceDescription?, udevClasses: Set<InputDeviceClass> = []) -> DeviceKind {
        if let kind = kind(udevClasses: udevClasses) { return kind }
        guard let description else { return .other }
        return kind(udevClasses: Self.udevClasses(of: description)) ?? .other
    }

    /// The kind udev's classes name, in ``GestureModel/DeviceKind``'s order
    /// of preference; `nil` when they name none (no class, or only a
    /// joystick, accelerometer, switch or tablet pad class).
    public static func kind(udevClasses classes: Set<InputDeviceClass>) -> DeviceKind? {
        if classes.contains(.touchscreen) { return .touchscreen }
        if classes.contains(.touchpad) { return .touchpad }
        if classes.contains(.tablet) { return .tablet }
        if !classes.isDisjoint(with: [.mouse, .trackball, .pointingStick]) { return .mouse }
        if !classes.isDisjoint(with: [.keyboard, .key]) { return .keyboard }
        return nil
    }

    /// The `ID_INPUT_*` classes udev's input_id builtin gives a device with
    /// these capabilities (see the type's rules). `ID_INPUT_TRACKBALL` is
    /// never among them: only the hardware database sets it.
    public static func udevClasses(of description: InputDeviceDescription) -> Set<InputDeviceClass> {
        let capabilities = Capabilities(description)
        var classes = capabilities.pointerClasses()
        let isPointer = !classes.isEmpty
        classes.formUnion(capabilities.keyClasses())
        if !isPointer && !classes.contains(.key) && !classes.contains(.keyboard) && capabilities.hasWheel {
            classes.insert(.key)
        }
        if description.codes[EventType(rawValue: UInt16(EV_SW))] != nil { classes.insert(.switch) }
        return classes
    }

    /// The capabilities input_id looks at, as sets of raw code numbers.
    private struct Capabilities {
        let keys: Set<UInt16>
        let absolute: Set<UInt16>
        let relative: Set<UInt16>
        let properties: Set<UInt16>
        let hasKeyType: Bool
        let hasRelativeType: Bool
        let bus: UInt16

        init(_ description: InputDeviceDescription) {
            func numbers(_ type: EventType) -> Set<UInt16> { Set((description.codes[type] ?? []).map(\.rawValue)) }
            keys = numbers(.key)
            absolute = numbers(.absolute).union(description.absoluteAxes.keys.map(\.rawValue))
            relative = numbers(.relative)
            properties = Set(description.properties.map(\.rawValue))
            hasKeyType = description.codes[.key] != nil
            hasRelativeType = description.codes[.relative] != nil
            bus = description.bus
        }

        func key(_ code: Int32) -> Bool { keys.contains(UInt16(code)) }
        func axis(_ code: Int32) -> Bool { absolute.contains(UInt16(code)) }
        func property(_ code: Int32) -> Bool { properties.contains(UInt16(code)) }
        func anyKey(in range: Range<Int32>) -> Bool { keys.contains { Int32($0) >= range.lowerBound && Int32($0) < range.upperBound } }
        func anyAxis(in range: Range<Int32>) -> Bool {
            absolute.contains { Int32($0) >= range.lowerBound && Int32($0) < range.upperBound }
        }

        var hasWheel: Bool {
            hasRelativeType && (relative.contains(UInt16(REL_WHEEL)) || relative.contains(UInt16(REL_HWHEEL)))
        }

        /// input_id's `test_pointers`.
        func pointerClasses() -> Set<InputDeviceClass> {
            let hasAbsoluteCoordinates = axis(ABS_X) && axis(ABS_Y)
            if property(INPUT_PROP_ACCELEROMETER) || (!hasKeyType && hasAbsoluteCoordinates && axis(ABS_Z)) {
                return [.accelerometer]
            }
            var isPointingStick = property(INPUT_PROP_POINTING_STICK)
            let hasStylus = key(BTN_STYLUS)
            let hasPen = key(BTN_TOOL_PEN)
            let fingerButNoPen = key(BTN_TOOL_FINGER) && !hasPen
            let hasMouseButton = anyKey(in: BTN_MOUSE..<BTN_JOYSTICK)
            let hasRelativeCoordinates =
                hasRelativeType && relative.contains(UInt16(REL_X)) && relative.contains(UInt16(REL_Y))
            // A device claiming every absolute axis (ABS_MT_SLOT − 1 too)
            // is not taken at its word about multi-touch.
            let hasMultitouchCoordinates =
                axis(ABS_MT_POSITION_X) && axis(ABS_MT_POSITION_Y) && !(axis(ABS_MT_SLOT) && axis(ABS_MT_SLOT - 1))
            let isDirect = property(INPUT_PROP_DIRECT)
            let hasTouch = key(BTN_TOUCH)
            // A mouse with more than 16 buttons runs into the joystick range.
            var hasJoystickAxesOrButtons = false
            if !key(BTN_JOYSTICK - 1) {
                hasJoystickAxesOrButtons =
                    anyKey(in: BTN_JOYSTICK..<BTN_DIGI) || anyKey(in: BTN_TRIGGER_HAPPY1..<(BTN_TRIGGER_HAPPY40 + 1))
                    || anyKey(in: BTN_DPAD_UP..<(BTN_DPAD_RIGHT + 1))
            }
            hasJoystickAxesOrButtons = hasJoystickAxesOrButtons || anyAxis(in: ABS_RX..<ABS_PRESSURE)

            var isTablet = false, isTouchpad = false, isTouchscreen = false, isJoystick = false
            var isMouse = false, isAbsoluteMouse = false
            if hasAbsoluteCoordinates {
                if hasStylus || hasPen {
                    isTablet = true
                } else if fingerButNoPen && !isDirect {
                    isTouchpad = true
                } else if hasMouseButton {
                    isAbsoluteMouse = true
                } else if hasTouch || isDirect {
                    isTouchscreen = true
                } else if hasJoystickAxesOrButtons {
                    isJoystick = true
                }
            } else if hasJoystickAxesOrButtons {
                isJoystick = true
            }
            if hasMultitouchCoordinates {
                if hasStylus || hasPen {
                    isTablet = true
                } else if fingerButNoPen && !isDirect {
                    isTouchpad = true
                } else if hasTouch || isDirect {
                    isTouchscreen = true
                }
            }
            let isTabletPad = isTablet && key(BTN_0) && hasStylus && !hasPen
            if !isTablet && !isTouchpad && !isJoystick && hasMouseButton
                && (hasRelativeCoordinates || !hasAbsoluteCoordinates)
            {
                isMouse = true
            }
            // There is no such thing as an I²C mouse.
            if isMouse && bus == UInt16(BUS_I2C) { isPointingStick = true }

            var classes: Set<InputDeviceClass> = []
            if isPointingStick { classes.insert(.pointingStick) }
            if isMouse || isAbsoluteMouse { classes.insert(.mouse) }
            if isTouchpad { classes.insert(.touchpad) }
            if isTouchscreen { classes.insert(.touchscreen) }
            if isJoystick { classes.insert(.joystick) }
            if isTablet { classes.insert(.tablet) }
            if isTabletPad { classes.insert(.tabletPad) }
            return classes
        }

        /// input_id's `test_key`: `KEY_*` codes, not `BTN_*` ones.
        func keyClasses() -> Set<InputDeviceClass> {
            guard hasKeyType else { return [] }
            var classes: Set<InputDeviceClass> = []
            if anyKey(in: 0..<BTN_MISC) || anyKey(in: KEY_OK..<BTN_DPAD_UP)
                || anyKey(in: KEY_ALS_TOGGLE..<BTN_TRIGGER_HAPPY)
            {
                classes.insert(.key)
            }
            // Every code of the first 32 but KEY_RESERVED: KEY_ESC, the
            // number row, Tab, Q to P, Enter, left Ctrl, A and S.
            if (Int32(KEY_ESC)...Int32(KEY_S)).allSatisfy(key) { classes.insert(.keyboard) }
            return classes
        }
    }
}
