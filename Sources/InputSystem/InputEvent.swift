import CLibevdev
import GestureModel

/// One evdev event: a timestamp, a type, a code and a value, as in the
/// kernel's `struct input_event`.
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    /// The kernel timestamp in microseconds. Readers in this module use
    /// CLOCK_MONOTONIC (see ``EvdevDevice``); events written to uinput are
    /// stamped by the kernel, so the time given there is usually ignored.
    public var time: Microseconds
    /// The event type, e.g. ``EventType/absolute``.
    public var type: EventType
    /// The code within the type, e.g. ``EventCode/multitouchPositionX``.
    public var code: EventCode
    /// The value: a position, 1/0 for press/release, a slot, a tracking id.
    public var value: Int32

    /// Creates an event.
    public init(time: Microseconds = .zero, type: EventType, code: EventCode, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// The `EV_SYN SYN_REPORT 0` event that ends a frame. The value is always
    /// 0: libinput ≥ 1.29 drops touchpad frames ending in value 1.
    public static func synchronizationReport(time: Microseconds = .zero) -> InputEvent {
        InputEvent(time: time, type: .synchronization, code: .synchronizationReport, value: 0)
    }

    /// Whether this is `EV_SYN SYN_REPORT` (the end of a frame).
    public var isSynchronizationReport: Bool { type == .synchronization && code == .synchronizationReport }

    /// Whether this is `EV_SYN SYN_DROPPED` (the kernel lost events).
    public var isSynchronizationDropped: Bool { type == .synchronization && code == .synchronizationDropped }

    /// A readable line such as `EV_ABS ABS_MT_POSITION_X 1234 @ 1520.004213`.
    public var description: String {
        let seconds = time.rawValue.quotientAndRemainder(dividingBy: 1_000_000)
        let fraction = String(seconds.remainder.magnitude)
        let padded = String(repeating: "0", count: max(0, 6 - fraction.count)) + fraction
        let sign = time.rawValue < 0 && seconds.quotient == 0 ? "-" : ""
        return "\(type) \(code.nameOrNumber(type: type)) \(value) @ \(sign)\(seconds.quotient).\(padded)"
    }
}

extension InputEvent {
    /// Converts the kernel's structure; seconds beyond the range of
    /// ``Microseconds`` are clamped rather than trapping.
    init(_ event: input_event) {
        var copy = event
        let seconds = Int64(clamping: gesturectl_input_event_seconds(&copy))
        let microseconds = Int64(clamping: gesturectl_input_event_microseconds(&copy))
        self.init(
            time: Microseconds(InputEvent.microseconds(seconds: seconds, microseconds: microseconds)),
            type: EventType(rawValue: event.type), code: EventCode(rawValue: event.code), value: event.value
        )
    }

    /// The kernel's structure for this event.
    var kernelEvent: input_event {
        var event = input_event()
        event.type = type.rawValue
        event.code = code.rawValue
        event.value = value
        let parts = InputEvent.secondsAndMicroseconds(of: time.rawValue)
        gesturectl_input_event_set_time(&event, parts.seconds, parts.microseconds)
        return event
    }

    /// `seconds × 1 000 000 + microseconds`, clamped to Int64 on overflow.
    static func microseconds(seconds: Int64, microseconds: Int64) -> Int64 {
        let (product, productOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if productOverflow { return seconds < 0 ? Int64.min : Int64.max }
        let (sum, sumOverflow) = product.addingReportingOverflow(microseconds)
        if sumOverflow { return microseconds < 0 ? Int64.min : Int64.max }
        return sum
    }

    /// Splits microseconds into whole seconds (rounded down) and a
    /// microsecond part in 0..<1 000 000, as `struct timeval` wants.
    static func secondsAndMicroseconds(of value: Int64) -> (seconds: Int64, microseconds: Int64) {
        var (seconds, remainder) = value.quotientAndRemainder(dividingBy: 1_000_000)
        if remainder < 0 {
            seconds -= 1
            remainder += 1_000_000
        }
        return (seconds, remainder)
    }
}
