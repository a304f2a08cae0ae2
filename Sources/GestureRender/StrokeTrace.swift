import GestureModel

/// One non-empty stroke of a gesture with its samples in millimetres and the
/// measures the classifier and the renderers need.
struct StrokeTrace: Sendable {
    /// The stroke's position in ``Gesture/strokes`` (0-based); its number
    /// in pictures is `index + 1`.
    let index: Int
    /// The stroke itself.
    let stroke: Stroke
    /// The samples' positions in millimetres, in sample order (worked out
    /// from the samples when read, so a long stroke read from a file is
    /// never held: ``TracePoints``).
    let points: TracePoints
    /// Time from the first sample to the last (never negative).
    let duration: Microseconds
    /// The largest distance of any sample from the first one.
    let maximumDisplacementMM: Double
    /// The length of the polyline through all samples.
    let pathLengthMM: Double
    /// Where the contact is after each ``steps``th of its time:
    /// `stepPositions[k]` is ``position(atFraction:)`` of `k / steps`
    /// (empty unless asked for: ``init(index:stroke:mapping:withSteps:)``).
    private(set) var stepPositions: [PointMM]
    /// How many parts of its time a trace's ``stepPositions`` divide it into.
    static let steps = 128

    /// Creates the trace of a stroke; `nil` when the stroke has no samples.
    /// With `withSteps`, its ``stepPositions`` too, worked out in the same
    /// single pass in order over the samples: a long stroke's are read from
    /// its file (GestureFormat's MappedSampleSource), where a search by
    /// index for each step would jump about the file.
    init?(index: Int, stroke: Stroke, mapping: SurfaceMapping, withSteps: Bool = false) {
        guard !stroke.samples.isEmpty else { return nil }
        self.index = index
        self.stroke = stroke
        points = TracePoints(samples: stroke.samples, mapping: mapping)
        duration = max(NumberFormatting.span(from: stroke.startTime, to: stroke.endTime), .zero)
        let total = Double(duration.rawValue)
        let startTime = stroke.startTime
        let last = stroke.samples.count - 1
        // Steps are placed by time only when the stroke takes some;
        // position(atFraction:) places them by sample count otherwise.
        let timed = withSteps && last > 0 && total > 0
        var steps: [PointMM] = []
        var step = 0
        if timed { steps.reserveCapacity(Self.steps + 1) }
        var first = PointMM(x: 0, y: 0)
        var displacement = 0.0
        var length = 0.0
        var previous = first
        var previousElapsed = 0.0
        for (offset, sample) in stroke.samples.enumerated() {
            let point = mapping.point(sample)
            if offset == 0 { first = point }
            displacement = max(displacement, point.distance(to: first))
            let elapsed = Double(NumberFormatting.span(from: startTime, to: sample.time).rawValue)
            if offset > 0 {
                length += point.distance(to: previous)
                // Each step whose time this sample is the first at or
                // after (the last sample takes all that are left), between
                // it and the one before, as position(atFraction:) does.
                while timed && step <= Self.steps {
                    let target = Double(step) / Double(Self.steps) * total
                    guard elapsed >= target || offset == last else { break }
                    let span = elapsed - previousElapsed
                    let part = span > 0 ? min(max((target - previousElapsed) / span, 0), 1) : 1
                    steps.append(previous + (point - previous) * part)
                    step += 1
                }
            }
            previous = point
            previousElapsed = elapsed
        }
        maximumDisplacementMM = displacement
        pathLengthMM = length
        stepPositions = steps
        if withSteps && !timed {
            // One sample, or none of the stroke's time: placed by index.
            stepPositions = (0...Self.steps).map { position(atFraction: Double($0) / Double(Self.steps)) }
        }
    }

    /// The first position.
    var start: PointMM { points[0] }
    /// The last position.
    var end: PointMM { points[points.count - 1] }

    /// Whether the contact stayed put: no sample lies
    /// ``MotionThresholds/stillMovementMM`` or more from the first.
    var isStill: Bool { !(maximumDisplacementMM >= MotionThresholds.stillMovementMM) }
}

extension Gesture {
    /// The traces of the strokes that have samples, in stroke order.
    /// With more than one stroke, each trace has its ``StrokeTrace/stepPositions``
    /// (what the shape of their centroid's path is drawn from).
    func traces(mapping: SurfaceMapping) -> [StrokeTrace] {
        let withSteps = strokes.count > 1
        return strokes.enumerated().compactMap {
            StrokeTrace(index: $0.offset, stroke: $0.element, mapping: mapping, withSteps: withSteps)
        }
    }
}

/// A stroke's samples as positions in millimetres, each worked out when
/// read (``SurfaceMapping/point(_:)``): a view, not a copy, so that the
/// strokes of a long gesture read from a file stay in the file.
struct TracePoints: RandomAccessCollection, Sendable {
    let samples: Samples
    let mapping: SurfaceMapping

    var startIndex: Int { 0 }
    var endIndex: Int { samples.count }
    subscript(position: Int) -> PointMM { mapping.point(samples[position]) }

    /// In order, through the samples' own pass (``Samples/Iterator``).
    struct Iterator: IteratorProtocol {
        var samples: Samples.Iterator
        let mapping: SurfaceMapping
        mutating func next() -> PointMM? { samples.next().map(mapping.point) }
    }

    func makeIterator() -> Iterator { Iterator(samples: samples.makeIterator(), mapping: mapping) }

    /// The points as an array.
    var array: [PointMM] { map { $0 } }
}
