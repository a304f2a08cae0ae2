/// Something a command lists among its positional arguments: an
/// ``Argument`` as declared, or a ``TypedArgument`` that also knows the
/// type a command reads it as.
public protocol ArgumentDeclaration: Sendable {
    /// The argument as the parser, the help and the manual pages see it.
    var declaration: Argument { get }
}

extension Argument: ArgumentDeclaration {
    /// The argument itself.
    public var declaration: Argument { self }
}

/// A positional argument declared together with the type a command reads
/// it as: `values[argument]` is that type. A required argument reads as a
/// non-optional value (the parser refuses a command line without it), a
/// variadic one as an array.
///
/// ```swift
/// static let gesture: TypedArgument<String> = .required("gesture", help: "The gesture (NAME|FILE).")
/// …
/// let input = values[Self.gesture]   // String
/// ```
public struct TypedArgument<Value: Sendable>: ArgumentDeclaration {
    /// The argument as the parser, the help and the manual pages see it.
    public let declaration: Argument
    private let read: @Sendable (ParsedValues) -> Value

    private init(_ declaration: Argument, read: @escaping @Sendable (ParsedValues) -> Value) {
        self.declaration = declaration
        self.read = read
    }

    /// The argument's name (what help shows in angle brackets).
    public var name: String { declaration.name }

    /// The value this argument has in `values`.
    func value(in values: ParsedValues) -> Value { read(values) }

    /// The value that a required argument always has once parsed.
    private static func given<Given>(_ value: Given?, _ name: String) -> Given {
        guard let value else { preconditionFailure("CommandKit: the required argument <\(name)> has no value") }
        return value
    }
}

extension TypedArgument where Value == String {
    /// An argument of any text that must be given.
    public static func required(_ name: String, help: String, completion: Completion? = nil) -> Self {
        TypedArgument(Argument(name, help: help, completion: completion)) { given($0.argument(name), name) }
    }
}

extension TypedArgument where Value == String? {
    /// An argument of any text that may be left out; `nil` then.
    public static func optional(_ name: String, help: String, completion: Completion? = nil) -> Self {
        TypedArgument(Argument(name, help: help, arity: .optional, completion: completion)) { $0.argument(name) }
    }
}

extension TypedArgument where Value == [String] {
    /// An argument of one or more texts (the last argument only).
    public static func oneOrMore(_ name: String, help: String, completion: Completion? = nil) -> Self {
        TypedArgument(Argument(name, help: help, arity: .oneOrMore, completion: completion)) { $0.arguments(name) }
    }

    /// An argument of any number of texts, none included (the last argument only).
    public static func zeroOrMore(_ name: String, help: String, completion: Completion? = nil) -> Self {
        TypedArgument(Argument(name, help: help, arity: .zeroOrMore, completion: completion)) { $0.arguments(name) }
    }
}

extension TypedArgument where Value == Int {
    /// An integer argument that must be given; `type` is `.integer` or a range of it.
    public static func integer(_ name: String, help: String, type: ValueType = .integer) -> Self {
        precondition(type.isInteger, "CommandKit: <\(name)> reads an integer but declares another type")
        return TypedArgument(Argument(name, help: help, type: type)) { given($0.integer(name), name) }
    }
}

extension TypedArgument {
    /// An argument that must be given and is one of `choices` (by their
    /// raw values), read as the enumeration's case.
    public static func choice(
        _ name: String, help: String, choices: [Value] = Array(Value.allCases), completion: Completion? = nil
    ) -> Self where Value: CaseIterable & RawRepresentable<String> {
        let argument = Argument(name, help: help, type: .choice(choices.map(\.rawValue)), completion: completion)
        return TypedArgument(argument) { values in
            let text = given(values.argument(name), name)
            guard let value = Value(rawValue: text) else {
                preconditionFailure("CommandKit: \"\(text)\" of <\(name)> is no case of \(Value.self)")
            }
            return value
        }
    }
}

extension ParsedValues {
    /// The value of a typed option: what was given, else its default, else
    /// `nil` (for an option whose type is optional).
    public subscript<Value>(_ option: TypedOption<Value>) -> Value { option.value(in: self) }

    /// The value of a typed argument.
    public subscript<Value>(_ argument: TypedArgument<Value>) -> Value { argument.value(in: self) }

    /// Whether the option was given on the command line (a default does
    /// not count); for a flag, whether it was given.
    public func isGiven(_ option: any OptionDeclaration) -> Bool { isGiven(option.declaration.name) }
}
