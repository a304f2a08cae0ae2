/// A text split into lines of UTF-8 bytes, numbered from 1.
///
/// Readers work on bytes so that no input, however broken, can make an index
/// invalid; a trailing `\r` (CRLF files) is dropped from each line.
struct TextLines {
    /// One line: its 1-based number and its bytes without the line break.
    struct Line {
        var number: Int
        var bytes: ArraySlice<UInt8>
    }

    /// The lines in order; a final line break does not add an empty line.
    let lines: [Line]

    init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Lines already split (and numbered) elsewhere.
    init(lines: [Line]) { self.lines = lines }

    init(bytes: [UInt8]) {
        var lines: [Line] = []
        var start = 0
        var number = 1
        func add(_ end: Int) {
            var stop = end
            if stop > start, bytes[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
            lines.append(Line(number: number, bytes: bytes[start..<stop]))
            number += 1
        }
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            add(index)
            start = index + 1
        }
        if start < bytes.count { add(bytes.count) }
        self.lines = lines
    }
}

/// Reads numbers and words from one line, the way `sscanf` does for the
/// conversions evemu uses; every read is bounds-checked and overflow-safe.
struct ByteScanner {
    private let bytes: ArraySlice<UInt8>
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= bytes.endIndex }

    /// The bytes not yet read.
    var remainder: ArraySlice<UInt8> { bytes[min(position, bytes.endIndex)...] }

    /// Skips spaces and tabs (and the other characters `isspace` accepts).
    mutating func skipWhitespace() {
        while position < bytes.endIndex, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    /// Skips spaces and tabs only (what YAML takes as white space).
    mutating func skipSpaces() {
        while position < bytes.endIndex, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
    }

    /// Consumes `literal` if the remaining text starts with it.
    mutating func consume(_ literal: String) -> Bool {
        let expected = Array(literal.utf8)
        guard bytes.endIndex - position >= expected.count else { return false }
        for (offset, byte) in expected.enumerated() where bytes[position + offset] != byte { return false }
        position += expected.count
        return true
    }

    /// Reads up to `maximumDigits` hex digits (`%0Nx`); `nil` when there is none.
    mutating func hex(maximumDigits: Int) -> UInt64? {
        var value: UInt64 = 0
        var count = 0
        while count < maximumDigits, position < bytes.endIndex, let digit = Self.hexDigit(bytes[position]) {
            value = value &* 16 &+ UInt64(digit)
            position += 1
            count += 1
        }
        return count == 0 ? nil : value
    }

    /// Reads an unsigned decimal of up to `maximumDigits` digits; `nil` when
    /// there is none or it does not fit 64 bits.
    mutating func unsignedDecimal(maximumDigits: Int = Int.max) -> UInt64? {
        var value: UInt64 = 0
        var count = 0
        var overflowed = false
        while count < maximumDigits, position < bytes.endIndex, let digit = Self.decimalDigit(bytes[position]) {
            let (product, productOverflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = product.addingReportingOverflow(UInt64(digit))
            overflowed = overflowed || productOverflow || sumOverflow
            value = sum
            position += 1
            count += 1
        }
        return count == 0 || overflowed ? nil : value
    }

    /// Reads an optionally signed decimal (`%d`); `nil` when there is none
    /// or it does not fit 64 bits.
    mutating func signedDecimal() -> Int64? {
        var negative = false
        let start = position
        if position < bytes.endIndex, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
        }
        guard let magnitude = unsignedDecimal() else {
            position = start
            return nil
        }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0d).contains(byte)
    }

    private static func decimalDigit(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        if let digit = decimalDigit(byte) { return digit }
        if (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) { return byte - UInt8(ascii: "a") + 10 }
        if (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) { return byte - UInt8(ascii: "A") + 10 }
        return nil
    }
}

extension ArraySlice<UInt8> {
    /// The bytes as text; invalid UTF-8 becomes U+FFFD rather than failing.
    var text: String { String(decoding: self, as: UTF8.self) }

    /// Whether the bytes start with `prefix`.
    func starts(with prefix: String) -> Bool { self.starts(with: prefix.utf8) }
}

/// Splits a text that comes in pieces into lines, numbered from 1, as
/// ``TextLines`` does (a trailing `\r` dropped; a final line break adds no
/// empty line), holding only the line not yet ended.
struct LineSplitter {
    /// The longest line accepted: far beyond any line of the formats read
    /// in pieces, small enough that a file without line breaks
    /// (`/dev/zero`) is refused early.
    static let maximumLineBytes = 1 << 20

    /// The start of a line not yet ended.
    private var pending: [UInt8] = []
    /// The number of the next line.
    private var number = 1

    /// Calls `body` with each line `bytes` completes.
    mutating func feed(
        _ bytes: [UInt8], source: String, _ body: (ArraySlice<UInt8>, Int) throws(InteropError) -> Void
    ) throws(InteropError) {
        var from = 0
        if !pending.isEmpty {
            // Only the line that began in an earlier piece is copied.
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
                pending.append(contentsOf: bytes)
                try checkLength(source: source)
                return
            }
            pending.append(contentsOf: bytes[...newline])
            number = try Self.lines(in: pending[...], firstNumber: number, final: false, body).nextNumber
            pending.removeAll(keepingCapacity: true)
            from = newline + 1
        }
        let (consumed, next) = try Self.lines(in: bytes[from...], firstNumber: number, final: false, body)
        number = next
        pending.append(contentsOf: bytes[consumed...])
        try checkLength(source: source)
    }

    private func checkLength(source: String) throws(InteropError) {
        if pending.count > Self.maximumLineBytes {
            throw InteropError(
                kind: .tooLarge, source: source, line: number,
                message: "the line is longer than \(Self.maximumLineBytes) bytes: not a text recording")
        }
    }

    /// Calls `body` with the last line, when the text does not end with a break.
    mutating func finish(_ body: (ArraySlice<UInt8>, Int) throws(InteropError) -> Void) throws(InteropError) {
        _ = try Self.lines(in: pending[...], firstNumber: number, final: true, body)
        pending = []
    }

    /// Calls `body` with each line of `bytes` that ends with a line break
    /// (and, when `final`, the last one that does not), numbered from
    /// `firstNumber`; returns where the unended line starts.
    @discardableResult
    static func lines(
        in bytes: ArraySlice<UInt8>, firstNumber: Int, final: Bool,
        _ body: (ArraySlice<UInt8>, Int) throws(InteropError) -> Void
    ) throws(InteropError) -> (consumed: Int, nextNumber: Int) {
        var start = bytes.startIndex
        var number = firstNumber
        var index = start
        let end = bytes.endIndex
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") {
                var stop = index
                if stop > start, bytes[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
                try body(bytes[start..<stop], number)
                number += 1
                start = index + 1
            }
            index += 1
        }
        if final && start < end {
            var stop = end
            if bytes[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
            try body(bytes[start..<stop], number)
            return (end, number + 1)
        }
        return (start, number)
    }
}
