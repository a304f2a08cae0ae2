import GestureModel

/// Millimetre lengths as the format keeps them: rounded to 0.001 mm and
/// written as plain decimals (`216`, `67.5`, `0.125`), never with an
/// exponent, trailing zeros or a negative zero.
enum Millimetres {
    /// Beyond this (a surface a billion kilometres wide) a length is kept and
    /// written as Swift prints it, since its thousandths would not fit an
    /// integer; no real device comes near it.
    private static let largestRounded = 1e15

    /// `value` rounded to the nearest 0.001 mm.
    static func rounded(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < largestRounded else { return value }
        let thousandths = (value * 1000).rounded()
        return thousandths == 0 ? 0 : thousandths / 1000
    }

    /// The canonical text of `value`.
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return "null" }  // not JSON-representable; the reader refuses it
        guard abs(value) < largestRounded else { return String(value) }
        return DecimalText.decimal(value, places: 3)
    }
}
