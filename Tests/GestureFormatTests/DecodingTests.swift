import GestureFormat
import GestureModel
import Testing

@Suite struct DecodingTests {
    @Test func exampleDecodesToTheGesture() throws {
        let gesture = try GestureFileFormat.decode(Fixtures.exampleText, source: "example.json")
        #expect(gesture == Fixtures.example)
    }

    @Test func canonicalTextRoundTripsByteForByte() throws {
        for text in [Fixtures.exampleText, Fixtures.minimalText] {
            let gesture = try GestureFileFormat.decode(text, source: "g.json")
            #expect(GestureFileFormat.encode(gesture) == text)
        }
    }

    @Test func reorderedCompactHandEditedTextReadsAndIsWrittenCanonically() throws {
        let handEdited = """
            {"strokes":[{"samples":[[0,100,200],
                [10000,110,210]],"kind":"finger"}],
             "device":{"slots":10,"height_mm":135.000,"width_mm":2.16e2,"kind":"touchscreen",
               "y":{"resolution":100,"max":13500,"min":0},"x":{"max":21600,"min":0,"resolution":100}},
            \t"name":"t\\u0061p",   "format":1}
            """
        let gesture = try GestureFileFormat.decode(handEdited, source: "g.json")
        #expect(gesture == Fixtures.minimal)
        #expect(GestureFileFormat.encode(gesture) == Fixtures.minimalText)
    }

    @Test func millimetresWithTrailingZerosAreReadAndWrittenPlainly() throws {
        // Resolution 0 on x, so that the stated width cannot disagree with it.
        let unresolved = Fixtures.replacing(
            "\"max\": 21600, \"resolution\": 100", with: "\"max\": 21600, \"resolution\": 0", in: Fixtures.minimalText)
        let text = Fixtures.replacing("\"width_mm\": 216,", with: "\"width_mm\": 1.50,", in: unresolved)
        let gesture = try GestureFileFormat.decode(text, source: "g.json")
        #expect(gesture.device.widthMM == 1.5)
        #expect(GestureFileFormat.encode(gesture) == Fixtures.replacing("216,", with: "1.5,", in: unresolved))
    }

    @Test func millimetresAreRoundedToThousandthsOnReading() throws {
        let unresolved = Fixtures.replacing(
            "\"max\": 21600, \"resolution\": 100", with: "\"max\": 21600, \"resolution\": 0", in: Fixtures.minimalText)
        let text = Fixtures.replacing("\"width_mm\": 216,", with: "\"width_mm\": 0.1234,", in: unresolved)
        #expect(try GestureFileFormat.decode(text, source: "g.json").device.widthMM == 0.123)
    }

    @Test func missingMillimetresAreDerivedFromSpanAndResolution() throws {
        var text = Fixtures.replacing("    \"width_mm\": 216,\n", with: "", in: Fixtures.minimalText)
        text = Fixtures.replacing("    \"height_mm\": 135,\n", with: "", in: text)
        let gesture = try GestureFileFormat.decode(text, source: "g.json")
        #expect(gesture.device.widthMM == 216)
        #expect(gesture.device.heightMM == 135)
    }

    @Test func nullStandsForAbsentOptionalValues() throws {
        var text = Fixtures.replacing("\"name\": \"tap\",", with: "\"name\": \"tap\", \"description\": null, \"metadata\": null,", in: Fixtures.minimalText)
        text = Fixtures.replacing("\"kind\": \"finger\",", with: "\"kind\": \"finger\", \"button\": null,", in: text)
        text = Fixtures.replacing("\"slots\": 10", with: "\"slots\": 10, \"pressure\": null, \"size\": null", in: text)
        text = Fixtures.replacing("[0, 100, 200]", with: "[0, 100, 200, null, null]", in: text)
        #expect(try GestureFileFormat.decode(text, source: "g.json") == Fixtures.minimal)
    }

    @Test func escapesDecode() throws {
        let text = Fixtures.replacing(
            "\"name\": \"tap\"", with: #""name": "\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00", "description": "\u0000""#,
            in: Fixtures.minimalText)
        // The control characters make the name invalid; the description
        // shows that escapes decode.
        #expect(decodeError(text)?.description == "g.json:3: name contains a control character (U+0008)")
        let valid = Fixtures.replacing(
            "\"name\": \"tap\"", with: #""name": "\"\\\/\u00e9\uD83D\uDE00 é""#, in: Fixtures.minimalText)
        #expect(try GestureFileFormat.decode(valid, source: "g.json").name == "\"\\/é😀 é")
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(Fixtures.minimalText.utf8)
        #expect(try GestureFileFormat.decode(bytes, source: "g.json") == Fixtures.minimal)
    }

    @Test func windowsLineEndsRead() throws {
        let text = Fixtures.minimalText.replacing("\n", with: "\r\n")
        #expect(try GestureFileFormat.decode(text, source: "g.json") == Fixtures.minimal)
    }
}
