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
/// and the slots with a tracking id, never more; those without a position
/// are placed, as libinput places such "fake" touches, beside the tracked
/// ones: in a row ``estimatedSpacing`` units apart to the right of the
/// rightmost known finger (to the left of the leftmost when they would
/// leave the surface), at the height of the first (the one in the lowest
/// slot when they landed), moving with them, and marked estimated.
///
/// A finger is not a slot. Each frame the fingers down are matched with
/// the last frame's, so that the number of fingers only rises when the
/// device says more are down:
/// - a slot whose contact goes on is the same finger;
/// - a finger whose slot ended, or took a new tracking id, while the count
///   of fingers down did not fall is still down: it stays where it was last
///   tracked until a slot tracks it again;
/// - when tracking is partial (an `INPUT_PROP_SEMI_MT` device, whose slots
///   are the corners of a bounding box; a frame in which the device reports
///   more fingers than slots; or a frame after one with untracked fingers),
///   a new tracking id continues the untracked finger nearest to it; a new
///   finger starts only when the count rises (tracking-id churn is not a
///   new finger). On a semi-MT device the continued finger stays where it
///   was and follows the slot's moves from there, since a corner that jumps
///   when fingers are added is no finger's move;
/// - on a device that tracks every finger, a new tracking id is a new
///   finger, as the kernel says: a finger that lifts and another that lands
///   in the same slot within one frame are two strokes;
/// - when the count falls, the fingers the kernel ended this frame lift
///   first, then the untracked ones, last placed first.

struct SlotTracker: ContactTracker {
    /// How a slot's contact was reported at the end of the last frame.
    private struct Reported: Sendable {
        /// The finger it is.
        var key: ContactKey
        /// The slot's contact then (``SlotState/generation``).
        var generation: Int
        var point: ContactPoint
        /// Added to the slot's position: on a semi-MT device, a finger
        /// continued through tracking-id churn keeps its place and follows
        /// the slot's moves from there.
        var offset = (x: 0, y: 0)

        /// The finger's point for the slot's `point` (saturating: a hostile
        /// recording's values never trap; the recorder clamps them).
        func shifted(_ point: ContactPoint) -> ContactPoint {
            guard offset != (0, 0) else { return point }
            var shifted = point
            shifted.x = saturating(point.x.addingReportingOverflow(offset.x), sign: offset.x)
            shifted.y = saturating(point.y.addingReportingOverflow(offset.y), sign: offset.y)
            return shifted
        }
    }

    private struct SlotState: Sendable {
        var trackingID: Int32 = -1
        /// Which contact the slot holds; changes with every new contact.
        var generation = 0
        var x: Int?
        var y: Int?
        var pressure: Int?
        var size: Int?
        /// The finger the slot reported at the end of the last frame.
        var reported: Reported?

        /// The contact's point, when it has a tracking id and a position.
        var point: ContactPoint? {
            guard trackingID >= 0, let x, let y else { return nil }
            return ContactPoint(x: x, y: y, pressure: pressure, size: size)
        }
    }

    /// A finger down that no slot tracks now.
    private struct UntrackedFinger: Sendable {
        var key: ContactKey
        /// Where it was last tracked, or, when estimated, last placed.
        var point: ContactPoint
        /// Whether no slot ever tracked it (placed beside the tracked ones).
        var isEstimated: Bool
        /// Whether its slot ended or changed its tracking id this frame.
        var endedNow = false
    }

    private var slots: [SlotState]
    private var currentSlot = 0
    private var nextGeneration = 1
    /// The `BTN_TOOL_*` finger counts held down (1 for `BTN_TOOL_FINGER` … 5
    /// for `BTN_TOOL_QUINTTAP`).
    private var toolCounts: Set<Int> = []
    /// The fingers down at the end of the last frame that no slot tracked.
    private var untracked: [UntrackedFinger] = []
    /// Units between an estimated finger and its neighbour.
    let estimatedSpacing: Int
    /// The x axis, to keep estimated fingers on the surface.
    let xAxis: ClosedRange<Int>
    /// Whether the device is semi-MT (`INPUT_PROP_SEMI_MT`): its tracking
    /// ids never say that a finger is new.
    let isSemiMultitouch: Bool

    /// A tracker for `slotCount` slots (at least 1); estimated fingers are
    /// `estimatedSpacing` units apart within `xAxis`.
    init(slotCount: Int, estimatedSpacing: Int = 0, xAxis: ClosedRange<Int> = 0...0, isSemiMultitouch: Bool = false) {
        slots = Array(repeating: SlotState(), count: max(1, slotCount))
        self.estimatedSpacing = estimatedSpacing
        self.xAxis = xAxis
        self.isSemiMultitouch = isSemiMultitouch
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

    /// The fingers down, in key order, with no dictionary made and no key
    /// hashed: a ten-finger touchscreen sends 1,000 frames a second, and in
    /// most frames every slot goes on as it was.
    mutating func endFrame(into contacts: inout [ContactEntry]) {
        contacts.removeAll(keepingCapacity: true)
        var tracking = 0
        var newContacts = 0
        var ended: [UntrackedFinger] = []
        for index in slots.indices {
            if slots[index].trackingID >= 0 { tracking += 1 }
            let point = slots[index].point
            if let reported = slots[index].reported {
                if let point, reported.generation == slots[index].generation {
                    let shifted = reported.shifted(point)
                    contacts.append((reported.key, shifted))
                    slots[index].reported?.point = shifted
                    continue
                }
                // The contact ended or the slot took a new tracking id.
                ended.append(UntrackedFinger(key: reported.key, point: reported.point, isEstimated: false, endedNow: true))
                slots[index].reported = nil
            }
            if point != nil { newContacts += 1 }
        }
        let toolCount = toolCounts.max() ?? 0
        let down = contacts.count + newContacts == 0 ? 0 : max(tracking, toolCount)
        if ended.isEmpty && newContacts == 0 && untracked.isEmpty && down == contacts.count {
            sortByKey(&contacts)
            return
        }
        let partial = isSemiMultitouch || !untracked.isEmpty || toolCount > tracking
        var pool = untracked + ended
        untracked = []
        for index in slots.indices where slots[index].reported == nil {
            guard let point = slots[index].point else { continue }
            var reported = Reported(
                key: ContactKey(slot: index, generation: nextGeneration), generation: slots[index].generation, point: point)
            if partial, let nearest = Self.nearest(to: point, in: pool) {
                let finger = pool.remove(at: nearest)
                reported.key = finger.key
                if isSemiMultitouch {
                    reported.offset = (
                        saturating(finger.point.x.subtractingReportingOverflow(point.x), sign: finger.point.x),
                        saturating(finger.point.y.subtractingReportingOverflow(point.y), sign: finger.point.y)
                    )
                    reported.point = reported.shifted(point)
                }
            } else {
                nextGeneration &+= 1
            }
            slots[index].reported = reported
            contacts.append((reported.key, reported.point))
        }
        let missing = max(0, down - contacts.count)
        while pool.count > missing {
            pool.remove(at: pool.lastIndex(where: \.endedNow) ?? pool.count - 1)
        }
        var estimatedCount = pool.count(where: \.isEstimated)
        while pool.count < missing {
            pool.append(
                UntrackedFinger(
                    key: ContactKey(slot: slots.count + estimatedCount, generation: nextGeneration),
                    point: ContactPoint(x: 0, y: 0), isEstimated: true))
            nextGeneration &+= 1
            estimatedCount += 1
        }
        placeEstimatedFingers(&pool, beside: contacts)
        for index in pool.indices {
            pool[index].endedNow = false
            var point = pool[index].point
            point.isEstimated = pool[index].isEstimated
            contacts.append((pool[index].key, point))
        }
        untracked = pool
        sortByKey(&contacts)
    }

    /// Sorts `contacts` by key when they are not in order already (a finger
    /// that moved from one slot to another keeps its first key).
    private func sortByKey(_ contacts: inout [ContactEntry]) {
        guard contacts.count > 1 else { return }
        for index in 1..<contacts.count where contacts[index - 1].key > contacts[index].key {
            contacts.sort { $0.key < $1.key }
            return
        }
    }

    /// The index of the finger in `pool` nearest to `point`; `nil` when
    /// the pool is empty.
    private static func nearest(to point: ContactPoint, in pool: [UntrackedFinger]) -> Int? {
        func distance(_ other: ContactPoint) -> Double {
            let dx = Double(other.x) - Double(point.x)
            let dy = Double(other.y) - Double(point.y)
            return dx * dx + dy * dy
        }
        return pool.indices.min { distance(pool[$0].point) < distance(pool[$1].point) }
    }

    /// Places the estimated fingers of `pool` beside the fingers whose
    /// position is known: `tracked` (at least one) and the held fingers of
    /// `pool`. Their height is that of the known finger with the first key,
    /// which stays the same while a finger is held and tracked again.
    private func placeEstimatedFingers(_ pool: inout [UntrackedFinger], beside tracked: [ContactEntry]) {
        var known = tracked
        for finger in pool where !finger.isEstimated { known.append((finger.key, finger.point)) }
        guard let anchor = known.min(by: { $0.key < $1.key })?.point else { return }
        let spacing = max(estimatedSpacing, 1)
        let rightmost = known.lazy.map(\.point.x).max() ?? anchor.x
        let leftmost = known.lazy.map(\.point.x).min() ?? anchor.x
        let count = pool.count(where: \.isEstimated)
        let toTheRight = rightmost.addingReportingOverflow(count * spacing)
        let goRight = !toTheRight.overflow && toTheRight.partialValue <= xAxis.upperBound
        var offset = 0
        for index in pool.indices where pool[index].isEstimated {
            offset += 1
            let step = offset * spacing
            let x = goRight ? rightmost + step : max(leftmost - step, xAxis.lowerBound)
            pool[index].point = ContactPoint(x: x, y: anchor.y, pressure: anchor.pressure, size: anchor.size)
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

/// The result of an addition or subtraction, or the end of `Int`'s range
/// it overflowed towards (`sign`: the value whose sign the overflow took).
private func saturating(_ result: (partialValue: Int, overflow: Bool), sign: Int) -> Int {
    guard result.overflow else { return result.partialValue }
    return sign < 0 ? Int.min : Int.max
}
