/// A positional argument of a command, e.g. the files of `merge`.
public struct Argument: Sendable, Hashable {
    /// How many values an argument takes.
    public enum Arity: Sendable, Hashable {
        /// Exactly one value.
        case required
        /// Zero or one value.
        case optional
        /// Any number of values; only the last argument may be variadic.
        case zeroOrMore
        /// At least one value; only the last argument may be variadic.
        case oneOrMore

        /// Whether the argument takes more than one value.
        public var isVariadic: Bool { self == .zeroOrMore || self == .oneOrMore }
        /// Whether the argument may be left out.
        public var isOptional: Bool { self == .optional || self == .zeroOrMore }
    }

    /// The name: the key for ``ParsedValues`` and, in angle brackets, what
    /// usage lines and help show (`<files>`).
    public var name: String
    /// One line (or a few) for the help text.
    public var help: String
    /// The type its values are checked against.
    public var type: ValueType
    /// How many values it takes.
    public var arity: Arity
    /// What shells offer for it; `nil` derives it from the type (see
    /// ``effectiveCompletion``).
    public var completion: Completion?

    /// Creates an argument.
    public init(
        _ name: String, help: String, type: ValueType = .string, arity: Arity = .required, completion: Completion? = nil
    ) {
        self.name = name
        self.help = help
        self.type = type
        self.arity = arity
        self.completion = completion
    }

    /// How the argument appears in a usage line: `<file>`, `[<file>]`,
    /// `<files> ...` or `[<files> ...]`.
    public var usage: String {
        switch arity {
        case .required: "<\(name)>"
        case .optional: "[<\(name)>]"
        case .zeroOrMore: "[<\(name)> ...]"
        case .oneOrMore: "<\(name)> ..."
        }
    }
}
