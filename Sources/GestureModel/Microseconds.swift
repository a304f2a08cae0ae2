/// A span or a point in time, in whole microseconds.
///
/// Sample times in a gesture are microseconds from the gesture's start; the
/// recorder converts the kernel's CLOCK_MONOTONIC timestamps into this unit.
public struct Microseconds: RawRepresentable, Hashable, Comparable, Sendable,
    ExpressibleByIntegerLiteral, AdditiveArithmetic, CustomStringConvertible
{
    /// The number of microseconds.
    public var rawValue: Int64

    /// Creates a value of `rawValue` microseconds.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Creates a value of `value` microseconds.
    public init(_ value: Int64) { self.rawValue = value }

    /// Creates a value from an integer literal, in microseconds.
    public init(integerLiteral value: Int64) { self.rawValue = value }

    /// Creates a value from seconds, rounded to the nearest microsecond.
    /// Values beyond the representable range (and NaN, as 0) are clamped.
    public init(seconds: Double) { self.rawValue = Microseconds.clamped(seconds * 1_000_000) }

    /// Creates a value from milliseconds, rounded to the nearest microsecond.
    /// Values beyond the representable range (and NaN, as 0) are clamped.
    public init(milliseconds: Double) { self.rawValue = Microseconds.clamped(milliseconds * 1_000) }

    private static func clamped(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int64(value.rounded())
    }

    /// Zero microseconds.
    public static var zero: Microseconds { Microseconds(0) }

    /// The value in seconds.
    public var seconds: Double { Double(rawValue) / 1_000_000 }

    public static func < (lhs: Microseconds, rhs: Microseconds) -> Bool { lhs.rawValue < rhs.rawValue }
    // Saturating: times come from files and devices, and an absurd value
    // must give an absurd (and then rejected) result, never a trap.
    public static func + (lhs: Microseconds, rhs: Microseconds) -> Microseconds {
        let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
        return Microseconds(overflow ? (rhs.rawValue > 0 ? .max : .min) : sum)
    }
    public static func - (lhs: Microseconds, rhs: Microseconds) -> Microseconds {
        let (difference, overflow) = lhs.rawValue.subtractingReportingOverflow(rhs.rawValue)
        return Microseconds(overflow ? (rhs.rawValue < 0 ? .max : .min) : difference)
    }

    /// The value as a plain decimal integer of microseconds, e.g. `8333`.
    public var description: String { String(rawValue) }
}
