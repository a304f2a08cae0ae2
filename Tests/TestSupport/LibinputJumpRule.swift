/// libinput's touchpad jump rule (`tp_detect_jumps`), restated to judge
/// what a guard lets through: each contact's step scaled to 12 ms is a jump
/// over 20 mm, or over 7 mm more than its previous scaled step; frames more
/// than 30 ms apart are not checked; a change in the number of contacts
/// starts every contact afresh (its previous step 0). Where libinput keeps
/// more (a contact that did not move in that frame keeps its step), this
/// judge takes less: it is stricter, never laxer. The suites of both
/// writers that keep to the rule use it: live fingertips
/// (`TouchpadStepGuard`) and the player (`TouchpadPacing`).
public struct LibinputJumpRule {
    /// Device units per millimetre on both axes.
    public let unitsPerMM: Double
    private var last: (time: Int64, contacts: [Int: (x: Int, y: Int)])?
    private var previous: [Int: Double] = [:]
    /// What libinput would have called a jump, one line each.
    public private(set) var jumps: [String] = []

    /// A judge for a touchpad of `unitsPerMM`.
    public init(unitsPerMM: Double) { self.unitsPerMM = unitsPerMM }

    /// A frame stamped `time` (µs) that leaves `contacts` down.
    public mutating func frame(at time: Int64, _ contacts: [Int: (x: Int, y: Int)]) {
        defer { last = (time, contacts) }
        guard let last, Set(last.contacts.keys) == Set(contacts.keys) else {
            previous = [:]
            return
        }
        let interval = time - last.time
        for (index, to) in contacts {
            guard let from = last.contacts[index], from != to else { continue }
            if interval > 30_000 || interval == 0 { continue }
            let dx = Double(to.x - from.x) / unitsPerMM
            let dy = Double(to.y - from.y) / unitsPerMM
            let scaled = (dx * dx + dy * dy).squareRoot() * 12_000 / Double(interval)
            if scaled > 20 || scaled - (previous[index] ?? 0) > 7 {
                jumps.append("contact \(index) at \(time) µs: \(scaled) mm after \(previous[index] ?? 0)")
            }
            previous[index] = scaled
        }
    }
}
