import GestureModel
import InputSystem

/// Maps a gesture's positions onto a target's surface, as fractions 0…1 of
/// the target's axes (0 = minimum, 1 = maximum), clipped to the surface.
///
/// Normalised (default): the fraction on the gesture's device is the
/// fraction on the target. Physical: the position in millimetres from the
/// gesture's surface centre is kept from the target's centre, so sizes and
/// distances stay the same; used only when both surfaces know their size
/// (for the gesture, FORMAT.md's size rule: stated or from the resolution,
/// never the assumed size).
struct PositionMapper: Sendable {
    let source: DeviceGeometry
    /// Target width and height in mm when mapping physically, else `nil`.
    let targetSizeMM: (width: Double, height: Double)?

    init(source: DeviceGeometry, targetX: AbsoluteAxisInfo, targetY: AbsoluteAxisInfo, physicalSize: Bool) {
        self.source = source
        let width = Self.lengthMM(targetX)
        let height = Self.lengthMM(targetY)
        if physicalSize, width > 0, height > 0, source.isSizeKnown {
            targetSizeMM = (width, height)
        } else {
            targetSizeMM = nil
        }
    }

    /// Whether positions are mapped by millimetres.
    var isPhysical: Bool { targetSizeMM != nil }

    /// The target fractions of `sample`'s position.
    func fractions(of sample: Sample) -> (x: Double, y: Double) {
        let result: (x: Double, y: Double)
        if let target = targetSizeMM {
            let millimetres = source.millimetres(x: sample.x, y: sample.y)
            result = (
                (millimetres.x + (target.width - source.surfaceWidthMM) / 2) / target.width,
                (millimetres.y + (target.height - source.surfaceHeightMM) / 2) / target.height
            )
        } else {
            result = source.normalised(x: sample.x, y: sample.y)
        }
        return (Self.clip(result.x), Self.clip(result.y))
    }

    /// The value at `fraction` (0…1) of `axis`, rounded and within the axis.
    static func value(at fraction: Double, on axis: AbsoluteAxisInfo) -> Int32 {
        let span = Double(Int64(axis.maximum) - Int64(axis.minimum))
        let offset = (clip(fraction) * span).rounded()
        // offset lies in 0…span, so the sum lies in minimum…maximum.
        return Int32(clamping: Int64(axis.minimum) + Int64(offset))
    }

    /// The fraction 0…1 of `value` on `range`; `fallback` when the range is
    /// empty or there is no value.
    static func fraction(of value: Int?, on range: AxisRange?, fallback: Double) -> Double {
        guard let value, let range, range.maximum > range.minimum else { return fallback }
        return clip(Double(value - range.minimum) / Double(range.maximum - range.minimum))
    }

    /// Length of an axis in mm, 0 without a resolution.
    static func lengthMM(_ axis: AbsoluteAxisInfo) -> Double {
        axis.resolution > 0 ? Double(Int64(axis.maximum) - Int64(axis.minimum)) / Double(axis.resolution) : 0
    }

    static func clip(_ value: Double) -> Double { value.isNaN ? 0 : Swift.min(Swift.max(value, 0), 1) }
}
