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

    /// Creates the trace of a stroke; `nil` when the stroke has no samples.
    init?(index: Int, stroke: Stroke, mapping: SurfaceMapping) {
        guard !stroke.samples.isEmpty else { return nil }
        self.index = index
        self.stroke = stroke
        points = TracePoints(samples: stroke.samples, mapping: mapping)
        duration = max(NumberFormatting.span(from: stroke.startTime, to: stroke.endTime), .zero)
        let first = points[0]
        var displacement = 0.0
        var length = 0.0
        var previous = first
        for (offset, point) in points.enumerated() {
            displacement = max(displacement, point.distance(to: first))
            if offset > 0 { length += point.distance(to: previous) }
            previous = point
        }
        maximumDisplacementMM = displacement
        pathLengthMM = length
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
    func traces(mapping: SurfaceMapping) -> [StrokeTrace] {
        strokes.enumerated().compactMap { StrokeTrace(index: $0.offset, stroke: $0.element, mapping: mapping) }
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
