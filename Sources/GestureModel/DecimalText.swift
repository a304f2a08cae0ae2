/// Plain decimal text for numbers in files and messages: no exponent, no
/// trailing zeros, never `-0`, and no trap on hostile values.
public enum DecimalText {
    /// `value / scale` written exactly, where `scale` is a power of ten
    /// (`fixed(8333, scale: 1000)` is `8.333`; `fixed(250_000, scale: 1_000_000)`
    /// is `0.25`).
    public static func fixed(_ value: Int64, scale: Int64) -> String {
        // The magnitude as UInt64 so that Int64.min cannot trap.
        let magnitude = value.magnitude
        let unsignedScale = UInt64(max(scale, 1))
        let whole = magnitude / unsignedScale
        var fraction = magnitude % unsignedScale
        let sign = value < 0 ? "-" : ""
        guard fraction != 0 else { return "\(sign)\(whole)" }
        var digits = String(unsignedScale).count - 1
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let fractionText = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: max(0, digits - fractionText.count)) + fractionText
    }

    /// `value` rounded to at most `places` decimals (0…6), e.g. `12.5`,
    /// `12`, `-0.25`. A value too large to scale, or not finite, is written
    /// as Swift prints it.
    public static func decimal(_ value: Double, places: Int) -> String {
        var factor: Int64 = 1
        for _ in 0..<min(max(places, 0), 6) { factor *= 10 }
        let scaled = value * Double(factor)
        guard scaled.isFinite, abs(scaled) < 9e18 else { return String(value) }
        return fixed(Int64(scaled.rounded()), scale: factor)
    }
}

extension DecimalText {
    /// A number as people write it, in messages and in JSON: integers
    /// below 10^15 without a fraction (`100`, not `100.0`; `-0` as `0`),
    /// anything else as Swift's shortest text that reads back the same
    /// (`0.5`, `-1.25`, `1e+16`, `1e-07`); `nan` and `inf` as Swift prints
    /// them (JSON writers turn those into `null` first).
    public static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
