#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GestureModel

/// Classifies what a gesture does from its geometry in millimetres.
///
/// The first rule that matches wins:
/// 1. No samples: ``GestureMotion/empty``.
/// 2. Every stroke is still (moves less than
///    ``MotionThresholds/stillMovementMM``, 3 mm, from where it started):
///    - ``GestureMotion/doubleTap`` when the strokes are all taps (each
///      shorter than ``MotionThresholds/tapMaximumDuration``, 300 ms) that
///      form two equal waves of simultaneous contacts, the second starting at
///      most ``MotionThresholds/doubleTapMaximumGap`` (500 ms) after the
///      first ends and within ``MotionThresholds/doubleTapMaximumDistanceMM``
///      (10 mm) of it;
///    - ``GestureMotion/tap`` when every stroke is shorter than 300 ms;
///    - ``GestureMotion/longPress`` when every stroke lasts at least
///      ``MotionThresholds/longPressMinimumDuration`` (500 ms);
///    - ``GestureMotion/press`` otherwise.
/// 3. The contacts are compared from their first positions to their last
///    (strokes drawn one after another are compared as if merged):
///    - ``GestureMotion/edgeSwipe(from:distanceMM:)`` when every contact
///      starts within ``MotionThresholds/edgeDistanceMM`` (2 mm) of the same
///      edge and the centroid moves inwards by at least
///      ``MotionThresholds/swipeMinimumDistanceMM`` (10 mm), more inwards
///      than along the edge;
///    - a shape (see ``PathShape``): ``GestureMotion/circle(_:sizeMM:)``,
///      ``GestureMotion/halfCircle(_:sizeMM:)``,
///      ``GestureMotion/arc(_:degrees:sizeMM:)`` or
///      ``GestureMotion/zigzag(sizeMM:)`` when the one stroke's path has
///      that shape, or, for two or more strokes, when their centroid's path
///      (each stroke taken at the same fraction of its time) has it and
///      every stroke's own path has the same kind of shape, turning the
///      same way: fingers that circle together;
///    - ``GestureMotion/pinch(_:changeMM:)`` (two or more strokes) when the
///      mean distance to the centroid changes by at least
///      ``MotionThresholds/pinchMinimumRatio`` (20 %) of its start value and
///      by at least ``MotionThresholds/pinchMinimumChangeMM`` (5 mm);
///    - ``GestureMotion/rotate(_:degrees:)`` (two or more strokes) when the
///      contacts turn around the centroid by at least
///      ``MotionThresholds/rotateMinimumDegrees`` (15°) on average and go
///      around it rather than across it (see
///      ``MotionThresholds/rotateMinimumRadiusRatio``); each contact's turn
///      is followed along its path, so a half turn is 180° and a full turn
///      360°;
///    - ``GestureMotion/differentDirections(distanceMM:)`` (two or more
///      strokes) when at least two contacts each move 10 mm or more from
///      their first position to their last, in directions at least
///      ``MotionThresholds/differentDirectionsMinimumAngleDegrees`` (90°)
///      apart;
///    - ``GestureMotion/swipe(_:distanceMM:)`` when the centroid moves at
///      least 10 mm; the direction is the dominant axis (horizontal on a
///      tie), and up means decreasing `y`;
///    - ``GestureMotion/path(lengthMM:)`` otherwise.
///
/// - Parameter gesture: The gesture to classify. Any values are accepted;
///   nothing traps on hostile coordinates or times.
/// - Returns: The motion, with its distance or angle.
public func classifyMotion(_ gesture: Gesture) -> GestureMotion {
    GestureAnalysis(gesture).motion
}

/// The measures of one gesture that ``describe(_:style:)``, ``classifyMotion(_:)``
/// and the renderers share.
struct GestureAnalysis: Sendable {
    /// The surface, in millimetres.
    let mapping: SurfaceMapping
    /// The strokes that have samples.
    let traces: [StrokeTrace]
    /// The number of contacts in each wave when the gesture is a double
    /// tap; `nil` otherwise.
    let doubleTapWaveSize: Int?
    /// What the gesture does.
    let motion: GestureMotion

    init(_ gesture: Gesture) {
        mapping = SurfaceMapping(gesture.device)
        traces = gesture.traces(mapping: mapping)
        doubleTapWaveSize = Self.doubleTapWaveSize(traces)
        motion = Self.classify(traces, doubleTapWaveSize: doubleTapWaveSize, mapping: mapping)
    }

    private static func classify(_ traces: [StrokeTrace], doubleTapWaveSize: Int?, mapping: SurfaceMapping)
        -> GestureMotion
    {
        guard !traces.isEmpty else { return .empty }
        if traces.allSatisfy(\.isStill) {
            if doubleTapWaveSize != nil { return .doubleTap }
            if traces.allSatisfy({ $0.duration < MotionThresholds.tapMaximumDuration }) { return .tap }
            if traces.allSatisfy({ $0.duration >= MotionThresholds.longPressMinimumDuration }) { return .longPress }
            return .press
        }
        let starts = traces.map(\.start)
        let ends = traces.map(\.end)
        let startCentroid = PointMM.centroid(of: starts)
        let endCentroid = PointMM.centroid(of: ends)
        let movement = endCentroid - startCentroid

        if let edgeSwipe = edgeSwipe(starts: starts, movement: movement, mapping: mapping) {
            return edgeSwipe
        }
        if let shape = shape(traces) { return shape }
        if traces.count >= 2 {
            let startSpread = starts.reduce(0) { $0 + $1.distance(to: startCentroid) } / Double(starts.count)
            let endSpread = ends.reduce(0) { $0 + $1.distance(to: endCentroid) } / Double(ends.count)
            let change = endSpread - startSpread
            if abs(change) >= MotionThresholds.pinchMinimumChangeMM,
                abs(change) >= MotionThresholds.pinchMinimumRatio * startSpread
            {
                return .pinch(change < 0 ? .inward : .outward, changeMM: abs(change))
            }
            let (degrees, goesAround) = turn(traces, startCentroid: startCentroid, endCentroid: endCentroid)
            if abs(degrees) >= MotionThresholds.rotateMinimumDegrees, goesAround {
                // y grows downwards, so a growing angle turns clockwise on screen.
                return .rotate(degrees > 0 ? .clockwise : .counterClockwise, degrees: abs(degrees))
            }
            if let distance = differentDirectionsDistance(starts: starts, ends: ends) {
                return .differentDirections(distanceMM: distance)
            }
        }
        if movement.length >= MotionThresholds.swipeMinimumDistanceMM {
            let direction: GestureMotion.Direction =
                abs(movement.x) >= abs(movement.y)
                ? (movement.x > 0 ? .right : .left)
                : (movement.y > 0 ? .down : .up)
            return .swipe(direction, distanceMM: movement.length)
        }
        return .path(lengthMM: traces.map(\.pathLengthMM).max() ?? 0)
    }

    /// The shape the contacts draw together (see ``PathShape``): a single
    /// stroke's own; for two or more, that of their centroid's path (taken
    /// at the same fraction of each stroke's time, as if drawn together),
    /// when every contact draws the same kind of shape the same way round.
    /// Contacts that turn around a centroid that stays put (a rotation)
    /// leave it no path, so they have no shape.
    private static func shape(_ traces: [StrokeTrace]) -> GestureMotion? {
        guard traces.count > 1 else { return PathShape.of(traces[0].points).map { $0.shape.motion(sizeMM: $0.sizeMM) } }
        var centroids: [PointMM] = []
        centroids.reserveCapacity(StrokeTrace.steps + 1)
        for step in 0...StrokeTrace.steps {
            centroids.append(PointMM.centroid(of: traces.map { $0.stepPositions[step] }))
        }
        guard let together = PathShape.of(centroids) else { return nil }
        for trace in traces {
            guard let own = PathShape.of(trace.points)?.shape, own.rotation == together.shape.rotation else { return nil }
        }
        return together.shape.motion(sizeMM: together.sizeMM)
    }

    /// An edge swipe when every start lies near one edge and the centroid
    /// moves inwards far enough, and more inwards than along the edge. At a
    /// corner the edge with the larger inward movement wins.
    private static func edgeSwipe(starts: [PointMM], movement: PointMM, mapping: SurfaceMapping)
        -> GestureMotion?
    {
        let near = MotionThresholds.edgeDistanceMM
        let candidates: [(edge: GestureMotion.Edge, isNear: (PointMM) -> Bool, inward: Double, along: Double)] = [
            (.left, { $0.x <= near }, movement.x, movement.y),
            (.right, { $0.x >= mapping.widthMM - near }, -movement.x, movement.y),
            (.top, { $0.y <= near }, movement.y, movement.x),
            (.bottom, { $0.y >= mapping.heightMM - near }, -movement.y, movement.x),
        ]
        var best: (edge: GestureMotion.Edge, inward: Double)?
        for candidate in candidates
        where candidate.inward >= MotionThresholds.swipeMinimumDistanceMM
            && candidate.inward >= abs(candidate.along) && starts.allSatisfy(candidate.isNear)
        {
            if let current = best, current.inward >= candidate.inward { continue }
            best = (candidate.edge, candidate.inward)
        }
        guard let best else { return nil }
        return .edgeSwipe(from: best.edge, distanceMM: movement.length)
    }

    /// The contacts' turn around the centroid: the mean signed turn, in
    /// degrees, of each contact from its first position to its last
    /// (positive = growing angle = clockwise on a screen), followed along
    /// its path so that a half or a full turn counts as 180° or 360°; and
    /// whether every contact goes around the centroid rather than across
    /// it: its path, samples joined by straight steps, stays at least
    /// ``MotionThresholds/rotateMinimumRadiusRatio`` of the contact's
    /// smaller end radius away from the centroid.
    ///
    /// The centroid is taken to move in a straight line from its start to
    /// its end, at the pace of each stroke's own time (so that strokes drawn
    /// one after another are compared as if merged). Contacts that start or
    /// end too near the centroid to have a direction are left out; the turn
    /// is 0 when none is left.
    private static func turn(_ traces: [StrokeTrace], startCentroid: PointMM, endCentroid: PointMM)
        -> (degrees: Double, goesAround: Bool)
    {
        let movement = endCentroid - startCentroid
        var total = 0.0
        var counted = 0
        var goesAround = true
        for trace in traces {
            let startRadius = trace.start.distance(to: startCentroid)
            let endRadius = trace.end.distance(to: endCentroid)
            guard startRadius >= MotionThresholds.rotateMinimumRadiusMM,
                endRadius >= MotionThresholds.rotateMinimumRadiusMM
            else { continue }
            let smallest = MotionThresholds.rotateMinimumRadiusRatio * min(startRadius, endRadius)
            let samples = trace.stroke.samples
            let duration = Double(trace.duration.rawValue)
            let lastIndex = Double(max(samples.count - 1, 1))
            let startTime = trace.stroke.startTime
            func progress(_ index: Int, _ sample: Sample) -> Double {
                guard duration > 0 else { return Double(index) / lastIndex }
                let elapsed = NumberFormatting.span(from: startTime, to: sample.time)
                return min(max(Double(elapsed.rawValue) / duration, 0), 1)
            }
            var turned = 0.0
            var previous = trace.points[0] - startCentroid
            // One pass in order over the samples (a long stroke's are read
            // from its file: each once, not by index; `enumerated()
            // .dropFirst()` would be a slice read by index).
            for (index, sample) in samples.enumerated() where index > 0 {
                // Offsets from the centroid: between two samples both the
                // contact and the centroid move in a straight line, so the
                // offset does too, and a step that keeps clear of the centroid
                // turns by less than 180°: one atan2 per step is exact.
                let offset = trace.points.mapping.point(sample) - (startCentroid + movement * progress(index, sample))
                let halfStep = (offset - previous).length / 2
                // "Not at least" so that a NaN from hostile values counts as too near.
                if !(min(previous.length, offset.length) - halfStep >= smallest),
                    !(PathSimplifier.distanceToSegment(PointMM(x: 0, y: 0), previous, offset) >= smallest)
                {
                    goesAround = false
                }
                turned += atan2(previous.x * offset.y - previous.y * offset.x, previous.x * offset.x + previous.y * offset.y)
                previous = offset
            }
            total += turned * 180 / Double.pi
            counted += 1
        }
        return (counted > 0 ? total / Double(counted) : 0, goesAround)
    }

    /// When at least two contacts each move a swipe's distance from their
    /// first position to their last, in directions at least
    /// ``MotionThresholds/differentDirectionsMinimumAngleDegrees`` apart,
    /// the mean distance all contacts moved; `nil` otherwise.
    private static func differentDirectionsDistance(starts: [PointMM], ends: [PointMM]) -> Double? {
        let moves = zip(starts, ends).map { $1 - $0 }
        let long = moves.filter { $0.length >= MotionThresholds.swipeMinimumDistanceMM }
        guard long.count >= 2 else { return nil }
        let limit = MotionThresholds.differentDirectionsMinimumAngleDegrees
        var apart = false
        search: for (offset, first) in long.enumerated() {
            for second in long[(offset + 1)...] {
                let dot = first.x * second.x + first.y * second.y
                let cross = first.x * second.y - first.y * second.x
                if abs(atan2(cross, dot)) * 180 / Double.pi >= limit {
                    apart = true
                    break search
                }
            }
        }
        guard apart else { return nil }
        return moves.reduce(0) { $0 + $1.length } / Double(moves.count)
    }

    /// When the strokes are taps forming two equal waves of simultaneous
    /// contacts (the first wave lifted before the second touches, the gap
    /// and the distance between the waves within the thresholds), the
    /// number of contacts per wave; `nil` otherwise.
    private static func doubleTapWaveSize(_ traces: [StrokeTrace]) -> Int? {
        guard traces.count >= 2, traces.count % 2 == 0,
            traces.allSatisfy({ $0.isStill && $0.duration < MotionThresholds.tapMaximumDuration })
        else { return nil }
        let ordered = traces.enumerated().sorted {
            $0.element.stroke.startTime != $1.element.stroke.startTime
                ? $0.element.stroke.startTime < $1.element.stroke.startTime : $0.offset < $1.offset
        }.map(\.element)
        let size = ordered.count / 2
        let first = Array(ordered[..<size])
        let second = Array(ordered[size...])
        guard let firstLift = first.map(\.stroke.endTime).max(),
            let secondTouch = second.map(\.stroke.startTime).min(),
            firstLift < secondTouch,
            NumberFormatting.span(from: firstLift, to: secondTouch) <= MotionThresholds.doubleTapMaximumGap,
            isOneWave(first), isOneWave(second)
        else { return nil }
        let firstCentroid = PointMM.centroid(of: first.map(\.start))
        let secondCentroid = PointMM.centroid(of: second.map(\.start))
        guard firstCentroid.distance(to: secondCentroid) <= MotionThresholds.doubleTapMaximumDistanceMM else {
            return nil
        }
        return size
    }

    /// Whether all of `traces` are in contact at one moment.
    private static func isOneWave(_ traces: [StrokeTrace]) -> Bool {
        guard let latestTouch = traces.map(\.stroke.startTime).max(),
            let earliestLift = traces.map(\.stroke.endTime).min()
        else { return false }
        return latestTouch <= earliestLift
    }
}

extension StrokeTrace {
    /// Where the contact is after `fraction` (0…1) of the stroke's time,
    /// between samples in a straight line; by sample count when the stroke
    /// takes no time.
    func position(atFraction fraction: Double) -> PointMM {
        guard points.count > 1 else { return points[0] }
        let samples = stroke.samples
        let total = Double(duration.rawValue)
        let startTime = stroke.startTime
        func elapsed(_ index: Int) -> Double {
            Double(NumberFormatting.span(from: startTime, to: samples[index].time).rawValue)
        }
        let target = fraction * total
        guard total > 0, target.isFinite else {
            let place = min(max(fraction, 0), 1) * Double(points.count - 1)
            let index = min(Int(place), points.count - 2)
            return points[index] + (points[index + 1] - points[index]) * (place - Double(index))
        }
        // The first sample at or after the target time (the last when none is).
        let low = (1..<(points.count - 1)).partitioningIndex { elapsed($0) >= target }
        let before = elapsed(low - 1)
        let span = elapsed(low) - before
        let part = span > 0 ? min(max((target - before) / span, 0), 1) : 1
        return points[low - 1] + (points[low] - points[low - 1]) * part
    }
}
