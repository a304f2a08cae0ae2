import GestureModel

/// Keeps the steps of live contacts on a virtual touchpad clear of
/// libinput's touch-jump detection, so that a reader that fell behind
/// catches up without libinput discarding a touch ("kernel bug: Touch jump
/// detected and discarded").
///
/// libinput (`tp_detect_jumps` in its `evdev-mt-touchpad.c`) scales each
/// contact's step to a 12 ms frame interval, from the kernel's time stamps
/// of the two frames, and calls it a jump when it is over 20 mm, or over
/// 7 mm more than the contact's previous scaled step; it skips the check
/// when the frames are more than 30 ms apart, and starts every contact
/// afresh (a previous step of 0) when the number of fingers changes, in
/// that frame and again in the next one it sees
/// (`quirks.reset_motion_history`). A
/// backlog of source frames merged into one write 8 ms after the last one
/// can break either rule, so a step is cut short where it would: the
/// contacts go as far as is safe along the line to where the source left
/// them, and the rest follows in the next writes (each at most 18 mm and
/// at most 6 mm more than the previous step, per 12 ms). The catch-up so
/// costs schedule, never shape, and a step may grow by 6 mm per write: a
/// fast stroke is at full speed (1.5 m/s at most) after four writes.
///
/// The times are bounds, not guesses: the kernel stamps a frame inside its
/// `write`, so the interval libinput sees is at least the time between the
/// end of one write and the start of the next (what a step is cut to) and
/// at most the time between the start of one and the end of the next (what
/// the previous step is taken to have been, so its growth is never
/// overestimated).
public struct TouchpadStepGuard: Sendable {
    /// libinput's reference interval.
    static let referenceInterval = 12_000.0
    /// Frames further apart than this are not checked by libinput.
    static let uncheckedAfter = Microseconds(30_000)
    /// The largest scaled step written (libinput: over 20 mm is a jump).
    public static let largestStepMM = 18.0
    /// The most a scaled step grows over the previous one (libinput: over 7 mm is a jump).
    public static let largestGrowthMM = 6.0

    private let unitsPerMM: (x: Double, y: Double)
    /// What the device shows now: each contact's position.
    private var written: [Int: (x: Int, y: Int)] = [:]
    /// Each contact's previous scaled step as libinput can have kept it, at its least.
    private var previousStep: [Int: Double] = [:]
    /// Whether libinput resets every contact once more at the next frame
    /// that moves one (the fingers came or went in the last write).
    private var resetFollows = false

    /// A guard for a touchpad with `surface`'s axes (a resolution of 0 is
    /// taken as libinput takes it: 1 unit per millimetre).
    public init(surface: DeviceGeometry) {
        unitsPerMM = (Double(max(1, surface.x.resolution)), Double(max(1, surface.y.resolution)))
    }

    /// Where the contacts go in a frame written now, on the way to
    /// `target`, when at least `sinceLastWrite` has passed since the last
    /// write ended; `reached` says whether that is `target` itself. A touch
    /// or a lift (the set of contacts changes) is never cut.
    public func step(
        toward target: [Int: (x: Int, y: Int)], sinceLastWrite: Microseconds
    ) -> (contacts: [Int: (x: Int, y: Int)], reached: Bool) {
        guard Set(target.keys) == Set(written.keys), sinceLastWrite <= Self.uncheckedAfter else { return (target, true) }
        let scale = Double(sinceLastWrite.rawValue) / Self.referenceInterval
        var fraction = 1.0
        for (index, to) in target {
            guard let from = written[index] else { continue }
            let distance = millimetres(from, to)
            guard distance > 0 else { continue }
            let allowed = min(Self.largestStepMM, (previousStep[index] ?? 0) + Self.largestGrowthMM) * scale
            fraction = min(fraction, allowed / distance)
        }
        if fraction >= 1 { return (target, true) }
        var contacts: [Int: (x: Int, y: Int)] = [:]
        for (index, to) in target {
            let from = written[index] ?? to
            // Rounded toward where the contact was: never past the allowance.
            contacts[index] = (
                from.x + Int(Double(to.x - from.x) * fraction), from.y + Int(Double(to.y - from.y) * fraction)
            )
        }
        return (contacts, false)
    }

    /// Notes a frame written: `contacts` are down now; `longestInterval`
    /// is the time from the start of the previous write to the end of this
    /// one (`nil` for the first write).
    public mutating func wrote(_ contacts: [Int: (x: Int, y: Int)], longestInterval: Microseconds?) {
        defer { written = contacts }
        guard Set(contacts.keys) == Set(written.keys), let longestInterval, longestInterval > .zero else {
            // Fingers came or went: libinput starts every contact afresh,
            // now and in the next frame it sees.
            previousStep = [:]
            resetFollows = true
            return
        }
        if resetFollows {
            // A frame that moves nothing may not reach libinput; one that
            // moves a contact is where it resets them all again.
            if contacts.contains(where: { index, to in written[index].map { $0 != to } ?? false }) {
                previousStep = [:]
                resetFollows = false
            }
            return
        }
        let scale = Self.referenceInterval / Double(longestInterval.rawValue)
        for (index, to) in contacts {
            guard let from = written[index] else { continue }
            let distance = millimetres(from, to)
            // A contact that did not move is not looked at: its step stays.
            guard distance > 0 else { continue }
            let least = distance * scale
            // Frames that may have been over 30 ms apart may not have been
            // checked, and then the step kept is the one before.
            previousStep[index] = longestInterval > Self.uncheckedAfter ? min(previousStep[index] ?? 0, least) : least
        }
    }

    private func millimetres(_ from: (x: Int, y: Int), _ to: (x: Int, y: Int)) -> Double {
        let dx = Double(abs(to.x - from.x)) / unitsPerMM.x
        let dy = Double(abs(to.y - from.y)) / unitsPerMM.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
