#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few libm functions the editing operations need, behind one funnel so
/// that the platform import lives in one file.
enum Math {
    /// Sine and cosine of an angle in degrees. Multiples of 90° give exact
    /// 0 and ±1, so that quarter turns move points by whole units without a
    /// rounding wobble.
    static func sineAndCosine(degrees: Double) -> (sine: Double, cosine: Double) {
        let reduced = degrees.truncatingRemainder(dividingBy: 360)
        switch reduced {
        case 0: return (0, 1)
        case 90, -270: return (1, 0)
        case 180, -180: return (0, -1)
        case 270, -90: return (-1, 0)
        default:
            let radians = reduced * Double.pi / 180
            return (sin(radians), cos(radians))
        }
    }

    /// Sine of an angle in radians.
    static func sine(_ radians: Double) -> Double { sin(radians) }

    /// Cosine of an angle in radians.
    static func cosine(_ radians: Double) -> Double { cos(radians) }

    /// Arc sine, in radians.
    static func arcSine(_ value: Double) -> Double { asin(value) }
}
