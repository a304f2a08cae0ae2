/// The type of an option's or argument's value, checked while parsing.
///
/// Use the static members: `.string`, `.integer(in: 2...10)`,
/// `.double(minimum: 0.01)`, `.choice(["start", "end"])`, `.duration`,
/// `.list(of: .duration)`.
public struct ValueType: Sendable, Hashable {
    indirect enum Kind: Sendable, Hashable {
        case string
        case integer(minimum: Int?, maximum: Int?)
        case double(minimum: Double?, maximum: Double?, minimumIncluded: Bool = true)
        case choice([String])
        case duration(minimum: Int64?, maximum: Int64?)
        case list(Kind)
    }

    let kind: Kind

    /// Any text.
    public static let string = ValueType(kind: .string)

    /// A decimal integer of any size that fits `Int`.
    public static let integer = ValueType(kind: .integer(minimum: nil, maximum: nil))

    /// A decimal integer within optional bounds (both included).
    public static func integer(minimum: Int? = nil, maximum: Int? = nil) -> ValueType {
        ValueType(kind: .integer(minimum: minimum, maximum: maximum))
    }

    /// A decimal integer within `range`.
    public static func integer(in range: ClosedRange<Int>) -> ValueType {
        ValueType(kind: .integer(minimum: range.lowerBound, maximum: range.upperBound))
    }

    /// A finite decimal number (`1`, `-0.5`, `2.5e3`) of any size.
    public static let double = ValueType(kind: .double(minimum: nil, maximum: nil))

    /// A finite decimal number within optional bounds (both included).
    public static func double(minimum: Double? = nil, maximum: Double? = nil) -> ValueType {
        ValueType(kind: .double(minimum: minimum, maximum: maximum))
    }

    /// A finite decimal number greater than `minimum` (which is refused):
    /// `.double(above: 0)` for a length that must not be 0. The help says
    /// "more than 0", never "at least 0".
    public static func double(above minimum: Double, maximum: Double? = nil) -> ValueType {
        ValueType(kind: .double(minimum: minimum, maximum: maximum, minimumIncluded: false))
    }

    /// A finite decimal number within `range`.
    public static func double(in range: ClosedRange<Double>) -> ValueType {
        ValueType(kind: .double(minimum: range.lowerBound, maximum: range.upperBound))
    }

    /// One of a fixed set of words (matched exactly); the help text lists them.
    public static func choice(_ values: [String]) -> ValueType {
        ValueType(kind: .choice(values))
    }

    /// A duration that is not negative: `0.25` (seconds), `250ms`, `2s`,
    /// `1.5s`, `100us`, `100µs`; read as whole microseconds.
    public static let duration = ValueType(kind: .duration(minimum: 0, maximum: nil))

    /// A duration within bounds in microseconds (both included); pass
    /// `minimum: nil` to accept negative durations (e.g. offsets).
    public static func duration(minimum: Int64? = 0, maximum: Int64? = nil) -> ValueType {
        ValueType(kind: .duration(minimum: minimum, maximum: maximum))
    }

    /// A duration within `range`, in microseconds.
    public static func duration(in range: ClosedRange<Int64>) -> ValueType {
        ValueType(kind: .duration(minimum: range.lowerBound, maximum: range.upperBound))
    }

    /// A comma-separated list of `element` values: `0,100ms,200ms`.
    /// A list of lists is a list of the inner element type.
    public static func list(of element: ValueType) -> ValueType {
        if case .list(let inner) = element.kind { return ValueType(kind: .list(inner)) }
        return ValueType(kind: .list(element.kind))
    }

    /// Whether values of this type are lists.
    public var isList: Bool {
        if case .list = kind { return true }
        return false
    }

    /// The allowed words, for a choice (or a list of choices); otherwise empty.
    public var choices: [String] {
        switch kind {
        case .choice(let values), .list(.choice(let values)): values
        default: []
        }
    }
}
