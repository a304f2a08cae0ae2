import GestureModel

/// A number for a message: at most three decimals, no trailing zeros, no
/// exponent for ordinary sizes (`500`, `67.5`, `-9`, `0.083`).
func formatNumber(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
    let thousandths = Int64((value * 1_000).rounded())
    return formatFixed(thousandths, scale: 1_000)
}

/// Microseconds as seconds for a message (`0.25`, `60`, `0.083333`), exact.
func formatSeconds(_ duration: Microseconds) -> String {
    formatFixed(duration.rawValue, scale: 1_000_000)
}

/// Microseconds as milliseconds for a description (`250`, `83.333`), exact.
func formatMilliseconds(_ duration: Microseconds) -> String {
    formatFixed(duration.rawValue, scale: 1_000)
}

/// `value / scale` written in decimal without trailing zeros; `scale` is a power of ten.
private func formatFixed(_ value: Int64, scale: Int64) -> String {
    // Magnitude as UInt64 so that Int64.min cannot trap.
    let magnitude = value.magnitude
    let unsignedScale = UInt64(scale)
    let whole = magnitude / unsignedScale
    var fraction = magnitude % unsignedScale
    let sign = value < 0 ? "-" : ""
    guard fraction != 0 else { return "\(sign)\(whole)" }
    var digits = String(scale).count - 1
    while fraction % 10 == 0 {
        fraction /= 10
        digits -= 1
    }
    let fractionText = String(fraction)
    let padding = String(repeating: "0", count: max(0, digits - fractionText.count))
    return "\(sign)\(whole).\(padding)\(fractionText)"
}
