import GestureFormat
import GestureModel

/// The JSON reading both JSON formats share (Android `uinput` command files,
/// WebDriver actions): GestureFormat's ``JSONScanner`` for the lexical work
/// (strings, numbers, nesting depth, skipping values), plus what these two
/// formats need on top: values read by the field they belong to, integers
/// in the forms Android's lenient reader takes, and errors as
/// ``InteropError`` with the line.
struct JSONInput {
    var scanner: JSONScanner
    let source: String

    /// A reader over `bytes` (which must outlive it). `lenient` allows
    /// `//` and `/* */` comments and hexadecimal integers, as Android's
    /// `uinput` reader (`JsonReader.setLenient(true)` and `Integer.decode`).
    init(bytes: UnsafeBufferPointer<UInt8>, source: String, lenient: Bool) {
        scanner = JSONScanner(bytes: bytes)
        scanner.allowsComments = lenient
        self.source = source
        scanner.skipByteOrderMark()
    }

    var isLenient: Bool { scanner.allowsComments }

    // MARK: Errors

    /// An error at `offset` (the cursor by default), with its line.
    func error(_ kind: InteropError.Kind, _ message: String, at offset: Int? = nil) -> InteropError {
        // The end of the file belongs to its last line (after a final line
        // break too), never to a line the file does not have.
        let place = min(offset ?? scanner.position, max(0, scanner.bytes.count - 1))
        let position = TextPosition(offset: place, in: scanner.bytes)
        return InteropError(kind: kind, source: source, line: position.line, message: message)
    }

    /// The scanner's error as an ``InteropError``.
    func converted(_ error: ScanError) -> InteropError {
        let kind: InteropError.Kind = error.kind == .tooLarge ? .tooLarge : .malformed
        switch error.place {
        case .none: return InteropError(kind: kind, source: source, message: error.message)
        case .spot(let offset), .line(let offset): return self.error(kind, error.message, at: offset)
        }
    }

    /// Runs a scanner step, turning its error into an ``InteropError``.
    mutating func scan<T>(_ body: (inout JSONScanner) throws(ScanError) -> T) throws(InteropError) -> T {
        do throws(ScanError) {
            return try body(&scanner)
        } catch {
            throw converted(error)
        }
    }

    // MARK: Structure
    //
    // `what` (the field, for messages) is made only for an error: a file
    // can have millions of numbers, and a name made for each costs more
    // than reading it.

    /// Reads an object (cursor before it), calling `body` with each key and
    /// the key's offset, with the cursor at the key's value; `body` must
    /// read or skip the value. `what` names the object in errors.
    mutating func object(
        _ what: @autoclosure () -> String, _ body: (inout JSONInput, String, Int) throws(InteropError) -> Void
    ) throws(InteropError) {
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "{") else {
            throw error(.malformed, "\(what()) must be an object, not \(scanner.describeValue(at: scanner.position))")
        }
        scanner.position += 1
        var first = true
        while let (key, offset) = try scan({ (s) throws(ScanError) in try s.nextKey(first: &first) }) {
            try body(&self, key, offset)
        }
    }

    /// Reads an array (cursor before it), calling `body` with each
    /// element's index, with the cursor at the element.
    mutating func array(_ what: @autoclosure () -> String, _ body: (inout JSONInput, Int) throws(InteropError) -> Void) throws(InteropError) {
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "[") else {
            throw error(.malformed, "\(what()) must be an array, not \(scanner.describeValue(at: scanner.position))")
        }
        scanner.position += 1
        var first = true
        var index = 0
        while try scan({ (s) throws(ScanError) in try s.nextElement(first: &first) }) {
            try body(&self, index)
            index += 1
        }
    }

    /// Where the next value starts (after white space and comments), for
    /// errors found once the value is read.
    mutating func valueOffset() -> Int {
        scanner.skipWhitespace()
        return scanner.position
    }

    /// Checks and skips a value of any kind (an unknown key's).
    mutating func skipValue() throws(InteropError) {
        if isLenient, isUnquotedWord { return skipUnquotedWord() }
        try scan { (s) throws(ScanError) in try s.skipValue(depth: 2) }
    }

    // MARK: Values

    /// A string value.
    mutating func string(_ what: @autoclosure () -> String) throws(InteropError) -> String {
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "\"") else {
            throw error(.malformed, "\(what()) must be a string, not \(scanner.describeValue(at: scanner.position))")
        }
        return try scan { (s) throws(ScanError) in try s.readString() }
    }

    /// An integer within `range`: a JSON integer; when lenient also a
    /// hexadecimal one (`0x18d1`, `-0x1`, as `Integer.decode` reads), or
    /// a string holding either; or, when `label` is given, a string it
    /// turns into a number (`"EV_ABS"`).
    mutating func integer(
        _ what: @autoclosure () -> String, in range: ClosedRange<Int64>, label: ((String) -> Int64?)? = nil
    ) throws(InteropError) -> Int64 {
        scanner.skipWhitespace()
        let start = scanner.position
        let value: Int64?
        if scanner.current == UInt8(ascii: "\"") && (isLenient || label != nil) {
            let text = try scan { (s) throws(ScanError) in try s.readString() }
            if let number = isLenient ? Self.decode(text) : nil {
                value = number
            } else if let label, let number = label(text) {
                value = number
            } else {
                throw error(
                    .malformed, "\(what()) must be an integer\(label == nil ? "" : " or a known name"), not \"\(text)\"",
                    at: start)
            }
        } else if isLenient && isUnquotedWord {
            let word = readUnquotedWord()
            guard let number = Self.decode(word) else {
                throw error(.malformed, "\(what()) must be an integer, not \(word)", at: start)
            }
            value = number
        } else {
            guard let byte = scanner.current, byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) else {
                throw error(.malformed, "\(what()) must be an integer, not \(scanner.describeValue(at: start))")
            }
            let token = try scan { (s) throws(ScanError) in try s.scanNumber() }
            guard token.isInteger else {
                throw error(.malformed, "\(what()) must be an integer, not \(scanner.text(of: token))", at: start)
            }
            value = scanner.integerValue(of: token).map(Int64.init)
            if value == nil {
                throw error(.outOfRange, "\(what()) \(scanner.text(of: token)) is out of range \(range.lowerBound)…\(range.upperBound)", at: start)
            }
        }
        guard let value, range.contains(value) else {
            throw error(.outOfRange, "\(what()) \(value.map(String.init) ?? "") is out of range \(range.lowerBound)…\(range.upperBound)", at: start)
        }
        return value
    }

    /// A number (integer or not) within `range`.
    mutating func number(_ what: @autoclosure () -> String, in range: ClosedRange<Double>) throws(InteropError) -> Double {
        scanner.skipWhitespace()
        let start = scanner.position
        guard let byte = scanner.current, byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) else {
            throw error(.malformed, "\(what()) must be a number, not \(scanner.describeValue(at: start))")
        }
        let token = try scan { (s) throws(ScanError) in try s.scanNumber() }
        guard let value = scanner.doubleValue(of: token), value.isFinite, range.contains(value) else {
            throw error(
                .outOfRange, "\(what()) \(scanner.text(of: token)) is out of range \(DecimalText.shortest(range.lowerBound))…\(DecimalText.shortest(range.upperBound))",
                at: start)
        }
        return value
    }

    // MARK: Lenient integers

    /// Whether the cursor is at a bare word such as `0x18d2` (which a
    /// lenient reader takes as an unquoted string).
    private var isUnquotedWord: Bool {
        guard let byte = scanner.current else { return false }
        let next = scanner.position + 1 < scanner.bytes.count ? scanner.bytes[scanner.position + 1] : 0
        let afterSign = scanner.position + 2 < scanner.bytes.count ? scanner.bytes[scanner.position + 2] : 0
        if byte == UInt8(ascii: "0") && (next | 0x20) == UInt8(ascii: "x") { return true }
        if byte == UInt8(ascii: "-") && next == UInt8(ascii: "0")
            && scanner.position + 2 < scanner.bytes.count && (afterSign | 0x20) == UInt8(ascii: "x")
        {
            return true
        }
        return false
    }

    private mutating func readUnquotedWord() -> String {
        let start = scanner.position
        skipUnquotedWord()
        let length = min(scanner.position - start, 40)
        return String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[start..<start + length]), as: UTF8.self)
    }

    private mutating func skipUnquotedWord() {
        while let byte = scanner.current,
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || JSONScanner.isDigit(byte)
                || (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        {
            scanner.position += 1
        }
    }

    /// What Java's `Integer.decode` reads, for 64 bits: an optional sign,
    /// then `0x`, `0X` or `#` and hex digits, or `0` and octal digits, or
    /// decimal digits. nil for anything else or beyond 64 bits.
    static func decode(_ text: String) -> Int64? {
        var digits = Substring(text)
        var negative = false
        if digits.hasPrefix("-") || digits.hasPrefix("+") {
            negative = digits.hasPrefix("-")
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.hasPrefix("#") {
            radix = 16
            digits = digits.dropFirst()
        } else if digits.hasPrefix("0") && digits.count > 1 {
            radix = 8
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, !digits.hasPrefix("-"), !digits.hasPrefix("+"),
            let magnitude = UInt64(digits, radix: radix)
        else { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    // MARK: Writing

    /// `text` as a JSON string, quotes included.
    static func quoted(_ text: String) -> String { "\"" + GestureEncoder.escaped(text) + "\"" }
}
