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
///
/// Touchpads that track fewer slots than fingers down (a two-slot Cypress
/// or Synaptics pad with three fingers) say how many fingers are down with
/// `BTN_TOOL_FINGER`…`BTN_TOOL_QUINTTAP` (1…5), or give a slot a tracking
/// id but no position. The fingers down are then the larger of that count
/// and the slots with a tracking id; those without a position are placed,
/// as libinput places such "fake" touches, beside the tracked ones: in a
/// row ``estimatedSpacing`` units apart to the right of the rightmost
/// tracked finger (to the left of the leftmost when they would leave the
/// surface), at the first tracked finger's height, moving with them, and
/// marked estimated.
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
    /// The `BTN_TOOL_*` finger counts held down (1 for `BTN_TOOL_FINGER` … 5
    /// for `BTN_TOOL_QUINTTAP`).
    private var toolCounts: Set<Int> = []
    /// The generation of each estimated finger now down, in order.
    private var estimatedGenerations: [Int] = []
    /// Units between an estimated finger and its neighbour.
    let estimatedSpacing: Int
    /// The x axis, to keep estimated fingers on the surface.
    let xAxis: ClosedRange<Int>

    /// A tracker for `slotCount` slots (at least 1); estimated fingers are
    /// `estimatedSpacing` units apart within `xAxis`.
    init(slotCount: Int, estimatedSpacing: Int = 0, xAxis: ClosedRange<Int> = 0...0) {
        slots = Array(repeating: SlotState(), count: max(1, slotCount))
        self.estimatedSpacing = estimatedSpacing
        self.xAxis = xAxis
    }

    /// The finger count each `BTN_TOOL_*` code says.
    private static let toolFingerCounts: [EventCode: Int] = [
        .buttonToolFinger: 1, .buttonToolDoubleTap: 2, .buttonToolTripleTap: 3, .buttonToolQuadTap: 4,
        .buttonToolQuintTap: 5,
    ]

    mutating func apply(_ event: InputEvent) {
        if event.type == .key, let count = Self.toolFingerCounts[event.code] {
            if event.value == 0 { toolCounts.remove(count) } else { toolCounts.insert(count) }
            return
        }
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
        var contacts: [ContactEntry] = []
        endFrame(into: &contacts)
        return Dictionary(uniqueKeysWithValues: contacts.lazy.map { ($0.key, $0.point) })
    }

    /// The contacts in slot order (which is key order: one contact a slot,
    /// estimated fingers after every real slot), with no dictionary made
    /// and no key hashed: a ten-finger touchscreen sends 1,000 frames a
    /// second.
    mutating func endFrame(into contacts: inout [ContactEntry]) {
        contacts.removeAll(keepingCapacity: true)
        var tracking = 0
        for index in slots.indices where slots[index].trackingID >= 0 {
            tracking += 1
            let slot = slots[index]
            guard let x = slot.x, let y = slot.y else { continue }
            contacts.append(
                (ContactKey(slot: index, generation: slot.generation),
                 ContactPoint(x: x, y: y, pressure: slot.pressure, size: slot.size)))
        }
        addEstimatedFingers(to: &contacts, down: max(tracking, toolCounts.max() ?? 0))
    }

    /// Adds the fingers down that have no position, beside the tracked ones
    /// (`contacts`: the tracked ones, in key order).
    private mutating func addEstimatedFingers(to contacts: inout [ContactEntry], down: Int) {
        let tracked = contacts.count
        let missing = tracked == 0 ? 0 : max(0, down - tracked)
        while estimatedGenerations.count > missing { estimatedGenerations.removeLast() }
        while estimatedGenerations.count < missing {
            estimatedGenerations.append(nextGeneration)
            nextGeneration &+= 1
        }
        guard missing > 0, let anchor = contacts.first?.point else { return }
        let xs = contacts.map(\.point.x)
        let spacing = max(estimatedSpacing, 1)
        let rightmost = xs.max() ?? anchor.x
        let leftmost = xs.min() ?? anchor.x
        let toTheRight = rightmost.addingReportingOverflow(missing * spacing)
        let goRight = !toTheRight.overflow && toTheRight.partialValue <= xAxis.upperBound
        for (offset, generation) in estimatedGenerations.enumerated() {
            let step = (offset + 1) * spacing
            let x = goRight ? rightmost + step : max(leftmost - step, xAxis.lowerBound)
            // Slots after every real one, so estimated fingers sort last.
            contacts.append(
                (ContactKey(slot: slots.count + offset, generation: generation),
                 ContactPoint(x: x, y: anchor.y, pressure: anchor.pressure, size: anchor.size, isEstimated: true)))
        }
    }

    mutating func load(_ snapshot: DeviceStateSnapshot) {
        currentSlot = snapshot.currentSlot
        toolCounts = Set(Self.toolFingerCounts.filter { snapshot.keysDown.contains($0.key) }.map(\.value))
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
