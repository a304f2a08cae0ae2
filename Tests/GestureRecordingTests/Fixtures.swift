import GestureModel
import InputSystem

@testable import GestureRecording

/// Device descriptions used by the tests, as pure data.
enum Devices {
    /// A 10-slot protocol B touchscreen, 0…21600 × 0…13500 at 100 units/mm,
    /// pressure 0…255, touch size 0…100.
    static let touchscreen = InputDeviceDescription(
        name: "test touchscreen", vendor: 0x1d6b, product: 0x0001,
        properties: [.direct],
        codes: [.key: [.buttonTouch]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 21_600, resolution: 100),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 13_500, resolution: 100),
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 9),
            .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 21_600, resolution: 100),
            .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 13_500, resolution: 100),
            .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65_535),
            .multitouchPressure: AbsoluteAxisInfo(minimum: 0, maximum: 255),
            .multitouchTouchMajor: AbsoluteAxisInfo(minimum: 0, maximum: 100),
        ]
    )

    /// A 5-slot clickpad, 0…1200 × 0…800 at 12 units/mm.
    static let touchpad = InputDeviceDescription(
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

    /// A protocol A touchscreen (no ABS_MT_SLOT), 0…4095 on both axes.
    static let protocolA = InputDeviceDescription(
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
    static let singleTouch = InputDeviceDescription(
        name: "test single touch",
        codes: [.key: [.buttonTouch]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1_023, resolution: 4),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 767, resolution: 4),
            .absolutePressure: AbsoluteAxisInfo(minimum: 0, maximum: 63),
        ]
    )

    /// A pen tablet: 0…15200 × 0…9500 at 100 units/mm, pressure 0…4095.
    static let tablet = InputDeviceDescription(
        name: "test tablet",
        codes: [.key: [.buttonToolPen, .buttonToolRubber, .buttonTouch, .buttonStylus]],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 15_200, resolution: 100),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 9_500, resolution: 100),
            .absolutePressure: AbsoluteAxisInfo(minimum: 0, maximum: 4_095),
        ]
    )

    /// A three-button mouse with a wheel.
    static let mouse = InputDeviceDescription(
        name: "test mouse",
        codes: [
            .key: [.buttonLeft, .buttonRight, .buttonMiddle],
            .relative: [.relativeX, .relativeY, .relativeWheel],
        ]
    )

    /// A keyboard: nothing to record.
    static let keyboard = InputDeviceDescription(
        name: "test keyboard", codes: [.key: [.keyVolumeUp, .keyVolumeDown]])
}

/// One event of a frame, without its time.
typealias EventValue = (type: EventType, code: EventCode, value: Int32)

func abs(_ code: EventCode, _ value: Int32) -> EventValue { (.absolute, code, value) }
func rel(_ code: EventCode, _ value: Int32) -> EventValue { (.relative, code, value) }
func key(_ code: EventCode, _ value: Int32) -> EventValue { (.key, code, value) }
/// `SYN_MT_REPORT`, ending one protocol A contact.
let mtReport: EventValue = (.synchronization, .synchronizationMultitouchReport, 0)

/// Milliseconds as microseconds.
func ms(_ value: Int64) -> Microseconds { Microseconds(value * 1_000) }

/// A frame at `milliseconds` (kernel clock): the events, then `SYN_REPORT`.
func frame(_ milliseconds: Int64, _ events: [EventValue]) -> [ReadOutcome] {
    let time = ms(milliseconds)
    return events.map { .event(InputEvent(time: time, type: $0.type, code: $0.code, value: $0.value)) }
        + [.event(.synchronizationReport(time: time))]
}

/// The same frame as resync events (after SYN_DROPPED).
func resyncFrame(_ milliseconds: Int64, _ events: [EventValue]) -> [ReadOutcome] {
    frame(milliseconds, events).map {
        guard case .event(let event) = $0 else { return $0 }
        return .resyncEvent(event)
    }
}

/// The `SYN_DROPPED` outcome at `milliseconds`.
func dropped(_ milliseconds: Int64) -> ReadOutcome {
    .resyncNeeded(InputEvent(time: ms(milliseconds), type: .synchronization, code: .synchronizationDropped, value: 0))
}

/// A sample at `milliseconds` from the start.
func sample(_ milliseconds: Int64, _ x: Int, _ y: Int, pressure: Int? = nil, size: Int? = nil) -> Sample {
    Sample(time: ms(milliseconds), x: x, y: y, pressure: pressure, size: size)
}

extension StrokeRecorder {
    /// Feeds every outcome in order; the notices returned.
    @discardableResult
    mutating func feed(all outcomes: [ReadOutcome]) -> [RecorderNotice] {
        outcomes.compactMap { feed($0) }
    }

    /// The finished gesture, stopped as cancelled.
    func finished() throws -> RecordedGesture {
        try finish(RecordingDetails(name: "test"), reason: .cancelled)
    }
}
