import GestureModel

// Sample times come from files that may be hostile, so sums and products of
// times saturate at the ends of Int64 instead of trapping (Microseconds' own
// + and - saturate; products are here). A saturated time
// is far beyond GestureLimits.maximumDuration, which the result check then
// refuses with a clear message.
extension Microseconds {
    /// `self × count`, held at the ends of the Int64 range instead of trapping.
    func saturatingMultiplied(by count: Int) -> Microseconds {
        let (product, overflow) = rawValue.multipliedReportingOverflow(by: Int64(count))
        guard overflow else { return Microseconds(product) }
        return Microseconds((rawValue < 0) != (count < 0) ? Int64.min : Int64.max)
    }

    /// The nearest time to a number of microseconds given as a Double
    /// (rounded to nearest, ties away from zero; held at the ends of Int64).
    static func nearest(to value: Double) -> Microseconds {
        let rounded = value.rounded()
        // Double(Int64.max) is 2^63, one past the largest Int64.
        if rounded.isNaN { return .zero }
        if rounded >= 9_223_372_036_854_775_808.0 { return Microseconds(Int64.max) }
        if rounded <= -9_223_372_036_854_775_808.0 { return Microseconds(Int64.min) }
        return Microseconds(Int64(rounded))
    }
}
