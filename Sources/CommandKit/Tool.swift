import OperatingSystem

/// A command-line tool: a name, a version, its commands, and the entry
/// point that parses a command line, runs the command and reports errors.
///
/// ```swift
/// let tool = Tool(name: "gesturectl", version: "0.1.0", abstract: "…", commands: [merge, list])
/// exit(await tool.main(arguments: Array(CommandLine.arguments.dropFirst()), context: .process()))
/// ```
public struct Tool: Sendable {
    /// Turns an error a command threw into a failure with an exit status,
    /// or returns `nil` to keep the default (status 1 with the error's
    /// description).
    public typealias ErrorMapper = @Sendable (any Error) -> CommandFailure?

    /// The program name, used in usage lines and messages.
    public var name: String
    /// The version `--version` prints.
    public var version: String
    /// One line: what the tool does.
    public var abstract: String
    /// Longer text for the tool's help, printed as written.
    public var discussion: String
    /// Options every command accepts (before or after the command name).
    public var globalOptions: [Option]
    /// The commands, in the order the help lists them (within their sections).
    public var commands: [Command]
    /// Maps errors of other modules to exit statuses (see ``ErrorMapper``).
    public var mapError: ErrorMapper?

    /// Creates a tool.
    public init(
        name: String, version: String, abstract: String, discussion: String = "", globalOptions: [any OptionDeclaration] = [],
        commands: [Command], mapError: ErrorMapper? = nil
    ) {
        self.name = name
        self.version = version
        self.abstract = abstract
        self.discussion = discussion
        self.globalOptions = globalOptions.map(\.declaration)
        self.commands = commands
        self.mapError = mapError
    }

    /// Runs one command line and returns the exit status; never exits.
    ///
    /// - Parameters:
    ///   - arguments: the command line without the program name.
    ///   - context: where output goes and what the command may read.
    ///
    /// `--help`, `-h`, `help [COMMAND]` and `--version` print to standard
    /// output and return 0. A usage error prints `NAME: error: MESSAGE`, the
    /// usage line and `Run 'NAME help COMMAND' for more.` to standard error
    /// and returns 2. A command's ``CommandFailure`` prints its message and
    /// returns its status; `CancellationError` returns 130; any other error
    /// goes through ``mapError`` or returns 1 with its description.
    public func main(arguments: [String], context: CommandContext) async -> Int32 {
        var context = context
        context.toolName = name
        context.mappedFiles = MappedFileLog()
        let status = await run(arguments: arguments, context: context)
        // A failed write of standard output is never success.
        if let failure = context.standardOutput.failure {
            context.standardError.writeLine("\(name): error: cannot write standard output: \(Self.describe(failure))")
            return status == ExitStatus.success.rawValue ? ExitStatus.failure.rawValue : status
        }
        return status
    }

    /// The reason of a write failure, without the call's name when it is a
    /// system error (`No space left on device (errno 28)`).
    private static func describe(_ error: any Error) -> String {
        if let error = error as? SystemError { return error.reason }
        return String(describing: error)
    }

    private func run(arguments: [String], context: CommandContext) async -> Int32 {
        let context = context
        let formatter = HelpFormatter(tool: self)
        let outcome: CommandLineParser.Outcome
        do {
            outcome = try CommandLineParser(tool: self).parse(arguments)
        } catch {
            reportUsageError(error.message, path: error.path, context: context, formatter: formatter)
            return ExitStatus.usageError.rawValue
        }
        switch outcome {
        case .version:
            context.standardOutput.writeLine("\(name) \(version)")
            return ExitStatus.success.rawValue
        case .help(let path):
            context.standardOutput.write(formatter.commandHelp(path))
            return ExitStatus.success.rawValue
        case .run(let path, let values):
            guard let run = path.last?.run else {
                reportUsageError("missing subcommand", path: path, context: context, formatter: formatter)
                return ExitStatus.usageError.rawValue
            }
            do {
                try await run(values, context)
                if let changed = context.mappedFiles.firstChanged {
                    // Its output went to standard output (a file would have been refused before its rename).
                    reportChanged(changed, consequence: "what was printed from it is not to be trusted", context: context)
                    return ExitStatus.failure.rawValue
                }
                return ExitStatus.success.rawValue
            } catch {
                if let changed = context.mappedFiles.firstChanged {
                    // Whatever else failed came from the zeros read in place of the lost text.
                    reportChanged(changed, consequence: "nothing written", context: context)
                    return ExitStatus.failure.rawValue
                }
                let failure = failure(for: error)
                if failure.status == .usageError, let message = failure.message {
                    reportUsageError(message, path: path, context: context, formatter: formatter)
                } else if let message = failure.message {
                    context.standardError.writeLine("\(name): error: \(CommandContext.display(message))")
                }
                return failure.status.rawValue
            }
        }
    }

    /// Reports a file that changed while the command read it (another
    /// program cut it short): what the command made of it is not used.
    private func reportChanged(_ path: String, consequence: String, context: CommandContext) {
        context.standardError.writeLine(
            "\(name): error: \(CommandContext.display(path)): \(MappedFileChanged.reason); \(consequence)")
    }

    /// The help text `NAME --help` prints.
    public var helpText: String { HelpFormatter(tool: self).groupHelp([]) }

    /// The help text `NAME help COMMAND...` prints, or `nil` when there is
    /// no such command.
    public func helpText(for commandNames: [String]) -> String? {
        var path: [Command] = []
        for commandName in commandNames {
            guard let command = (path.last?.subcommands ?? commands).first(where: { $0.name == commandName }) else {
                return nil
            }
            path.append(command)
        }
        return HelpFormatter(tool: self).commandHelp(path)
    }

    /// Mistakes in the declarations, one line each; empty when there are
    /// none. Meant for a unit test over the real tool: duplicate names, an
    /// option clashing with `--help`/`-h`/`--version`, a default that does
    /// not parse, a required option with a default, optional or variadic
    /// arguments before required ones, and commands without `run`.
    public func validate() -> [String] {
        var problems: [String] = []
        validate(commands, path: [], problems: &problems)
        problems += optionProblems(globalOptions, arguments: [], where: "global options")
        return problems
    }

    private func validate(_ commands: [Command], path: [String], problems: inout [String]) {
        var seen: Set<String> = path.isEmpty ? ["help"] : []
        for command in commands {
            let fullName = (path + [command.name]).joined(separator: " ")
            if !seen.insert(command.name).inserted { problems.append("'\(fullName)': command name used twice") }
            if command.name.isEmpty || command.name.hasPrefix("-") || command.name.contains(" ") {
                problems.append("'\(fullName)': invalid command name")
            }
            if command.subcommands.isEmpty {
                if command.run == nil { problems.append("'\(fullName)': no subcommands and nothing to run") }
                problems += optionProblems(command.options + globalOptions, arguments: command.arguments, where: "'\(fullName)'")
                problems += argumentProblems(command.arguments, where: "'\(fullName)'")
            } else {
                validate(command.subcommands, path: path + [command.name], problems: &problems)
            }
        }
    }

    private func optionProblems(_ options: [Option], arguments: [Argument], where place: String) -> [String] {
        var problems: [String] = []
        var names: Set<String> = ["help", "version"]
        var shorts: Set<Character> = ["h"]
        for argument in arguments where !names.insert(argument.name).inserted {
            problems.append("\(place): name '\(argument.name)' used twice")
        }
        for option in options {
            if !names.insert(option.name).inserted { problems.append("\(place): name '\(option.name)' used twice") }
            if option.name.isEmpty || option.name.hasPrefix("-") || option.name.contains("=") || option.name.contains(" ") {
                problems.append("\(place): invalid option name '\(option.name)'")
            }
            if let short = option.short {
                if !shorts.insert(short).inserted { problems.append("\(place): short name '-\(short)' used twice") }
                if short == "-" || short == "=" || short.isNumber { problems.append("\(place): invalid short name '-\(short)'") }
            }
            if let type = option.type, let defaultValue = option.defaultValue {
                do { _ = try type.kind.parse(defaultValue) } catch {
                    problems.append("\(place): default of \(option.longName): \(error.message)")
                }
                if option.isRequired { problems.append("\(place): \(option.longName) is required and has a default") }
            }
        }
        return problems
    }

    private func argumentProblems(_ arguments: [Argument], where place: String) -> [String] {
        var problems: [String] = []
        var sawOptional = false
        for (position, argument) in arguments.enumerated() {
            if argument.arity.isVariadic, position != arguments.count - 1 {
                problems.append("\(place): variadic argument <\(argument.name)> is not the last")
            }
            if argument.arity.isOptional {
                sawOptional = true
            } else if sawOptional {
                problems.append("\(place): required argument <\(argument.name)> follows an optional one")
            }
        }
        return problems
    }

    private func failure(for error: any Error) -> CommandFailure {
        if let failure = error as? CommandFailure { return failure }
        if error is CancellationError { return CommandFailure(status: .interrupted, message: "interrupted") }
        if let mapped = mapError?(error) { return mapped }
        return CommandFailure(status: .failure, message: String(describing: error))
    }

    private func reportUsageError(_ message: String, path: [Command], context: CommandContext, formatter: HelpFormatter) {
        context.standardError.write(
            "\(name): error: \(CommandContext.display(message))\n\(formatter.usage(path))\n\(formatter.helpPointer(path))\n"
        )
    }
}
