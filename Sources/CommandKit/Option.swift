/// A named option (`--output FILE`, `-o FILE`) or flag (`--force`) of a
/// command, declared with ``option(_:short:valueName:help:type:default:repeatable:required:completion:)``
/// or ``flag(_:short:help:hidden:)``.
public struct Option: Sendable, Hashable {
    /// The long name without dashes (`output` for `--output`): also the key
    /// for ``ParsedValues``.
    public var name: String
    /// The one-letter short name (`o` for `-o`), if any.
    public var short: Character?
    /// One line (or a few) for the help text.
    public var help: String
    /// The value's type; `nil` for a flag, which takes no value.
    public var type: ValueType?
    /// What the help text calls the value, shown as `<valueName>`.
    public var valueName: String
    /// The value used when the option is not given, written as a user
    /// would write it (it is parsed like one) and shown in the help text.
    /// Commands read it back through ``ParsedValues``' non-optional
    /// accessors (``ParsedValues/durationOrDefault(_:)``, …).
    public var defaultValue: String?
    /// Whether the option may be given more than once (values accumulate).
    public var isRepeatable: Bool
    /// Whether the option must be given.
    public var isRequired: Bool
    /// What shells offer for the value; `nil` derives it from the type
    /// (see ``effectiveCompletion``).
    public var completion: Completion?
    /// Whether help texts, manual pages and completions leave the option
    /// out (for options meant for scripts such as the completions
    /// themselves); it still parses.
    public var isHidden: Bool

    /// Creates an option or a flag; prefer ``option(_:short:valueName:help:type:default:repeatable:required:completion:)``
    /// and ``flag(_:short:help:hidden:)``.
    public init(
        name: String, short: Character? = nil, help: String, type: ValueType?, valueName: String? = nil,
        defaultValue: String? = nil, isRepeatable: Bool = false, isRequired: Bool = false, completion: Completion? = nil,
        isHidden: Bool = false
    ) {
        self.name = name
        self.short = short
        self.help = help
        self.type = type
        self.valueName = valueName ?? name
        self.defaultValue = defaultValue
        self.isRepeatable = isRepeatable
        self.isRequired = isRequired
        self.completion = completion
        self.isHidden = isHidden
    }

    /// Whether this is a flag (takes no value).
    public var isFlag: Bool { type == nil }

    /// `--name`.
    public var longName: String { "--" + name }

    /// How the option appears in a usage line: `--output <file>`, or
    /// `--force` for a flag.
    public var usage: String { isFlag ? longName : "\(longName) <\(valueName)>" }
}

extension OptionDeclaration where Self == Option {
    /// An option that takes a value: `--name VALUE`, `--name=VALUE` or
    /// `-s VALUE`.
    public static func option(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .string,
        default defaultValue: String? = nil, repeatable: Bool = false, required: Bool = false,
        completion: Completion? = nil
    ) -> Option {
        Option(
            name: name, short: short, help: help, type: type, valueName: valueName, defaultValue: defaultValue,
            isRepeatable: repeatable, isRequired: required, completion: completion
        )
    }

    /// A flag: `--name` or `-s`, with no value.
    public static func flag(_ name: String, short: Character? = nil, help: String, hidden: Bool = false) -> Option {
        Option(name: name, short: short, help: help, type: nil, isHidden: hidden)
    }
}
