/// Where the physical size of a surface comes from: the one rule of
/// docs/FORMAT.md ("How size, resolution and axes relate") that every
/// operation follows.
public enum SurfaceSizeSource: String, Hashable, Sendable {
    /// `width_mm` and `height_mm` are given (> 0).
    case stated
    /// At least one length is 0 (unknown) and comes from its axis:
    /// span ÷ resolution; none is assumed.
    case resolution
    /// At least one length is known neither way: it is assumed
    /// (``DeviceGeometry/assumedSize(for:)``), so millimetres are estimates.
    case assumed
}

extension DeviceGeometry {
    /// Relative disagreement allowed between a stated length and the one
    /// its axis gives (span ÷ resolution): 1 %, or more when the integer
    /// resolution itself cannot be closer (its rounding by half a unit).
    public static let sizeTolerance = 0.01

    /// The box assumed for a surface that states no size and whose axes
    /// have no resolution: 69 × 50 mm for a touchpad (libinput's own
    /// assumption for touchpads that report none), 216 × 135 mm (the synth
    /// default) for every other kind. Units are then assumed square and the
    /// surface as large as fits in the box.
    public static func assumedSize(for kind: DeviceKind) -> (widthMM: Double, heightMM: Double) {
        kind == .touchpad ? (69, 50) : (216, 135)
    }

    /// The length one axis gives, span ÷ resolution; `nil` when the
    /// resolution is 0 (unknown) or the span is not positive.
    public static func lengthFromResolution(_ axis: AxisRange) -> Double? {
        guard axis.resolution > 0, axis.span > 0 else { return nil }
        return Double(axis.span) / Double(axis.resolution)
    }

    /// The width every operation uses, in millimetres: `width_mm` when it is
    /// above 0; else the x axis's span ÷ resolution; else, when the height
    /// is known, the width at the same millimetres per unit as the height
    /// (square units); else assumed: square units, the surface as large as
    /// fits in ``assumedSize(for:)``.
    public var surfaceWidthMM: Double { surfaceLengths.width }
    /// The height every operation uses, in millimetres (the rule of
    /// ``surfaceWidthMM``, for y).
    public var surfaceHeightMM: Double { surfaceLengths.height }

    /// Where ``surfaceWidthMM`` and ``surfaceHeightMM`` come from: the least
    /// certain of the two.
    public var sizeSource: SurfaceSizeSource {
        let width = Self.knownLength(stated: widthMM, axis: x)
        let height = Self.knownLength(stated: heightMM, axis: y)
        if width == nil || height == nil { return .assumed }
        return widthMM > 0 && heightMM > 0 ? .stated : .resolution
    }

    /// Whether both lengths are known (stated, or from the resolution):
    /// millimetres are then real, not estimates.
    public var isSizeKnown: Bool { sizeSource != .assumed }

    /// The stated length when above 0 and finite, else the one from the
    /// resolution, else `nil` (unknown).
    static func knownLength(stated: Double, axis: AxisRange) -> Double? {
        if stated.isFinite && stated > 0 { return stated }
        return lengthFromResolution(axis)
    }

    private var surfaceLengths: (width: Double, height: Double) {
        let width = Self.knownLength(stated: widthMM, axis: x)
        let height = Self.knownLength(stated: heightMM, axis: y)
        switch (width, height) {
        case let (width?, height?): return (width, height)
        case let (width?, nil):
            return (width, x.span > 0 ? width / Double(x.span) * Double(max(y.span, 0)) : width)
        case let (nil, height?):
            return (y.span > 0 ? height / Double(y.span) * Double(max(x.span, 0)) : height, height)
        case (nil, nil):
            // Square units, the surface as large as fits the assumed box.
            let assumed = Self.assumedSize(for: kind)
            guard x.span > 0, y.span > 0 else { return (assumed.widthMM, assumed.heightMM) }
            let scale = min(assumed.widthMM / Double(x.span), assumed.heightMM / Double(y.span))
            return (Double(x.span) * scale, Double(y.span) * scale)
        }
    }

    /// The problem with a stated length that disagrees with its axis
    /// (span ÷ resolution) by more than ``sizeTolerance``, or more than the
    /// rounding of the integer resolution explains; `nil` when they agree,
    /// or when either is unknown.
    public static func lengthDisagreement(stated: Double, axis: AxisRange) -> Double? {
        guard stated.isFinite, stated > 0, let fromAxis = lengthFromResolution(axis) else { return nil }
        // The resolution the stated length implies; the real one is an
        // integer, so it can be off by half a unit from the true value.
        let implied = Double(axis.span) / stated
        let allowed = max(0.5, sizeTolerance * Double(axis.resolution))
        return abs(implied - Double(axis.resolution)) <= allowed ? nil : fromAxis
    }
}
