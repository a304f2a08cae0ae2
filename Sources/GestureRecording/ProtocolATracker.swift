import InputSystem

/// Multi-touch protocol A: each contact's `ABS_MT_*` values end with
/// `SYN_MT_REPORT`, and each frame lists every contact down, so a contact
/// missing from a frame has lifted and an empty frame lifts all.
///
/// Contacts are matched to the previous frame's:
/// 1. by `ABS_MT_TRACKING_ID`, when the contact has one and the previous
///    frame had a contact with the same id;
/// 2. otherwise by nearest position: of all pairs of a still unmatched
///    contact and a still unmatched previous contact, the closest pair is
///    matched first (ties: earlier contact in the frame first), and so on.
///    A finger lifting while another lands in the same frame is therefore
///    taken for one finger that jumped; protocol A gives nothing better.
/// Contacts left over start new strokes. A contact without both
/// coordinates is ignored; values after the last `SYN_MT_REPORT` of a
/// frame count as one more contact (some drivers leave out the last
/// `SYN_MT_REPORT`).
///
/// After `SYN_DROPPED` the resync says nothing about protocol A contacts,
/// so the partial frame is dropped and the next complete frame is the new
/// truth.
struct ProtocolATracker: ContactTracker {
    private struct Values: Sendable {
        var trackingID: Int32?
        var x: Int?
        var y: Int?
        var pressure: Int?
        var size: Int?

        var isEmpty: Bool { trackingID == nil && x == nil && y == nil && pressure == nil && size == nil }
    }

    private struct Contact: Sendable {
        var key: ContactKey
        var values: Values
        var point: ContactPoint
    }

    private var pending = Values()
    private var frameContacts: [Values] = []
    private var previous: [Contact] = []
    private var nextGeneration = 1

    /// The most contacts one frame may hold; more are ignored, so a
    /// hostile device cannot make matching slow (it is quadratic).
    static let maximumContactsPerFrame = 100

    mutating func apply(_ event: InputEvent) {
        if event.type == .synchronization && event.code == .synchronizationMultitouchReport {
            finishContact()
            return
        }
        guard event.type == .absolute else { return }
        let value = event.value
        switch event.code {
        case .multitouchTrackingID: pending.trackingID = value
        case .multitouchPositionX: pending.x = Int(value)
        case .multitouchPositionY: pending.y = Int(value)
        case .multitouchPressure: pending.pressure = Int(value)
        case .multitouchTouchMajor: pending.size = Int(value)
        default: break
        }
    }

    private mutating func finishContact() {
        if pending.x != nil, pending.y != nil, frameContacts.count < Self.maximumContactsPerFrame {
            frameContacts.append(pending)
        }
        pending = Values()
    }

    mutating func endFrame() -> [ContactKey: ContactPoint] {
        if !pending.isEmpty { finishContact() }
        let current = frameContacts
        frameContacts = []
        pending = Values()

        var keys: [ContactKey?] = Array(repeating: nil, count: current.count)
        var previousTaken = Array(repeating: false, count: previous.count)
        for (index, values) in current.enumerated() {
            guard let trackingID = values.trackingID,
                let match = previous.indices.first(where: {
                    !previousTaken[$0] && previous[$0].values.trackingID == trackingID
                })
            else { continue }
            keys[index] = previous[match].key
            previousTaken[match] = true
        }
        var pairs: [(distance: Double, current: Int, previous: Int)] = []
        for index in current.indices where keys[index] == nil {
            for match in previous.indices where !previousTaken[match] {
                pairs.append((Self.distance(current[index], previous[match].values), index, match))
            }
        }
        pairs.sort { ($0.distance, $0.current, $0.previous) < ($1.distance, $1.current, $1.previous) }
        for pair in pairs where keys[pair.current] == nil && !previousTaken[pair.previous] {
            keys[pair.current] = previous[pair.previous].key
            previousTaken[pair.previous] = true
        }

        var contacts: [Contact] = []
        for (index, values) in current.enumerated() {
            let key: ContactKey
            if let matched = keys[index] {
                key = matched
            } else {
                key = ContactKey(slot: 0, generation: nextGeneration)
                nextGeneration &+= 1
            }
            // Both coordinates are known: finishContact keeps only such contacts.
            let point = ContactPoint(
                x: values.x ?? 0, y: values.y ?? 0, pressure: values.pressure, size: values.size)
            contacts.append(Contact(key: key, values: values, point: point))
        }
        previous = contacts
        return Dictionary(contacts.map { ($0.key, $0.point) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func beginResync() {
        pending = Values()
        frameContacts = []
    }

    mutating func endResyncFrame() -> [ContactKey: ContactPoint]? {
        pending = Values()
        frameContacts = []
        return nil
    }

    mutating func load(_ snapshot: DeviceStateSnapshot) {}

    /// Squared distance in device units, in floating point so that hostile
    /// coordinates cannot overflow.
    private static func distance(_ first: Values, _ second: Values) -> Double {
        let dx = Double(first.x ?? 0) - Double(second.x ?? 0)
        let dy = Double(first.y ?? 0) - Double(second.y ?? 0)
        return dx * dx + dy * dy
    }
}
