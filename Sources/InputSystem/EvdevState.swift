import GestureModel

/// What a reader knows of an evdev device's state from the events it has
/// passed on: the selected slot, each slot's `ABS_MT_*` values, the other
/// absolute axes and the keys down. Pure Swift, so that recovering from
/// `SYN_DROPPED` (``DropRecovery``) is tested without a kernel.
///
/// The layout follows the kernel's: per-slot codes are `ABS_MT_TOUCH_MAJOR`
/// (0x30) through 0x3f; values the device never sent are 0, as the kernel
/// reports them.
public struct EvdevState: Hashable, Sendable {
    /// The per-slot codes: `ABS_MT_TOUCH_MAJOR` … `ABS_MAX`.
    static let slotCodes: ClosedRange<UInt16> = 0x30...0x3f
    /// `ABS_CNT`.
    static let absoluteCodeCount = 0x40
    /// `KEY_CNT`.
    static let keyCodeCount = 0x300

    /// The device's slot count; 0 for devices without `ABS_MT_SLOT`, whose
    /// `ABS_MT_*` codes (protocol A) are kept as plain axes.
    public let slotCount: Int
    /// The slot the next per-slot event belongs to (`ABS_MT_SLOT`).
    public var currentSlot: Int32 = 0
    /// `slot × 16 + (code − 0x30)`.
    private var slotValues: [Int32]
    private var absoluteValues: [Int32]
    private var keys: [Bool]

    /// A device at rest with `slotCount` slots: every value 0, every
    /// tracking id -1.
    public init(slotCount: Int) {
        self.slotCount = max(0, slotCount)
        slotValues = Array(repeating: 0, count: self.slotCount * Self.slotCodes.count)
        absoluteValues = Array(repeating: 0, count: Self.absoluteCodeCount)
        keys = Array(repeating: false, count: Self.keyCodeCount)
        for slot in 0..<self.slotCount { setSlotValue(-1, slot: slot, code: .multitouchTrackingID) }
    }

    /// The value of a per-slot code in `slot`; `nil` outside the slots or codes.
    public func slotValue(slot: Int, code: EventCode) -> Int32? {
        guard let index = slotIndex(slot: slot, code: code) else { return nil }
        return slotValues[index]
    }

    /// Sets a per-slot value; ignored outside the slots or codes.
    public mutating func setSlotValue(_ value: Int32, slot: Int, code: EventCode) {
        guard let index = slotIndex(slot: slot, code: code) else { return }
        slotValues[index] = value
    }

    /// The value of a non-slot absolute axis (or, without slots, of any
    /// `ABS_*` code); `nil` beyond `ABS_MAX`.
    public func absoluteValue(_ code: EventCode) -> Int32? {
        Int(code.rawValue) < Self.absoluteCodeCount ? absoluteValues[Int(code.rawValue)] : nil
    }

    /// Sets a non-slot absolute axis; ignored beyond `ABS_MAX`.
    public mutating func setAbsoluteValue(_ value: Int32, code: EventCode) {
        guard Int(code.rawValue) < Self.absoluteCodeCount else { return }
        absoluteValues[Int(code.rawValue)] = value
    }

    /// Whether a key or button is down; `nil` beyond `KEY_MAX`.
    public func isKeyDown(_ code: EventCode) -> Bool? {
        Int(code.rawValue) < Self.keyCodeCount ? keys[Int(code.rawValue)] : nil
    }

    /// Sets a key down or up; ignored beyond `KEY_MAX`.
    public mutating func setKey(_ code: EventCode, down: Bool) {
        guard Int(code.rawValue) < Self.keyCodeCount else { return }
        keys[Int(code.rawValue)] = down
    }

    private func slotIndex(slot: Int, code: EventCode) -> Int? {
        guard slot >= 0, slot < slotCount, Self.slotCodes.contains(code.rawValue) else { return nil }
        return slot * Self.slotCodes.count + Int(code.rawValue - Self.slotCodes.lowerBound)
    }

    /// Whether `code` is a per-slot code on this device.
    func isSlotCode(_ code: EventCode) -> Bool { slotCount > 0 && Self.slotCodes.contains(code.rawValue) }

    /// Takes one event into the state, as the kernel does: `ABS_MT_SLOT`
    /// selects a slot, per-slot codes change the selected slot (nothing
    /// when it lies outside the slots), other axes and keys change themselves.
    public mutating func apply(_ event: InputEvent) {
        switch event.type {
        case .absolute:
            if slotCount > 0 && event.code == .multitouchSlot {
                currentSlot = event.value
            } else if isSlotCode(event.code) {
                setSlotValue(event.value, slot: Int(currentSlot), code: event.code)
            } else {
                setAbsoluteValue(event.value, code: event.code)
            }
        case .key:
            setKey(event.code, down: event.value != 0)
        default:
            break
        }
    }

    /// The events that turn this state into `target`, stamped `time`, with
    /// no `SYN_REPORT`: per slot (selected with `ABS_MT_SLOT`) the tracking
    /// id first, then the other changed values in code order; then the other
    /// axes and the keys; last, `target`'s selected slot. Per-slot codes of
    /// a device without slots (protocol A) are left out: they mean nothing
    /// outside their frame.
    public func difference(to target: EvdevState, time: Microseconds) -> [InputEvent] {
        var events: [InputEvent] = []
        func event(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(InputEvent(time: time, type: type, code: code, value: value))
        }
        var selected = currentSlot
        let tracking = EventCode.multitouchTrackingID
        let otherSlotCodes = Self.slotCodes.lazy.map(EventCode.init(rawValue:)).filter { $0 != tracking }
        for slot in 0..<min(slotCount, target.slotCount) {
            var changed = [tracking] + otherSlotCodes
            changed.removeAll { slotValue(slot: slot, code: $0) == target.slotValue(slot: slot, code: $0) }
            guard !changed.isEmpty else { continue }
            if selected != Int32(slot) {
                event(.absolute, .multitouchSlot, Int32(slot))
                selected = Int32(slot)
            }
            for code in changed { event(.absolute, code, target.slotValue(slot: slot, code: code) ?? 0) }
        }
        for index in 0..<Self.absoluteCodeCount where absoluteValues[index] != target.absoluteValues[index] {
            let code = EventCode(rawValue: UInt16(index))
            guard code != .multitouchSlot, !Self.slotCodes.contains(code.rawValue) else { continue }
            event(.absolute, code, target.absoluteValues[index])
        }
        for index in 0..<Self.keyCodeCount where keys[index] != target.keys[index] {
            event(.key, EventCode(rawValue: UInt16(index)), target.keys[index] ? 1 : 0)
        }
        if slotCount > 0 && selected != target.currentSlot { event(.absolute, .multitouchSlot, target.currentSlot) }
        return events
    }
}

/// How a reader gets over `SYN_DROPPED` without throwing away the frames
/// the kernel still holds.
///
/// When a reader's buffer overflows, the kernel discards everything queued,
/// queues `SYN_DROPPED` and then the rest of the frame being delivered (the
/// "cut" frame), and goes on queueing new frames. libevdev answers by
/// discarding everything queued after the drop too, then reading the
/// device's state: at 1,000 frames a second that throws away some 25
/// frames the kernel had kept. Instead, a reader can read those frames
/// (`queued`), then the state (`now`), and start the frames from the state
/// they were written against, which is known field by field:
/// - a value no queued frame sets is the same before them as now;
/// - a key's first queued event says its state before (the kernel passes
///   only changes): a release was down, a press was up;
/// - a tracking id's first queued event says whether the slot held a
///   contact: a lift (-1) means it did (the one it held before the drop,
///   or, if the slot was empty then, one that began in the gap and gets a
///   new id); a new id means the slot held none or another one;
/// - any other value the queued frames change takes its first queued
///   value, the nearest known (its value in the gap is lost), so that a
///   contact that came down in the gap does not start from a stale or zero
///   position; only a slot's value first set for a contact that follows a
///   queued tracking-id change keeps, for the contact the slot held since
///   before the drop, its value from then;
/// - the selected slot is the last `ABS_MT_SLOT` of the cut frame, or, if
///   it has none, the slot selected now when no queued frame selects one.
///   When a queued per-slot event comes before any `ABS_MT_SLOT` and the
///   slot is still unknown, the frames cannot be placed: the reader falls
///   back to libevdev's way (discard them, take `now`).
public enum DropRecovery {
    /// The state the `queued` frames start from, or `nil` when their slot
    /// is unknown (see the type's discussion).
    /// - Parameters:
    ///   - previous: The state before the drop, as the reader passed it on.
    ///   - cutFrame: The events after `SYN_DROPPED` up to and including the
    ///     first `SYN_REPORT`: not passed on, since the drop took its start.
    ///   - queued: The whole frames read after the cut one.
    ///   - now: The device's state read (ioctls) after `queued`.
    public static func stateBefore(
        queued: [InputEvent], previous: EvdevState, cutFrame: [InputEvent], now: EvdevState
    ) -> EvdevState? {
        var start = now
        var slot: Int32? = nil
        if now.slotCount > 0 {
            slot = cutFrame.last { $0.type == .absolute && $0.code == .multitouchSlot }?.value
            if slot == nil {
                let firstSelection = queued.firstIndex { $0.type == .absolute && $0.code == .multitouchSlot }
                let firstSlotEvent = queued.firstIndex { $0.type == .absolute && now.isSlotCode($0.code) }
                if let firstSlotEvent, let firstSelection, firstSlotEvent < firstSelection { return nil }
                slot = now.currentSlot
            }
        }
        start.currentSlot = slot ?? now.currentSlot

        // Walk the queued frames once; the first event of each field
        // decides it, later ones are theirs to play.
        struct Field: Hashable {
            var type: EventType
            var slot: Int32
            var code: EventCode
        }
        var seen: Set<Field> = []
        var walkSlot = start.currentSlot
        var nextFreshID = freshTrackingID(previous: previous, queued: queued, now: now)
        for event in queued {
            switch event.type {
            case .absolute where now.slotCount > 0 && event.code == .multitouchSlot:
                walkSlot = event.value
            case .absolute where now.isSlotCode(event.code):
                guard seen.insert(Field(type: .absolute, slot: walkSlot, code: event.code)).inserted else { continue }
                let slot = Int(walkSlot)
                let before = previous.slotValue(slot: slot, code: event.code) ?? 0
                var value = event.value
                if event.code == .multitouchTrackingID {
                    if event.value >= 0 {
                        value = before != event.value ? before : -1
                    } else if before >= 0 {
                        value = before
                    } else {
                        value = nextFreshID
                        nextFreshID = nextFreshID == Int32.max ? 0 : nextFreshID + 1
                    }
                } else if seen.contains(Field(type: .absolute, slot: walkSlot, code: .multitouchTrackingID)) {
                    // First set for the slot's next contact: the one it held
                    // first keeps its value from before the drop, if it was
                    // down then.
                    let heldBefore = previous.slotValue(slot: slot, code: .multitouchTrackingID) ?? -1
                    if heldBefore >= 0 && start.slotValue(slot: slot, code: .multitouchTrackingID) == heldBefore {
                        value = before
                    }
                }
                start.setSlotValue(value, slot: slot, code: event.code)
            case .absolute:
                guard seen.insert(Field(type: .absolute, slot: -1, code: event.code)).inserted else { continue }
                start.setAbsoluteValue(event.value, code: event.code)
            case .key:
                guard seen.insert(Field(type: .key, slot: -1, code: event.code)).inserted else { continue }
                start.setKey(event.code, down: event.value != 1)
            default:
                continue
            }
        }
        return start
    }

    /// A tracking id no state or queued event uses: one past the largest.
    private static func freshTrackingID(previous: EvdevState, queued: [InputEvent], now: EvdevState) -> Int32 {
        var largest: Int32 = -1
        for slot in 0..<now.slotCount {
            for state in [previous, now] {
                largest = max(largest, state.slotValue(slot: slot, code: .multitouchTrackingID) ?? -1)
            }
        }
        for event in queued where event.type == .absolute && event.code == .multitouchTrackingID {
            largest = max(largest, event.value)
        }
        return largest == Int32.max ? 0 : largest + 1
    }
}
