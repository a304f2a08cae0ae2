import InputSystem

/// Multi-touch protocol B: per-slot state changed by `ABS_MT_SLOT`,
/// `ABS_MT_TRACKING_ID`, `ABS_MT_POSITION_X`/`Y`, `ABS_MT_PRESSURE` and
/// `ABS_MT_TOUCH_MAJOR`; values not sent keep their last value.
///
/// A tracking id ≥ 0 starts a contact in the current slot, -1 ends it; a
/// different id in a slot that holds a contact ends that contact and starts
/// a new one. A contact is reported once both its coordinates are known.
/// Events for a slot outside 0..<slot count (a device that breaks its own
/// description) are ignored.
struct SlotTracker: ContactTracker {
    private struct SlotState: Sendable {
        var trackingID: Int32 = -1
        /// Which contact the slot holds; changes with every new contact.
        var generation = 0
        var x: Int?
        var y: Int?
        var pressure: Int?
        var size: Int?
    }

    private var slots: [SlotState]
    private var currentSlot = 0
    private var nextGeneration = 1

    /// A tracker for `slotCount` slots (at least 1).
    init(slotCount: Int) {
        slots = Array(repeating: SlotState(), count: max(1, slotCount))
    }

    mutating func apply(_ event: InputEvent) {
        guard event.type == .absolute else { return }
        if event.code == .multitouchSlot {
            currentSlot = Int(event.value)
            return
        }
        guard slots.indices.contains(currentSlot) else { return }
        let value = event.value
        switch event.code {
        case .multitouchTrackingID:
            if value < 0 {
                slots[currentSlot].trackingID = -1
            } else if slots[currentSlot].trackingID != value {
                slots[currentSlot].trackingID = value
                slots[currentSlot].generation = nextGeneration
                nextGeneration &+= 1
            }
        case .multitouchPositionX: slots[currentSlot].x = Int(value)
        case .multitouchPositionY: slots[currentSlot].y = Int(value)
        case .multitouchPressure: slots[currentSlot].pressure = Int(value)
        case .multitouchTouchMajor: slots[currentSlot].size = Int(value)
        default: break
        }
    }

    mutating func endFrame() -> [ContactKey: ContactPoint] {
        var contacts: [ContactKey: ContactPoint] = [:]
        for (index, slot) in slots.enumerated() where slot.trackingID >= 0 {
            guard let x = slot.x, let y = slot.y else { continue }
            contacts[ContactKey(slot: index, generation: slot.generation)] = ContactPoint(
                x: x, y: y, pressure: slot.pressure, size: slot.size)
        }
        return contacts
    }

    mutating func load(_ snapshot: DeviceStateSnapshot) {
        currentSlot = snapshot.currentSlot
        for (index, values) in snapshot.slots where slots.indices.contains(index) {
            slots[index].x = values.x.map(Int.init)
            slots[index].y = values.y.map(Int.init)
            slots[index].pressure = values.pressure.map(Int.init)
            slots[index].size = values.size.map(Int.init)
            slots[index].trackingID = values.trackingID < 0 ? -1 : values.trackingID
            if values.trackingID >= 0 {
                slots[index].generation = nextGeneration
                nextGeneration &+= 1
            }
        }
    }
}
