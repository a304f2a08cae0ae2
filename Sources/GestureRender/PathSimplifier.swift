/// Ramer–Douglas–Peucker simplification of a polyline: the fewest points
/// (from the original ones, in order) such that every original point lies
/// within `tolerance` of the simplified line. The first and last points
/// always stay.
///
/// Long paths are simplified in chunks of ``chunkLength`` points (each
/// chunk's ends kept), so that a pathological path costs at most
/// O(n × chunk) instead of RDP's O(n²); the tolerance holds all the same.
/// The work stack is explicit: a path of millions of points cannot
/// overflow the call stack.
enum PathSimplifier {
    /// Points per chunk.
    static let chunkLength = 4_096

    /// `points` simplified so that no point left out is farther than
    /// `tolerance` from the line through the points kept. A tolerance that
    /// is not positive (or not a number) keeps every point.
    static func simplify(_ points: [PointMM], tolerance: Double) -> [PointMM] {
        guard tolerance > 0, tolerance.isFinite, points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        var chunkStart = 0
        while chunkStart < points.count - 1 {
            let chunkEnd = min(chunkStart + chunkLength, points.count - 1)
            markKept(points, from: chunkStart, to: chunkEnd, tolerance: tolerance, keep: &keep)
            chunkStart = chunkEnd
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// Marks the points between `first` and `last` (both kept) that RDP keeps.
    private static func markKept(_ points: [PointMM], from first: Int, to last: Int, tolerance: Double, keep: inout [Bool]) {
        keep[first] = true
        keep[last] = true
        var pending = [(first, last)]
        while let (start, end) = pending.popLast() {
            guard end - start > 1 else { continue }
            var farthest = start
            var farthestDistance = -1.0
            for index in (start + 1)..<end {
                let distance = distanceToSegment(points[index], points[start], points[end])
                // A NaN (hostile coordinates) counts as far, so that such points are kept.
                if distance > farthestDistance || distance.isNaN {
                    farthest = index
                    farthestDistance = distance.isNaN ? .infinity : distance
                }
            }
            if farthestDistance > tolerance {
                keep[farthest] = true
                pending.append((start, farthest))
                pending.append((farthest, end))
            }
        }
    }

    /// The distance from `point` to the segment from `start` to `end` (to
    /// `start` when the segment has no length).
    static func distanceToSegment(_ point: PointMM, _ start: PointMM, _ end: PointMM) -> Double {
        let along = end - start
        let lengthSquared = along.x * along.x + along.y * along.y
        guard lengthSquared > 0 else { return point.distance(to: start) }
        let offset = point - start
        let fraction = min(max((offset.x * along.x + offset.y * along.y) / lengthSquared, 0), 1)
        return point.distance(to: start + along * fraction)
    }
}
