import GestureModel

/// Small number helpers that never trap on hostile values and need no
/// Foundation.
enum NumberFormatting {
    /// `value` rounded to the nearest integer, with NaN as 0 and values
    /// beyond ±9e18 clamped, so that the conversion to `Int64` cannot trap.
    static func roundedInteger(_ value: Double) -> Int64 {
        if value.isNaN { return 0 }
        if value >= 9e18 { return 9_000_000_000_000_000_000 }
        if value <= -9e18 { return -9_000_000_000_000_000_000 }
        return Int64(value.rounded())
    }

    /// `value` with at most `places` decimals, trailing zeros removed:
    /// `12.5`, `12`, `-0.25`. Never `-0`.
    static func decimal(_ value: Double, places: Int = 2) -> String {
        // Clamped first so that hostile values give a number, not an exponent.
        let bound = 9e18 / 1e6
        return DecimalText.decimal(min(max(value.isNaN ? 0 : value, -bound), bound), places: places)
    }

    /// A duration in seconds with exactly two decimals, e.g. `0.42 s`
    /// (half a hundredth rounds up; negative spans show as `0.00 s`).
    static func seconds(_ duration: Microseconds) -> String {
        let hundredths = hundredthsOfASecond(duration)
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// A duration in words for speech, rounded to hundredths of a second
    /// as ``seconds(_:)`` rounds, without trailing zeros: `0.25 seconds`,
    /// `0.5 seconds`, `1 second`, `0 seconds`.
    static func spokenSeconds(_ duration: Microseconds) -> String {
        let hundredths = hundredthsOfASecond(duration)
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return whole == 1 ? "1 second" : "\(whole) seconds" }
        let decimals = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(whole).\(decimals) seconds"
    }

    /// `duration` in whole hundredths of a second, half a hundredth
    /// rounding up; negative durations count as 0.
    private static func hundredthsOfASecond(_ duration: Microseconds) -> Int64 {
        let microseconds = max(duration.rawValue, 0)
        return microseconds / 10_000 + (microseconds % 10_000 >= 5_000 ? 1 : 0)
    }

    /// `later − earlier` in microseconds, clamped instead of overflowing.
    static func span(from earlier: Microseconds, to later: Microseconds) -> Microseconds {
        let (difference, overflow) = later.rawValue.subtractingReportingOverflow(earlier.rawValue)
        if overflow { return Microseconds(later.rawValue > earlier.rawValue ? Int64.max : Int64.min) }
        return Microseconds(difference)
    }
}
