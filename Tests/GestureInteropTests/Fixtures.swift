import GestureModel
import InputSystem
import TestSupport

/// Event streams shared by the tests, and the devices they run through
/// (described once, in TestSupport's ``TestDevices``).
enum Fixtures {
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
    /// The shared test devices the round trips go through, by short name.
    static let all: [(String, InputDeviceDescription)] = [
        ("touchscreen", TestDevices.twoSlotTouchscreen), ("touchpad", TestDevices.centredClickpad),
        ("mouse", TestDevices.mouse), ("keyboard", TestDevices.keyboard), ("tablet", TestDevices.pen),
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
