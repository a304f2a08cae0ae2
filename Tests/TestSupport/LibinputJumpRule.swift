/// libinput's touchpad jump rule (`tp_detect_jumps`), restated to judge
/// what a guard lets through: each contact's step scaled to 12 ms is a jump
/// over 20 mm, or over 7 mm more than its previous scaled step; frames more
/// than 30 ms apart are not checked. A change in the number of contacts
/// starts every contact afresh (its previous step 0) twice: in that frame
/// and again in the next one libinput sees (`tp_process_state` resets the
/// motion history at the change and, through `quirks.reset_motion_history`,
/// once more a frame later). Where libinput keeps more (a contact that did
/// not move in a frame keeps its step) or checks less (the frame after a
/// change, which it does not check at all), this judge takes less and
/// checks: it is stricter, never laxer. The suites of both writers that
/// keep to the rule use it: live fingertips (`TouchpadStepGuard`) and the
/// player (`TouchpadPacing`).
public struct LibinputJumpRule {
    /// Device units per millimetre on both axes.
    public let unitsPerMM: Double
    private var last: (time: Int64, contacts: [Int: (x: Int, y: Int)])?
    private var previous: [Int: Double] = [:]
    /// Whether the next frame that changes anything starts every contact afresh again.
    private var resetFollows = false
    /// What libinput would have called a jump, one line each.
    public private(set) var jumps: [String] = []

    /// A judge for a touchpad of `unitsPerMM`.
    public init(unitsPerMM: Double) { self.unitsPerMM = unitsPerMM }

    /// A frame stamped `time` (µs) that leaves `contacts` down.
    public mutating func frame(at time: Int64, _ contacts: [Int: (x: Int, y: Int)]) {
        defer { last = (time, contacts) }
        guard let last, last.contacts.count == contacts.count else {
            previous = [:]
            resetFollows = true
            return
        }
        let interval = time - last.time
        // A frame that changes nothing is one the kernel does not pass on.
        var seen = false
        for (index, to) in contacts {
            // A contact new in a frame where the count stays (one lifts as
            // another lands) starts afresh; the others go on.
            guard let from = last.contacts[index] else {
                previous[index] = nil
                seen = true
                continue
            }
            guard from != to else { continue }
            seen = true
            if interval > 30_000 || interval == 0 { continue }
            let dx = Double(to.x - from.x) / unitsPerMM
            let dy = Double(to.y - from.y) / unitsPerMM
            let scaled = (dx * dx + dy * dy).squareRoot() * 12_000 / Double(interval)
            if scaled > 20 || scaled - (previous[index] ?? 0) > 7 {
                jumps.append("contact \(index) at \(time) µs: \(scaled) mm after \(previous[index] ?? 0)")
            }
            previous[index] = scaled
        }
        if resetFollows && seen {
            previous = [:]
            resetFollows = false
        }
    }
}
