import GestureFormat
import GestureModel
import Testing

@Suite struct SyntaxErrorTests {
    @Test(arguments: [
        (#"{"format": 1,"#, "g.json:1:14: unexpected end of file"),
        (#"{"format": 1 "name": "x"}"#, #"g.json:1:14: expected ',' or '}', found '"'"#),
        (#"{"format": 1, }"#, "g.json:1:15: expected a key string, found '}'"),
        (#"{"format": 1, "a" 2}"#, "g.json:1:19: expected ':' after the key, found '2'"),
        (#"{"format": [1, 2,]}"#, "g.json:1:18: expected a value, found ']'"),
        (#"{"format": [1 2]}"#, "g.json:1:15: expected ',' or ']', found '2'"),
        (#"{format: 1}"#, "g.json:1:2: expected a key string or '}', found 'f'"),
        (#"{"format": @}"#, "g.json:1:12: expected a value, found '@'"),
        (#"{"format": 01}"#, "g.json:1:13: invalid number: leading zeros are not allowed"),
        (#"{"format": 1.}"#, "g.json:1:14: invalid number: expected a digit after '.'"),
        (#"{"format": 1e+}"#, "g.json:1:15: invalid number: expected a digit after the exponent sign"),
        (#"{"format": -x}"#, "g.json:1:13: invalid number: expected a digit"),
        (#"{"format": tru}"#, "g.json:1:12: invalid literal; expected true, false or null"),
        (#"{"format": 1, "name": "a\qb"}"#, #"g.json:1:25: invalid escape '\q' in a string"#),
        (#"{"format": 1, "name": "a\u12"}"#, #"g.json:1:25: invalid \u escape: expected 4 hex digits"#),
        (#"{"format": 1, "name": "a\ud800"}"#, #"g.json:1:25: unpaired surrogate in a \u escape"#),
        (#"{"format": 1, "name": "a\udc00"}"#, #"g.json:1:25: unpaired surrogate in a \u escape"#),
        ("{\"format\": 1, \"name\": \"a\tb\"}", "g.json:1:25: control character U+0009 in a string must be escaped"),
        (#"{"format": 1, "name": "ab"#, "g.json:1:26: unexpected end of file"),
        (#"{"format": 1} x"#, "g.json:1:15: expected the end of the file, found 'x'"),
        ("{\n  \"format\": 1,\n  \"name\": @\n}", "g.json:3:11: expected a value, found '@'"),
        ("{\"name\": \"é\", \"x\": @}", "g.json:1:20: expected a value, found '@'"),
        ("{\"format\": 1,\n  \"name\": \"é\" é}", "g.json:2:15: expected ',' or '}', found 'é'"),
    ])
    func syntaxErrorsNameLineColumnAndProblem(text: String, expected: String) {
        let error = decodeError(text)
        #expect(error?.description == expected)
        #expect(error?.kind == .syntax)
    }

    @Test func invalidUTF8InAStringIsASyntaxError() {
        var bytes = Array(#"{"format": 1, "name": "ab"}"#.utf8)
        bytes[24] = 0xFF
        #expect(decodeError(bytes)?.description == "g.json:1:25: invalid UTF-8")
        bytes[24] = 0xC0  // an overlong lead byte
        #expect(decodeError(bytes)?.description == "g.json:1:25: invalid UTF-8")
        // An encoded surrogate (U+D800) is not valid UTF-8 either.
        bytes = Array(#"{"format": 1, "name": "abc"}"#.utf8)
        bytes.replaceSubrange(23..<26, with: [0xED, 0xA0, 0x80])
        #expect(decodeError(bytes)?.description == "g.json:1:24: invalid UTF-8")
        // Cut inside a multi-byte character: the file ends early.
        bytes = Array(#"{"format": 1, "name": "é"#.utf8).dropLast()
        #expect(decodeError(bytes)?.description == "g.json:1:24: unexpected end of file")
    }

    @Test func invalidUTF8OutsideStringsIsAnUnexpectedByte() {
        var bytes = Array(#"{"format": 1, "name": "ab" }"#.utf8)
        bytes[27] = 0xFF
        #expect(decodeError(bytes)?.description == "g.json:1:28: expected ',' or '}', found byte 0xFF")
    }

    @Test func everyTruncationOfAValidFileIsAnUnexpectedEndOfFile() {
        let bytes = Array(Fixtures.exampleText.utf8)
        // The object is complete once its closing brace is there: the last
        // byte is the final newline.
        for length in 1..<(bytes.count - 1) {
            let error = decodeError(Array(bytes[0..<length]))
            #expect(error?.message == "unexpected end of file", "length \(length)")
            #expect(error?.kind == .syntax)
        }
    }

    @Test func deepNestingIsRefused() {
        let text = #"{"format": 1, "x": "# + String(repeating: "[", count: 100)
        let error = decodeError(text)
        #expect(error?.description == "g.json:1:51: nesting is deeper than 32 levels")
        #expect(error?.kind == .tooLarge)
    }

    @Test func nestingUpToTheLimitIsOnlyAnUnknownKey() {
        // 31 arrays inside the top-level object: depth 32 exactly.
        let text =
            #"{"format": 1, "x": "# + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}"
        #expect(decodeError(text)?.description == #"g.json:1:15: unknown key "x" in gesture"#)
    }

    @Test func emptyFileIsNotAGesture() {
        #expect(decodeError("")?.description == "g.json: not a gesturectl gesture: the file is empty")
        #expect(decodeError(" \n\t")?.kind == .notAGesture)
    }
}

@Suite struct VersionErrorTests {
    @Test func newerVersionIsRefusedWithAClearMessage() {
        let error = decodeError(Fixtures.replacing("\"format\": 1", with: "\"format\": 3", in: Fixtures.minimalText))
        #expect(error?.description == "g.json: format version 3; this gesturectl reads up to 2")
        #expect(error?.kind == .newerVersion(3))
    }

    @Test func newerVersionIsJudgedBeforeKeysItMayHave() {
        let error = decodeError(#"{"timeline": {"tracks": []}, "format": 3}"#, source: "future.json")
        #expect(error?.description == "future.json: format version 3; this gesturectl reads up to 2")
    }

    @Test func syntaxIsJudgedBeforeTheVersion() {
        #expect(decodeError(#"{"format": 3, "x": [}"#)?.description == "g.json:1:21: expected a value, found '}'")
    }

    @Test func enormousVersionIsNewerNotACrash() {
        let error = decodeError(#"{"format": 123456789012345678901234567890}"#)
        #expect(
            error?.description == "g.json: format version 123456789012345678901234567890; this gesturectl reads up to 2")
        #expect(error?.kind == .newerVersion(Int.max))
    }

    @Test(arguments: [
        ("[1, 2]", "g.json: not a gesturectl gesture: expected a JSON object"),
        ("\"gesture\"", "g.json: not a gesturectl gesture: expected a JSON object"),
        (#"{"name": "tap"}"#, #"g.json: not a gesturectl gesture: no "format" key"#),
        (#"{"format": "1"}"#, #"g.json: not a gesturectl gesture: "format" must be an integer, found a string"#),
        (#"{"format": 1.5}"#, #"g.json: not a gesturectl gesture: "format" must be an integer, found 1.5"#),
        (#"{"format": null}"#, #"g.json: not a gesturectl gesture: "format" must be an integer, found null"#),
        (#"{"format": 0}"#, "g.json: not a gesturectl gesture: format version 0 is not valid; versions start at 1"),
        (#"{"format": -2}"#, "g.json: not a gesturectl gesture: format version -2 is not valid; versions start at 1"),
    ])
    func notAGesture(text: String, expected: String) {
        let error = decodeError(text)
        #expect(error?.description == expected)
        #expect(error?.kind == .notAGesture)
    }

    @Test func duplicateFormatKeyIsAnError() {
        #expect(decodeError(#"{"format": 1, "format": 1}"#)?.description == #"g.json:1:15: duplicate key "format" in gesture"#)
    }

    @Test func sourceIsWhatTheCallerNames() {
        #expect(decodeError("[]", source: "/home/a/pinch.gesture")?.description
            == "/home/a/pinch.gesture: not a gesturectl gesture: expected a JSON object")
    }
}

@Suite struct ContentErrorTests {
    /// The error of the minimal fixture with `old` replaced by `new`.
    func error(replacing old: String, with new: String) -> GestureFormatError? {
        decodeError(Fixtures.replacing(old, with: new, in: Fixtures.minimalText))
    }

    @Test(arguments: [
        ("\"name\": \"tap\"", "\"nmae\": \"tap\"", #"g.json:3:3: unknown key "nmae" in gesture"#),
        ("\"slots\": 10", "\"slots\": 10, \"slot\": 1", #"g.json:10:18: unknown key "slot" in device"#),
        ("\"resolution\": 100 },\n    \"y\"", "\"res\": 100 },\n    \"y\"",
         #"g.json:6:36: unknown key "res" in device x axis"#),
        ("\"kind\": \"finger\"", "\"kind\": \"finger\", \"finger\": 1", #"g.json:14:25: unknown key "finger" in stroke 1"#),
        ("\"name\": \"tap\"", "\"name\": \"tap\", \"name\": \"x\"", #"g.json:3:18: duplicate key "name" in gesture"#),
        ("\"slots\": 10", "\"slots\": 10, \"kind\": \"mouse\"", #"g.json:10:18: duplicate key "kind" in device"#),
        ("    \"slots\": 10\n", "", #"g.json:10:3: expected a key string, found '}'"#),
        (",\n    \"slots\": 10", "", #"g.json:4:13: missing key "slots" in device"#),
        ("  \"name\": \"tap\",\n", "", #"g.json:1:1: missing key "name" in gesture"#),
        ("\"slots\": 10", "\"slots\": \"10\"", #"g.json:10:14: "slots" must be an integer, found a string"#),
        ("\"slots\": 10", "\"slots\": 10.0", #"g.json:10:14: "slots" must be an integer, found 10.0"#),
        ("\"slots\": 10", "\"slots\": 99999999999999999999", #"g.json:10:14: "slots" 99999999999999999999 is out of range"#),
        ("\"width_mm\": 216", "\"width_mm\": 1e999", #"g.json:8:17: "width_mm" 1e999 is out of range"#),
        ("\"width_mm\": 216", "\"width_mm\": \"216\"", #"g.json:8:17: "width_mm" must be a number, found a string"#),
        ("\"name\": \"tap\"", "\"name\": 3", #"g.json:3:11: "name" must be a string, found 3"#),
        ("\"kind\": \"touchscreen\"", "\"kind\": \"phone\"",
         #"g.json:5:13: unknown device kind "phone"; expected touchscreen, touchpad, tablet or mouse"#),
        // DeviceKind names keyboards and other devices, but gesture files never do.
        ("\"kind\": \"touchscreen\"", "\"kind\": \"keyboard\"",
         #"g.json:5:13: unknown device kind "keyboard"; expected touchscreen, touchpad, tablet or mouse"#),
        ("\"kind\": \"touchscreen\"", "\"kind\": \"other\"",
         #"g.json:5:13: unknown device kind "other"; expected touchscreen, touchpad, tablet or mouse"#),
        ("\"kind\": \"finger\"", "\"kind\": \"toe\"", #"g.json:14:15: unknown stroke kind "toe"; expected finger, pen or pointer"#),
        ("\"kind\": \"finger\"", "\"kind\": \"pointer\", \"button\": \"back\"",
         #"g.json:14:36: unknown button "back"; expected left, right or middle"#),
        ("\"x\": { \"min\": 0, \"max\": 21600, \"resolution\": 100 }", "\"x\": [0, 21600]", #"g.json:6:10: "x" must be an object, found an array"#),
        ("\"strokes\": [", "\"strokes\": [3, ", #"g.json:12:15: stroke 1 must be an object, found 3"#),
        ("[0, 100, 200]", "[0, 100]", "g.json:16:9: stroke 1, sample 1: a sample needs at least time, x and y; found 2 numbers"),
        ("[0, 100, 200]", "[]", "g.json:16:9: stroke 1, sample 1: a sample needs at least time, x and y; found 0 numbers"),
        ("[0, 100, 200]", "[0, 100, 200, 1, 2, 3]", "g.json:16:29: stroke 1, sample 1: a sample has at most 5 numbers: time, x, y, pressure, size"),
        ("[10000, 110, 210]", "[10000, 1.5, 210]", "g.json:17:17: stroke 1, sample 2: x must be an integer, found 1.5"),
        ("[10000, 110, 210]", "[null, 110, 210]", "g.json:17:10: stroke 1, sample 2: time must be an integer, found null"),
        ("[10000, 110, 210]", "[10000, 110, \"210\"]", "g.json:17:22: stroke 1, sample 2: y must be an integer, found a string"),
        ("[10000, 110, 210]", "[10000, 110, 210, 1e3]", "g.json:17:27: stroke 1, sample 2: pressure must be an integer, found 1e3"),
        ("[10000, 110, 210]", "[10000, 99999999999999999999, 210]",
         "g.json:17:17: stroke 1, sample 2: x 99999999999999999999 is out of range"),
        ("[10000, 110, 210]", "{}", "g.json:17:9: stroke 1, sample 2: a sample must be an array [time, x, y, pressure, size], found an object"),
    ])
    func contentErrorsNameLineColumnAndProblem(old: String, new: String, expected: String) {
        let error = error(replacing: old, with: new)
        #expect(error?.description == expected)
        #expect(error?.kind == (expected.contains("expected a key string") ? .syntax : .invalid))
    }

    @Test(arguments: [
        ("[10000, 110, 210]", "[-5, 110, 210]", "g.json:17: stroke 1, sample 2: time -5 µs is negative"),
        ("[0, 100, 200],\n        [10000, 110, 210]", "[20000, 100, 200],\n        [10000, 110, 210]",
         "g.json:17: stroke 1, sample 2: time 10000 µs is before the previous sample's 20000 µs"),
        ("[10000, 110, 210]", "[10000, 30000, 210]",
         "g.json:17: stroke 1, sample 2: x 30000 is outside the device's x axis 0…21600"),
        ("[10000, 110, 210]", "[10000, 110, 210, 5]",
         "g.json:17: stroke 1, sample 2: pressure 5 is given but the device has no pressure axis"),
        ("\"slots\": 10", "\"slots\": 0", "g.json:10: device slots 0 is outside 1…100"),
        ("\"name\": \"tap\"", "\"name\": \"\"", "g.json:3: name is empty"),
        ("\"x\": { \"min\": 0,", "\"x\": { \"min\": 21600,",
         "g.json:6: device x axis: minimum 21600 is not below maximum 21600"),
        ("\"kind\": \"finger\"", "\"kind\": \"pointer\"", "g.json:13: stroke 1: pointer stroke has no button"),
        ("\"kind\": \"finger\"", "\"kind\": \"finger\", \"button\": \"left\"",
         "g.json:14: stroke 1: finger stroke has a button (left); only pointer strokes have one"),
        ("[0, 100, 200],\n        [10000, 110, 210]\n      ]", "]", "g.json:13: stroke 1: stroke has no samples"),
        ("\"strokes\": [", "\"metadata\": { \"dropped_events\": -1 },\n  \"strokes\": [",
         "g.json:12: dropped events -1 is negative"),
        ("\"width_mm\": 216", "\"width_mm\": -1", "g.json:8: device width -1 mm is negative"),
    ])
    func validationErrorsNameTheLineOfTheValue(old: String, new: String, expected: String) {
        let error = error(replacing: old, with: new)
        #expect(error?.description == expected)
        #expect(error?.kind == .invalid)
        #expect(error?.column == nil)
    }

    @Test func validationLinesFollowStrokesAndSamplesInAnyLayout() {
        let text = """
            {"format": 1, "name": "t", "device": {"kind": "touchpad", "slots": 5,
            "x": {"min": 0, "max": 100}, "y": {"min": 0, "max": 100}},
            "strokes": [{"kind": "finger", "samples": [[0, 1, 1]]},
            {"kind": "finger", "samples": [[0, 1, 1], [5, 1, 1],
            [7, 1, 101]]}]}
            """
        #expect(decodeError(text)?.description == "g.json:5: stroke 2, sample 3: y 101 is outside the device's y axis 0…100")
    }

    @Test func fileOverTheSizeLimitIsRefusedBeforeReading() {
        let bytes = [UInt8](repeating: 0x20, count: GestureLimits.maximumFileBytes + 1)
        let error = decodeError(bytes)
        #expect(error?.description == "g.json: file is 536870913 bytes; the limit is 536870912 bytes")
        #expect(error?.kind == .tooLarge)
    }
}

/// Version 2: the stroke key "estimated" (issue 7 item 14).
@Suite struct EstimatedStrokeFormatTests {
    @Test func anEstimatedStrokeIsWrittenAsVersionTwoAndReadBack() throws {
        var gesture = Fixtures.minimal
        gesture.strokes.append(Stroke(samples: gesture.strokes[0].samples, isEstimated: true))
        let text = GestureFileFormat.encode(gesture)
        #expect(text.hasPrefix("{\n  \"format\": 2,\n"))
        #expect(text.contains("\"kind\": \"finger\",\n      \"estimated\": true,\n      \"samples\""))
        #expect(try GestureFileFormat.decode(text, source: "g.json") == gesture)
        // Without estimated strokes the file stays version 1, byte for byte.
        #expect(GestureFileFormat.encode(Fixtures.minimal) == Fixtures.minimalText)
        let asTwo = Fixtures.replacing("\"format\": 1", with: "\"format\": 2", in: Fixtures.minimalText)
        #expect(GestureFileFormat.encode(try GestureFileFormat.decode(asTwo, source: "g.json")) == Fixtures.minimalText)
    }

    @Test func versionOneHasNoEstimatedKey() {
        var gesture = Fixtures.minimal
        gesture.strokes[0].isEstimated = true
        let text = Fixtures.replacing("\"format\": 2", with: "\"format\": 1", in: GestureFileFormat.encode(gesture))
        #expect(decodeError(text)?.description.contains("unknown key \"estimated\" in stroke 1") == true)
        let wrongType = Fixtures.replacing("\"estimated\": true", with: "\"estimated\": 1", in: GestureFileFormat.encode(gesture))
        #expect(decodeError(wrongType)?.description.contains("\"estimated\" must be true or false, found") == true)
    }
}
