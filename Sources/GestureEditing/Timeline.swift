import GestureModel

/// A half-open span of time, `start ..< end`.
struct TimeSpan: Equatable, Sendable {
    var start: Microseconds
    var end: Microseconds

    /// Sorted, disjoint spans covering the same time as `spans` (empty
    /// spans dropped, touching spans joined).
    static func union(_ spans: [TimeSpan]) -> [TimeSpan] {
        var joined: [TimeSpan] = []
        for span in spans.filter({ $0.start < $0.end }).sorted(by: { $0.start < $1.start }) {
            if let last = joined.last, span.start <= last.end {
                joined[joined.count - 1].end = max(last.end, span.end)
            } else {
                joined.append(span)
            }
        }
        return joined
    }

    /// The parts of `spans` not covered by `holes` (both sorted and
    /// disjoint, as ``union(_:)`` makes them).
    static func subtracting(_ holes: [TimeSpan], from spans: [TimeSpan]) -> [TimeSpan] {
        var result: [TimeSpan] = []
        var holeIndex = 0
        for span in spans {
            var start = span.start
            while holeIndex < holes.count, holes[holeIndex].end <= start { holeIndex += 1 }
            var index = holeIndex
            while index < holes.count, holes[index].start < span.end {
                if holes[index].start > start { result.append(TimeSpan(start: start, end: holes[index].start)) }
                start = max(start, holes[index].end)
                index += 1
            }
            if start < span.end { result.append(TimeSpan(start: start, end: span.end)) }
        }
        return result
    }
}

/// A timeline with spans cut out: `map(t) = t − (time cut before t)`, so a
/// time inside a cut maps to the cut's start and nothing goes backwards.
struct Timeline: Sendable {
    /// Sorted, disjoint cuts.
    let cuts: [TimeSpan]
    /// Total length of `cuts[0..<i]`, for each `i`.
    private let removedBefore: [Microseconds]

    init(cuts: [TimeSpan]) {
        self.cuts = cuts
        var total = Microseconds.zero
        var removed: [Microseconds] = []
        for cut in cuts {
            removed.append(total)
            total = total + (cut.end - cut.start)
        }
        removedBefore = removed
    }

    func map(_ time: Microseconds) -> Microseconds {
        // The last cut that starts before `time`.
        let low = cuts.partitioningIndex { $0.start >= time }
        guard low > 0 else { return time }
        let cut = cuts[low - 1]
        let inside = min(time, cut.end) - cut.start
        return time - (removedBefore[low - 1] + inside)
    }
}
