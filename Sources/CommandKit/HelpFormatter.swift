/// Writes the generated help texts and usage lines.
///
/// Layout: 80 columns; two-column lists (commands, arguments, options)
/// indent names by 2 and align descriptions in one column per list, at most
/// at column 30; a name too long for that column puts its description on
/// the next line. Descriptions are word-wrapped.
struct HelpFormatter {
    let tool: Tool

    static let width = 80
    static let maximumColumn = 30

    // MARK: - Usage lines

    /// `usage: TOOL <command> [<options>]`, or the usage line of the last
    /// command in `path`.
    func usage(_ path: [Command]) -> String {
        guard let command = path.last else {
            return "usage: \(tool.name) <command> [<options>] [<arguments>]"
        }
        var parts = ["usage:", tool.name] + path.map(\.name)
        if !command.subcommands.isEmpty {
            parts.append("<command>")
            return parts.joined(separator: " ")
        }
        parts += command.shownOptions.filter(\.isRequired).map(\.usage)
        if command.shownOptions.contains(where: { !$0.isRequired }) { parts.append("[<options>]") }
        parts += command.arguments.map(\.usage)
        return parts.joined(separator: " ")
    }

    /// `Run 'TOOL help CMD' for more.`
    func helpPointer(_ path: [Command]) -> String {
        "Run '" + ([tool.name, "help"] + path.map(\.name)).joined(separator: " ") + "' for more."
    }

    // MARK: - Help texts

    /// The tool's help, or a group's when `path` ends in one.
    func groupHelp(_ path: [Command]) -> String {
        let commands = (path.last?.subcommands ?? tool.commands).filter { !$0.isHidden }
        var out: [String] = []
        if let group = path.last {
            out.append(group.abstract)
        } else {
            out.append(tool.abstract.isEmpty ? "\(tool.name) \(tool.version)" : "\(tool.name) \(tool.version): \(tool.abstract)")
        }
        out.append("")
        out.append(usage(path))

        // Sections in order of first appearance; commands without one go
        // under COMMANDS.
        var sections: [String?] = []
        for command in commands where !sections.contains(command.section) { sections.append(command.section) }
        let globalRows = tool.shownGlobalOptions.map { optionRow($0) } + [
            ("-h, --help", "Show help."),
            ("    --version", "Show the version."),
        ]
        // One description column for the whole page.
        let column = columnFor(commands.map(\.name) + (path.isEmpty ? globalRows.map(\.0) : []))
        for section in sections {
            out.append("")
            out.append((section ?? "Commands").uppercased() + ":")
            out += table(commands.filter { $0.section == section }.map { ($0.name, $0.abstract) }, column: column)
        }

        if path.isEmpty {
            out.append("")
            out.append("GLOBAL OPTIONS:")
            out += table(globalRows, column: column)
            out.append("")
            out.append("EXIT STATUS:")
            let codes = ExitStatus.allCases.map { String($0.rawValue) }
            let codeWidth = codes.map(\.count).max() ?? 0
            for (code, status) in zip(codes, ExitStatus.allCases) {
                out.append("  " + String(repeating: " ", count: codeWidth - code.count) + code + "  " + status.summary)
            }
        }
        let discussion = path.last?.discussion ?? tool.discussion
        if !discussion.isEmpty {
            out.append("")
            out.append(discussion.trimmingTrailingNewlines)
        }
        out.append("")
        let helpCommand = ([tool.name, "help"] + path.map(\.name)).joined(separator: " ")
        out.append("Run '\(helpCommand) <command>' for help on a command.")
        return out.joined(separator: "\n") + "\n"
    }

    /// The help of one command: abstract, usage, arguments, options, discussion.
    func commandHelp(_ path: [Command]) -> String {
        guard let command = path.last else { return groupHelp(path) }
        if !command.subcommands.isEmpty { return groupHelp(path) }
        var out: [String] = [command.abstract, "", usage(path)]
        let argumentRows = command.arguments.map { ("<\($0.name)>", $0.help) }
        let optionRows = command.shownOptions.map { optionRow($0) } + [("-h, --help", "Show help for this command.")]
        let globalRows = tool.shownGlobalOptions.map { optionRow($0) }
        // One description column for the whole page.
        let column = columnFor((argumentRows + optionRows + globalRows).map(\.0))
        if !argumentRows.isEmpty {
            out.append("")
            out.append("ARGUMENTS:")
            out += table(argumentRows, column: column)
        }
        out.append("")
        out.append("OPTIONS:")
        out += table(optionRows, column: column)
        if !globalRows.isEmpty {
            out.append("")
            out.append("GLOBAL OPTIONS:")
            out += table(globalRows, column: column)
        }
        if !command.discussion.isEmpty {
            out.append("")
            out.append(command.discussion.trimmingTrailingNewlines)
        }
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: - Layout

    /// The name and description of an option: `-o, --output <file>` and its
    /// help with the allowed values and the default.
    func optionRow(_ option: Option) -> (String, String) {
        var name = option.short.map { "-\($0), " } ?? "    "
        name += option.usage
        if option.isRepeatable { name += " ..." }
        return (name, Self.description(of: option))
    }

    /// An option's help with the allowed values and the default, as the
    /// help text and the manual pages show it.
    static func description(of option: Option) -> String {
        var details: [String] = []
        if let detail = option.type?.kind.helpDetail { details.append(detail) }
        if let defaultValue = option.defaultValue { details.append("default: \(defaultValue)") }
        var help = option.help
        if !details.isEmpty { help += " (" + details.joined(separator: "; ") + ")" }
        return help
    }

    private func columnFor(_ names: [String]) -> Int {
        min(2 + (names.map(\.count).max() ?? 0) + 2, Self.maximumColumn)
    }

    private func table(_ rows: [(String, String)], column: Int) -> [String] {
        rows.flatMap { twoColumns($0.0, $0.1, column: column) }
    }

    private func twoColumns(_ name: String, _ text: String, column: Int) -> [String] {
        let lead = "  " + name
        let lines = wrap(text, width: Self.width - column)
        let indent = String(repeating: " ", count: column)
        guard let first = lines.first else { return [lead] }
        if lead.count + 2 > column {
            return [lead] + lines.map { indent + $0 }
        }
        return [lead + String(repeating: " ", count: column - lead.count) + first] + lines.dropFirst().map { indent + $0 }
    }

    /// `text` split into lines of at most `width` characters at spaces
    /// (a longer word gets a line of its own); newlines in `text` are kept.
    func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}

extension Command {
    /// The options help texts, manual pages and completions show.
    var shownOptions: [Option] { options.filter { !$0.isHidden } }
    /// The subcommands help texts, manual pages and completions show.
    var shownSubcommands: [Command] { subcommands.filter { !$0.isHidden } }
}

extension Tool {
    /// The global options help texts, manual pages and completions show.
    var shownGlobalOptions: [Option] { globalOptions.filter { !$0.isHidden } }
    /// The commands help texts, manual pages and completions show.
    var shownCommands: [Command] { commands.filter { !$0.isHidden } }
}

extension String {
    /// The string without newlines at its end.
    var trimmingTrailingNewlines: String {
        var copy = self
        while copy.hasSuffix("\n") { copy.removeLast() }
        return copy
    }
}
