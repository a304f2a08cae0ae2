import GestureFormat
import GestureModel
import Testing

/// A gesture as a JSON value (issue 37: the daemon built it by writing the
/// file's text and parsing it again): the value is what parsing the
/// canonical text gives, member for member, and reads back as the gesture.
@Suite("A gesture as a JSON value")
struct GestureJSONTests {
    @Test("The value is the parsed canonical text, for every part the format has", arguments: [
        Fixtures.example, Fixtures.minimal,
        Gesture(
            name: "estimated \"quoted\" ✓", device: Fixtures.exampleDevice,
            strokes: [Stroke(kind: .finger, samples: [Sample(time: 5, x: 3, y: 7, pressure: nil, size: 2)], isEstimated: true)]),
    ])
    func sameAsTheText(gesture: Gesture) throws {
        let parsed = try JSONValue.parse(GestureFileFormat.encodeUTF8(gesture))
        let built = GestureFileFormat.json(gesture)
        #expect(built == parsed)
        #expect(built.jsonText == parsed.jsonText)
        #expect(try GestureFileFormat.decode(json: built, source: "test") == gesture)
    }

    @Test("One stroke is the stroke object the gesture's value holds")
    func stroke() throws {
        for stroke in Fixtures.example.strokes {
            let inGesture = GestureFileFormat.json(Gesture(name: "s", device: Fixtures.exampleDevice, strokes: [stroke]))
            guard case .array(let strokes)? = inGesture["strokes"] else {
                Issue.record("no strokes")
                return
            }
            #expect(strokes == [GestureFileFormat.json(stroke)])
        }
    }

    @Test("A value that is no gesture is refused naming its source")
    func refused() {
        #expect(throws: GestureFormatError.self) {
            _ = try GestureFileFormat.decode(json: .object([("name", .string("x"))]), source: "the daemon's recording")
        }
    }
}
