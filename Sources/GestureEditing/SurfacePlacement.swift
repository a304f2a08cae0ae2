import GestureModel

/// Turns positions in millimetres into whole device units on one surface,
/// clipping what falls outside it to the nearest edge and counting how many
/// samples needed it.
struct SurfacePlacement {
    /// The surface positions are placed on.
    let geometry: DeviceGeometry
    /// How many samples were clipped so far.
    private(set) var clippedSamples = 0

    init(_ geometry: DeviceGeometry) { self.geometry = geometry }

    /// `sample` of a gesture on `source`, moved to (`xMM`, `yMM`) on this
    /// surface (``units(xMM:yMM:)``), its pressure and size mapped by the
    /// same fraction of their axes (dropped where this surface has none).
    mutating func placed(_ sample: Sample, xMM: Double, yMM: Double, from source: DeviceGeometry) -> Sample {
        let position = units(xMM: xMM, yMM: yMM)
        var placed = sample
        placed.x = position.x
        placed.y = position.y
        placed.pressure = AxisRange.map(sample.pressure, from: source.pressure, to: geometry.pressure)
        placed.size = AxisRange.map(sample.size, from: source.size, to: geometry.size)
        return placed
    }

    /// The device position of a point given in millimetres from the
    /// surface's top-left corner: rounded to nearest (ties away from zero),
    /// as `DeviceGeometry.units(xMM:yMM:)` does, then clipped to the axes.
    ///
    /// The arithmetic stays in Double until the value is known to lie within
    /// the axis, so that no input (however far off the surface, or not a
    /// number at all) can trap on the conversion to Int.
    mutating func units(xMM: Double, yMM: Double) -> (x: Int, y: Int) {
        let (x, clippedX) = Self.place(xMM * geometry.unitsPerMMX, on: geometry.x)
        let (y, clippedY) = Self.place(yMM * geometry.unitsPerMMY, on: geometry.y)
        if clippedX || clippedY { clippedSamples += 1 }
        return (x, y)
    }

    /// The value `offset` units past the axis minimum, rounded and clipped;
    /// and whether it had to be clipped.
    private static func place(_ offset: Double, on axis: AxisRange) -> (value: Int, clipped: Bool) {
        let rounded = offset.rounded()
        let span = Double(axis.span)
        if rounded.isNaN { return (axis.minimum, true) }
        if rounded < 0 { return (axis.minimum, true) }
        if rounded > span { return (axis.maximum, true) }
        return (axis.minimum + Int(rounded), false)
    }

    /// The warnings to report (none when nothing was clipped), or, in strict
    /// mode, the error when anything was.
    func outcome(strict: Bool) throws(EditError) -> [String] {
        guard clippedSamples > 0 else { return [] }
        if strict { throw Formatting.clippedError(clippedSamples) }
        return [Formatting.clippedWarning(clippedSamples)]
    }
}

extension DeviceGeometry {
    // Conversions divide or multiply by units per millimetre (span / size),
    // which is exact for the usual whole-number resolutions, where
    // millimetres per unit (0.1 for 10 units/mm) is not: 40.05 mm is then
    // exactly 400.5 units and rounds away from zero, as it should.

    /// Device units per millimetre horizontally: the reciprocal of
    /// `mmPerUnitX`, from `surfaceWidthMM` (the size rule of FORMAT.md).
    var unitsPerMMX: Double { x.span > 0 && surfaceWidthMM > 0 ? Double(x.span) / surfaceWidthMM : 1 }
    /// Device units per millimetre vertically, from `surfaceHeightMM`.
    var unitsPerMMY: Double { y.span > 0 && surfaceHeightMM > 0 ? Double(y.span) / surfaceHeightMM : 1 }

    /// A sample's position in millimetres from the surface's top-left
    /// corner, like `millimetres(x:y:)` but computed in Double so that no
    /// coordinate, however hostile, can overflow.
    public func millimetres(of sample: Sample) -> (x: Double, y: Double) {
        (
            (Double(sample.x) - Double(x.minimum)) / unitsPerMMX,
            (Double(sample.y) - Double(y.minimum)) / unitsPerMMY
        )
    }
}

extension Gesture {
    /// The smallest box holding every sample, in millimetres from the
    /// surface's top-left corner; `nil` when there are no samples.
    public var boundingBoxMM: (minimumX: Double, minimumY: Double, maximumX: Double, maximumY: Double)? {
        var box: (minimumX: Double, minimumY: Double, maximumX: Double, maximumY: Double)?
        for stroke in strokes {
            for sample in stroke.samples {
                let point = device.millimetres(of: sample)
                if let current = box {
                    box = (
                        Swift.min(current.minimumX, point.x), Swift.min(current.minimumY, point.y),
                        Swift.max(current.maximumX, point.x), Swift.max(current.maximumY, point.y)
                    )
                } else {
                    box = (point.x, point.y, point.x, point.y)
                }
            }
        }
        return box
    }
}

extension AxisRange {
    /// `value` on this axis re-expressed on `target` by the same fraction
    /// of the span (rounded, clipped to `target`). Used for pressure and
    /// contact size when a stroke moves to another device: a value with no
    /// source axis is only clipped; a source axis with no span maps to the
    /// target's maximum.
    static func map(_ value: Int?, from source: AxisRange?, to target: AxisRange?) -> Int? {
        guard let value, let target else { return nil }
        guard let source, source != target else { return target.clamp(value) }
        guard source.span > 0 else { return target.maximum }
        let fraction = (Double(value) - Double(source.minimum)) / Double(source.span)
        let mapped = (Double(target.minimum) + fraction * Double(target.span)).rounded()
        if mapped <= Double(target.minimum) { return target.minimum }
        if mapped >= Double(target.maximum) { return target.maximum }
        return Int(mapped)
    }
}
