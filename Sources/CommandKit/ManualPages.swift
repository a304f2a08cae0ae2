import GestureModel

/// Manual pages (man(7) markup) generated from a tool's declarations, the
/// same ones its `--help` comes from, so the two never disagree: a page
/// for the tool (`gesturectl(1)`: commands, global options, exit statuses,
/// environment, files) and one per command (`gesturectl-play(1)`, as git
/// does), a group's subcommands as sections of its page.
public struct ManualPages: Sendable {
    /// One generated page.
    public struct Page: Sendable, Equatable {
        /// The page's name (`gesturectl-play`).
        public var name: String
        /// Its manual section (`1`, `5`, `8`).
        public var section: Int
        /// The man(7) source.
        public var text: String
        /// The file name it is installed under (`gesturectl-play.1`).
        public var fileName: String { "\(name).\(section)" }
    }

    /// A name and what it means: an environment variable or a file.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var meaning: String
        /// Creates an entry.
        public init(_ name: String, _ meaning: String) {
            self.name = name
            self.meaning = meaning
        }
    }

    /// The tool the pages describe.
    public var tool: Tool
    /// The date the pages carry (`2026-11-30`): for reproducible packages,
    /// the date of the source, not of the build.
    public var date: String
    /// Manual sections other than 1 for commands, by name (`["daemon": 8]`).
    public var sections: [String: Int]
    /// The tool page's ENVIRONMENT section.
    public var environment: [Entry]
    /// The tool page's FILES section.
    public var files: [Entry]
    /// Further pages for every SEE ALSO section (`gesturectl-format(5)`), as `name(section)`.
    public var seeAlso: [String]

    /// Describes the pages of `tool`.
    public init(
        tool: Tool, date: String, sections: [String: Int] = [:], environment: [Entry] = [], files: [Entry] = [],
        seeAlso: [String] = []
    ) {
        self.tool = tool
        self.date = date
        self.sections = sections
        self.environment = environment
        self.files = files
        self.seeAlso = seeAlso
    }

    /// Every page: the tool's first, then one per shown command.
    public var pages: [Page] { [toolPage] + tool.shownCommands.map { page(for: $0) } }

    /// The page name of `command`: `TOOL-COMMAND`.
    func pageName(_ command: Command) -> String { "\(tool.name)-\(command.name)" }

    func section(of command: Command) -> Int { sections[command.name] ?? 1 }

    /// Every page's `name(section)`, for SEE ALSO.
    private var allReferences: [String] {
        ["\(tool.name)(1)"] + tool.shownCommands.map { "\(pageName($0))(\(section(of: $0)))" } + seeAlso
    }

    // MARK: - Pages

    /// `TOOL(1)`.
    public var toolPage: Page {
        var roff = Roff()
        roff.header(name: tool.name, section: 1, date: date, source: "\(tool.name) \(tool.version)")
        roff.section("NAME")
        roff.text("\(tool.name) \\- " + Roff.escape(tool.abstract))
        roff.section("SYNOPSIS")
        roff.line(".B \(Roff.escape(tool.name))")
        roff.line("[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]")
        roff.line(".br")
        roff.line(".B \(Roff.escape(tool.name))")
        roff.line("\\fBhelp\\fR [\\fIcommand\\fR] | \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR")
        roff.section("DESCRIPTION")
        roff.text(Roff.escape(tool.abstract))
        roff.discussion(tool.discussion)
        var sectionNames: [String?] = []
        for command in tool.shownCommands where !sectionNames.contains(command.section) {
            sectionNames.append(command.section)
        }
        roff.section("COMMANDS")
        for sectionName in sectionNames {
            roff.subsection(sectionName ?? "Commands")
            for command in tool.shownCommands where command.section == sectionName {
                roff.tagged("\\fB\(Roff.escape(command.name))\\fR")
                roff.text(Roff.escape(command.abstract) + " See \\fB\(Roff.escape(pageName(command)))\\fR(\(section(of: command))).")
            }
        }
        roff.section("GLOBAL OPTIONS")
        for option in tool.shownGlobalOptions { roff.option(option) }
        roff.tagged("\\fB\\-h\\fR, \\fB\\-\\-help\\fR")
        roff.text("Show help (also after a command, for that command).")
        roff.tagged("\\fB\\-\\-version\\fR")
        roff.text("Show the version.")
        roff.section("EXIT STATUS")
        for status in ExitStatus.allCases {
            roff.tagged("\\fB\(status.rawValue)\\fR")
            roff.text(Roff.escape(status.summary.prefix(1).uppercased() + status.summary.dropFirst()) + ".")
        }
        entries("ENVIRONMENT", environment, into: &roff)
        entries("FILES", files, into: &roff)
        roff.seeAlso(allReferences.filter { $0 != "\(tool.name)(1)" })
        return Page(name: tool.name, section: 1, text: roff.text)
    }

    /// `TOOL-COMMAND(n)`: synopsis, description, arguments, options, and
    /// for a group each subcommand as a section.
    public func page(for command: Command) -> Page {
        var roff = Roff()
        let name = pageName(command)
        roff.header(name: name, section: section(of: command), date: date, source: "\(tool.name) \(tool.version)")
        roff.section("NAME")
        roff.text("\(Roff.escape(name)) \\- " + Roff.escape(command.abstract))
        roff.section("SYNOPSIS")
        let commands = command.subcommands.isEmpty ? [[command]] : command.shownSubcommands.map { [command, $0] }
        for (position, path) in commands.enumerated() {
            if position > 0 { roff.line(".br") }
            synopsis(path, into: &roff)
        }
        roff.section("DESCRIPTION")
        roff.text(Roff.escape(command.abstract))
        roff.discussion(command.discussion)
        if command.subcommands.isEmpty {
            arguments(command, into: &roff)
            roff.section("OPTIONS")
            for option in command.shownOptions { roff.option(option) }
            roff.tagged("\\fB\\-h\\fR, \\fB\\-\\-help\\fR")
            roff.text("Show help for this command.")
        } else {
            roff.section("COMMANDS")
            for subcommand in command.shownSubcommands {
                roff.subsection("\(tool.name) \(command.name) \(subcommand.name)")
                roff.text(Roff.escape(subcommand.abstract))
                roff.discussion(subcommand.discussion)
                for argument in subcommand.arguments {
                    roff.tagged("\\fI\(Roff.escape(argument.name))\\fR")
                    roff.text(Roff.escape(argument.help))
                }
                for option in subcommand.shownOptions { roff.option(option) }
            }
        }
        if !tool.shownGlobalOptions.isEmpty {
            roff.section("GLOBAL OPTIONS")
            for option in tool.shownGlobalOptions { roff.option(option) }
        }
        roff.section("EXIT STATUS")
        roff.text("0 on success; see \\fB\(Roff.escape(tool.name))\\fR(1) for the others.")
        roff.seeAlso(["\(tool.name)(1)"] + seeAlso)
        return Page(name: name, section: section(of: command), text: roff.text)
    }

    private func synopsis(_ path: [Command], into roff: inout Roff) {
        guard let command = path.last else { return }
        roff.line(".B " + Roff.escape(([tool.name] + path.map(\.name)).joined(separator: " ")))
        var parts: [String] = []
        for option in command.shownOptions where option.isRequired {
            parts.append("\\fB\(Roff.escape(option.longName))\\fR \\fI\(Roff.escape(option.valueName))\\fR")
        }
        if command.shownOptions.contains(where: { !$0.isRequired }) { parts.append("[\\fIoptions\\fR]") }
        for argument in command.arguments {
            let name = "\\fI\(Roff.escape(argument.name))\\fR"
            switch argument.arity {
            case .required: parts.append(name)
            case .optional: parts.append("[\(name)]")
            case .zeroOrMore: parts.append("[\(name) ...]")
            case .oneOrMore: parts.append("\(name) ...")
            }
        }
        if !parts.isEmpty { roff.line(parts.joined(separator: " ")) }
    }

    private func arguments(_ command: Command, into roff: inout Roff) {
        guard !command.arguments.isEmpty else { return }
        roff.section("ARGUMENTS")
        for argument in command.arguments {
            roff.tagged("\\fI\(Roff.escape(argument.name))\\fR")
            roff.text(Roff.escape(argument.help))
        }
    }

    private func entries(_ title: String, _ entries: [Entry], into roff: inout Roff) {
        guard !entries.isEmpty else { return }
        roff.section(title)
        for entry in entries {
            roff.tagged("\\fB\(Roff.escape(entry.name))\\fR")
            roff.text(Roff.escape(entry.meaning))
        }
    }

    /// `2026-11-30` for a time in seconds since 1970 (UTC), e.g.
    /// `SOURCE_DATE_EPOCH` (``GestureModel/CivilDate``).
    public static func date(secondsSince1970 seconds: Int64) -> String { CivilDate.text(secondsSince1970: seconds) }
}

/// Builds man(7) source line by line.
struct Roff {
    private(set) var lines: [String] = []

    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func line(_ line: String) { lines.append(line) }

    mutating func header(name: String, section: Int, date: String, source: String) {
        let manual = switch section {
        case 5: "File Formats"
        case 8: "System Administration"
        default: "User Commands"
        }
        lines.append(".TH \(Self.quoted(name.uppercased())) \(section) \(Self.quoted(date)) \(Self.quoted(source)) \(Self.quoted(manual))")
        // No hyphenation, left-aligned: option names and paths must not break.
        lines += [".nh", ".ad l"]
    }

    mutating func section(_ title: String) { lines.append(".SH " + Self.quoted(title)) }

    mutating func subsection(_ title: String) { lines.append(".SS " + Self.quoted(title)) }

    /// An indented paragraph with `tag` (already escaped) as its label.
    mutating func tagged(_ tag: String) {
        lines.append(".TP")
        lines.append(tag)
    }

    /// Filled text (already escaped), which may span lines.
    mutating func text(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            lines.append(Self.guardLine(String(line)))
        }
    }

    /// An option as a tagged paragraph: `-o, --output file` and its help
    /// with the allowed values and the default, as `--help` shows it.
    mutating func option(_ option: Option) {
        var tag = option.short.map { "\\fB\\-\(Self.escape(String($0)))\\fR, " } ?? ""
        tag += "\\fB\(Self.escape(option.longName))\\fR"
        if !option.isFlag { tag += " \\fI\(Self.escape(option.valueName))\\fR" }
        if option.isRepeatable { tag += " ..." }
        tagged(tag)
        text(Self.escape(HelpFormatter.description(of: option)))
    }

    /// A command's or the tool's discussion: paragraphs are filled; lines
    /// indented by two or more spaces (examples) are kept as written.
    mutating func discussion(_ discussion: String) {
        var filled: [String] = []
        var verbatim: [String] = []
        func flush() {
            if !filled.isEmpty {
                lines.append(".PP")
                text(Self.escape(filled.joined(separator: "\n")))
                filled = []
            }
            if !verbatim.isEmpty {
                lines += [".PP", ".RS 4", ".nf"]
                lines += verbatim.map { Self.guardLine(Self.escape($0)) }
                lines += [".fi", ".RE"]
                verbatim = []
            }
        }
        for rawLine in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.allSatisfy({ $0 == " " }) {
                flush()
            } else if line.hasPrefix("  ") {
                if !filled.isEmpty { flush() }
                verbatim.append(String(line.drop { $0 == " " }))
            } else {
                if !verbatim.isEmpty { flush() }
                filled.append(line)
            }
        }
        flush()
    }

    mutating func seeAlso(_ references: [String]) {
        guard !references.isEmpty else { return }
        section("SEE ALSO")
        let items = references.map { reference -> String in
            guard let open = reference.firstIndex(of: "(") else { return "\\fB\(Self.escape(reference))\\fR" }
            return "\\fB\(Self.escape(String(reference[..<open])))\\fR" + Self.escape(String(reference[open...]))
        }
        text(items.joined(separator: ",\n"))
    }

    /// `text` with roff's special characters escaped: backslashes,
    /// hyphens (as the minus signs options are typed with) and every
    /// character outside ASCII as a named Unicode escape, so the page
    /// renders the same in any locale.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\t": out += " "
            default:
                if scalar.value < 0x80 {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\[u" + hex(scalar.value) + "]"
                }
            }
        }
        return out
    }

    /// A line that starts with `.` or `'` would be a request: `\&` first.
    static func guardLine(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    /// A macro argument in double quotes (escaped; quotes as `\(dq`).
    static func quoted(_ text: String) -> String {
        "\"" + escape(text).split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\\(dq") + "\""
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = ""
        var rest = value
        repeat {
            text.insert(digits[Int(rest % 16)], at: text.startIndex)
            rest /= 16
        } while rest > 0
        while text.count < 4 { text.insert("0", at: text.startIndex) }
        return text
    }
}
