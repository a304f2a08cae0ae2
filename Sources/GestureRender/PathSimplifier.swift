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
    static func simplify<Points: RandomAccessCollection<PointMM>>(_ points: Points, tolerance: Double) -> [PointMM]
    where Points.Index == Int {
        guard tolerance > 0, tolerance.isFinite, points.count > 2 else { return Array(points) }
        // Chunk by chunk, each copied once: a path read from a file is
        // never held whole (issue 39).
        var kept: [PointMM] = []
        var chunk: [PointMM] = []
        var keep: [Bool] = []
        var chunkStart = 0
        while chunkStart < points.count - 1 {
            let chunkEnd = min(chunkStart + chunkLength, points.count - 1)
            chunk.removeAll(keepingCapacity: true)
            chunk.append(contentsOf: points[chunkStart...chunkEnd])
            keep = [Bool](repeating: false, count: chunk.count)
            markKept(chunk, from: 0, to: chunk.count - 1, tolerance: tolerance, keep: &keep)
            // The chunk's first point is the previous chunk's last, kept already.
            for index in chunk.indices where keep[index] && (index > 0 || chunkStart == 0) { kept.append(chunk[index]) }
            chunkStart = chunkEnd
        }
        return kept
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

    /// `points` split into the runs that draw something new: a segment that
    /// only goes over what the path drew well before (a finger circling the
    /// same circle for an hour, a swipe back over its own line) is left out,
    /// and the path starts again (`M`) where it draws something new.
    ///
    /// Coverage is kept on a grid of `cell`-sized squares; a segment is
    /// left out when every point along it (one every half cell) falls in
    /// squares — or their neighbours — first drawn at least `lookback`
    /// millimetres of path earlier, so that a slow stroke never hides
    /// behind its own last few samples. The last segment always stays (the
    /// arrowhead follows it). A `cell` that is not positive keeps everything.
    static func visibleRuns(_ points: [PointMM], cell: Double, lookback: Double) -> [[PointMM]] {
        guard cell > 0, cell.isFinite, lookback.isFinite, points.count > 2 else { return [points] }
        // The path length at which each square was first drawn.
        struct Square: Hashable {
            var x: Int32
            var y: Int32
        }
        var firstDrawn: [Square: Double] = [:]
        func key(_ point: PointMM) -> Square? {
            let x = (point.x / cell).rounded(.down)
            let y = (point.y / cell).rounded(.down)
            guard x.magnitude < 1e9, y.magnitude < 1e9 else { return nil }
            return Square(x: Int32(x), y: Int32(y))
        }
        /// The points along a segment, one every half cell, ends included.
        func along(_ from: PointMM, _ to: PointMM, _ body: (PointMM) -> Bool) -> Bool {
            let length = from.distance(to: to)
            guard length.isFinite else { return false }
            let steps = min(Int((length / (cell / 2)).rounded(.up)), 1_000_000)
            for step in 0...max(steps, 1) where !body(from + (to - from) * (Double(step) / Double(max(steps, 1)))) {
                return false
            }
            return true
        }
        var runs: [[PointMM]] = []
        var current: [PointMM] = []
        var travelled = 0.0
        for index in 1..<points.count {
            let from = points[index - 1]
            let to = points[index]
            let before = travelled - lookback
            let covered =
                index < points.count - 1
                && along(from, to) { point in
                    guard let square = key(point), let drawn = firstDrawn[square] else { return false }
                    return drawn < before
                }
            let length = from.distance(to: to)
            if covered {
                if current.count > 1 { runs.append(current) }
                current = []
            } else {
                if current.isEmpty { current = [from] }
                current.append(to)
                // Each point marks its square and the eight around it, so
                // that a check looks up one square.
                _ = along(from, to) { point in
                    guard let centre = key(point) else { return true }
                    for dx in Int32(-1)...1 {
                        for dy in Int32(-1)...1 {
                            let square = Square(x: centre.x &+ dx, y: centre.y &+ dy)
                            if firstDrawn[square] == nil { firstDrawn[square] = travelled }
                        }
                    }
                    return true
                }
            }
            if length.isFinite { travelled += length }
        }
        if current.count > 1 { runs.append(current) }
        return runs.isEmpty ? [points] : runs
    }
}
