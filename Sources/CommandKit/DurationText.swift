/// Reading and writing durations as people type them: `0.25` (seconds),
/// `250ms`, `2s`, `1.5s`, `100us` or `100µs`.
///
/// Values are whole microseconds as `Int64`, so that CommandKit stays
/// independent of any time type; fractions below a microsecond are rounded
/// to the nearest one (halves away from zero). Arithmetic is exact (no
/// floating point) and never overflows: a value too large for `Int64`
/// microseconds is reported as ``ParseResult/tooLarge``.
public enum DurationText {
    /// The outcome of reading a duration.
    public enum ParseResult: Sendable, Hashable {
        /// A duration, in microseconds.
        case microseconds(Int64)
        /// The text is not a duration.
        case invalid
        /// The text is a duration, but too large to represent.
        case tooLarge
    }

    /// Reads `text` as a duration: an optional sign, decimal digits with an
    /// optional fraction, and an optional unit `s`, `ms`, `us`, `µs` or `μs`
    /// (no unit means seconds).
    public static func parse(_ text: String) -> ParseResult {
        var scalars = Substring(text).unicodeScalars[...]
        var negative = false
        if let first = scalars.first, first == "-" || first == "+" {
            negative = first == "-"
            scalars = scalars.dropFirst()
        }
        let numberEnd = scalars.firstIndex { !(("0"..."9").contains($0) || $0 == ".") } ?? scalars.endIndex
        let number = String(String.UnicodeScalarView(scalars[..<numberEnd]))
        let unit = String(String.UnicodeScalarView(scalars[numberEnd...]))
        let multiplier: Int64
        switch unit {
        case "", "s": multiplier = 1_000_000
        case "ms": multiplier = 1_000
        case "us", "µs", "μs": multiplier = 1
        default: return .invalid
        }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return .invalid }
        let wholeDigits = parts[0]
        let fractionDigits = parts.count == 2 ? parts[1] : ""
        guard !wholeDigits.isEmpty || !fractionDigits.isEmpty else { return .invalid }

        var whole: Int64 = 0
        for digit in wholeDigits.unicodeScalars {
            let (shifted, overflow1) = whole.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.addingReportingOverflow(Int64(digit.value - 48))
            if overflow1 || overflow2 { return .tooLarge }
            whole = added
        }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: multiplier)
        if overflow { return .tooLarge }

        // Twelve fraction digits are far below a microsecond in every unit,
        // and keep fraction × multiplier within Int64 (10^12 × 10^6).
        var fraction: Int64 = 0
        var denominator: Int64 = 1
        for digit in fractionDigits.unicodeScalars.prefix(12) {
            fraction = fraction * 10 + Int64(digit.value - 48)
            denominator *= 10
        }
        var fractionPart = fraction * multiplier / denominator
        if (fraction * multiplier % denominator) * 2 >= denominator { fractionPart += 1 }
        let (total, overflow3) = scaled.addingReportingOverflow(fractionPart)
        if overflow3 { return .tooLarge }
        return .microseconds(negative ? -total : total)
    }

    /// Writes a duration in the shortest exact form among `2s`, `1.5s`,
    /// `250ms`, `1.5ms` and `100us` (zero is `0s`).
    public static func format(microseconds value: Int64) -> String {
        let magnitude = value.magnitude
        let sign = value < 0 ? "-" : ""
        if magnitude == 0 { return "0s" }
        if magnitude >= 1_000_000 { return sign + decimal(magnitude, scale: 1_000_000) + "s" }
        if magnitude >= 1_000 { return sign + decimal(magnitude, scale: 1_000) + "ms" }
        return sign + String(magnitude) + "us"
    }

    /// `value / scale` as a decimal without trailing zeros.
    static func decimal(_ value: UInt64, scale: UInt64) -> String {
        let whole = value / scale
        var remainder = value % scale
        guard remainder != 0 else { return String(whole) }
        var digits = ""
        var place = scale / 10
        while remainder != 0 && place != 0 {
            digits += String(remainder / place)
            remainder %= place
            place /= 10
        }
        return String(whole) + "." + digits
    }
}
