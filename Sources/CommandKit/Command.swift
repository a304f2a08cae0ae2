/// One command of a tool, declared as data: its name, help texts,
/// arguments, options and what it runs.
///
/// ```swift
/// Command(
///     name: "merge", abstract: "Merge strokes into one multi-finger gesture.",
///     arguments: [Argument("files", help: "Gesture files.", arity: .oneOrMore)],
///     options: [
///         .option("align", valueName: "edge", help: "Align by start or end.", type: .choice(["start", "end"]), default: "start"),
///         .option("output", short: "o", valueName: "file", help: "Where to write ('-' for standard output)."),
///         .flag("force", short: "f", help: "Overwrite an existing file."),
///     ]
/// ) { values, context in
///     let files = values.arguments("files")
///     …
/// }
/// ```
public struct Command: Sendable {
    /// What a command does with its parsed values; it returns normally for
    /// success or throws (see ``CommandFailure``).
    public typealias Run = @Sendable (ParsedValues, CommandContext) async throws -> Void

    /// The name typed on the command line.
    public var name: String
    /// One line: what the command does. Shown in command lists and on top
    /// of the command's help.
    public var abstract: String
    /// Longer help text with examples, printed as written at the end of
    /// the command's help. Made when help is shown, not when the command
    /// table is built: every start builds the table, and a text made from
    /// other tables (press's key names) cost every command its time.
    public var discussion: String {
        get { makeDiscussion() }
        set { makeDiscussion = { newValue } }
    }
    private var makeDiscussion: @Sendable () -> String
    /// The heading the tool's help lists the command under (e.g.
    /// `Library`); `nil` for the default `Commands`.
    public var section: String?
    /// The positional arguments, in order.
    public var arguments: [Argument]
    /// The options and flags, in the order the help lists them.
    public var options: [Option]
    /// Nested commands (`tool group sub`); empty for most commands.
    public var subcommands: [Command]
    /// What the command runs; `nil` for a group that only has subcommands.
    public var run: Run?
    /// Whether the tool's help, manual pages and completions leave the
    /// command out (commands for packaging scripts); it still runs, and
    /// `help NAME` still shows its help.
    public var isHidden = false

    /// Creates a command.
    public init(
        name: String, abstract: String, discussion: @autoclosure @escaping @Sendable () -> String = "", section: String? = nil,
        arguments: [any ArgumentDeclaration] = [], options: [any OptionDeclaration] = [], subcommands: [Command] = [],
        run: Run?
    ) {
        self.name = name
        self.abstract = abstract
        self.makeDiscussion = discussion
        self.section = section
        self.arguments = arguments.map(\.declaration)
        self.options = options.map(\.declaration)
        self.subcommands = subcommands
        self.run = run
    }

    /// Creates a group of subcommands (`tool NAME SUB ...`), with nothing of its own to run.
    public init(
        name: String, abstract: String, discussion: @autoclosure @escaping @Sendable () -> String = "", section: String? = nil,
        subcommands: [Command]
    ) {
        self.init(name: name, abstract: abstract, discussion: discussion(), section: section, subcommands: subcommands, run: nil)
    }
}
