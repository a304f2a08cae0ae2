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
            // One pass in order (a stroke read from a file is read, never
            // copied: issue 39), keeping what the rule needs of it.
            let run = StillRuns(stroke.samples)
            guard run.moves else {
                protected.append(TimeSpan(start: stroke.startTime, end: stroke.endTime))
                continue
            }
            protected += run.moving
            let leadingCut = run.leadingEnd - maxStill
            if leadingCut > run.first { removable.append(TimeSpan(start: run.first, end: leadingCut)) }
            let trailingCut = run.trailingStart + maxStill
            if trailingCut < run.last { removable.append(TimeSpan(start: trailingCut, end: run.last)) }
        }
        let cuts = TimeSpan.subtracting(TimeSpan.union(protected), from: TimeSpan.union(removable))
        let timeline = Timeline(cuts: cuts)

        var result = gesture
        let origin = timeline.map(gesture.startTime)
        for strokeIndex in result.strokes.indices {
            let samples = result.strokes[strokeIndex].samples
            if let source = samples.source {
                // Read from a file: retimed as read, the samples that become
                // one found in a pass and skipped (issue 39).
                result.strokes[strokeIndex].samples = Samples(
                    source: TrimmedSource(base: source, timeline: timeline, origin: origin))
                continue
            }
            var kept: [Sample] = []
            kept.reserveCapacity(samples.count)
            for var sample in samples {
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

    /// What ``trim(_:maxStill:)`` needs of a stroke, from one pass over its
    /// samples in order.
    private struct StillRuns {
        /// The first sample's time, and the last's.
        var first = Microseconds.zero
        var last = Microseconds.zero
        /// Whether some sample's position differs from the first's.
        var moves = false
        /// The time of the last sample of the leading still run, and of the
        /// first of the trailing one.
        var leadingEnd = Microseconds.zero
        var trailingStart = Microseconds.zero
        /// Where it moves (between two samples at different positions),
        /// touching spans joined as they come (as ``TimeSpan/union(_:)``
        /// would: one span for a stroke that never rests).
        var moving: [TimeSpan] = []

        init(_ samples: Samples) {
            var iterator = samples.makeIterator()
            guard let head = iterator.next() else { return }
            first = head.time
            leadingEnd = head.time
            trailingStart = head.time
            var previous = head
            var leading = true
            while let sample = iterator.next() {
                if samePosition(sample, previous) {
                    if leading { leadingEnd = sample.time }
                } else {
                    leading = false
                    moves = true
                    trailingStart = sample.time
                    let span = TimeSpan(start: previous.time, end: sample.time)
                    if span.start < span.end {
                        if let joined = moving.last, span.start <= joined.end {
                            moving[moving.count - 1].end = max(joined.end, span.end)
                        } else {
                            moving.append(span)
                        }
                    }
                }
                previous = sample
            }
            last = previous.time
        }
    }

    fileprivate static func samePosition(_ first: Sample, _ second: Sample) -> Bool {
        first.x == second.x && first.y == second.y
    }
}

/// A stroke's samples read from a file, trimmed as they are read (see
/// ``GestureEditor/trim(_:maxStill:)``): each time mapped through the
/// timeline, and of consecutive samples that end up at the same time and
/// position only the later kept. Which are dropped is found once, in a pass
/// at the start, and kept as runs (there are as many as places where time
/// was cut, not as samples).
final class TrimmedSource: SampleSource {
    private let base: any SampleSource
    private let timeline: Timeline
    private let origin: Microseconds
    /// The kept samples in runs: where each run starts among the kept
    /// samples and among the base's, and the base's index after its end.
    private let runs: [(kept: Int, base: Int, end: Int)]
    let count: Int

    init(base: any SampleSource, timeline: Timeline, origin: Microseconds) {
        self.base = base
        self.timeline = timeline
        self.origin = origin
        var runs: [(kept: Int, base: Int, end: Int)] = []
        var kept = 0
        var runStart = 0
        let cursor = base.makeCursor()
        if var previous = cursor.next() {
            var previousTime = timeline.map(previous.time)
            var index = 1
            while let sample = cursor.next() {
                let time = timeline.map(sample.time)
                if time == previousTime && GestureEditor.samePosition(previous, sample) {
                    // The previous becomes this one: it ends a run of kept samples.
                    if index - 1 > runStart { runs.append((kept, runStart, index - 1)) }
                    kept += index - 1 - runStart
                    runStart = index
                }
                previous = sample
                previousTime = time
                index += 1
            }
            runs.append((kept, runStart, index))
            kept += index - runStart
        }
        self.runs = runs
        count = kept
    }

    func sample(at index: Int) -> Sample {
        // The last run that starts at or before `index`.
        let run = runs[runs.partitioningIndex { $0.kept > index } - 1]
        return retimed(base.sample(at: run.base + index - run.kept))
    }

    func makeCursor() -> any SampleCursor { Cursor(self) }

    private func retimed(_ sample: Sample) -> Sample {
        var retimed = sample
        retimed.time = timeline.map(sample.time) - origin
        return retimed
    }

    /// A pass in order: the base's own pass, skipping what is dropped.
    private final class Cursor: SampleCursor {
        let source: TrimmedSource
        let base: any SampleCursor
        var index = 0
        var run = 0

        init(_ source: TrimmedSource) {
            self.source = source
            base = source.base.makeCursor()
        }

        func next() -> Sample? {
            while run < source.runs.count {
                let current = source.runs[run]
                if index >= current.end {
                    run += 1
                    continue
                }
                // Skip the dropped samples before the run.
                while index < current.base {
                    _ = base.next()
                    index += 1
                }
                index += 1
                return base.next().map(source.retimed)
            }
            return nil
        }
    }
}
