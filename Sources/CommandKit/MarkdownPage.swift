extension ManualPages {
    /// A manual page from a Markdown document (such as a file format's
    /// specification), so that the page and the document are one text.
    ///
    /// Understood: `#` (the page's title, after the NAME), `##` and `###`
    /// headings, paragraphs, fenced code blocks, `-` and `1.` lists (with
    /// indented continuation lines), tables (each row a tagged paragraph:
    /// the first cell, then the others as `header: cell`), and inline
    /// `code`, **bold**, *italics* and [links](#target) (their text only).
    public static func markdownPage(
        name: String, section: Int, date: String, source: String, summary: String, markdown: String
    ) -> Page {
        var roff = Roff()
        roff.header(name: name, section: section, date: date, source: source)
        roff.section("NAME")
        roff.text(Roff.escape(name) + " \\- " + Roff.escape(summary))
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var paragraph: [String] = []
        var sawSection = false
        func flush() {
            guard !paragraph.isEmpty else { return }
            roff.line(".PP")
            roff.text(inline(paragraph.joined(separator: "\n")))
            paragraph = []
        }
        while let line = lines.popFirst() {
            if line.hasPrefix("```") {
                flush()
                roff.line(".PP")
                roff.line(".RS 4")
                roff.line(".nf")
                while let code = lines.popFirst(), !code.hasPrefix("```") {
                    roff.line(Roff.guardLine(Roff.escape(code)))
                }
                roff.line(".fi")
                roff.line(".RE")
            } else if line.hasPrefix("### ") {
                flush()
                roff.subsection(plain(String(line.dropFirst(4))))
            } else if line.hasPrefix("## ") {
                flush()
                roff.section(plain(String(line.dropFirst(3))).uppercased())
                sawSection = true
            } else if line.hasPrefix("# ") {
                flush()
                if !sawSection { roff.section("DESCRIPTION") }
                sawSection = true
            } else if line.trimmingSpaces.isEmpty {
                flush()
            } else if line.hasPrefix("|") {
                flush()
                var rows = [line]
                while let next = lines.first, next.hasPrefix("|") { rows.append(lines.removeFirst()) }
                table(rows, into: &roff)
            } else if let item = listItem(line) {
                flush()
                var text = [item.text]
                while let next = lines.first, next.hasPrefix("  "), !next.trimmingSpaces.isEmpty {
                    text.append(lines.removeFirst().trimmingSpaces)
                }
                roff.line(".IP \(item.marker) 4")
                roff.text(inline(text.joined(separator: "\n")))
            } else {
                if !sawSection {
                    roff.section("DESCRIPTION")
                    sawSection = true
                }
                paragraph.append(line)
            }
        }
        flush()
        return Page(name: name, section: section, text: roff.text)
    }

    private static func listItem(_ line: String) -> (marker: String, text: String)? {
        if line.hasPrefix("- ") || line.hasPrefix("* ") { return ("\\(bu", String(line.dropFirst(2))) }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, line.dropFirst(digits.count).hasPrefix(". ") {
            return (digits + ".", String(line.dropFirst(digits.count + 2)))
        }
        return nil
    }

    private static func table(_ rows: [String], into roff: inout Roff) {
        func cells(_ row: String) -> [String] {
            var body = Substring(row.trimmingSpaces)
            if body.hasPrefix("|") { body = body.dropFirst() }
            if body.hasSuffix("|") { body = body.dropLast() }
            return body.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        }
        guard let header = rows.first.map(cells) else { return }
        for row in rows.dropFirst() {
            let values = cells(row)
            if values.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { continue }
            roff.tagged(inline(values.first ?? ""))
            var parts: [String] = []
            for (column, value) in values.enumerated().dropFirst() where !value.isEmpty {
                let title = column < header.count ? header[column] : ""
                parts.append(title.isEmpty || title == "Meaning" ? value : "\(title): \(value)")
            }
            roff.text(inline(parts.joined(separator: "; ")))
        }
    }

    /// Text without Markdown markup (for headings).
    private static func plain(_ text: String) -> String {
        var out = ""
        for character in text where character != "`" && character != "*" { out.append(character) }
        return out
    }

    /// Markdown inline markup to roff fonts, escaped.
    static func inline(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let character = rest.first {
            if character == "`", let end = rest.dropFirst().firstIndex(of: "`") {
                out += "\\fB" + Roff.escape(String(rest[rest.index(after: rest.startIndex)..<end])) + "\\fR"
                rest = rest[rest.index(after: end)...]
            } else if rest.hasPrefix("**"), let end = rest.dropFirst(2).range(of: "**") {
                out += "\\fB" + inline(String(rest.dropFirst(2)[..<end.lowerBound])) + "\\fR"
                rest = rest[end.upperBound...]
            } else if character == "*", rest.dropFirst().first.map({ $0 != " " }) ?? false,
                let end = rest.dropFirst().firstIndex(of: "*")
            {
                out += "\\fI" + inline(String(rest[rest.index(after: rest.startIndex)..<end])) + "\\fR"
                rest = rest[rest.index(after: end)...]
            } else if character == "[", let close = rest.firstIndex(of: "]"),
                rest[rest.index(after: close)...].hasPrefix("("),
                let end = rest[close...].firstIndex(of: ")")
            {
                out += inline(String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: end)...]
            } else {
                out += Roff.escape(String(character))
                rest = rest.dropFirst()
            }
        }
        // Lines of the result must not start a request.
        return out.split(separator: "\n", omittingEmptySubsequences: false).map { Roff.guardLine(String($0)) }
            .joined(separator: "\n")
    }
}

extension String {
    /// The string without spaces at either end.
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
