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
    public init(seconds: Double) { self.rawValue = Int64((seconds * 1_000_000).rounded()) }

    /// Creates a value from milliseconds, rounded to the nearest microsecond.
    public init(milliseconds: Double) { self.rawValue = Int64((milliseconds * 1_000).rounded()) }

    /// Zero microseconds.
    public static var zero: Microseconds { Microseconds(0) }

    /// The value in seconds.
    public var seconds: Double { Double(rawValue) / 1_000_000 }

    public static func < (lhs: Microseconds, rhs: Microseconds) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func + (lhs: Microseconds, rhs: Microseconds) -> Microseconds {
        Microseconds(lhs.rawValue + rhs.rawValue)
    }
    public static func - (lhs: Microseconds, rhs: Microseconds) -> Microseconds {
        Microseconds(lhs.rawValue - rhs.rawValue)
    }

    /// The value as a plain decimal integer of microseconds, e.g. `8333`.
    public var description: String { String(rawValue) }
}
