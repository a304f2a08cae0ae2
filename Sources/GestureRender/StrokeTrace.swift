import GestureModel

/// One non-empty stroke of a gesture with its samples in millimetres and the
/// measures the classifier and the renderers need.
struct StrokeTrace: Sendable {
    /// The stroke's position in ``Gesture/strokes`` (0-based); its number
    /// in pictures is `index + 1`.
    let index: Int
    /// The stroke itself.
    let stroke: Stroke
    /// The samples' positions in millimetres, in sample order.
    let points: [PointMM]
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
        points = stroke.samples.map(mapping.point)
        duration = max(NumberFormatting.span(from: stroke.startTime, to: stroke.endTime), .zero)
        let first = points[0]
        var displacement = 0.0
        var length = 0.0
        for (offset, point) in points.enumerated() {
            displacement = max(displacement, point.distance(to: first))
            if offset > 0 { length += point.distance(to: points[offset - 1]) }
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
