import GestureModel
import InputSystem

/// The identity of one contact from touch-down to lift-off. Two frames
/// that report the same key report the same contact; a new key is a new
/// stroke, even in a slot that was used before.
struct ContactKey: Hashable, Comparable, Sendable {
    /// The slot (protocol B) or 0; orders contacts that start in the same frame.
    var slot: Int
    /// A number that grows with every new contact the tracker sees.
    var generation: Int

    static func < (lhs: ContactKey, rhs: ContactKey) -> Bool {
        (lhs.slot, lhs.generation) < (rhs.slot, rhs.generation)
    }

    /// One word hashed, not two: a recorder hashes keys dozens of times a
    /// frame. Equal keys hash alike; keys that share the mix collide only.
    func hash(into hasher: inout Hasher) {
        hasher.combine(UInt(bitPattern: slot) &* 0x9E37_79B9_7F4A_7C15 ^ UInt(bitPattern: generation))
    }
}

/// Where one contact is at the end of a frame, in device units.
struct ContactPoint: Hashable, Sendable {
    var x: Int
    var y: Int
    var pressure: Int?
    var size: Int?
    /// What makes the contact; fixed for a stroke by its first point.
    var kind: StrokeKind = .finger
    /// The button held, for pointer contacts.
    var button: PointerButton? = nil
    /// Whether the position is estimated: a finger the device said was down
    /// but did not track (see ``SlotTracker``).
    var isEstimated = false

    /// Whether the position, pressure or size differ from `other`'s.
    func differs(from other: ContactPoint) -> Bool {
        x != other.x || y != other.y || pressure != other.pressure || size != other.size
    }
}

/// One contact down at the end of a frame, as a recorder keeps them: in a
/// list in key order.
typealias ContactEntry = (key: ContactKey, point: ContactPoint)

extension Dictionary where Key == ContactKey, Value == ContactPoint {
    /// The contacts as a recorder keeps them, in key order, written into
    /// `entries` (emptied first, its storage reused).
    func sortedEntries(into entries: inout [ContactEntry]) {
        entries.removeAll(keepingCapacity: true)
        entries.append(contentsOf: lazy.map { ($0.key, $0.value) })
        entries.sort { $0.key < $1.key }
    }
}

/// Turns one input protocol's events into the set of contacts down at the
/// end of each frame. The recorder compares consecutive sets to start,
/// extend and end strokes, so every protocol reduces to the same question:
/// who touches where now.
protocol ContactTracker: Sendable {
    /// Takes one event of the current frame (anything but `SYN_REPORT`).
    mutating func apply(_ event: InputEvent)
    /// Ends the current frame (`SYN_REPORT`): the contacts down now.
    mutating func endFrame() -> [ContactKey: ContactPoint]
    /// ``endFrame()`` as a list in key order, written into `contacts`
    /// (emptied first, its storage reused): what the recorder calls.
    mutating func endFrame(into contacts: inout [ContactEntry])
    /// The kernel dropped events (`SYN_DROPPED`); resync events follow.
    mutating func beginResync()
    /// Ends a frame of resync events: the contacts down now, or `nil` when
    /// this protocol cannot tell from a resync and waits for the next
    /// normal frame.
    mutating func endResyncFrame() -> [ContactKey: ContactPoint]?
    /// Takes the device's state when recording begins.
    mutating func load(_ snapshot: DeviceStateSnapshot)
    /// Where a pointer is now, pressed or not (in the gesture's units);
    /// `nil` for devices with no position between contacts.
    var pointerPosition: PointerPosition? { get }
}

extension ContactTracker {
    /// ``endFrame()``'s dictionary, sorted (trackers of devices that send
    /// far fewer frames than a ten-finger touchscreen).
    mutating func endFrame(into contacts: inout [ContactEntry]) {
        endFrame().sortedEntries(into: &contacts)
    }

    var pointerPosition: PointerPosition? { nil }
    mutating func beginResync() {}
    mutating func endResyncFrame() -> [ContactKey: ContactPoint]? { endFrame() }
}

extension AxisRange? {
    /// `value` clamped into the axis, or `nil` when there is no axis or no
    /// value: a sample may carry pressure or size only where the geometry
    /// has that axis.
    func clampOptional(_ value: Int?) -> Int? {
        guard let self, let value else { return nil }
        return self.clamp(value)
    }
}
