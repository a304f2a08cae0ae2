import GestureModel

extension GestureEditor {
    /// The longest stillness ``trim(_:maxStill:)`` keeps unless told: 200 ms.
    public static let defaultMaxStill = Microseconds(200_000)

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
    ///   moving stroke (default ``defaultMaxStill``); 0 removes it all.
    /// - Throws: ``EditError`` when `maxStill` is negative.
    public static func trim(_ gesture: Gesture, maxStill: Microseconds = defaultMaxStill) throws(EditError)
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
            let leadingCut = samples[leadingEnd].time - maxStill
            if leadingCut > first.time { removable.append(TimeSpan(start: first.time, end: leadingCut)) }

            let last = samples[samples.count - 1]
            var trailingStart = samples.count - 1
            while samePosition(samples[trailingStart - 1], last) { trailingStart -= 1 }
            let trailingCut = samples[trailingStart].time + maxStill
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
                sample.time = timeline.map(sample.time) - origin
                if let previous = kept.last, previous.time == sample.time, samePosition(previous, sample) {
                    kept[kept.count - 1] = sample
                } else {
                    kept.append(sample)
                }
            }
            result.strokes[strokeIndex].samples = Samples(kept)
        }
        result.sortStrokes()
        return EditResult(gesture: result)
    }

    private static func samePosition(_ first: Sample, _ second: Sample) -> Bool {
        first.x == second.x && first.y == second.y
    }
}
