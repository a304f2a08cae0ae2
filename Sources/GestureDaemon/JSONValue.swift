import GestureFormat

/// A JSON value of the daemon's protocol, with where it was in the line it
/// came from (so that an inline gesture can be handed, byte for byte, to the
/// gesture file reader).
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, kept as written (so nothing is lost or rounded on the way).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in the order they came; a key given twice is refused when parsing.
    case object([(key: String, value: JSONValue)], span: Range<Int>)

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a, _), .object(b, _)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let text): hasher.combine(text)
        case .string(let text): hasher.combine(text)
        case .array(let values): hasher.combine(values)
        case .object(let members, _):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The member `key` of an object; `nil` otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value as compact JSON text (numbers as written, strings escaped).
    public var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let text): text
        case .string(let text): GestureFileFormat.jsonStringLiteral(text)
        case .array(let values): "[" + values.map(\.jsonText).joined(separator: ", ") + "]"
        case .object(let members, _):
            "{" + members.map { GestureFileFormat.jsonStringLiteral($0.key) + ": " + $0.value.jsonText }
                .joined(separator: ", ") + "}"
        }
    }

    /// An object from members, for building replies.
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { (key: $0.0, value: $0.1) }, span: 0..<0)
    }

    /// A number from an integer.
    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A number from a double, written without an exponent where it is short.
    public static func decimal(_ value: Double) -> JSONValue {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return value.isFinite ? .number(String(value)) : .null
    }
}

/// Why a line is not JSON (or not JSON the protocol takes).
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte offset in the line (0-based).
    public var offset: Int
    /// What was wrong.
    public var message: String
    /// `at byte N: MESSAGE`.
    public var description: String { "at byte \(offset + 1): \(message)" }
}

/// A strict JSON reader for one protocol line (RFC 8259: no comments, no
/// trailing commas, no duplicate keys, nesting at most 64 deep), recording
/// where each object was.
public struct JSONLineParser {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    /// The deepest nesting accepted.
    public static let maximumDepth = 64

    /// Parses `bytes` as one JSON value, with nothing but white space after it.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONLineParser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        if parser.position < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(offset: position, message: message) }

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("the line ends where a value should be") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard position + expected.count <= bytes.count, Array(bytes[position..<position + expected.count]) == expected
        else { throw error("expected \(word)") }
        position += expected.count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        try enter()
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        var keys: Set<String> = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object([], span: start..<position)
        }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let keyStart = position
            let key = try string()
            guard keys.insert(key).inserted else {
                throw JSONSyntaxError(offset: keyStart, message: "the key \(GestureFileFormat.jsonStringLiteral(key)) is given twice")
            }
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            position += 1
            skipSpace()
            members.append((key, try value()))
            skipSpace()
            guard position < bytes.count else { throw error("the line ends inside an object") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            position += 1
            depth -= 1
            return .object(members, span: start..<position)
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        position += 1
        var values: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array([])
        }
        while true {
            skipSpace()
            values.append(try value())
            skipSpace()
            guard position < bytes.count else { throw error("the line ends inside an array") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            position += 1
            depth -= 1
            return .array(values)
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> String {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        func digits() -> Int {
            let from = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - from
        }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("expected digits in a number") }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") { throw error("a number may not start with 0") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("expected digits after the decimal point") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var runStart = position
        func flush(_ end: Int) throws(JSONSyntaxError) {
            guard runStart < end else { return }
            guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                throw JSONSyntaxError(offset: runStart, message: "a string is not valid UTF-8")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                try flush(position)
                position += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("a control character inside a string must be escaped") }
            if byte == UInt8(ascii: "\\") {
                try flush(position)
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error("a high surrogate must be followed by a low one") }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("expected a low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("a low surrogate without a high one")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("not a Unicode scalar") }
                    scalars.append(scalar)
                default:
                    throw error("unknown escape")
                }
                runStart = position
                continue
            }
            position += 1
        }
        throw error("the line ends inside a string")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
        else { throw error("expected four hex digits after \\u") }
        position += 4
        return value
    }
}
