import GestureFormat
import Testing

/// `JSONValue.parse`: the one strict JSON reader every JSON text but the
/// gesture file itself goes through (protocol lines, `daemon.json`,
/// `bindings.json`, `menu.json`), on the gesture reader's scanner.
@Suite struct JSONValueTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    /// The error for `text` as the daemon shows it (`at byte N: …`), or nil when it parses.
    func refusal(_ text: String) -> String? { refusal(Array(text.utf8)) }

    func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONValue.parse(bytes)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("Values of every kind, members in order, white space anywhere between tokens")
    func kinds() throws {
        let value = try parse(" \t\r\n{\"b\": [true, false, null], \"a\": {\"x\": \"y\"}, \"n\": -1.5e3 }\n")
        #expect(value == .object([
            ("b", .array([.bool(true), .bool(false), .null])), ("a", .object([("x", .string("y"))])), ("n", .number("-1.5e3")),
        ]))
        guard case .object(let members, _) = value else { return }
        #expect(members.map(\.key) == ["b", "a", "n"])
        #expect(value["a"]?["x"] == .string("y"))
        #expect(value["missing"] == nil)
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([]))
        #expect(try parse("\"\"") == .string(""))
    }

    @Test("Numbers are kept as written: exponents, -0, and values beyond any machine number")
    func numbers() throws {
        for text in ["0", "-0", "-0.0", "1E+2", "1e-7", "2.50", "123456789012345678901234567890", "1e999", "-1e-999"] {
            #expect(try parse(text) == .number(text), "\(text)")
            #expect(try parse(text).jsonText == text)
        }
        #expect(try parse("[1,2]") == .array([.number("1"), .number("2")]))
    }

    @Test("Numbers follow JSON's grammar, as in gesture files", arguments: [
        ("01", "at byte 2: invalid number: leading zeros are not allowed"),
        ("-", "at byte 2: the text ends inside a number"),
        ("-x", "at byte 2: invalid number: expected a digit"),
        ("1.", "at byte 3: the text ends inside a number"),
        ("1.e5", "at byte 3: invalid number: expected a digit after '.'"),
        ("1e+", "at byte 4: the text ends inside a number"),
        ("1e+x", "at byte 4: invalid number: expected a digit after the exponent sign"),
        ("+1", "at byte 1: expected a value, found '+'"),
        (".5", "at byte 1: expected a value, found '.'"),
        ("NaN", "at byte 1: expected a value, found 'N'"),
    ])
    func badNumbers(text: String, message: String) {
        #expect(refusal(text) == message)
    }

    @Test("Escapes decode, surrogate pairs included")
    func escapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u00e9\u00E9""#) == .string("éé"))
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""a\u0000b""#) == .string("a\u{0}b"))
        #expect(try parse("\"é😀\"") == .string("é😀"))
        // Escaped again on the way out.
        #expect(JSONValue.string("a\"b\n\u{1}").jsonText == #""a\"b\n\u0001""#)
    }

    @Test("Bad escapes, lone surrogates, raw control characters and invalid UTF-8 are refused", arguments: [
        (#""a\qb""#, #"at byte 3: invalid escape '\q' in a string"#),
        (#""a\u12""#, #"at byte 3: invalid \u escape: expected 4 hex digits"#),
        (#""a\u12"#, "at byte 7: the text ends inside a string"),
        (#""\ud800""#, #"at byte 2: unpaired surrogate in a \u escape"#),
        (#""\ud800\u0041""#, #"at byte 2: unpaired surrogate in a \u escape"#),
        (#""\udc00""#, #"at byte 2: unpaired surrogate in a \u escape"#),
        ("\"a\tb\"", "at byte 3: control character U+0009 in a string must be escaped"),
        ("\"ab", "at byte 4: the text ends inside a string"),
    ])
    func badStrings(text: String, message: String) {
        #expect(refusal(text) == message)
    }

    @Test("Invalid UTF-8 in a string and stray bytes outside one")
    func badBytes() {
        #expect(refusal([0x22, 0x61, 0xFF, 0x22]) == "at byte 3: invalid UTF-8")
        #expect(refusal([0x22, 0xED, 0xA0, 0x80, 0x22]) == "at byte 2: invalid UTF-8")  // an encoded surrogate
        #expect(refusal([0x22, 0xC3]) == "at byte 2: the text ends inside a string")
        #expect(refusal([0xFF]) == "at byte 1: expected a value, found byte 0xFF")
        // A byte order mark is not white space in a protocol line.
        #expect(refusal([0xEF, 0xBB, 0xBF, 0x31]) == "at byte 1: expected a value, found '\u{FEFF}'")
    }

    @Test("A key given twice is refused, at the second one")
    func duplicateKeys() throws {
        #expect(refusal(#"{"id": 1, "id": 2}"#) == #"at byte 11: the key "id" is given twice"#)
        #expect(refusal(#"{"a": {"b": 1, "b": 1}}"#) == #"at byte 16: the key "b" is given twice"#)
        // The same key in different objects is fine.
        #expect(try parse(#"[{"a": 1}, {"a": 2}]"#) == .array([.object([("a", .number("1"))]), .object([("a", .number("2"))])]))
    }

    /// The keys seen are a short list up to 16, then a set: a key given
    /// twice is found on either side of that change and across it.
    @Test("A key given twice is found in an object of any size", arguments: [1, 15, 16, 17, 40, 5_000])
    func duplicateKeysInLargeObjects(keys: Int) throws {
        let members = (0..<keys).map { #""k\#($0)": \#($0)"# }
        let distinct = "{" + members.joined(separator: ", ") + "}"
        guard case .object(let read, _) = try parse(distinct) else {
            Issue.record("not an object")
            return
        }
        #expect(read.count == keys)
        for repeated in Set([0, keys / 2, keys - 1]) {
            let text = "{" + members.joined(separator: ", ") + #", "k\#(repeated)": 0}"#
            let offset = text.utf8.count - #""k\#(repeated)": 0}"#.utf8.count + 1
            #expect(refusal(text) == #"at byte \#(offset): the key "k\#(repeated)" is given twice"#)
        }
    }

    @Test("Nesting: 32 levels are read, 33 are refused, and 10,000 do not exhaust the stack")
    func depth() throws {
        #expect(JSONScanner.maximumDepth == 32)
        let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(try parse(deepest).jsonText == deepest)
        let objects = String(repeating: "{\"a\": ", count: 32) + "1" + String(repeating: "}", count: 32)
        #expect(try parse(objects).jsonText == objects)
        #expect(refusal("[" + deepest + "]") == "at byte 33: nesting is deeper than 32 levels")
        #expect(refusal(String(repeating: "{\"a\": ", count: 33) + "1" + String(repeating: "}", count: 33))
            == "at byte 193: nesting is deeper than 32 levels")
        #expect(refusal(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
            == "at byte 33: nesting is deeper than 32 levels")
    }

    @Test("Only white space may follow the value; the text may not stop early", arguments: [
        ("{} x", "at byte 4: unexpected 'x' after the JSON value"),
        ("1 2", "at byte 3: unexpected '2' after the JSON value"),
        ("{}{}", "at byte 3: unexpected '{' after the JSON value"),
        ("[1]]", "at byte 4: unexpected ']' after the JSON value"),
        ("", "at byte 1: the text ends where a value should be"),
        ("   ", "at byte 4: the text ends where a value should be"),
        ("{", "at byte 2: the text ends inside an object"),
        (#"{"a""#, "at byte 5: the text ends inside an object"),
        (#"{"a": "#, "at byte 7: the text ends inside an object"),
        ("[1,", "at byte 4: the text ends inside an array"),
        ("[[1]", "at byte 5: the text ends inside an array"),
        ("tru", "at byte 4: the text ends inside a literal"),
        ("nul x", "at byte 1: invalid literal; expected true, false or null"),
        ("[1,]", "at byte 4: expected a value, found ']'"),
        (#"{"a": 1,}"#, "at byte 9: expected a key string, found '}'"),
        ("{a: 1}", "at byte 2: expected a key string or '}', found 'a'"),
        ("[1 2]", "at byte 4: expected ',' or ']', found '2'"),
        ("// c\n1", "at byte 1: expected a value, found '/'"),
    ])
    func structure(text: String, message: String) {
        #expect(refusal(text) == message)
    }

    @Test("An object's span is its bytes in the text, so an inline gesture can be read from them")
    func spans() throws {
        let text = #"{"id": 1, "gesture": {"name": "é", "strokes": [{"s": 1}]} }"#
        let bytes = Array(text.utf8)
        let value = try JSONValue.parse(bytes)
        guard case .object(_, let outer) = value, case .object(_, let inner)? = value["gesture"],
            case .array(let strokes)? = value["gesture"]?["strokes"], case .object(_, let stroke)? = strokes.first
        else {
            Issue.record("not the shape parsed: \(value.jsonText)")
            return
        }
        #expect(outer == 0..<bytes.count)
        #expect(String(decoding: bytes[inner], as: UTF8.self) == #"{"name": "é", "strokes": [{"s": 1}]}"#)
        #expect(String(decoding: bytes[stroke], as: UTF8.self) == #"{"s": 1}"#)
        // Built objects have none, and spans do not take part in equality.
        #expect(JSONValue.object([("s", .number("1"))]) == strokes[0])
    }

    @Test("Numbers built from doubles as people write them; not finite is null")
    func decimals() {
        #expect(JSONValue.decimal(2).jsonText == "2")
        #expect(JSONValue.decimal(-0.0).jsonText == "0")
        #expect(JSONValue.decimal(0.25).jsonText == "0.25")
        #expect(JSONValue.decimal(1e16).jsonText == "1e+16")
        #expect(JSONValue.decimal(.infinity) == .null)
        #expect(JSONValue.decimal(.nan) == .null)
        #expect(JSONValue.integer(-7).jsonText == "-7")
    }
}
