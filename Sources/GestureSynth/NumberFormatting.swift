import GestureModel

/// A number for a message: at most three decimals, no trailing zeros, no
/// exponent for ordinary sizes (`500`, `67.5`, `-9`, `0.083`).
func formatNumber(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
    return DecimalText.decimal(value, places: 3)
}

/// Microseconds as seconds for a message (`0.25`, `60`, `0.083333`), exact.
func formatSeconds(_ duration: Microseconds) -> String {
    DecimalText.fixed(duration.rawValue, scale: 1_000_000)
}

/// Microseconds as milliseconds for a description (`250`, `83.333`), exact.
func formatMilliseconds(_ duration: Microseconds) -> String {
    DecimalText.fixed(duration.rawValue, scale: 1_000)
}
