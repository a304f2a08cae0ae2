@testable import GestureFormat
import TestSupport
import GestureModel
import Testing

@Suite struct EncodingTests {
    @Test func exampleEncodesToTheCanonicalText() {
        #expect(GestureFileFormat.encode(Fixtures.example) == Fixtures.exampleText)
    }

    @Test func minimalGestureOmitsDescriptionMetadataAndMissingAxes() {
        #expect(GestureFileFormat.encode(Fixtures.minimal) == Fixtures.minimalText)
    }

    @Test func bytesAndTextAgree() {
        #expect(GestureFileFormat.encodeUTF8(Fixtures.example) == Array(Fixtures.exampleText.utf8))
    }

    @Test func metadataOmitsNilFieldsButAlwaysWritesDroppedEvents() {
        var gesture = Fixtures.minimal
        gesture.metadata = RecordingMetadata(tool: "gesturectl 0.1.0", droppedEvents: 3)
        let text = GestureFileFormat.encode(gesture)
        let expected = """
              "metadata": {
                "tool": "gesturectl 0.1.0",
                "dropped_events": 3
              },
              "strokes": [
            """
        #expect(text.contains(expected))
        gesture.metadata = RecordingMetadata()
        #expect(GestureFileFormat.encode(gesture).contains("  \"metadata\": {\n    \"dropped_events\": 0\n  },\n"))
    }

    @Test func sampleColumnsDropTrailingNilsAndWriteNullForAMissingPressureBeforeASize() {
        var gesture = Fixtures.example
        gesture.strokes = [
            Stroke(samples: [
                Sample(time: 0, x: 1, y: 2),
                Sample(time: 1, x: 1, y: 2, pressure: 3),
                Sample(time: 2, x: 1, y: 2, pressure: nil, size: 4),
                Sample(time: 3, x: -1, y: -2, pressure: 0, size: 0),
            ])
        ]
        let expected = """
                  "samples": [
                    [0, 1, 2],
                    [1, 1, 2, 3],
                    [2, 1, 2, null, 4],
                    [3, -1, -2, 0, 0]
                  ]
            """
        #expect(GestureFileFormat.encode(gesture).contains(expected))
    }

    @Test func stringsEscapeQuotesBackslashesAndControlCharactersButNotUnicode() {
        var gesture = Fixtures.minimal
        gesture.description = "a\"b\\c\nd\te\r\u{01}\u{1F}\u{7F} é 😀 /"
        #expect(
            GestureFileFormat.encode(gesture).contains(
                #"  "description": "a\"b\\c\nd\te\r\u0001\u001f\u007f é 😀 /","#))
    }

    @Test(arguments: [
        (216.0, "216"), (67.5, "67.5"), (0.125, "0.125"), (0.0, "0"), (-0.0, "0"), (0.0004, "0"),
        (-0.0004, "0"), (123.4564, "123.456"), (0.05, "0.05"), (1.5, "1.5"), (100.25, "100.25"),
        (2_000_000.001, "2000000.001"), (-3.25, "-3.25"), (0.001, "0.001"), (9.9996, "10"),
    ])
    func millimetresAreRoundedToThousandthsWithoutExponentOrTrailingZeros(value: Double, text: String) {
        #expect(Millimetres.text(value) == text)
    }

    @Test func millimetresThatJSONCannotHoldAreWrittenSoTheReaderRefusesThem() {
        #expect(Millimetres.text(.nan) == "null")
        #expect(Millimetres.text(.infinity) == "null")
    }

    @Test func extremeIntegersAreWrittenWithoutTrapping() {
        var gesture = Fixtures.minimal
        gesture.strokes = [Stroke(samples: [Sample(time: Microseconds(Int64.min), x: Int.max, y: Int.min)])]
        #expect(
            GestureFileFormat.encode(gesture).contains(
                "[-9223372036854775808, 9223372036854775807, -9223372036854775808]"))
    }

    @Test func emptyStrokeListAndEmptySampleListsStayValidJSON() {
        var gesture = Fixtures.minimal
        gesture.strokes = []
        #expect(GestureFileFormat.encode(gesture).hasSuffix("  \"strokes\": []\n}\n"))
        gesture.strokes = [Stroke(kind: .pen, samples: [])]
        #expect(
            GestureFileFormat.encode(gesture).hasSuffix(
                "  \"strokes\": [\n    {\n      \"kind\": \"pen\",\n      \"samples\": []\n    }\n  ]\n}\n"))
    }
}

@Suite("Millimetres as the writer writes them")
struct MillimetreTextTests {
    @Test("Every size validation accepts is written as a plain decimal: no exponent, no trailing .0, no -0")
    func everyAcceptedSize() {
        var generator = SplitMix64(seed: 20_261_130)
        var values: [Double] = [0, 0.001, 0.0004, 0.0005, 1, 216, 67.5, 99_999.999, 100_000, 1e-9, 12_150, 0.1 + 0.2]
        for _ in 0..<20_000 { values.append(Double(generator.next() % 100_000_001) / 1000 + Double(generator.next() % 1000) / 1e7) }
        for value in values where value <= GestureLimits.maximumSurfaceMillimetres {
            let text = Millimetres.text(value)
            #expect(!text.contains("e") && !text.contains("E"), "\(value) → \(text)")
            #expect(!text.hasSuffix(".0") && !(text.contains(".") && text.hasSuffix("0")), "\(value) → \(text)")
            #expect(text != "-0", "\(value)")
            #expect(Double(text).map { abs($0 - Millimetres.rounded(value)) < 1e-9 } == true, "\(value) → \(text)")
        }
    }

    @Test("Sizes beyond 100 m are refused by validation, so the writer never meets them")
    func tooLarge() throws {
        var gesture = Fixtures.minimal
        gesture.device.widthMM = 1e16
        #expect(throws: GestureValidationError.self) { try gesture.validate() }
        gesture.device.widthMM = GestureLimits.maximumSurfaceMillimetres
        gesture.device.x.resolution = 0  // else the width would disagree with it
        #expect(throws: Never.self) { try gesture.validate() }
    }
}
