import InputSystem

/// The test devices, as pure data: one description of each, shared by every
/// test target. Where tests' exact numbers rely on a different range or
/// capability, the variant has its own name and says how it differs.
public enum TestDevices {
    /// A 10-slot protocol B touchscreen, 0…21600 × 0…13500 at 100 units/mm
    /// (216 × 135 mm), with no pressure or touch size.
    public static let touchscreen = InputDeviceDescription(
        name: "gesturectl test touchscreen", bus: 0x06, vendor: 0x1d6b, product: 0x0001, version: 1,
        properties: [.direct],
        codes: [.key: [.buttonTouch]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 21_600, resolution: 100),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 13_500, resolution: 100),
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 9),
            .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 21_600, resolution: 100),
            .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 13_500, resolution: 100),
            .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65_535),
        ]
    )

    /// ``touchscreen`` that also reports per-contact pressure (0…255) and
    /// touch size (ABS_MT_TOUCH_MAJOR 0…100).
    public static let touchscreenWithPressure: InputDeviceDescription = {
        var device = touchscreen
        device.absoluteAxes[.multitouchPressure] = AbsoluteAxisInfo(minimum: 0, maximum: 255)
        device.absoluteAxes[.multitouchTouchMajor] = AbsoluteAxisInfo(minimum: 0, maximum: 100)
        device.codes[.absolute, default: []].formUnion([.multitouchPressure, .multitouchTouchMajor])
        return device
    }()

    /// A small two-slot touchscreen, 0…1000 × 0…600 at 10 units/mm
    /// (100 × 60 mm), for interchange files short enough to spell out.
    public static let twoSlotTouchscreen = InputDeviceDescription(
        name: "gesturectl touchscreen", bus: 0x06, vendor: 0x1d6b, product: 0x0104, version: 1,
        properties: [.direct],
        codes: [.key: [.buttonTouch]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 600, resolution: 10),
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 1),
            .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 600, resolution: 10),
            .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65535),
        ])

    /// A protocol A touchscreen (no ABS_MT_SLOT), 0…4095 on both axes.
    public static let protocolA = InputDeviceDescription(
        name: "test protocol A",
        properties: [.direct],
        codes: [.key: [.buttonTouch]],
        absoluteAxes: [
            .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 4_095),
            .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 4_095),
            .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 255),
        ]
    )

    /// A single-touch screen: ABS_X/ABS_Y 0…1023 × 0…767 at 4 units/mm,
    /// pressure 0…63.
    public static let singleTouch = InputDeviceDescription(
        name: "test single touch",
        codes: [.key: [.buttonTouch]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1_023, resolution: 4),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 767, resolution: 4),
            .absolutePressure: AbsoluteAxisInfo(minimum: 0, maximum: 63),
        ]
    )

    /// A 5-slot clickpad, 0…1200 × 0…800 at 12 units/mm (100 × 66.7 mm).
    public static let touchpad = InputDeviceDescription(
        name: "test touchpad",
        properties: [.pointer, .buttonPad],
        codes: [.key: [.buttonLeft, .buttonTouch, .buttonToolFinger, .buttonToolDoubleTap]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1_200, resolution: 12),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 800, resolution: 12),
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 4),
            .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 1_200, resolution: 12),
            .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 800, resolution: 12),
            .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65_535),
        ]
    )

    /// A 5-slot clickpad whose axes are centred on 0 (−3000…3000 ×
    /// −2000…2000 at 42 units/mm), with fuzz and flat, tool type, pressure
    /// and tool bits up to five fingers: everything an interchange file
    /// must carry through.
    public static let centredClickpad = InputDeviceDescription(
        name: "gesturectl touchpad", bus: 0x18, vendor: 0x06cb, product: 0x7e7e, version: 0x100,
        properties: [.pointer, .buttonPad],
        codes: [
            .key: [
                .buttonLeft, .buttonToolFinger, .buttonToolQuintTap, .buttonTouch, .buttonToolDoubleTap,
                .buttonToolTripleTap, .buttonToolQuadTap,
            ]
        ],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: -3000, maximum: 3000, fuzz: 0, resolution: 42),
            .absoluteY: AbsoluteAxisInfo(minimum: -2000, maximum: 2000, resolution: 42),
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 4),
            .multitouchPositionX: AbsoluteAxisInfo(minimum: -3000, maximum: 3000, resolution: 42),
            .multitouchPositionY: AbsoluteAxisInfo(minimum: -2000, maximum: 2000, resolution: 42),
            .multitouchToolType: AbsoluteAxisInfo(minimum: 0, maximum: 2),
            .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65535),
            .multitouchPressure: AbsoluteAxisInfo(minimum: 0, maximum: 255, fuzz: 2, flat: 1),
        ])

    /// A pen tablet: 0…15200 × 0…9500 at 100 units/mm (152 × 95 mm),
    /// pressure 0…4095, hover distance 0…63.
    public static let pen = InputDeviceDescription(
        name: "Wacom Intuos S Pen", bus: 0x03, vendor: 0x056a, product: 0x0374, version: 0x0110,
        properties: [.pointer],
        codes: [.key: [.buttonToolPen, .buttonToolRubber, .buttonTouch, .buttonStylus]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 15200, fuzz: 4, resolution: 100),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 9500, fuzz: 4, resolution: 100),
            .absolutePressure: AbsoluteAxisInfo(minimum: 0, maximum: 4095),
            .absoluteDistance: AbsoluteAxisInfo(minimum: 0, maximum: 63, flat: 1),
        ])

    /// A three-button wheel mouse (with the high-resolution wheel and
    /// MSC_SCAN a real one reports).
    public static let mouse = InputDeviceDescription(
        name: "Logitech USB Optical Mouse", bus: 0x03, vendor: 0x046d, product: 0xc077, version: 0x0111,
        codes: [
            .key: [.buttonLeft, .buttonRight, .buttonMiddle],
            .relative: [.relativeX, .relativeY, .relativeWheel, EventCode(rawValue: 0x0b)],
            .miscellaneous: [.miscellaneousScan],
        ])

    /// A keyboard of the buttons a person may not reach (volume, power,
    /// …) with key repeat: nothing to record.
    public static let buttons = InputDeviceDescription(
        name: "gesturectl test buttons",
        codes: [
            .key: [.keyVolumeUp, .keyVolumeDown, .keyMute, .keyPower, .keyHomePage, .keyBack, .keySysRq],
            .keyRepeat: [EventCode(rawValue: 0), EventCode(rawValue: 1)],
        ]
    )

    /// A full keyboard with key repeat and LEDs, and a name that needs
    /// quoting.
    public static let keyboard = InputDeviceDescription(
        name: "AT \"Translated\" Set 2 keyboard \\ 100%: #1",
        bus: 0x11, vendor: 0x0001, product: 0x0001, version: 0xab83,
        codes: [
            .key: Set((1...120).map { EventCode(rawValue: $0) }),
            .miscellaneous: [.miscellaneousScan],
            EventType(rawValue: 0x11): [EventCode(rawValue: 0), EventCode(rawValue: 1), EventCode(rawValue: 2)],
            .keyRepeat: [EventCode(rawValue: 0), EventCode(rawValue: 1)],
        ])
}
