import GestureModel
import InputSystem

/// Frames for touchscreens and touchpads: multi-touch protocol B with
/// single-touch emulation, and on touchpads the finger-count tools.
struct TouchFrameWriter: FrameWriter {
    /// One value for a slot; optional ones (pressure, size) are left out of
    /// a frame that would otherwise exceed 64 events.
    private struct SlotValue {
        var code: EventCode
        var value: Int32
        var isOptional: Bool
    }

    /// Where a held contact is, for the pointer emulation.
    private struct Contact {
        var slot: Int
        /// Order of touch-down over the whole play: the oldest is smallest.
        var sequence: Int
        var fractions: (x: Double, y: Double)
        var pressure: Double
    }

    private let supported: SupportedCodes
    private let slotCount: Int
    /// The single-touch emulation's axes, and the optional per-slot ones,
    /// looked up once rather than for every frame.
    private let pointerX: AbsoluteAxisInfo?
    private let pointerY: AbsoluteAxisInfo?
    private let pointerPressure: AbsoluteAxisInfo?
    private let touchMajor: AbsoluteAxisInfo?
    private let slotPressure: AbsoluteAxisInfo?
    private let isTouchpad: Bool
    private let mapper: PositionMapper
    private let source: DeviceGeometry
    private let defaultPressure: Double
    private let axisX: AbsoluteAxisInfo
    private let axisY: AbsoluteAxisInfo
    private let trackingIDs: AbsoluteAxisInfo
    private var contacts: [Int: Contact] = [:]
    private var nextSequence = 0
    /// A frame's new values for each slot: slot `s`'s from
    /// `s × valuesPerSlot`, `updateCounts[s]` of them. Kept from frame to
    /// frame, as are the taken slots, so that a frame makes no arrays but its events.
    private var slotUpdates: [SlotValue]
    private var updateCounts: [Int]
    private var taken: [Bool]
    /// A slot's values in one frame: tracking id, x, y, touch major, pressure.
    private static let valuesPerSlot = 5

    init(gesture: Gesture, target: VirtualDeviceProfile, options: PlaybackOptions) {
        let description = target.description
        isTouchpad = target.kind == .touchpad
        source = gesture.device
        defaultPressure = options.defaultPressure
        // FrameBuilder.init checked that these axes exist.
        let axes = description.absoluteAxes
        supported = SupportedCodes(description)
        slotCount = description.slotCount
        pointerX = axes[.absoluteX]
        pointerY = axes[.absoluteY]
        pointerPressure = axes[.absolutePressure]
        touchMajor = axes[.multitouchTouchMajor]
        slotPressure = axes[.multitouchPressure]
        axisX = axes[.multitouchPositionX] ?? AbsoluteAxisInfo(minimum: 0, maximum: 1)
        axisY = axes[.multitouchPositionY] ?? AbsoluteAxisInfo(minimum: 0, maximum: 1)
        trackingIDs = axes[.multitouchTrackingID] ?? VirtualDeviceProfile.trackingIDRange
        mapper = PositionMapper(source: gesture.device, targetX: axisX, targetY: axisY, physicalSize: options.physicalSize)
        slotUpdates = Array(
            repeating: SlotValue(code: .multitouchTrackingID, value: 0, isOptional: false),
            count: slotCount * Self.valuesPerSlot)
        updateCounts = Array(repeating: 0, count: slotCount)
        taken = Array(repeating: false, count: slotCount)
    }

    mutating func appendFrames(
        for moment: Moment, at time: Microseconds, state: inout DeviceState, to frames: inout [InputFrame]
    ) throws(PlaybackError) {
        for slot in 0..<slotCount {
            updateCounts[slot] = 0
            taken[slot] = false
        }
        // Slots held when the frame starts stay taken for the whole frame.
        for contact in contacts.values { taken[contact.slot] = true }
        var lastID = state.lastTrackingID

        for change in moment.changes where change.kind == .lift {
            guard let contact = contacts.removeValue(forKey: change.contact) else { continue }
            updateCounts[contact.slot] = 0
            add(SlotValue(code: .multitouchTrackingID, value: -1, isOptional: false), slot: contact.slot)
        }
        for change in moment.changes where change.kind == .down {
            guard let sample = change.sample,
                let slot = taken.firstIndex(of: false)
            else { continue }  // FrameBuilder checked the slot count first.
            taken[slot] = true
            let id = nextTrackingID(after: lastID)
            lastID = id
            let contact = makeContact(slot: slot, sample: sample)
            contacts[change.contact] = contact
            nextSequence += 1
            updateCounts[slot] = 0
            add(SlotValue(code: .multitouchTrackingID, value: id, isOptional: false), slot: slot)
            addValues(of: contact, sample: sample)
        }
        for change in moment.changes where change.kind == .move {
            guard let sample = change.sample, var contact = contacts[change.contact] else { continue }
            let moved = makeContact(slot: contact.slot, sample: sample)
            contact.fractions = moved.fractions
            contact.pressure = moved.pressure
            contacts[change.contact] = contact
            updateCounts[contact.slot] = 0
            addValues(of: contact, sample: sample)
        }

        // The most events the frame can have: each updated slot's values
        // and its ABS_MT_SLOT, BTN_TOUCH, the touchpad's tools, the pointer
        // emulation's three axes, SYN_REPORT.
        var most = 1 + (isTouchpad ? Self.fingerTools.count : 0) + 3 + 1
        for count in updateCounts where count > 0 { most += 1 + count }
        if most <= FrameBuilder.maximumEventsPerFrame {
            // Fits with every optional axis: built once, on the state itself.
            var assembler = FrameAssembler(supported: supported, taking: &state, capacity: most)
            assemble(&assembler, withOptionalAxes: true)
            if let frame = assembler.end(at: time, into: &state) { frames.append(frame) }
            return
        }
        // Perhaps crowded: built on a copy, and without the optional axes
        // (pressure, size) when they would not fit.
        var trial = state
        var assembler = FrameAssembler(supported: supported, taking: &trial, capacity: most)
        assemble(&assembler, withOptionalAxes: true)
        if assembler.events.count + 1 > FrameBuilder.maximumEventsPerFrame {
            trial = state
            assembler = FrameAssembler(supported: supported, taking: &trial, capacity: most)
            assemble(&assembler, withOptionalAxes: false)
        }
        let count = assembler.events.count + 1
        if count > FrameBuilder.maximumEventsPerFrame { throw .frameTooLarge(events: count, at: time) }
        if let frame = assembler.end(at: time, into: &state) { frames.append(frame) }
    }

    /// Adds a value to `slot`'s updates of this frame.
    private mutating func add(_ value: SlotValue, slot: Int) {
        slotUpdates[slot * Self.valuesPerSlot + updateCounts[slot]] = value
        updateCounts[slot] += 1
    }

    /// The frame's events: slots in ascending order, then `BTN_TOUCH`, the
    /// touchpad tool (old one 0, new one 1), then the single-touch
    /// emulation (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`), in the kernel's order.
    private func assemble(_ assembler: inout FrameAssembler, withOptionalAxes: Bool) {
        for slot in 0..<slotCount {
            let first = slot * Self.valuesPerSlot
            for value in slotUpdates[first..<first + updateCounts[slot]] where withOptionalAxes || !value.isOptional {
                assembler.setSlotValue(slot, value.code, value.value)
            }
        }
        assembler.setKey(.buttonTouch, !contacts.isEmpty)
        if isTouchpad {
            let wanted = Self.tool(forFingers: contacts.count)
            for tool in Self.fingerTools where tool != wanted { assembler.setKey(tool, false) }
            if let wanted { assembler.setKey(wanted, true) }
        }
        // The kernel's input_mt_report_pointer_emulation: the oldest
        // contact drives ABS_X/ABS_Y; with none, only pressure goes to 0.
        if let oldest = contacts.values.min(by: { $0.sequence < $1.sequence }) {
            if let axis = pointerX {
                assembler.setAbsolute(.absoluteX, PositionMapper.value(at: oldest.fractions.x, on: axis))
            }
            if let axis = pointerY {
                assembler.setAbsolute(.absoluteY, PositionMapper.value(at: oldest.fractions.y, on: axis))
            }
            if withOptionalAxes, let axis = pointerPressure {
                assembler.setAbsolute(.absolutePressure, PositionMapper.value(at: oldest.pressure, on: axis))
            }
        } else if withOptionalAxes, let axis = pointerPressure {
            assembler.setAbsolute(.absolutePressure, axis.minimum)
        }
    }

    private func makeContact(slot: Int, sample: Sample) -> Contact {
        Contact(
            slot: slot, sequence: nextSequence, fractions: mapper.fractions(of: sample),
            pressure: PositionMapper.fraction(of: sample.pressure, on: source.pressure, fallback: defaultPressure))
    }

    /// Adds the contact's position, then size and pressure when the
    /// device has them (size only when the sample has one: there is no
    /// sensible default), to its slot's updates.
    private mutating func addValues(of contact: Contact, sample: Sample) {
        add(
            SlotValue(
                code: .multitouchPositionX, value: PositionMapper.value(at: contact.fractions.x, on: axisX),
                isOptional: false), slot: contact.slot)
        add(
            SlotValue(
                code: .multitouchPositionY, value: PositionMapper.value(at: contact.fractions.y, on: axisY),
                isOptional: false), slot: contact.slot)
        if let axis = touchMajor, sample.size != nil {
            let fraction = PositionMapper.fraction(of: sample.size, on: source.size, fallback: 0)
            add(
                SlotValue(
                    code: .multitouchTouchMajor, value: PositionMapper.value(at: fraction, on: axis), isOptional: true),
                slot: contact.slot)
        }
        if let axis = slotPressure {
            add(
                SlotValue(
                    code: .multitouchPressure, value: PositionMapper.value(at: contact.pressure, on: axis),
                    isOptional: true), slot: contact.slot)
        }
    }

    /// The id after `last`, wrapping to the axis minimum (or 0) past its maximum.
    private func nextTrackingID(after last: Int32?) -> Int32 {
        let first = max(0, trackingIDs.minimum)
        guard let last, last >= first, last < trackingIDs.maximum else { return first }
        return last + 1
    }

    /// `BTN_TOOL_FINGER`, `DOUBLETAP`, `TRIPLETAP`, `QUADTAP`, `QUINTTAP`.
    static let fingerTools: [EventCode] = [
        .buttonToolFinger, .buttonToolDoubleTap, .buttonToolTripleTap, .buttonToolQuadTap, .buttonToolQuintTap,
    ]

    /// The tool for `fingers` contacts: QUINTTAP for 5 or more, none for 0.
    static func tool(forFingers fingers: Int) -> EventCode? {
        fingers <= 0 ? nil : fingerTools[min(fingers, 5) - 1]
    }
}
