/// Something a command lists among its options: an ``Option`` as declared,
/// or a ``TypedOption`` that also knows the type a command reads it as.
public protocol OptionDeclaration: Sendable {
    /// The option as the parser, the help, the manual pages and the
    /// completions see it.
    var declaration: Option { get }
}

extension Option: OptionDeclaration {
    /// The option itself.
    public var declaration: Option { self }
}

/// An option or flag declared together with the type a command reads it
/// as: `values[option]` is that type, with no name to spell and no default
/// to repeat. An option that declares a default (or is required) reads as
/// a non-optional value; the default is given as a value of its type, and
/// the help text, the manual page and the command all read that one value.
///
/// ```swift
/// static let speed: TypedOption<Double> = .number(
///     "speed", valueName: "factor", help: "Play faster (2) or slower (0.5).",
///     type: .double(in: 0.01...100), default: PlaybackOptions.defaultSpeed)
/// static let kind: TypedOption<DeviceKind> = .choice(
///     "as", valueName: "kind", help: "The device.", default: .touchscreen)
/// …
/// let speed = values[Self.speed]   // Double, the default when absent
/// ```
public struct TypedOption<Value: Sendable>: OptionDeclaration {
    /// The option as the parser, the help and the manual pages see it.
    public let declaration: Option
    /// Reads the value from a command line's values.
    private let read: @Sendable (ParsedValues) -> Value

    /// Creates a typed option from its declaration and how its value is
    /// read; prefer the constructors (``flag(_:short:help:hidden:)``,
    /// ``string(_:short:valueName:help:completion:)``, …), which pair the
    /// two so that they cannot disagree.
    public init(_ declaration: Option, read: @escaping @Sendable (ParsedValues) -> Value) {
        self.declaration = declaration
        self.read = read
    }

    /// The option's long name without dashes (`speed` for `--speed`).
    public var name: String { declaration.name }

    /// The value this option has in `values`.
    func value(in values: ParsedValues) -> Value { read(values) }

    /// The same option, read as `transform` of its value: a duration's
    /// microseconds as a time type of the caller's, say.
    public func map<NewValue: Sendable>(_ transform: @escaping @Sendable (Value) -> NewValue) -> TypedOption<NewValue> {
        let read = self.read
        return TypedOption<NewValue>(declaration) { transform(read($0)) }
    }
}

// MARK: - Flags

extension TypedOption where Value == Bool {
    /// A flag: `--name` or `-s`, with no value; reads as whether it was given.
    public static func flag(_ name: String, short: Character? = nil, help: String, hidden: Bool = false) -> Self {
        TypedOption(.flag(name, short: short, help: help, hidden: hidden)) { $0.flag(name) }
    }
}

// MARK: - Text

extension TypedOption where Value == String? {
    /// An option with any text as its value and no default; `nil` when absent.
    public static func string(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, completion: Completion? = nil
    ) -> Self {
        TypedOption(.option(name, short: short, valueName: valueName, help: help, completion: completion)) {
            $0.string(name)
        }
    }
}

extension TypedOption where Value == String {
    /// An option with any text as its value and a default (shown as it is
    /// in the help).
    public static func string(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, default value: String,
        completion: Completion? = nil
    ) -> Self {
        TypedOption(
            .option(name, short: short, valueName: valueName, help: help, default: value, completion: completion)
        ) { $0.stringOrDefault(name) }
    }
}

// MARK: - Numbers

extension TypedOption where Value == Int? {
    /// An integer option without a default; `type` is `.integer` or a
    /// range of it. `nil` when absent.
    public static func integer(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .integer
    ) -> Self {
        precondition(type.isInteger, "CommandKit: --\(name) reads an integer but declares another type")
        return TypedOption(.option(name, short: short, valueName: valueName, help: help, type: type)) { $0.integer(name) }
    }
}

extension TypedOption where Value == Int {
    /// An integer option with a default, shown in the help as written
    /// (`10`); `type` is `.integer` or a range of it.
    public static func integer(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .integer,
        default value: Int
    ) -> Self {
        precondition(type.isInteger, "CommandKit: --\(name) reads an integer but declares another type")
        return TypedOption(
            .option(name, short: short, valueName: valueName, help: help, type: type, default: String(value))
        ) { $0.integerOrDefault(name) }
    }
}

extension TypedOption where Value == Double? {
    /// A number option without a default; `type` is `.double` or a range
    /// of it. `nil` when absent.
    public static func number(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .double
    ) -> Self {
        precondition(type.isNumber, "CommandKit: --\(name) reads a number but declares another type")
        return TypedOption(.option(name, short: short, valueName: valueName, help: help, type: type)) { $0.double(name) }
    }
}

extension TypedOption where Value == Double {
    /// A number option with a default, shown in the help as people write
    /// it (`1`, `0.5`); `type` is `.double` or a range of it.
    public static func number(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .double,
        default value: Double
    ) -> Self {
        precondition(type.isNumber, "CommandKit: --\(name) reads a number but declares another type")
        return TypedOption(
            .option(name, short: short, valueName: valueName, help: help, type: type, default: formatNumber(value))
        ) { $0.doubleOrDefault(name) }
    }
}

extension TypedOption where Value == [Double] {
    /// A comma-separated list of numbers (`x,y`); empty when absent.
    public static func numbers(_ name: String, short: Character? = nil, valueName: String? = nil, help: String) -> Self {
        TypedOption(.option(name, short: short, valueName: valueName, help: help, type: .list(of: .double))) {
            $0.doubles(name)
        }
    }
}

// MARK: - Durations

extension TypedOption where Value == Int64? {
    /// A duration option without a default, in microseconds; `type` is
    /// `.duration` or a range of it. `nil` when absent.
    public static func duration(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .duration
    ) -> Self {
        precondition(type.isDuration, "CommandKit: --\(name) reads a duration but declares another type")
        return TypedOption(.option(name, short: short, valueName: valueName, help: help, type: type)) { $0.duration(name) }
    }
}

extension TypedOption where Value == Int64 {
    /// A duration option with a default in microseconds, shown in the help
    /// as a user would type it (`100ms`, `1.5s`; zero as `0`); `type` is
    /// `.duration` or a range of it.
    public static func duration(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .duration,
        default value: Int64
    ) -> Self {
        precondition(type.isDuration, "CommandKit: --\(name) reads a duration but declares another type")
        let text = value == 0 ? "0" : DurationText.format(microseconds: value)
        return TypedOption(
            .option(name, short: short, valueName: valueName, help: help, type: type, default: text)
        ) { $0.durationOrDefault(name) }
    }
}

extension TypedOption where Value == [Int64] {
    /// A comma-separated list of durations in microseconds (`0,100ms`);
    /// empty when absent.
    public static func durations(_ name: String, short: Character? = nil, valueName: String? = nil, help: String) -> Self {
        TypedOption(.option(name, short: short, valueName: valueName, help: help, type: .list(of: .duration))) {
            $0.durations(name)
        }
    }
}

// MARK: - Choices

extension TypedOption {
    /// An option whose value is one of `choices` (by their raw values, in
    /// that order in the help), read as the enumeration's case; with a
    /// default, or required.
    public static func choice(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String,
        choices: [Value] = Array(Value.allCases), default value: Value
    ) -> Self where Value: CaseIterable & RawRepresentable<String> {
        choice(name, short: short, valueName: valueName, help: help, choices: choices, defaultText: value.rawValue, required: false)
    }

    /// An option whose value must be given and is one of `choices`, read
    /// as the enumeration's case.
    public static func requiredChoice(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String,
        choices: [Value] = Array(Value.allCases)
    ) -> Self where Value: CaseIterable & RawRepresentable<String> {
        choice(name, short: short, valueName: valueName, help: help, choices: choices, defaultText: nil, required: true)
    }

    private static func choice(
        _ name: String, short: Character?, valueName: String?, help: String, choices: [Value], defaultText: String?,
        required: Bool
    ) -> Self where Value: RawRepresentable<String> {
        let option = Option.option(
            name, short: short, valueName: valueName, help: help, type: .choice(choices.map(\.rawValue)),
            default: defaultText, required: required)
        return TypedOption(option) { values in
            let text = values.stringOrDefault(name)
            guard let value = Value(rawValue: text) else {
                preconditionFailure("CommandKit: \"\(text)\" of --\(name) is no case of \(Value.self)")
            }
            return value
        }
    }

    /// An option whose value is one of `choices` with no default, read as
    /// the enumeration's case; `nil` when absent.
    public static func choice<Choice: CaseIterable & RawRepresentable<String> & Sendable>(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String,
        choices: [Choice] = Array(Choice.allCases)
    ) -> Self where Value == Choice? {
        let option = Option.option(name, short: short, valueName: valueName, help: help, type: .choice(choices.map(\.rawValue)))
        return TypedOption(option) { values in
            values.string(name).map { text in
                guard let value = Choice(rawValue: text) else {
                    preconditionFailure("CommandKit: \"\(text)\" of --\(name) is no case of \(Choice.self)")
                }
                return value
            }
        }
    }
}

extension ValueType {
    /// Whether values of this type read as integers.
    var isInteger: Bool {
        if case .integer = kind { return true }
        return false
    }

    /// Whether values of this type read as numbers (integers convert).
    var isNumber: Bool {
        switch kind {
        case .double, .integer: true
        default: false
        }
    }

    /// Whether values of this type read as durations.
    var isDuration: Bool {
        if case .duration = kind { return true }
        return false
    }
}
