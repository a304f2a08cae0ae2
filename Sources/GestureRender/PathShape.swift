#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GestureModel

/// The shape of a path that is no straight line: an arc, a half circle, a
/// circle or a zigzag (see ``MotionThresholds`` for the numbers).
///
/// The path is walked in equal steps of at least
/// ``MotionThresholds/shapeStepMM`` (1.5 mm, so that a finger's jitter does
/// not count as turning), and the turns between steps are added up, signed:
/// - a *zigzag* has at least ``MotionThresholds/zigzagMinimumCorners`` (3)
///   corners in a row (places where a tenth of its size turns by
///   ``MotionThresholds/zigzagCornerDegrees``, 60°, or more) that turn
///   alternately one way and the other: back and forth, not around;
/// - a path that turns smoothly (corners, where a quarter of its size turns
///   by ``MotionThresholds/cornerDegrees``, 80°, or more, make at most
///   ``MotionThresholds/cornerShareMaximum``, a third, of its turning: a
///   finger that starts in the middle of the circle it draws still draws a
///   circle, a square is no circle) and strays from the line between its
///   ends by at least a quarter of that line's length:
///   - a *circle* turns through ``MotionThresholds/circleMinimumDegrees``
///     (320°) or more and ends within
///     ``MotionThresholds/circleClosingShare`` (60 %) of its size of where
///     it began (a finger may start in the middle and end on the circle);
///   - a *half circle* turns through 150°…210°;
///   - an *arc* turns through ``MotionThresholds/arcMinimumDegrees`` (120°)
///     or more otherwise (but not a full turn that does not close).
///
/// A path smaller than ``MotionThresholds/shapeMinimumSizeMM`` (10 mm
/// across) has no shape. Turning clockwise on the screen (where `y` grows
/// downwards) is a growing angle.
enum PathShape: Hashable, Sendable {
    case arc(GestureMotion.Rotation, degrees: Double)
    case halfCircle(GestureMotion.Rotation)
    case circle(GestureMotion.Rotation)
    case zigzag

    /// The way a curved shape turns; `nil` for a zigzag.
    var rotation: GestureMotion.Rotation? {
        switch self {
        case .arc(let rotation, _), .halfCircle(let rotation), .circle(let rotation): rotation
        case .zigzag: nil
        }
    }

    /// The motion for this shape, `sizeMM` across.
    func motion(sizeMM: Double) -> GestureMotion {
        switch self {
        case .arc(let rotation, let degrees): .arc(rotation, degrees: degrees, sizeMM: sizeMM)
        case .halfCircle(let rotation): .halfCircle(rotation, sizeMM: sizeMM)
        case .circle(let rotation): .circle(rotation, sizeMM: sizeMM)
        case .zigzag: .zigzag(sizeMM: sizeMM)
        }
    }

    /// The shape of the path through `points` and its size (the longer side
    /// of the box around it), or `nil` when it has none. Any values are
    /// accepted; non-finite ones give `nil`.
    static func of<Points: RandomAccessCollection<PointMM>>(_ points: Points) -> (shape: PathShape, sizeMM: Double)?
    where Points.Index == Int {
        guard points.count >= 3 else { return nil }
        var length = 0.0
        var minimum = points[0]
        var maximum = points[0]
        var previous = points[0]
        for (offset, point) in points.enumerated() {
            if offset > 0 { length += point.distance(to: previous) }
            previous = point
            minimum = PointMM(x: min(minimum.x, point.x), y: min(minimum.y, point.y))
            maximum = PointMM(x: max(maximum.x, point.x), y: max(maximum.y, point.y))
        }
        let size = max(maximum.x - minimum.x, maximum.y - minimum.y)
        guard length.isFinite, size.isFinite, size >= MotionThresholds.shapeMinimumSizeMM else { return nil }
        let stepCount = Int(min(max(length / MotionThresholds.shapeStepMM, 8), 256))
        let walked = resample(points, steps: stepCount, length: length)
        let turns = turns(along: walked)
        guard turns.count >= 2 else { return nil }

        // Windows measured on the shape's size, not its length, so that a
        // circle drawn three times round is judged as one drawn once.
        let step = length / Double(stepCount)
        let sharpWindow = max(2, Int(0.1 * size / step))
        if longestAlternation(of: corners(in: turns, window: sharpWindow, degrees: MotionThresholds.zigzagCornerDegrees))
            >= MotionThresholds.zigzagMinimumCorners
        {
            return (.zigzag, size)
        }
        // Each step's heading is the path's halfway along the step, so the
        // turns between the first and the last step miss half a step at
        // either end: one step of the path's mean turn.
        let total = turns.reduce(0, +) * Double(turns.count + 1) / Double(turns.count)
        let turned = abs(total)
        guard turned >= MotionThresholds.arcMinimumDegrees else { return nil }
        // Smooth: corners (a finger starting from the middle, a pause) make
        // at most a third of the turning; a square is all corners.
        let smoothWindow = max(2, Int(0.25 * size / step))
        let cornerTurning = corners(in: turns, window: smoothWindow, degrees: MotionThresholds.cornerDegrees)
            .reduce(0) { $0 + abs($1) }
        guard cornerTurning <= MotionThresholds.cornerShareMaximum * turned else { return nil }
        // A curve strays from the line between its ends; a straight line with
        // a hook at one end does not.
        let first = walked[0]
        let last = walked[walked.count - 1]
        let chord = first.distance(to: last)
        let straying = walked.reduce(0.0) { max($0, PathSimplifier.distanceToSegment($1, first, last)) }
        guard straying >= max(0.25 * chord, MotionThresholds.stillMovementMM) else { return nil }

        let rotation: GestureMotion.Rotation = total > 0 ? .clockwise : .counterClockwise
        if turned >= MotionThresholds.circleMinimumDegrees {
            // A full turn that does not come back is a loop in a longer path.
            guard chord <= MotionThresholds.circleClosingShare * size else { return nil }
            return (.circle(rotation), size)
        }
        if MotionThresholds.halfCircleDegrees.contains(turned) { return (.halfCircle(rotation), size) }
        return (.arc(rotation, degrees: turned), size)
    }

    /// `steps + 1` points (fewer when rounding runs short) at equal
    /// distances along the path, the first and last points included.
    private static func resample<Points: RandomAccessCollection<PointMM>>(_ points: Points, steps: Int, length: Double)
        -> [PointMM] where Points.Index == Int
    {
        let step = length / Double(steps)
        var result = [points[0]]
        guard step > 0 else { return result }
        var travelled = 0.0
        var target = step
        var from = points[0]
        for index in points.indices.dropFirst() {
            let to = points[index]
            defer { from = to }
            let segment = from.distance(to: to)
            guard segment > 0 else { continue }
            while travelled + segment >= target && result.count < steps {
                result.append(from + (to - from) * ((target - travelled) / segment))
                target += step
            }
            travelled += segment
        }
        result.append(points[points.count - 1])
        return result
    }

    /// The signed turn, in degrees, between each step and the next
    /// (positive: clockwise on the screen).
    private static func turns(along points: [PointMM]) -> [Double] {
        var turns: [Double] = []
        var previous: PointMM?
        for index in points.indices.dropFirst() {
            let step = points[index] - points[index - 1]
            guard step.length > 0 else { continue }
            if let previous {
                let cross = previous.x * step.y - previous.y * step.x
                let dot = previous.x * step.x + previous.y * step.y
                turns.append(atan2(cross, dot) * 180 / Double.pi)
            }
            previous = step
        }
        return turns
    }

    /// The places where `window` consecutive turns add up to `degrees` or
    /// more either way, each counted once: the most they turn within the
    /// window, signed.
    private static func corners(in turns: [Double], window: Int, degrees: Double) -> [Double] {
        var corners: [Double] = []
        var index = 0
        while index < turns.count {
            var sum = 0.0
            var most = 0.0
            for offset in index..<min(index + window, turns.count) {
                sum += turns[offset]
                if abs(sum) > abs(most) { most = sum }
            }
            if abs(most) >= degrees {
                corners.append(most)
                index += window
            } else {
                index += 1
            }
        }
        return corners
    }

    /// The most corners in a row that turn alternately one way and the
    /// other (a square's all turn the same way).
    private static func longestAlternation(of corners: [Double]) -> Int {
        var longest = corners.isEmpty ? 0 : 1
        var run = longest
        for index in corners.indices.dropFirst() {
            run = (corners[index] > 0) != (corners[index - 1] > 0) ? run + 1 : 1
            longest = max(longest, run)
        }
        return longest
    }
}
