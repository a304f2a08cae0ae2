import CLibevdev

/// An evdev event code within a type, e.g. ``multitouchPositionX``
/// (`ABS_MT_POSITION_X`) within ``EventType/absolute``.
///
/// A code means something only together with its type: `ABS_X`, `REL_X` and
/// `SYN_REPORT` are all 0. The constants below are named after their type.
public struct EventCode: RawRepresentable, Hashable, Sendable {
    /// The kernel's number for the code.
    public var rawValue: UInt16

    /// Creates a code from the kernel's number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates a code from its kernel name within `type`, e.g. `ABS_X` in
    /// `EV_ABS`; `nil` when the name is unknown for that type
    /// (`libevdev_event_code_from_name_n`).
    public init?(name: String, type: EventType) {
        let value = name.withCString { libevdev_event_code_from_name_n(UInt32(type.rawValue), $0, name.utf8.count) }
        guard value >= 0, let rawValue = UInt16(exactly: value) else { return nil }
        self.rawValue = rawValue
    }

    /// The type and code for a code name alone, e.g. `BTN_TOUCH` gives
    /// (`EV_KEY`, 0x14a); `nil` when unknown
    /// (`libevdev_event_type_from_code_name_n`,
    /// `libevdev_event_code_from_code_name_n`).
    public static func lookUp(codeName: String) -> (type: EventType, code: EventCode)? {
        let length = codeName.utf8.count
        let type = codeName.withCString { libevdev_event_type_from_code_name_n($0, length) }
        let code = codeName.withCString { libevdev_event_code_from_code_name_n($0, length) }
        guard type >= 0, code >= 0, let typeValue = UInt16(exactly: type), let codeValue = UInt16(exactly: code)
        else { return nil }
        return (EventType(rawValue: typeValue), EventCode(rawValue: codeValue))
    }

    /// The kernel name of this code within `type`, e.g. `ABS_MT_SLOT`; `nil`
    /// when libevdev has no name for it (`libevdev_event_code_get_name`).
    public func name(type: EventType) -> String? {
        libevdev_event_code_get_name(UInt32(type.rawValue), UInt32(rawValue)).map { String(cString: $0) }
    }

    /// The kernel name within `type`, or the number in hex (e.g. `0x2ff`).
    public func nameOrNumber(type: EventType) -> String {
        name(type: type) ?? "0x" + String(rawValue, radix: 16)
    }

    private init(_ value: Int32) { self.rawValue = UInt16(value) }

    // MARK: EV_SYN

    /// `SYN_REPORT`: ends a frame.
    public static let synchronizationReport = EventCode(SYN_REPORT)
    /// `SYN_MT_REPORT`: ends one contact in multi-touch protocol A.
    public static let synchronizationMultitouchReport = EventCode(SYN_MT_REPORT)
    /// `SYN_DROPPED`: the kernel's buffer overflowed; events were lost.
    public static let synchronizationDropped = EventCode(SYN_DROPPED)

    // MARK: EV_ABS

    /// `ABS_X`: horizontal position (single-touch, or emulation of slot 0).
    public static let absoluteX = EventCode(ABS_X)
    /// `ABS_Y`: vertical position.
    public static let absoluteY = EventCode(ABS_Y)
    /// `ABS_PRESSURE`: pressure (single-touch).
    public static let absolutePressure = EventCode(ABS_PRESSURE)
    /// `ABS_DISTANCE`: hover distance (pens).
    public static let absoluteDistance = EventCode(ABS_DISTANCE)
    /// `ABS_MT_SLOT`: selects the slot the following MT events belong to.
    public static let multitouchSlot = EventCode(ABS_MT_SLOT)
    /// `ABS_MT_TOUCH_MAJOR`: contact size along its major axis.
    public static let multitouchTouchMajor = EventCode(ABS_MT_TOUCH_MAJOR)
    /// `ABS_MT_POSITION_X`: horizontal position of the contact in the slot.
    public static let multitouchPositionX = EventCode(ABS_MT_POSITION_X)
    /// `ABS_MT_POSITION_Y`: vertical position of the contact in the slot.
    public static let multitouchPositionY = EventCode(ABS_MT_POSITION_Y)
    /// `ABS_MT_TOOL_TYPE`: finger, pen or palm.
    public static let multitouchToolType = EventCode(ABS_MT_TOOL_TYPE)
    /// `ABS_MT_TRACKING_ID`: ≥ 0 starts a contact in the slot, -1 ends it.
    public static let multitouchTrackingID = EventCode(ABS_MT_TRACKING_ID)
    /// `ABS_MT_PRESSURE`: pressure of the contact in the slot.
    public static let multitouchPressure = EventCode(ABS_MT_PRESSURE)

    // MARK: EV_REL

    /// `REL_X`: horizontal pointer motion.
    public static let relativeX = EventCode(REL_X)
    /// `REL_Y`: vertical pointer motion.
    public static let relativeY = EventCode(REL_Y)
    /// `REL_HWHEEL`: horizontal wheel.
    public static let relativeHorizontalWheel = EventCode(REL_HWHEEL)
    /// `REL_WHEEL`: vertical wheel.
    public static let relativeWheel = EventCode(REL_WHEEL)

    // MARK: EV_KEY, buttons

    /// `BTN_LEFT`: left mouse button (or a clickpad's click).
    public static let buttonLeft = EventCode(BTN_LEFT)
    /// `BTN_RIGHT`: right mouse button.
    public static let buttonRight = EventCode(BTN_RIGHT)
    /// `BTN_MIDDLE`: middle mouse button.
    public static let buttonMiddle = EventCode(BTN_MIDDLE)
    /// `BTN_TOOL_PEN`: a pen is in range.
    public static let buttonToolPen = EventCode(BTN_TOOL_PEN)
    /// `BTN_TOOL_RUBBER`: a pen's eraser end is in range.
    public static let buttonToolRubber = EventCode(BTN_TOOL_RUBBER)
    /// `BTN_TOOL_FINGER`: one finger on a touchpad.
    public static let buttonToolFinger = EventCode(BTN_TOOL_FINGER)
    /// `BTN_TOUCH`: something touches the surface.
    public static let buttonTouch = EventCode(BTN_TOUCH)
    /// `BTN_STYLUS`: the pen's first side button.
    public static let buttonStylus = EventCode(BTN_STYLUS)
    /// `BTN_STYLUS2`: the pen's second side button.
    public static let buttonStylus2 = EventCode(BTN_STYLUS2)
    /// `BTN_TOOL_DOUBLETAP`: two fingers on a touchpad.
    public static let buttonToolDoubleTap = EventCode(BTN_TOOL_DOUBLETAP)
    /// `BTN_TOOL_TRIPLETAP`: three fingers on a touchpad.
    public static let buttonToolTripleTap = EventCode(BTN_TOOL_TRIPLETAP)
    /// `BTN_TOOL_QUADTAP`: four fingers on a touchpad.
    public static let buttonToolQuadTap = EventCode(BTN_TOOL_QUADTAP)
    /// `BTN_TOOL_QUINTTAP`: five fingers on a touchpad.
    public static let buttonToolQuintTap = EventCode(BTN_TOOL_QUINTTAP)

    // MARK: EV_KEY, keys a person may not reach

    /// `KEY_ESC`: escape.
    public static let keyEscape = EventCode(KEY_ESC)
    /// `KEY_ENTER`: enter.
    public static let keyEnter = EventCode(KEY_ENTER)
    /// `KEY_SYSRQ`: print screen; desktops take a screenshot.
    public static let keySysRq = EventCode(KEY_SYSRQ)
    /// `KEY_MUTE`: mute the sound.
    public static let keyMute = EventCode(KEY_MUTE)
    /// `KEY_VOLUMEDOWN`: volume down.
    public static let keyVolumeDown = EventCode(KEY_VOLUMEDOWN)
    /// `KEY_VOLUMEUP`: volume up.
    public static let keyVolumeUp = EventCode(KEY_VOLUMEUP)
    /// `KEY_POWER`: power / lock.
    public static let keyPower = EventCode(KEY_POWER)
    /// `KEY_SLEEP`: suspend.
    public static let keySleep = EventCode(KEY_SLEEP)
    /// `KEY_MENU`: menu.
    public static let keyMenu = EventCode(KEY_MENU)
    /// `KEY_BACK`: back (Android-style navigation).
    public static let keyBack = EventCode(KEY_BACK)
    /// `KEY_HOMEPAGE`: home (Android maps it to HOME).
    public static let keyHomePage = EventCode(KEY_HOMEPAGE)
    /// `KEY_SEARCH`: search.
    public static let keySearch = EventCode(KEY_SEARCH)

    // MARK: EV_MSC

    /// `MSC_SCAN`: the hardware scan code of the next key event.
    public static let miscellaneousScan = EventCode(MSC_SCAN)
    /// `MSC_TIMESTAMP`: the device's own microsecond timestamp.
    public static let miscellaneousTimestamp = EventCode(MSC_TIMESTAMP)
}
