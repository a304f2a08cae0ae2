@testable import InputSystem

/// Device descriptions used by the tests, as pure data.
enum Fixtures {
    /// A 10-slot touchscreen, 0…21600 × 0…13500 at 100 units/mm.
    static let touchscreen = InputDeviceDescription(
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

    /// A keyboard with the buttons a person may not reach.
    static let buttons = InputDeviceDescription(
        name: "gesturectl test buttons",
        codes: [
            .key: [.keyVolumeUp, .keyVolumeDown, .keyMute, .keyPower, .keyHomePage, .keyBack, .keySysRq],
            .keyRepeat: [EventCode(rawValue: 0), EventCode(rawValue: 1)],
        ]
    )
}
