import Glibc

/// Turn mode of live fingertips (a pointer's secondary button held): the
/// fingertips' centre stays where it is and the source drives an invisible
/// handle, as if it dragged the rightmost fingertip around the others.
///
/// The handle starts on the layout's circle, to the right of the centre
/// (``radius`` mm: the outermost fingertip's distance from it). Moving it
/// around the centre turns the whole layout by the handle's change of
/// angle; moving it towards or away from the centre scales the spread by
/// its distance over ``radius``. So a drag along an arc around the centre
/// is a rotation, and a drag straight out or in is a pinch out or in.
///
/// The scale stays within ``scaleRange``, never brings neighbouring
/// fingertips closer than ``minimumGapMM`` (unless the layout itself is
/// closer: then never closer than it), and never takes a fingertip off the
/// surface, which a turn near an edge may also need (the spread shrinks
/// there). The handle is kept where the scale is: past a limit it waits at
/// it, so coming back acts at once; moved inside the least circle it keeps
/// its angle, so it never crosses the centre to flip the layout.
struct FingertipsTurn: Sendable {
    /// The least and most scale of the spread: a quarter to four times the layout.
    static let scaleRange = 0.25...4.0
    /// The least distance between neighbouring fingertips' centres that a
    /// pinch in leaves, in millimetres: about a fingertip's width, so
    /// contacts never overlap.
    static let minimumGapMM = 8.0

    /// The handle's distance from the centre at the start: the outermost fingertip's.
    let radius: Double
    /// The turn, in radians: positive turns clockwise as seen on the
    /// surface (its y axis points down), as libinput's angle delta.
    private(set) var angle = 0.0
    /// The spread's scale.
    private(set) var scale = 1.0
    private let leastScale: Double
    private let offsets: [(x: Double, y: Double)]

    /// Starts a turn of the layout `offsets` (mm from the centre) with the
    /// handle on its circle, right of the centre.
    init(offsets: [(x: Double, y: Double)]) {
        self.offsets = offsets
        radius = max(offsets.map { hypot($0.x, $0.y) }.max() ?? 0, Self.minimumGapMM)
        var closest = Double.infinity
        for (index, first) in offsets.enumerated() {
            for second in offsets[(index + 1)...] { closest = min(closest, hypot(first.x - second.x, first.y - second.y)) }
        }
        let byGap = closest.isFinite && closest > 0 ? Self.minimumGapMM / closest : Self.scaleRange.lowerBound
        leastScale = min(1, max(Self.scaleRange.lowerBound, byGap))
    }

    /// The handle, mm from the centre.
    var handle: (x: Double, y: Double) { (radius * scale * cos(angle), radius * scale * sin(angle)) }

    /// The layout's offsets turned and scaled.
    var turnedOffsets: [(x: Double, y: Double)] {
        let (c, s) = (cos(angle), sin(angle))
        return offsets.map { offset in
            (scale * (offset.x * c - offset.y * s), scale * (offset.x * s + offset.y * c))
        }
    }

    /// Moves the handle by `delta` mm, the fingertips' centre at `centre` on
    /// a surface `width` × `height` mm.
    mutating func moveHandle(by delta: (x: Double, y: Double), centre: (x: Double, y: Double), width: Double, height: Double) {
        let moved = (x: handle.x + delta.x, y: handle.y + delta.y)
        let length = hypot(moved.x, moved.y)
        // Inside the least circle (towards or past the centre) the turn
        // stays: the handle never crosses the centre to flip the layout.
        if length >= leastScale * radius { angle = atan2(moved.y, moved.x) }
        let most = max(leastScale, min(Self.scaleRange.upperBound, fittingScale(centre: centre, width: width, height: height)))
        scale = min(max(length / radius, leastScale), most)
    }

    /// The largest scale at the current angle that keeps every fingertip on
    /// the surface (infinite when none moves).
    private func fittingScale(centre: (x: Double, y: Double), width: Double, height: Double) -> Double {
        let (c, s) = (cos(angle), sin(angle))
        var fitting = Double.infinity
        for offset in offsets {
            let turned = (x: offset.x * c - offset.y * s, y: offset.x * s + offset.y * c)
            if turned.x > 1e-9 { fitting = min(fitting, (width - centre.x) / turned.x) }
            if turned.x < -1e-9 { fitting = min(fitting, centre.x / -turned.x) }
            if turned.y > 1e-9 { fitting = min(fitting, (height - centre.y) / turned.y) }
            if turned.y < -1e-9 { fitting = min(fitting, centre.y / -turned.y) }
        }
        return fitting
    }
}
