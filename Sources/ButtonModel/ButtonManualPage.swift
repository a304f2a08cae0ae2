import GestureModel

/// `gesturectl-button`'s manual page, gesturectl-button(1), made from its
/// own `--help` text (``ButtonCommandLine/help``), so that the two never
/// disagree (`gesturectl-button --manpage`, which scripts/package installs).
///
/// The help's layout is read as it is written: its first line is the name
/// and what it is, `Usage:` the synopsis, paragraphs the description; a
/// line ending with a colon (`Options:`) starts a section whose lines
/// indented by two spaces are entries (the term, two spaces or more, the
/// text, continued on lines indented further); `Exit status:` is its own
/// section, and `Examples:` lists commands as they are.
public enum ButtonManualPage {
    /// The page in roff (man(7)), dated `date` (`YYYY-MM-DD`).
    public static func roff(date: String) -> String {
        var lines = [
            ".TH \"GESTURECTL-BUTTON\" \"1\" \"\(date)\" \"gesturectl-button \(ButtonCommandLine.version)\" \"User Commands\"",
        ]
        let help = ButtonCommandLine.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [[String]] = [[]]
        for line in help {
            if line.trimmingSpaces.isEmpty {
                if !(blocks.last ?? []).isEmpty { blocks.append([]) }
            } else {
                blocks[blocks.count - 1].append(line)
            }
        }
        blocks.removeAll { $0.isEmpty }
        guard let first = blocks.first?.first else { return lines.joined(separator: "\n") + "\n" }
        let (name, what) = split(first, at: " — ")
        lines += [".SH NAME", escape(name) + " \\- " + escape(what)]
        var inDescription = false
        for block in blocks.dropFirst() {
            let head = block[0]
            if head.hasPrefix("Usage: ") {
                lines += [".SH SYNOPSIS", ".B " + escape(String(head.dropFirst("Usage: ".count)))]
                continue
            }
            if head.hasPrefix("Exit status: ") {
                lines += [".SH \"EXIT STATUS\""] + block.map { escape($0.trimmingSpaces) }.replacingFirst(
                    escape(String(head.dropFirst("Exit status: ".count))))
                continue
            }
            if !head.hasPrefix(" "), head.hasSuffix(":") {
                let title = String(head.dropLast())
                let (short, aside) = split(title, at: " (")
                lines.append(".SH " + quoted(short.uppercased()))
                if !aside.isEmpty { lines += [".PP", escape(String(aside.dropLast()))] }
                lines += section(Array(block.dropFirst()), commands: short == "Examples")
                continue
            }
            if !inDescription {
                lines.append(".SH DESCRIPTION")
                inDescription = true
            }
            lines.append(".PP")
            lines += block.map { escape($0.trimmingSpaces) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A section's lines: entries (`.TP`), commands (`.nf`), or text.
    private static func section(_ block: [String], commands: Bool) -> [String] {
        var lines: [String] = []
        if commands {
            lines += [".PP", ".nf"] + block.map { escape($0.trimmingSpaces) } + [".fi"]
            return lines
        }
        var inText = false
        for line in block {
            let indent = line.prefix { $0 == " " }.count
            if indent == 2 {
                let (term, text) = split(String(line.dropFirst(2)), at: "  ")
                lines += [".TP", ".B " + escape(term)]
                if !text.isEmpty { lines.append(escape(text.trimmingSpaces)) }
                inText = false
            } else if indent > 2 {
                lines.append(escape(line.trimmingSpaces))
            } else {
                if !inText { lines.append(".PP") }
                inText = true
                lines.append(escape(line))
            }
        }
        return lines
    }

    /// `2026-11-30` for a time in seconds since 1970 (UTC), e.g.
    /// `SOURCE_DATE_EPOCH` (``GestureModel/CivilDate``).
    public static func date(secondsSince1970 seconds: Int64) -> String { CivilDate.text(secondsSince1970: seconds) }

    /// Text for roff: backslashes and hyphens escaped, and a line that
    /// would start with a control character made plain.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            default: result.append(character)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    private static func quoted(_ text: String) -> String { "\"" + escape(text) + "\"" }

    /// `text` before and after the first `separator` (after: empty when there is none).
    private static func split(_ text: String, at separator: String) -> (String, String) {
        let characters = Array(text)
        let mark = Array(separator)
        guard characters.count >= mark.count else { return (text, "") }
        for start in 0...(characters.count - mark.count) where Array(characters[start..<start + mark.count]) == mark {
            let rest = String(characters[(start + mark.count)...]).drop { $0 == " " }
            return (String(characters[..<start]), String(rest))
        }
        return (text, "")
    }
}

extension String {
    /// Without the spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension Array where Element == String {
    /// The array with its first element replaced.
    fileprivate func replacingFirst(_ value: String) -> [String] {
        isEmpty ? [value] : [value] + dropFirst()
    }
}
