#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How one finger moves during one stroke, as a function of the fraction
/// of the stroke's duration that has passed (0 at touch-down, 1 at lift-off).
enum FingerPath: Hashable, Sendable {
    /// Straight from `from` to `to` at constant velocity (a still finger
    /// has `from == to`).
    case line(from: MillimetrePoint, to: MillimetrePoint)
    /// Along a circle of `radiusMM` around `centre`, from `startDegrees`
    /// turning by `sweepDegrees` at constant angular velocity. Angles are
    /// clockwise on the screen from the rightward direction (y grows downward).
    case arc(centre: MillimetrePoint, radiusMM: Double, startDegrees: Double, sweepDegrees: Double)

    /// A finger that does not move.
    static func still(at point: MillimetrePoint) -> FingerPath { .line(from: point, to: point) }

    /// The position after `fraction` (0…1) of the stroke.
    func position(at fraction: Double) -> MillimetrePoint {
        switch self {
        case let .line(from, to):
            // Weighted sum rather than from + (to − from) × fraction, so that
            // both ends come out exactly.
            return MillimetrePoint(
                x: from.x * (1 - fraction) + to.x * fraction,
                y: from.y * (1 - fraction) + to.y * fraction
            )
        case let .arc(centre, radius, startDegrees, sweepDegrees):
            return pointOnCircle(centre: centre, radiusMM: radius, degrees: startDegrees + sweepDegrees * fraction)
        }
    }
}

/// The point at `degrees` (clockwise on the screen from the rightward
/// direction) on a circle of `radiusMM` around `centre`.
func pointOnCircle(centre: MillimetrePoint, radiusMM: Double, degrees: Double) -> MillimetrePoint {
    let (cosine, sine) = cosineAndSine(degrees: degrees)
    return MillimetrePoint(x: centre.x + radiusMM * cosine, y: centre.y + radiusMM * sine)
}

/// Cosine and sine of an angle in degrees, exact at multiples of 90° (so
/// that two fingers at 0° and 180° lie exactly on a horizontal line rather
/// than 10⁻¹⁶ mm off it).
func cosineAndSine(degrees: Double) -> (cosine: Double, sine: Double) {
    var reduced = degrees.truncatingRemainder(dividingBy: 360)
    if reduced < 0 { reduced += 360 }
    switch reduced {
    case 0: return (1, 0)
    case 90: return (0, 1)
    case 180: return (-1, 0)
    case 270: return (0, -1)
    default:
        let radians = reduced * Double.pi / 180
        return (cos(radians), sin(radians))
    }
}
