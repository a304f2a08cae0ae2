import GestureModel

extension GestureEditor {
    /// Removes waiting from the gesture: the idle lead-in before the first
    /// sample, and long stillness at the start and end of moving strokes.
    ///
    /// The exact rule:
    /// 1. A stroke *moves* when some sample's position differs from its
    ///    first sample's. Strokes that never move (taps, long presses) are
    ///    not trimmed.
    /// 2. In a moving stroke, the *leading still run* is its first sample
    ///    and every following sample at the same position, up to the last
    ///    one before it moves; the *trailing still run* is the last sample
    ///    and every sample before it at the same position. A run whose
    ///    first and last samples lie more than `maxStill` apart has the
    ///    excess removed: the leading run loses the span from its first
    ///    sample to `maxStill` before its last; the trailing run loses the
    ///    span from `maxStill` after its first sample to its last.
    /// 3. A span is removed from the whole gesture's timeline, not from one
    ///    stroke: every later sample of every stroke moves earlier by the
    ///    span's length, and samples inside it move to its start. So that
    ///    this never changes how anything moves, a span is not removed
    ///    where any stroke moves (between two samples at different
    ///    positions) or where a stroke that never moves is in contact.
    /// 4. Finally the whole gesture is shifted so that its earliest sample
    ///    is at 0.
    ///
    /// Times stay in order. Consecutive samples of a stroke that end up at
    /// the same time and position are one: only the later is kept (it
    /// carries the latest pressure and size). Gaps between strokes are kept.
    ///
    /// - Parameter maxStill: The longest stillness kept at either end of a
    ///   moving stroke (default 200 ms); 0 removes it all.
    /// - Throws: ``EditError`` when `maxStill` is negative.
    public static func trim(_ gesture: Gesture, maxStill: Microseconds = Microseconds(200_000)) throws(EditError)
        -> EditResult
    {
        guard maxStill >= .zero else {
            throw EditError("the longest stillness kept must not be negative, not \(Formatting.time(maxStill))")
        }
        var removable: [TimeSpan] = []
        var protected: [TimeSpan] = []
        for stroke in gesture.strokes where !stroke.samples.isEmpty {
            let samples = stroke.samples
            let first = samples[0]
            guard samples.contains(where: { $0.x != first.x || $0.y != first.y }) else {
                protected.append(TimeSpan(start: stroke.startTime, end: stroke.endTime))
                continue
            }
            for index in samples.indices.dropLast() where !samePosition(samples[index], samples[index + 1]) {
                protected.append(TimeSpan(start: samples[index].time, end: samples[index + 1].time))
            }
            var leadingEnd = 0
            while samePosition(samples[leadingEnd + 1], first) { leadingEnd += 1 }
            let leadingCut = samples[leadingEnd].time.saturatingSubtracting(maxStill)
            if leadingCut > first.time { removable.append(TimeSpan(start: first.time, end: leadingCut)) }

            let last = samples[samples.count - 1]
            var trailingStart = samples.count - 1
            while samePosition(samples[trailingStart - 1], last) { trailingStart -= 1 }
            let trailingCut = samples[trailingStart].time.saturatingAdding(maxStill)
            if trailingCut < last.time { removable.append(TimeSpan(start: trailingCut, end: last.time)) }
        }
        let cuts = TimeSpan.subtracting(TimeSpan.union(protected), from: TimeSpan.union(removable))
        let timeline = Timeline(cuts: cuts)

        var result = gesture
        let origin = timeline.map(gesture.startTime)
        for strokeIndex in result.strokes.indices {
            var kept: [Sample] = []
            kept.reserveCapacity(result.strokes[strokeIndex].samples.count)
            for var sample in result.strokes[strokeIndex].samples {
                sample.time = timeline.map(sample.time).saturatingSubtracting(origin)
                if let previous = kept.last, previous.time == sample.time, samePosition(previous, sample) {
                    kept[kept.count - 1] = sample
                } else {
                    kept.append(sample)
                }
            }
            result.strokes[strokeIndex].samples = kept
        }
        result.sortStrokes()
        return EditResult(gesture: result)
    }

    private static func samePosition(_ first: Sample, _ second: Sample) -> Bool {
        first.x == second.x && first.y == second.y
    }
}

/// A half-open span of time, `start ..< end`.
struct TimeSpan: Equatable {
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
struct Timeline {
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
            total = total.saturatingAdding(cut.end.saturatingSubtracting(cut.start))
        }
        removedBefore = removed
    }

    func map(_ time: Microseconds) -> Microseconds {
        // The last cut that starts before `time` (binary search).
        var low = 0
        var high = cuts.count
        while low < high {
            let middle = (low + high) / 2
            if cuts[middle].start < time { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return time }
        let cut = cuts[low - 1]
        let inside = min(time, cut.end).saturatingSubtracting(cut.start)
        return time.saturatingSubtracting(removedBefore[low - 1].saturatingAdding(inside))
    }
}
