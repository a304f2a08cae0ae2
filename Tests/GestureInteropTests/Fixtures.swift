import GestureModel
import InputSystem

/// Small devices and event streams shared by the tests.
enum Fixtures {
    /// A two-slot touchscreen, 100 × 60 mm at 10 units/mm.
    static let touchscreen = InputDeviceDescription(
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

    static func event(_ type: EventType, _ code: EventCode, _ value: Int32, at time: Int64 = 0) -> InputEvent {
        InputEvent(time: Microseconds(time), type: type, code: code, value: value)
    }

    /// One finger down at (500, 300), moved once, lifted: three frames.
    static let tapFrames: [InputFrame] = [
        InputFrame(
            time: 0,
            events: [
                event(.absolute, .multitouchTrackingID, 1),
                event(.absolute, .multitouchPositionX, 500),
                event(.absolute, .multitouchPositionY, 300),
                event(.key, .buttonTouch, 1),
                event(.absolute, .absoluteX, 500),
                event(.absolute, .absoluteY, 300),
                .synchronizationReport(),
            ]),
        InputFrame(
            time: 16_667,
            events: [
                event(.absolute, .multitouchPositionX, 512),
                event(.absolute, .absoluteX, 512),
                .synchronizationReport(),
            ]),
        InputFrame(
            time: 1_033_334,
            events: [
                event(.absolute, .multitouchTrackingID, -1),
                event(.key, .buttonTouch, 0),
                .synchronizationReport(),
            ]),
    ]
}

extension Fixtures {
    /// A clickpad: pointer and buttonpad, five-finger tool bits.
    static let touchpad = InputDeviceDescription(
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

    /// A wheel mouse.
    static let mouse = InputDeviceDescription(
        name: "Logitech USB Optical Mouse", bus: 0x03, vendor: 0x046d, product: 0xc077, version: 0x0111,
        codes: [
            .key: [.buttonLeft, .buttonRight, .buttonMiddle],
            .relative: [.relativeX, .relativeY, .relativeWheel, EventCode(rawValue: 0x0b)],
            .miscellaneous: [.miscellaneousScan],
        ])

    /// A keyboard with key repeat and LEDs, and a name that needs quoting.
    static let keyboard = InputDeviceDescription(
        name: "AT \"Translated\" Set 2 keyboard \\ 100%: #1",
        bus: 0x11, vendor: 0x0001, product: 0x0001, version: 0xab83,
        codes: [
            .key: Set((1...120).map { EventCode(rawValue: $0) }),
            .miscellaneous: [.miscellaneousScan],
            EventType(rawValue: 0x11): [EventCode(rawValue: 0), EventCode(rawValue: 1), EventCode(rawValue: 2)],
            .keyRepeat: [EventCode(rawValue: 0), EventCode(rawValue: 1)],
        ])

    /// A pen tablet with pressure.
    static let tablet = InputDeviceDescription(
        name: "Wacom Intuos S Pen", bus: 0x03, vendor: 0x056a, product: 0x0374, version: 0x0110,
        properties: [.pointer],
        codes: [.key: [.buttonToolPen, .buttonToolRubber, .buttonTouch, .buttonStylus]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 15200, fuzz: 4, resolution: 100),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 9500, fuzz: 4, resolution: 100),
            .absolutePressure: AbsoluteAxisInfo(minimum: 0, maximum: 4095),
            .absoluteDistance: AbsoluteAxisInfo(minimum: 0, maximum: 63, flat: 1),
        ])

    static let all: [(String, InputDeviceDescription)] = [
        ("touchscreen", touchscreen), ("touchpad", touchpad), ("mouse", mouse), ("keyboard", keyboard),
        ("tablet", tablet),
    ]

    /// Frames that exercise every comment kind and odd values: protocol A,
    /// SYN_DROPPED, unnamed codes, extreme values.
    static let oddFrames: [InputFrame] = [
        InputFrame(
            time: 5_000_000,
            events: [
                event(.absolute, .multitouchPositionX, Int32.min),
                event(.synchronization, .synchronizationMultitouchReport, 0),
                event(.absolute, .multitouchPositionX, Int32.max),
                event(.synchronization, .synchronizationMultitouchReport, 0),
                .synchronizationReport(),
            ]),
        InputFrame(
            time: 5_000_999,
            events: [
                event(.synchronization, .synchronizationDropped, 0),
                event(EventType(rawValue: 0x1e), EventCode(rawValue: 0x2ff), 7),
                event(.key, EventCode(rawValue: 0x2fe), 2),
                .synchronizationReport(),
            ]),
        InputFrame(time: 4_000_000, events: [.synchronizationReport()]),
        InputFrame(time: 7_500_000, events: []),
    ]
}
