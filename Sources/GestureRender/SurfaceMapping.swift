import GestureModel

/// A position in millimetres from the surface's top-left corner (y grows
/// downwards, as on screens).
struct PointMM: Hashable, Sendable {
    var x: Double
    var y: Double

    static func + (lhs: PointMM, rhs: PointMM) -> PointMM { PointMM(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    static func - (lhs: PointMM, rhs: PointMM) -> PointMM { PointMM(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }
    static func * (lhs: PointMM, rhs: Double) -> PointMM { PointMM(x: lhs.x * rhs, y: lhs.y * rhs) }

    /// Distance from the origin.
    var length: Double { (x * x + y * y).squareRoot() }

    /// Distance to `other`.
    func distance(to other: PointMM) -> Double { (self - other).length }

    /// The mean of `points` (the origin when there are none).
    static func centroid(of points: [PointMM]) -> PointMM {
        guard !points.isEmpty else { return PointMM(x: 0, y: 0) }
        let sum = points.reduce(PointMM(x: 0, y: 0), +)
        return sum * (1 / Double(points.count))
    }
}

/// Maps device units to millimetres like ``DeviceGeometry/millimetres(x:y:)``,
/// but in floating point throughout, so that hostile axis bounds or
/// coordinates (a span wider than `Int`, a NaN size) can never trap.
struct SurfaceMapping: Sendable {
    /// Width of the surface in millimetres (always positive and finite).
    let widthMM: Double
    /// Height of the surface in millimetres (always positive and finite).
    let heightMM: Double
    /// Whether the millimetres are real (the size is stated or follows from
    /// the resolution), not estimates from the assumed size.
    let isSizeKnown: Bool
    private let minimumX: Double
    private let minimumY: Double
    private let millimetresPerUnitX: Double
    private let millimetresPerUnitY: Double

    init(_ device: DeviceGeometry) {
        minimumX = Double(device.x.minimum)
        minimumY = Double(device.y.minimum)
        let spanX = Double(device.x.maximum) - Double(device.x.minimum)
        let spanY = Double(device.y.maximum) - Double(device.y.minimum)
        // FORMAT.md's size rule: stated, else from the resolution, else
        // assumed (then ``isSizeKnown`` is false and millimetres are estimates).
        millimetresPerUnitX = Self.scale(physical: device.surfaceWidthMM, span: spanX)
        millimetresPerUnitY = Self.scale(physical: device.surfaceHeightMM, span: spanY)
        isSizeKnown = device.isSizeKnown
        // A surface of no size cannot be drawn or measured against; 1 mm
        // keeps every later division defined.
        widthMM = Self.positiveFinite(spanX * millimetresPerUnitX)
        heightMM = Self.positiveFinite(spanY * millimetresPerUnitY)
    }

    /// The position of `sample` in millimetres.
    func point(_ sample: Sample) -> PointMM {
        PointMM(
            x: (Double(sample.x) - minimumX) * millimetresPerUnitX,
            y: (Double(sample.y) - minimumY) * millimetresPerUnitY
        )
    }

    private static func scale(physical: Double, span: Double) -> Double {
        guard physical.isFinite, physical > 0, span.isFinite, span > 0 else { return 1 }
        let scale = physical / span
        return scale.isFinite && scale > 0 ? scale : 1
    }

    private static func positiveFinite(_ value: Double) -> Double {
        value.isFinite && value > 0 ? value : 1
    }
}
