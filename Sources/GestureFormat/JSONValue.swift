import GestureModel

/// A JSON value with where each object was in the text it came from (so
/// that an inline gesture in a daemon request can be handed, byte for
/// byte, to the gesture file reader).
///
/// It is read by ``parse(_:)`` with the same ``JSONScanner`` as gesture
/// files, so that every JSON text gesturectl reads (gesture files, protocol
/// lines, `daemon.json`, `bindings.json`, `menu.json`) has one grammar, one
/// number rule, one set of escapes and one nesting limit
/// (``JSONScanner/maximumDepth``).
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, kept as written (so nothing is lost or rounded on the way).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in the order they came, with the byte range of the object
    /// in the parsed text (`0..<0` for a built one); a key given twice is
    /// refused when parsing.
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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``jsonText``'s bytes to `bytes`: one buffer for the whole
    /// value, where building a string per member and joining them cost half
    /// of an inline play's instructions, client and daemon together (issue 37).
    public func appendJSON(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): Self.appendString(text, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                value.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members, _):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                Self.appendString(member.key, to: &bytes)
                bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                member.value.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A string literal, escaped as the file format writes strings.
    private static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        GestureEncoder.appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An object from members, for building replies.
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { (key: $0.0, value: $0.1) }, span: 0..<0)
    }

    /// A number from an integer.
    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A number from a double as people write it (GestureModel's
    /// ``GestureModel/DecimalText/shortest(_:)``: `2`, `0.5`); `null` when
    /// it is not finite, which JSON cannot hold.
    public static func decimal(_ value: Double) -> JSONValue {
        value.isFinite ? .number(DecimalText.shortest(value)) : .null
    }
}

/// Why a text is not JSON (or not JSON gesturectl takes).
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte offset in the text (0-based).
    public var offset: Int
    /// What was wrong.
    public var message: String
    /// Creates an error.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
    /// `at byte N: MESSAGE`.
    public var description: String { "at byte \(offset + 1): \(message)" }
}

extension JSONValue {
    /// Parses `bytes` as one strict JSON value (RFC 8259: no comments, no
    /// trailing commas, no byte order mark) with nothing but white space
    /// after it. Besides the grammar it refuses what gesturectl refuses in
    /// every JSON text: a key given twice in an object, invalid UTF-8, a
    /// lone surrogate escape, and nesting deeper than
    /// ``JSONScanner/maximumDepth`` levels. Numbers are kept as written.
    ///
    /// `unbuilt`: keys of the top-level object whose values are checked
    /// exactly as the rest (the same errors) but not built: such a value
    /// is an empty container or an empty scalar of its kind, and an object
    /// keeps its span, for a reader of its own to read from the bytes (a
    /// daemon request's inline gesture, read by the gesture file reader,
    /// is then not also made into a tree of values).
    /// - Throws: ``JSONSyntaxError`` at the offending byte.
    public static func parse(_ bytes: [UInt8], leavingUnbuilt unbuilt: Set<String> = []) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONValue, JSONSyntaxError> in
            var reader = JSONValueReader(scanner: JSONScanner(bytes: buffer), unbuilt: unbuilt)
            do throws(ScanError) {
                return .success(try reader.document())
            } catch {
                let offset: Int
                switch error.place {
                case .none: offset = 0
                case .spot(let spot), .line(let spot): offset = spot
                }
                return .failure(JSONSyntaxError(offset: offset, message: error.message))
            }
        }
        return try result.get()
    }
}

/// Builds a ``JSONValue`` from the scanner's pieces.
private struct JSONValueReader {
    var scanner: JSONScanner
    /// Top-level keys whose values are checked, not built.
    let unbuilt: Set<String>

    /// The whole text: one value, then only white space.
    mutating func document() throws(ScanError) -> JSONValue {
        let value: JSONValue
        do throws(ScanError) {
            value = try self.value(depth: 1)
        } catch {
            throw ended(error, "where a value should be")
        }
        scanner.skipWhitespace()
        if let byte = scanner.current {
            throw scanner.syntaxError(
                "unexpected \(JSONScanner.describe(byte: byte, at: scanner.position, in: scanner.bytes)) after the JSON value")
        }
        return value
    }

    /// One value; a container counts as `depth` levels deep. Not `built`:
    /// checked the same way, but only an empty value of its kind returned.
    mutating func value(depth: Int, built: Bool = true) throws(ScanError) -> JSONValue {
        scanner.skipWhitespace()
        // Where the text stops, the enclosing container's catch (or the
        // document's) says where that was.
        guard let byte = scanner.current else { throw scanner.syntaxError("unexpected end of file") }
        switch byte {
        case UInt8(ascii: "{"):
            try scanner.checkDepth(depth)
            let start = scanner.position
            scanner.position += 1
            var members: [(key: String, value: JSONValue)] = []
            var keys = SeenKeys()
            var first = true
            do throws(ScanError) {
                while let (key, offset) = try scanner.nextKey(first: &first) {
                    guard keys.insert(key) else {
                        throw ScanError(.invalid, .spot(offset), "the key \(GestureFileFormat.jsonStringLiteral(key)) is given twice")
                    }
                    let member = try value(depth: depth + 1, built: built && !(depth == 1 && unbuilt.contains(key)))
                    if built { members.append((key, member)) }
                }
            } catch {
                throw ended(error, "inside an object")
            }
            return .object(members, span: start..<scanner.position)
        case UInt8(ascii: "["):
            try scanner.checkDepth(depth)
            scanner.position += 1
            var values: [JSONValue] = []
            var first = true
            do throws(ScanError) {
                while try scanner.nextElement(first: &first) {
                    let element = try value(depth: depth + 1, built: built)
                    if built { values.append(element) }
                }
            } catch {
                throw ended(error, "inside an array")
            }
            return .array(values)
        case UInt8(ascii: "\""):
            do throws(ScanError) {
                let text = try scanner.readString()
                return .string(built ? text : "")
            } catch {
                throw ended(error, "inside a string")
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            do throws(ScanError) {
                let token = try scanner.scanNumber()
                if !built { return .number("") }
                return .number(
                    String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[token.start..<token.end]), as: UTF8.self))
            } catch {
                throw ended(error, "inside a number")
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            do throws(ScanError) {
                try scanner.skipLiteral()
            } catch {
                throw ended(error, "inside a literal")
            }
            return byte == UInt8(ascii: "t") ? .bool(true) : byte == UInt8(ascii: "f") ? .bool(false) : .null
        default:
            throw scanner.unexpected(expecting: "a value")
        }
    }

    /// The scanner says `unexpected end of file` wherever the text stops;
    /// here the message says where it stopped (a protocol line is no file).
    private func ended(_ error: ScanError, _ place: String) -> ScanError {
        guard error.message == "unexpected end of file" else { return error }
        return ScanError(error.kind, error.place, "the text ends \(place)")
    }
}

extension JSONValue {
    /// The string value of the top-level member `key` of the JSON object
    /// that `bytes` hold, found by walking at most their first `limit`
    /// bytes and building nothing but the keys passed on the way; `nil`
    /// when it is not there within them, is not a string, or the text is
    /// no object. For choosing where a request goes before it is read in
    /// full (the daemon's lanes: issue 36), never for what it means: a
    /// text this accepts may still fail the full parse.
    public static func topLevelString(_ key: String, in bytes: [UInt8], scanningAtMost limit: Int) -> String? {
        let count = min(bytes.count, max(0, limit))
        return bytes.withUnsafeBufferPointer { all -> String? in
            var scanner = JSONScanner(bytes: UnsafeBufferPointer(rebasing: all[0..<count]))
            scanner.skipWhitespace()
            guard !scanner.isAtEnd, scanner.current == UInt8(ascii: "{") else { return nil }
            scanner.position += 1
            var first = true
            do throws(ScanError) {
                while let (name, _) = try scanner.nextKey(first: &first) {
                    if name == key {
                        guard !scanner.isAtEnd, scanner.current == UInt8(ascii: "\"") else { return nil }
                        return try scanner.readString()
                    }
                    try scanner.skipValue(depth: 2)
                }
            } catch {
                return nil
            }
            return nil
        }
    }
}
