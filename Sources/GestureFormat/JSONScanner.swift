/// A cursor over the bytes of a JSON text with the lexical pieces both
/// reading passes share: whitespace, strings, numbers, literals, and
/// skipping a whole value (which checks its syntax on the way).
///
/// It never traps on bad input: every read is bounds-checked and every
/// problem is a thrown ``ScanError`` at the offending byte.
///
/// `package`: GestureInterop reads Android's `uinput` command files and
/// WebDriver actions with it, rather than with a JSON parser of its own.
package struct JSONScanner {
    /// Deepest nesting of arrays and objects accepted (a canonical gesture
    /// needs 5).
    package static let maximumDepth = 32

    package let bytes: UnsafeBufferPointer<UInt8>
    package var position: Int
    /// Whether `//`, `#` and `/* */` comments count as whitespace, as in
    /// the lenient JSON of Android's `uinput` command
    /// (`JsonReader.setLenient`). Off for gesture files, which are strict JSON.
    package var allowsComments = false
    /// Where a `/* */` comment that is never closed starts, once skipping
    /// white space has run into the end inside it: a reader that finds the
    /// end there reports it rather than taking the file as complete.
    package var unclosedCommentStart: Int?
    /// Gives a mapped file's pages back as the cursor walks it (a large
    /// gesture file read from a ``MappedFile``-like mapping; issue 39):
    /// told, at array elements, how far the cursor moved.
    package var trimmer: PageTrimmer?
    /// Where the cursor was when ``trimmer`` was last told.
    private var trimmedAt = 0

    package init(bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    // MARK: Looking

    package var isAtEnd: Bool { position >= bytes.count }

    /// The byte at the cursor, or nil at the end.
    package var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            case UInt8(ascii: "#") where allowsComments:
                while position < bytes.count && bytes[position] != 0x0A { position += 1 }
            case UInt8(ascii: "/") where allowsComments && position + 1 < bytes.count:
                if bytes[position + 1] == UInt8(ascii: "/") {
                    while position < bytes.count && bytes[position] != 0x0A { position += 1 }
                } else if bytes[position + 1] == UInt8(ascii: "*") {
                    // An unclosed comment runs to the end, where the caller
                    // then finds the file cut short (or, between values,
                    // ``unclosedCommentStart``).
                    let start = position
                    position += 2
                    while position < bytes.count
                        && !(bytes[position] == UInt8(ascii: "*") && position + 1 < bytes.count
                            && bytes[position + 1] == UInt8(ascii: "/"))
                    {
                        position += 1
                    }
                    if position >= bytes.count { unclosedCommentStart = start }
                    position = min(position + 2, bytes.count)
                } else {
                    return
                }
            default: return
            }
        }
    }

    /// Skips a UTF-8 byte order mark, which some editors add.
    package mutating func skipByteOrderMark() {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
    }

    // MARK: Errors

    package func syntaxError(_ message: String, at offset: Int? = nil) -> ScanError {
        ScanError(.syntax, .spot(offset ?? position), message)
    }

    /// `unexpected end of file` at the end, otherwise `expected …, found …`.
    package func unexpected(expecting expectation: String) -> ScanError {
        guard let byte = current else { return syntaxError("unexpected end of file") }
        return syntaxError("expected \(expectation), found \(Self.describe(byte: byte, at: position, in: bytes))")
    }

    /// A byte as people see it in a message: `'x'`, or `byte 0xFF`, or the
    /// character when it starts valid UTF-8.
    package static func describe(byte: UInt8, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 {
            return "U+" + String(repeating: "0", count: byte < 0x10 ? 3 : 2) + String(byte, radix: 16, uppercase: true)
        }
        let length = utf8SequenceLength(at: offset, in: bytes)
        if length > 1 {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
            return "'\(text)'"
        }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// What the value starting at `offset` is, for `found …` in messages:
    /// `a string`, `an object`, `an array`, `true`, `false`, `null`, or the
    /// number as written.
    package func describeValue(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the file" }
        switch bytes[offset] {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"): return "true"
        case UInt8(ascii: "f"): return "false"
        case UInt8(ascii: "n"): return "null"
        default:
            var copy = self
            copy.position = offset
            // Harmless: only the description of a value already found wrong; no number is described by its byte.
            guard let token = try? copy.scanNumber() else {
                return Self.describe(byte: bytes[offset], at: offset, in: bytes)
            }
            return text(of: token)
        }
    }

    // MARK: Structure

    /// Consumes `byte` (after whitespace) or throws `expected …`.
    package mutating func expect(_ byte: UInt8, _ expectation: String) throws(ScanError) {
        skipWhitespace()
        guard current == byte else { throw unexpected(expecting: expectation) }
        position += 1
    }

    /// Checks and skips one value of any kind; containers count towards
    /// `depth` (the depth the value itself would have).
    package mutating func skipValue(depth: Int) throws(ScanError) {
        skipWhitespace()
        guard let byte = current else { throw syntaxError("unexpected end of file") }
        switch byte {
        case UInt8(ascii: "{"):
            try checkDepth(depth)
            position += 1
            var first = true
            while try nextKey(first: &first) != nil {
                try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try checkDepth(depth)
            position += 1
            var first = true
            while try nextElement(first: &first) {
                try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try scanNumber()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            try skipLiteral()
        default:
            throw unexpected(expecting: "a value")
        }
    }

    /// Skips one value of a text already checked as strict JSON (by
    /// ``JSONValue/parse(_:leavingUnbuilt:)``): only strings and brackets
    /// are followed, and nothing is checked, so it costs a fraction of
    /// ``skipValue(depth:)``. Stops before the `,`, `}` or `]` after the
    /// value, or at the end of the text.
    package mutating func skipCheckedValue() {
        var depth = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                while position < bytes.count && bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                position = min(position + 1, bytes.count)
                if depth == 0 { return }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return }
                depth -= 1
                position += 1
                if depth == 0 { return }
            case UInt8(ascii: ","):
                if depth == 0 { return }
                position += 1
            default:
                position += 1
            }
        }
    }

    package func checkDepth(_ depth: Int) throws(ScanError) {
        if depth > Self.maximumDepth {
            throw ScanError(.tooLarge, .spot(position), "nesting is deeper than \(Self.maximumDepth) levels")
        }
    }

    /// Inside an object whose `{` is consumed: reads the next key and its
    /// `:`, leaving the cursor at the value; nil after consuming the `}`.
    /// `first` tracks whether a `,` is due.
    package mutating func nextKey(first: inout Bool) throws(ScanError) -> (key: String, offset: Int)? {
        skipWhitespace()
        if first {
            first = false
            if current == UInt8(ascii: "}") {
                position += 1
                return nil
            }
            guard current == UInt8(ascii: "\"") else { throw unexpected(expecting: "a key string or '}'") }
        } else {
            switch current {
            case UInt8(ascii: "}"):
                position += 1
                return nil
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw unexpected(expecting: "a key string") }
            default:
                throw unexpected(expecting: "',' or '}'")
            }
        }
        let offset = position
        let key = try readString()
        try expect(UInt8(ascii: ":"), "':' after the key")
        skipWhitespace()
        return (key, offset)
    }

    /// Inside an array whose `[` is consumed: true with the cursor at the
    /// next element, false after consuming the `]`.
    package mutating func nextElement(first: inout Bool) throws(ScanError) -> Bool {
        skipWhitespace()
        if first {
            first = false
            if current == UInt8(ascii: "]") {
                position += 1
                return false
            }
        } else {
            switch current {
            case UInt8(ascii: "]"):
                position += 1
                return false
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if current == UInt8(ascii: "]") { throw unexpected(expecting: "a value") }
            default:
                throw unexpected(expecting: "',' or ']'")
            }
        }
        if isAtEnd { throw syntaxError("unexpected end of file") }
        if let trimmer {
            let walked = position > trimmedAt ? position - trimmedAt : trimmedAt - position
            if walked >= 1 << 16 {
                trimmer.note(walked)
                trimmedAt = position
            }
        }
        return true
    }

    // MARK: Literals

    /// Skips `true`, `false` or `null`.
    package mutating func skipLiteral() throws(ScanError) {
        for literal in ["true", "false", "null"] {
            if matches(literal) {
                position += literal.utf8.count
                return
            }
            // A file cut inside a literal ends early rather than misspells it.
            let rest = bytes.count - position
            if rest < literal.utf8.count && literal.utf8.prefix(rest).elementsEqual(bytes[position...]) {
                throw syntaxError("unexpected end of file", at: bytes.count)
            }
        }
        throw syntaxError("invalid literal; expected true, false or null")
    }

    /// Whether the bytes at the cursor spell `literal`.
    package func matches(_ literal: String) -> Bool {
        var index = position
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    // MARK: Numbers

    /// The extent of a number in the text.
    package struct NumberToken {
        package var start: Int
        package var end: Int
        /// No fraction and no exponent.
        package var isInteger: Bool
    }

    /// Reads a number, checking the JSON grammar:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    package mutating func scanNumber() throws(ScanError) -> NumberToken {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, Self.isDigit(first) else {
            if isAtEnd { throw syntaxError("unexpected end of file") }
            throw syntaxError("invalid number: expected a digit")
        }
        position += 1
        if first == UInt8(ascii: "0") {
            if let next = current, Self.isDigit(next) {
                throw syntaxError("invalid number: leading zeros are not allowed")
            }
        } else {
            skipDigits()
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            try requireDigits(after: "'.'")
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            try requireDigits(after: "the exponent sign")
        }
        return NumberToken(start: start, end: position, isInteger: isInteger)
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { position += 1 }
    }

    private mutating func requireDigits(after what: String) throws(ScanError) {
        guard let byte = current, Self.isDigit(byte) else {
            if isAtEnd { throw syntaxError("unexpected end of file") }
            throw syntaxError("invalid number: expected a digit after \(what)")
        }
        skipDigits()
    }

    package static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The number as written (shortened when very long).
    package func text(of token: NumberToken) -> String {
        let shown = min(token.end - token.start, 40)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.start + shown]), as: UTF8.self)
        return shown < token.end - token.start ? text + "…" : text
    }

    /// The value of an integer token, or nil when it does not fit an `Int`.
    package func integerValue(of token: NumberToken) -> Int? {
        var index = token.start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value = 0
        while index < token.end {
            let digit = Int(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            // Accumulate negatively for negative numbers so that Int.min fits.
            let (next, overflowAdd) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflowShift || overflowAdd { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The value of a number token as a `Double` (infinite when out of range).
    package func doubleValue(of token: NumberToken) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self))
    }

    // MARK: Strings

    /// Checks and skips a string without building it.
    package mutating func skipString() throws(ScanError) {
        var sink: [UInt8]? = nil
        try scanString(into: &sink)
    }

    /// Reads a string (cursor at its opening quote), decoding escapes and
    /// checking UTF-8.
    package mutating func readString() throws(ScanError) -> String {
        let start = position + 1
        var buffer: [UInt8]? = []
        // Plain strings (no escapes) are decoded straight from the input.
        if let end = try scanString(into: &buffer) {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return String(decoding: buffer ?? [], as: UTF8.self)
    }

    /// Scans a string. Returns the offset of its closing quote when it has no
    /// escapes; otherwise returns nil and leaves the decoded bytes in
    /// `buffer` (if `buffer` is not nil).
    @discardableResult
    private mutating func scanString(into buffer: inout [UInt8]?) throws(ScanError) -> Int? {
        position += 1  // the opening quote
        let start = position
        var sawEscape = false
        while true {
            guard let byte = current else { throw syntaxError("unexpected end of file") }
            switch byte {
            case UInt8(ascii: "\""):
                let end = position
                position += 1
                if sawEscape { return nil }
                return end
            case UInt8(ascii: "\\"):
                if !sawEscape {
                    sawEscape = true
                    if buffer != nil { buffer = Array(bytes[start..<position]) }
                }
                try scanEscape(into: &buffer)
            case 0x00..<0x20:
                throw syntaxError("control character \(Self.describe(byte: byte, at: position, in: bytes)) in a string must be escaped")
            case 0x80...:
                let length = Self.utf8SequenceLength(at: position, in: bytes)
                if length < 0 { throw syntaxError("unexpected end of file") }
                if length == 0 { throw syntaxError("invalid UTF-8") }
                if sawEscape && buffer != nil { buffer!.append(contentsOf: bytes[position..<position + length]) }
                position += length
            default:
                if sawEscape && buffer != nil { buffer!.append(byte) }
                position += 1
            }
        }
    }

    /// Reads one escape (cursor at the backslash).
    private mutating func scanEscape(into buffer: inout [UInt8]?) throws(ScanError) {
        let escapeStart = position
        position += 1
        guard let letter = current else { throw syntaxError("unexpected end of file") }
        position += 1
        let simple: UInt8?
        switch letter {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw syntaxError(
                "invalid escape '\\\(Self.describe(byte: letter, at: position - 1, in: bytes).trimmingQuotes)' in a string",
                at: escapeStart)
        }
        if let simple {
            if buffer != nil { buffer!.append(simple) }
            return
        }
        var scalarValue = try readHexQuad(escapeStart: escapeStart)
        if scalarValue >= 0xD800 && scalarValue < 0xDC00 {
            // A high surrogate must be followed by an escaped low surrogate.
            guard matches("\\u") else { throw syntaxError("unpaired surrogate in a \\u escape", at: escapeStart) }
            position += 2
            let low = try readHexQuad(escapeStart: escapeStart)
            guard low >= 0xDC00 && low < 0xE000 else {
                throw syntaxError("unpaired surrogate in a \\u escape", at: escapeStart)
            }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        } else if scalarValue >= 0xDC00 && scalarValue < 0xE000 {
            throw syntaxError("unpaired surrogate in a \\u escape", at: escapeStart)
        }
        if buffer != nil, let scalar = Unicode.Scalar(scalarValue) {
            buffer!.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
    }

    private mutating func readHexQuad(escapeStart: Int) throws(ScanError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw syntaxError("unexpected end of file") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw syntaxError("invalid \\u escape: expected 4 hex digits", at: escapeStart)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence starting at `offset`
    /// (1 for ASCII); 0 when the bytes there are not valid UTF-8 (overlong
    /// forms, surrogates and values above U+10FFFF included); -1 when they
    /// are valid so far but the input ends inside the sequence.
    package static func utf8SequenceLength(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard offset >= 0 && offset < bytes.count else { return 0 }
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return 0
        }
        for index in offset + 1..<offset + length {
            guard index < bytes.count else { return -1 }
            let valid = index == offset + 1 ? secondRange.contains(bytes[index]) : bytes[index] & 0xC0 == 0x80
            if !valid { return 0 }
        }
        return length
    }
}

extension String {
    /// `x` from `'x'`: a described byte inside another quoted context.
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
