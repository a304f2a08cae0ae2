import GestureModel
import InputSystem

/// What a reader of a device knows after the frames written so far: the
/// selected slot, each slot's values, the other axes and the pressed keys.
///
/// It follows the kernel's rules, so that comparing with it gives "only
/// changed values" as the kernel would filter them: a value equal to the
/// stored one is not an event; `ABS_MT_SLOT` is needed only before an
/// event for another slot. The player keeps it up to date frame by frame,
/// so that at any moment it can build the frame that lifts everything
/// (``liftAllFrame(time:)``); a ``PlaybackSession`` keeps it across plays.
public struct DeviceState: Hashable, Sendable {
    /// The slot the last `ABS_MT_SLOT` selected; `nil` when unknown (after
    /// a failed write), so that the next slot event is always written.
    public private(set) var currentSlot: Int?
    /// Per slot, the last value of each `ABS_MT_*` code: slot `s`, code
    /// `c` at `s × 14 + (c − 0x30)`. Flat arrays rather than dictionaries:
    /// every value of every frame is compared with the state's, and a
    /// lookup here is an index, not a hash.
    private var slotValues: [Int32]
    /// The last value of each non-slot absolute axis, by code (0 …
    /// `ABS_MAX`); only the axes in ``absoluteAxes`` have one.
    private var absoluteValues: [Int32]
    /// The absolute axes with a value: bit `c` for code `c`.
    private var absoluteAxes: UInt64
    /// The minimum of `ABS_PRESSURE` (what "released" means), when the device has it.
    private var pressureMinimum: Int32?
    /// Keys and buttons now down.
    public private(set) var pressedKeys: Set<EventCode>
    /// The last tracking id started (≥ 0), if any.
    public private(set) var lastTrackingID: Int32?

    /// The state of a freshly created uinput device: slot 0 selected, every
    /// slot's tracking id -1 and other values 0, each other absolute axis at
    /// its minimum (``UinputDevice`` sets that value), no key down.
    public init(description: InputDeviceDescription) {
        let slotCount = description.slotCount
        currentSlot = slotCount > 0 ? 0 : nil
        slotValues = Array(repeating: 0, count: slotCount * Self.slotCodeCount)
        absoluteValues = Array(repeating: 0, count: Self.absoluteCodeCount)
        absoluteAxes = 0
        pressureMinimum = nil
        pressedKeys = []
        lastTrackingID = nil
        for slot in 0..<slotCount { slotValues[Self.index(slot: slot, .multitouchTrackingID)] = -1 }
        for (code, axis) in description.absoluteAxes where !Self.isSlotCode(code) && code != .multitouchSlot {
            setAbsolute(code, axis.minimum)
            if code == .absolutePressure { pressureMinimum = axis.minimum }
        }
    }

    /// A state of no device (no slots, no axes, no keys): what a
    /// ``FrameAssembler`` leaves in its caller's place while it builds a
    /// frame. Makes no arrays.
    init() {
        currentSlot = nil
        slotValues = []
        absoluteValues = []
        absoluteAxes = 0
        pressureMinimum = nil
        pressedKeys = []
        lastTrackingID = nil
    }

    /// The number of slots.
    public var slotCount: Int { slotValues.count / Self.slotCodeCount }

    /// The value of an `ABS_MT_*` code in `slot` (0 when never set, -1 for
    /// the tracking id of an empty slot); `nil` for a slot out of range.
    public func slotValue(slot: Int, code: EventCode) -> Int32? {
        guard slot >= 0, slot < slotCount else { return nil }
        guard Self.isSlotCode(code) else { return 0 }
        return slotValues[Self.index(slot: slot, code)]
    }

    /// The value of a non-slot absolute axis; `nil` when the device lacks it.
    public func absoluteValue(_ code: EventCode) -> Int32? {
        guard Int(code.rawValue) < Self.absoluteCodeCount, absoluteAxes & (1 << UInt64(code.rawValue)) != 0 else { return nil }
        return absoluteValues[Int(code.rawValue)]
    }

    /// The tracking id in `slot` (-1 when empty), for a slot in range.
    private func trackingID(_ slot: Int) -> Int32 { slotValues[Self.index(slot: slot, .multitouchTrackingID)] }

    /// Where `code` (a per-slot code) of `slot` is in ``slotValues``.
    private static func index(slot: Int, _ code: EventCode) -> Int {
        slot * slotCodeCount + Int(code.rawValue) - firstSlotCode
    }

    /// Gives a non-slot absolute axis its value (ignored beyond `ABS_MAX`).
    private mutating func setAbsolute(_ code: EventCode, _ value: Int32) {
        guard Int(code.rawValue) < Self.absoluteCodeCount else { return }
        absoluteValues[Int(code.rawValue)] = value
        absoluteAxes |= 1 << UInt64(code.rawValue)
    }

    /// The slots holding a contact (tracking id ≥ 0), ascending.
    public var activeSlots: [Int] {
        (0..<slotCount).filter { trackingID($0) >= 0 }
    }

    /// Whether nothing touches and nothing is pressed: no active slot, no
    /// key down, `ABS_PRESSURE` at its minimum.
    public var isReleased: Bool {
        activeSlots.isEmpty && pressedKeys.isEmpty && !pressureIsRaised
    }

    private var pressureIsRaised: Bool {
        guard let value = absoluteValue(.absolutePressure), let pressureMinimum else { return false }
        return value != pressureMinimum
    }

    /// Records the events of `frame`.
    public mutating func apply(_ frame: InputFrame) {
        for event in frame.events { apply(event) }
    }

    /// Records one event.
    public mutating func apply(_ event: InputEvent) {
        switch event.type {
        case .absolute:
            if event.code == .multitouchSlot {
                let slot = Int(event.value)
                currentSlot = slot >= 0 && slot < slotCount ? slot : nil
            } else if Self.isSlotCode(event.code) {
                guard let slot = currentSlot else { return }
                slotValues[Self.index(slot: slot, event.code)] = event.value
                if event.code == .multitouchTrackingID && event.value >= 0 { lastTrackingID = event.value }
            } else {
                setAbsolute(event.code, event.value)
            }
        case .key:
            if event.value != 0 { pressedKeys.insert(event.code) } else { pressedKeys.remove(event.code) }
        default:
            break
        }
    }

    /// Forgets which slot is selected, so that the next slot event is
    /// written whatever the device's real selection (after a failed write,
    /// when part of a frame may or may not have arrived).
    public mutating func forgetCurrentSlot() { currentSlot = nil }

    /// This state with every contact and key of `other` added: the state to
    /// lift when a write failed and it is unknown whether the frame arrived.
    public func including(_ other: DeviceState) -> DeviceState {
        var merged = self
        for slot in other.activeSlots where slot < merged.slotCount {
            if merged.trackingID(slot) < 0 {
                merged.slotValues[Self.index(slot: slot, .multitouchTrackingID)] = other.trackingID(slot)
            }
        }
        merged.pressedKeys.formUnion(other.pressedKeys)
        if other.pressureIsRaised && !merged.pressureIsRaised, let pressure = other.absoluteValue(.absolutePressure) {
            merged.setAbsolute(.absolutePressure, pressure)
        }
        merged.currentSlot = nil
        return merged
    }

    /// The one frame that releases everything: `TRACKING_ID -1` in every
    /// active slot (with `ABS_MT_SLOT` where needed), `ABS_PRESSURE` back to
    /// its minimum, `BTN_TOUCH 0`, every `BTN_TOOL_*` 0, then every other
    /// pressed button 0, and `SYN_REPORT 0`. `nil` when ``isReleased``.
    ///
    /// It holds at most 2 events per active slot plus one per pressed key,
    /// pressure and the report: 38 for 14 contacts and 9 keys, within 64.
    public func liftAllFrame(time: Microseconds = .zero) -> InputFrame? {
        guard !isReleased else { return nil }
        var events: [InputEvent] = []
        var selected = currentSlot
        for slot in activeSlots {
            if selected != slot {
                events.append(InputEvent(type: .absolute, code: .multitouchSlot, value: Int32(slot)))
                selected = slot
            }
            events.append(InputEvent(type: .absolute, code: .multitouchTrackingID, value: -1))
        }
        if pressureIsRaised, let minimum = pressureMinimum {
            events.append(InputEvent(type: .absolute, code: .absolutePressure, value: minimum))
        }
        let keys = pressedKeys.sorted { $0.rawValue < $1.rawValue }
        if pressedKeys.contains(.buttonTouch) {
            events.append(InputEvent(type: .key, code: .buttonTouch, value: 0))
        }
        for key in keys where Self.toolCodes.contains(key) {
            events.append(InputEvent(type: .key, code: key, value: 0))
        }
        for key in keys where key != .buttonTouch && !Self.toolCodes.contains(key) {
            events.append(InputEvent(type: .key, code: key, value: 0))
        }
        events.append(.synchronizationReport())
        return InputFrame(time: time, events: events)
    }

    /// The `BTN_TOOL_*` codes: pen, rubber, brush, pencil, airbrush, finger,
    /// mouse, lens, and the finger counts.
    static let toolCodes: Set<EventCode> = Set(
        (0x140...0x148).map { EventCode(rawValue: UInt16($0)) } + [
            .buttonToolDoubleTap, .buttonToolTripleTap, .buttonToolQuadTap,
        ])

    /// Whether `code` is a per-slot code (`ABS_MT_TOUCH_MAJOR` 0x30 …
    /// `ABS_MT_TOOL_Y` 0x3d); `ABS_MT_SLOT` itself is not.
    static func isSlotCode(_ code: EventCode) -> Bool { code.rawValue >= 0x30 && code.rawValue <= 0x3d }
    /// The first per-slot code, and how many there are.
    private static let firstSlotCode = 0x30
    private static let slotCodeCount = 14
    /// Absolute axis codes: 0 … `ABS_MAX` (0x3f).
    private static let absoluteCodeCount = 64
}
