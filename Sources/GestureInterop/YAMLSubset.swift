import GestureModel

/// One value of the YAML subset that `libinput record` writes, with the line
/// it starts on.
struct YAMLNode {
    /// A `key: value` pair of a mapping.
    struct Entry {
        var key: String
        var keyLine: Int
        var value: YAMLNode
    }

    /// What the node holds.
    enum Content {
        /// A scalar's text; `quoted` when it was written in quotes (so that
        /// `"1"` stays text and an empty `""` is not null).
        case scalar(String, quoted: Bool)
        /// A block or flow sequence.
        case sequence([YAMLNode])
        /// A block or flow mapping, entries in file order.
        case mapping([Entry])
        /// Nothing after `key:` (or `~`, `null`).
        case null
    }

    var content: Content
    var line: Int
}

/// Parses the subset of YAML 1.1 that `libinput record` emits, with no YAML
/// library:
///
/// - block mappings (`key: value`, `key:` with a nested block) and block
///   sequences (`- item`), also "indentless" sequences at the indentation
///   of their key and mappings that start on a `- key: value` line;
/// - flow sequences `[1, 2]` and flow mappings `{a: 1}`, nested and spanning
///   lines (the `hid:` report descriptor);
/// - plain, `"double-quoted"` (with `\"`, `\\`, `\n`, `\t`, `\xNN`, `\uNNNN`
///   escapes) and `'single-quoted'` scalars on one line;
/// - `#` comments (whole lines and after a value), blank lines, a leading
///   `---`.
///
/// Everything else — block scalars (`|`, `>`), anchors, aliases, tags,
/// complex keys, tabs in indentation, multi-line plain scalars — is refused
/// with a `malformed` error naming the line. Nesting is limited to
/// ``maximumDepth`` levels so that hostile input cannot exhaust the stack.
struct YAMLSubsetParser {
    /// The deepest nesting accepted (block and flow levels together).
    static let maximumDepth = 64

    private struct LogicalLine {
        var number: Int
        var indent: Int
        /// The content after the indentation, comment and trailing spaces removed.
        var text: ArraySlice<UInt8>
    }

    private let source: String
    private var lines: [LogicalLine] = []
    private var index = 0

    /// Parses a whole document.
    static func parse(_ text: String, source: String) throws(InteropError) -> YAMLNode {
        try parse(TextLines(text), source: source)
    }

    /// Parses a whole document already split into lines.
    static func parse(_ lines: TextLines, source: String) throws(InteropError) -> YAMLNode {
        var parser = YAMLSubsetParser(source: source)
        try parser.prepare(lines)
        guard !parser.lines.isEmpty else {
            throw InteropError(kind: .malformed, source: source, message: "the file is empty")
        }
        let root = try parser.parseBlock(parentIndent: -1, depth: 0)
        if parser.index < parser.lines.count {
            let line = parser.lines[parser.index]
            throw parser.error(line.number, "unexpected indentation or content: '\(preview(line.text))'")
        }
        return root
    }

    private init(source: String) { self.source = source }

    private func error(_ line: Int, _ message: String, kind: InteropError.Kind = .malformed) -> InteropError {
        InteropError(kind: kind, source: source, line: line, message: message)
    }

    // MARK: Lines

    private mutating func prepare(_ text: TextLines) throws(InteropError) {
        for line in text.lines {
            var indent = 0
            var position = line.bytes.startIndex
            while position < line.bytes.endIndex, line.bytes[position] == UInt8(ascii: " ") {
                indent += 1
                position += 1
            }
            let rest = line.bytes[position...]
            let content = Self.trimTrailingSpace(Self.stripComment(rest))
            if content.isEmpty { continue }
            if content.first == UInt8(ascii: "\t") {
                throw error(line.number, "a tab in the indentation (YAML indents with spaces only)")
            }
            if lines.isEmpty && indent == 0 && content.elementsEqual("---".utf8) { continue }
            if indent == 0 && (content.elementsEqual("...".utf8) || content.first == UInt8(ascii: "%")) {
                throw error(line.number, "YAML directives and document markers are not supported here")
            }
            lines.append(LogicalLine(number: line.number, indent: indent, text: content))
        }
    }

    /// The text before a `#` that starts a comment: one at the start or after
    /// a space, outside quoted scalars.
    static func stripComment(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        text[text.startIndex..<scanUnquoted(text) { byte, previous in !(byte == UInt8(ascii: "#") && isSpace(previous)) }]
    }

    /// Calls `visit` with each byte outside quoted scalars (the quotes
    /// themselves excluded) and the byte before it, in order, until it
    /// returns false; where it stopped, or the end. A `\` escapes the next
    /// byte in a double-quoted scalar.
    static func scanUnquoted(_ text: ArraySlice<UInt8>, _ visit: (_ byte: UInt8, _ previous: UInt8) -> Bool) -> Int {
        var quote: UInt8?
        var previous: UInt8 = UInt8(ascii: " ")
        var position = text.startIndex
        while position < text.endIndex {
            let byte = text[position]
            if let open = quote {
                if byte == UInt8(ascii: "\\") && open == UInt8(ascii: "\"") {
                    position += 2
                    previous = UInt8(ascii: "a")
                    continue
                }
                if byte == open { quote = nil }
            } else if (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) && startsToken(previous) {
                quote = byte
            } else if !visit(byte, previous) {
                return position
            }
            previous = byte
            position += 1
        }
        return text.endIndex
    }

    /// Whether a quote after `previous` opens a quoted scalar (rather than
    /// being part of a plain one, as in `O'Brien`).
    static func startsToken(_ previous: UInt8) -> Bool {
        isSpace(previous) || [UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":")].contains(previous)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    static func trimTrailingSpace(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = text.endIndex
        while end > text.startIndex, isSpace(text[end - 1]) { end -= 1 }
        return text[text.startIndex..<end]
    }

    private static func trimLeadingSpace(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = text.startIndex
        while start < text.endIndex, isSpace(text[start]) { start += 1 }
        return text[start...]
    }

    /// At most 60 characters of `text`, control and invisible characters
    /// escaped (`DisplayText`).
    private static func preview(_ text: ArraySlice<UInt8>) -> String {
        let string = text.text
        return string.count > 60 ? DisplayText.escaped(String(string.prefix(60))) + "…" : DisplayText.escaped(string)
    }

    private static func isSequenceItem(_ text: ArraySlice<UInt8>) -> Bool {
        guard text.first == UInt8(ascii: "-") else { return false }
        let next = text.dropFirst().first
        return next == nil || next == UInt8(ascii: " ")
    }

    // MARK: Blocks

    private mutating func parseBlock(parentIndent: Int, depth: Int) throws(InteropError) -> YAMLNode {
        guard index < lines.count, lines[index].indent > parentIndent else {
            // An empty value: past the last line it belongs to that line (the
            // key or '-' it follows), never to a line 0 no file has.
            return YAMLNode(content: .null, line: index < lines.count ? lines[index].number : (lines.last?.number ?? 1))
        }
        let line = lines[index]
        if depth >= Self.maximumDepth { throw error(line.number, "nesting deeper than \(Self.maximumDepth) levels", kind: .tooLarge) }
        if Self.isSequenceItem(line.text) { return try parseSequence(indent: line.indent, depth: depth + 1) }
        return try parseMapping(indent: line.indent, first: nil, depth: depth + 1)
    }

    private mutating func parseSequence(indent: Int, depth: Int) throws(InteropError) -> YAMLNode {
        if depth >= Self.maximumDepth {
            throw error(lines[index].number, "nesting deeper than \(Self.maximumDepth) levels", kind: .tooLarge)
        }
        var items: [YAMLNode] = []
        let startLine = lines[index].number
        while index < lines.count, lines[index].indent == indent, Self.isSequenceItem(lines[index].text) {
            let line = lines[index]
            index += 1
            let rest = Self.trimLeadingSpace(line.text.dropFirst())
            let restColumn = indent + (rest.startIndex - line.text.startIndex)
            if rest.isEmpty {
                items.append(try parseBlock(parentIndent: indent, depth: depth + 1))
            } else if Self.isSequenceItem(rest) {
                throw error(line.number, "a sequence starting on the line of its parent item ('- - …') is not supported")
            } else if Self.separator(in: rest) != nil {
                items.append(
                    try parseMapping(
                        indent: restColumn, first: LogicalLine(number: line.number, indent: restColumn, text: rest),
                        depth: depth + 1))
            } else {
                items.append(try parseInlineValue(rest, line: line.number, depth: depth + 1))
            }
        }
        try checkNoDeeperLine(than: indent)
        return YAMLNode(content: .sequence(items), line: startLine)
    }

    private mutating func parseMapping(indent: Int, first: LogicalLine?, depth: Int) throws(InteropError) -> YAMLNode {
        var entries: [YAMLNode.Entry] = []
        var keys: Set<String> = []
        var pending = first
        let startLine = first?.number ?? lines[index].number
        while true {
            let line: LogicalLine
            if let entryLine = pending {
                line = entryLine
                pending = nil
            } else if index < lines.count, lines[index].indent == indent, !Self.isSequenceItem(lines[index].text) {
                line = lines[index]
                index += 1
            } else {
                break
            }
            guard let separator = Self.separator(in: line.text) else {
                throw error(line.number, "expected 'key: value', found '\(Self.preview(line.text))'")
            }
            let key = try parseKey(line.text[line.text.startIndex..<separator], line: line.number)
            if !keys.insert(key).inserted { throw error(line.number, "the key '\(key)' appears twice") }
            let valueText = Self.trimLeadingSpace(line.text[(separator + 1)...])
            let value: YAMLNode
            if !valueText.isEmpty {
                value = try parseInlineValue(valueText, line: line.number, depth: depth + 1)
            } else if index < lines.count, lines[index].indent > indent {
                value = try parseBlock(parentIndent: indent, depth: depth + 1)
            } else if index < lines.count, lines[index].indent == indent, Self.isSequenceItem(lines[index].text) {
                value = try parseSequence(indent: indent, depth: depth + 1)
            } else {
                value = YAMLNode(content: .null, line: line.number)
            }
            entries.append(YAMLNode.Entry(key: key, keyLine: line.number, value: value))
            try checkNoDeeperLine(than: indent)
        }
        return YAMLNode(content: .mapping(entries), line: startLine)
    }

    /// A line indented deeper than the block it follows is a continuation
    /// this subset does not have (e.g. a multi-line plain scalar).
    private func checkNoDeeperLine(than indent: Int) throws(InteropError) {
        if index < lines.count, lines[index].indent > indent {
            throw error(
                lines[index].number,
                "unexpected indentation: '\(Self.preview(lines[index].text))' (multi-line values are not supported)")
        }
    }

    /// Where the `:` of `key: value` is, outside quotes; `nil` when the text
    /// is not a mapping entry.
    private static func separator(in text: ArraySlice<UInt8>) -> Int? {
        guard let first = text.first, first != UInt8(ascii: "["), first != UInt8(ascii: "{") else { return nil }
        var position = text.startIndex
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            guard let close = closingQuote(in: text, from: position) else { return nil }
            position = close + 1
            while position < text.endIndex, isSpace(text[position]) { position += 1 }
            guard position < text.endIndex, text[position] == UInt8(ascii: ":") else { return nil }
            let next = position + 1
            return next == text.endIndex || isSpace(text[next]) ? position : nil
        }
        while position < text.endIndex {
            if text[position] == UInt8(ascii: ":") {
                let next = position + 1
                if next == text.endIndex || isSpace(text[next]) { return position }
            }
            position += 1
        }
        return nil
    }

    /// The index of the quote closing the one at `start`.
    private static func closingQuote(in text: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard start < text.endIndex else { return nil }
        let quote = text[start]
        var position = start + 1
        while position < text.endIndex {
            let byte = text[position]
            if quote == UInt8(ascii: "\"") && byte == UInt8(ascii: "\\") {
                position += 2
                continue
            }
            if byte == quote {
                // '' inside a single-quoted scalar is an escaped quote.
                if quote == UInt8(ascii: "'"), position + 1 < text.endIndex, text[position + 1] == quote {
                    position += 2
                    continue
                }
                return position
            }
            position += 1
        }
        return nil
    }

    private func parseKey(_ text: ArraySlice<UInt8>, line: Int) throws(InteropError) -> String {
        let trimmed = Self.trimTrailingSpace(text)
        guard let first = trimmed.first else { throw error(line, "a mapping key is empty") }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var cursor = FlowCursor(bytes: trimmed, line: line)
            let key = try parseQuoted(&cursor)
            return key
        }
        if first == UInt8(ascii: "?") { throw error(line, "complex mapping keys ('? key') are not supported") }
        return trimmed.text
    }

    // MARK: Values on one line (scalars and flow collections)

    /// A value that starts on a line: a scalar, or a flow collection that
    /// may continue on the following lines.
    private mutating func parseInlineValue(_ text: ArraySlice<UInt8>, line: Int, depth: Int) throws(InteropError) -> YAMLNode {
        guard let first = text.first else { return YAMLNode(content: .null, line: line) }
        if "|>&*!%@`".utf8.contains(first) {
            throw error(line, "'\(Self.preview(text))' uses YAML beyond the subset libinput record writes")
        }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            var buffer = Array(text)
            // Counted line by line, so that a long unclosed collection costs
            // linear time; quoted strings do not span lines in this subset.
            var depth = Self.flowDepth(text)
            while depth > 0 {
                guard index < lines.count else {
                    throw error(line, "a '\(first == UInt8(ascii: "[") ? "[" : "{")' that is never closed")
                }
                buffer.append(UInt8(ascii: " "))
                buffer.append(contentsOf: lines[index].text)
                depth += Self.flowDepth(lines[index].text)
                index += 1
            }
            var cursor = FlowCursor(bytes: buffer[...], line: line)
            let node = try parseFlow(&cursor, depth: depth)
            cursor.skipSpace()
            guard cursor.isAtEnd else {
                throw error(line, "unexpected text after a flow collection: '\(Self.preview(cursor.remainder))'")
            }
            return node
        }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var cursor = FlowCursor(bytes: text, line: line)
            let value = try parseQuoted(&cursor)
            cursor.skipSpace()
            guard cursor.isAtEnd else {
                throw error(line, "unexpected text after a quoted string: '\(Self.preview(cursor.remainder))'")
            }
            return YAMLNode(content: .scalar(value, quoted: true), line: line)
        }
        return Self.plain(text.text, line: line)
    }

    private static func plain(_ text: String, line: Int) -> YAMLNode {
        if text == "~" || text == "null" || text == "Null" || text == "NULL" { return YAMLNode(content: .null, line: line) }
        return YAMLNode(content: .scalar(text, quoted: false), line: line)
    }

    /// How many more `[` and `{` than `]` and `}` the text has, outside quotes.
    private static func flowDepth(_ text: ArraySlice<UInt8>) -> Int {
        var depth = 0
        var position = text.startIndex
        while position < text.endIndex {
            let byte = text[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let close = closingQuote(in: text, from: position) else { return depth }
                position = close + 1
                continue
            }
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { depth -= 1 }
            position += 1
        }
        // Too many closers are reported by the flow parser, with context.
        return depth
    }

    /// A position in the text of a flow collection.
    private struct FlowCursor {
        let bytes: ArraySlice<UInt8>
        let line: Int
        var position: Int

        init(bytes: ArraySlice<UInt8>, line: Int) {
            self.bytes = bytes
            self.line = line
            self.position = bytes.startIndex
        }

        var isAtEnd: Bool { position >= bytes.endIndex }
        var current: UInt8? { position < bytes.endIndex ? bytes[position] : nil }
        var remainder: ArraySlice<UInt8> { bytes[min(position, bytes.endIndex)...] }

        mutating func skipSpace() {
            while let byte = current, YAMLSubsetParser.isSpace(byte) { position += 1 }
        }
    }

    private func parseFlow(_ cursor: inout FlowCursor, depth: Int) throws(InteropError) -> YAMLNode {
        if depth >= Self.maximumDepth {
            throw error(cursor.line, "nesting deeper than \(Self.maximumDepth) levels", kind: .tooLarge)
        }
        cursor.skipSpace()
        guard let byte = cursor.current else { throw error(cursor.line, "a value is missing in a flow collection") }
        switch byte {
        case UInt8(ascii: "["):
            cursor.position += 1
            var items: [YAMLNode] = []
            while true {
                cursor.skipSpace()
                if cursor.current == UInt8(ascii: "]") {
                    cursor.position += 1
                    return YAMLNode(content: .sequence(items), line: cursor.line)
                }
                items.append(try parseFlow(&cursor, depth: depth + 1))
                try flowSeparator(&cursor, closer: UInt8(ascii: "]"))
            }
        case UInt8(ascii: "{"):
            cursor.position += 1
            var entries: [YAMLNode.Entry] = []
            while true {
                cursor.skipSpace()
                if cursor.current == UInt8(ascii: "}") {
                    cursor.position += 1
                    return YAMLNode(content: .mapping(entries), line: cursor.line)
                }
                let key = try flowKey(&cursor)
                cursor.skipSpace()
                let value: YAMLNode
                if cursor.current == UInt8(ascii: ",") || cursor.current == UInt8(ascii: "}") {
                    value = YAMLNode(content: .null, line: cursor.line)
                } else {
                    value = try parseFlow(&cursor, depth: depth + 1)
                }
                entries.append(YAMLNode.Entry(key: key, keyLine: cursor.line, value: value))
                try flowSeparator(&cursor, closer: UInt8(ascii: "}"))
            }
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return YAMLNode(content: .scalar(try parseQuoted(&cursor), quoted: true), line: cursor.line)
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
            throw error(cursor.line, "a value is missing before '\(Character(Unicode.Scalar(byte)))'")
        default:
            let start = cursor.position
            while let next = cursor.current, next != UInt8(ascii: ","), next != UInt8(ascii: "]"), next != UInt8(ascii: "}"),
                next != UInt8(ascii: "["), next != UInt8(ascii: "{")
            {
                cursor.position += 1
            }
            return Self.plain(Self.trimTrailingSpace(cursor.bytes[start..<cursor.position]).text, line: cursor.line)
        }
    }

    /// After an item: a `,`, or the closer (left for the caller).
    private func flowSeparator(_ cursor: inout FlowCursor, closer: UInt8) throws(InteropError) {
        cursor.skipSpace()
        if cursor.current == UInt8(ascii: ",") {
            cursor.position += 1
            return
        }
        if cursor.current == closer { return }
        if cursor.isAtEnd { throw error(cursor.line, "a flow collection is not closed") }
        throw error(cursor.line, "expected ',' or '\(Character(Unicode.Scalar(closer)))' in a flow collection, found '\(Self.preview(cursor.remainder))'")
    }

    /// A key of a flow mapping and its `:`.
    private func flowKey(_ cursor: inout FlowCursor) throws(InteropError) -> String {
        cursor.skipSpace()
        let key: String
        if cursor.current == UInt8(ascii: "\"") || cursor.current == UInt8(ascii: "'") {
            key = try parseQuoted(&cursor)
        } else {
            let start = cursor.position
            while let byte = cursor.current, byte != UInt8(ascii: ":"), byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"),
                byte != UInt8(ascii: "["), byte != UInt8(ascii: "{"), byte != UInt8(ascii: "]")
            {
                cursor.position += 1
            }
            key = Self.trimTrailingSpace(cursor.bytes[start..<cursor.position]).text
        }
        cursor.skipSpace()
        guard cursor.current == UInt8(ascii: ":"), !key.isEmpty else {
            throw error(cursor.line, "expected 'key: value' in a flow mapping, found '\(Self.preview(cursor.remainder))'")
        }
        cursor.position += 1
        return key
    }

    /// A `"…"` or `'…'` scalar on one line, escapes decoded.
    private func parseQuoted(_ cursor: inout FlowCursor) throws(InteropError) -> String {
        guard let quote = cursor.current else { throw error(cursor.line, "a quoted string is missing") }
        cursor.position += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while let byte = cursor.current {
            cursor.position += 1
            if byte == quote {
                if quote == UInt8(ascii: "'"), cursor.current == quote {
                    run.append(quote)
                    cursor.position += 1
                    continue
                }
                flush()
                return String(scalars)
            }
            if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                flush()
                scalars.append(try parseEscape(&cursor))
                continue
            }
            run.append(byte)
        }
        throw error(cursor.line, "a quoted string is not closed on its line (multi-line strings are not supported)")
    }

    /// The character after a `\` in a double-quoted scalar.
    private func parseEscape(_ cursor: inout FlowCursor) throws(InteropError) -> Unicode.Scalar {
        guard let byte = cursor.current else { throw error(cursor.line, "a '\\' ends a quoted string") }
        cursor.position += 1
        let simple: [UInt8: Unicode.Scalar] = [
            UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "n"): "\n",
            UInt8(ascii: "t"): "\t", UInt8(ascii: "r"): "\r", UInt8(ascii: "0"): "\0", UInt8(ascii: " "): " ",
            UInt8(ascii: "a"): "\u{07}", UInt8(ascii: "b"): "\u{08}", UInt8(ascii: "e"): "\u{1B}",
            UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "v"): "\u{0B}",
        ]
        if let scalar = simple[byte] { return scalar }
        let digits: Int
        switch byte {
        case UInt8(ascii: "x"): digits = 2
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "U"): digits = 8
        default: throw error(cursor.line, "unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a quoted string")
        }
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let digit = cursor.current, let number = Self.hexValue(digit) else {
                throw error(cursor.line, "'\\\(Character(Unicode.Scalar(byte)))' needs \(digits) hex digits")
            }
            value = value &* 16 &+ UInt32(number)
            cursor.position += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error(cursor.line, "escape \\\(Character(Unicode.Scalar(byte))) names no Unicode character")
        }
        return scalar
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
