import GestureModel
import GestureRender
import Testing

@Suite("renderPreview")
struct PreviewTests {
    typealias F = Fixtures

    @Test func plainPicture() {
        // 216 × 135 mm in at most 40 × 12 characters: 10 rows of cells twice
        // as tall as wide leave room for 32 columns.
        let expected = """
            +--------------------------------+
            |                                |
            |4.......>                       |
            |                                |
            |                                |
            |           1..>  <..2           |
            |                                |
            |                                |
            |                *3              |
            |                                |
            |                                |
            +--------------------------------+

            """
        #expect(renderPreview(SVGTests.mixed, colour: false) == expected)
    }

    @Test func colouredPicture() {
        let gesture = F.gesture([
            F.line(from: (10, 10), to: (10, 120), durationMilliseconds: 300),
            F.still(at: (150, 60), durationMilliseconds: 50),
        ])
        let escape = "\u{1B}["
        // At most 18 × 4 cells inside the box: the 4 rows allow 13 columns.
        let expected = """
            +-------------+
            |\(escape)38;5;25m1\(escape)0m            |
            |\(escape)38;5;25m.\(escape)0m        \(escape)38;5;166m*2\(escape)0m  |
            |\(escape)38;5;25m.\(escape)0m            |
            |\(escape)38;5;25mv\(escape)0m            |
            +-------------+

            """
        #expect(renderPreview(gesture, columns: 20, rows: 6, colour: true) == expected)
        #expect(
            renderPreview(gesture, columns: 20, rows: 6, colour: false) == """
                +-------------+
                |1            |
                |.        *2  |
                |.            |
                |v            |
                +-------------+

                """)
    }

    @Test func plainOutputIsASCII() {
        let text = renderPreview(SVGTests.mixed, columns: 60, rows: 20, colour: false)
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII && ($0.value >= 0x20 || $0 == "\n") })
        let lines = text.split(separator: "\n")
        #expect(lines.count <= 20)
        #expect(lines.allSatisfy { $0.count <= 60 })
    }

    @Test func tallDevicesGiveNarrowBoxes() {
        let phone = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 700, resolution: 10),
            y: AxisRange(minimum: 0, maximum: 1400, resolution: 10), slots: 10)
        let gesture = Gesture(
            name: "phone", device: phone,
            strokes: [Stroke(samples: [Sample(time: 0, x: 350, y: 1300), Sample(time: 200_000, x: 350, y: 100)])])
        // 70 × 140 mm: 10 rows of cells are 20 cells tall, so 10 wide.
        #expect(
            renderPreview(gesture, colour: false) == """
                +----------+
                |     ^    |
                |     .    |
                |     .    |
                |     .    |
                |     .    |
                |     .    |
                |     .    |
                |     .    |
                |     .    |
                |     1    |
                +----------+

                """)
    }

    @Test func labelsRunFromDigitsToLetters() {
        var strokes = (0..<12).map {
            F.still(at: (Double($0) * 18 + 2, 60), startMilliseconds: Int64($0) * 100, durationMilliseconds: 40)
        }
        strokes.append(F.still(at: (215, 60), startMilliseconds: 1_200, durationMilliseconds: 40))
        // 48 × 15 cells: one star every 4 columns, the last at the border.
        let text = renderPreview(F.gesture(strokes), columns: 50, rows: 20, colour: false)
        let row = text.split(separator: "\n")[7]
        // The last star sits at the right-hand border, so its label goes left.
        #expect(row == "|*1  *2  *3  *4  *5  *6  *7  *8  *9  *a  *b  *cd*|")
    }

    @Test func extremeSizesAreClamped() {
        let gesture = F.gesture([F.line(from: (10, 10), to: (200, 120), durationMilliseconds: 300)])
        #expect(renderPreview(gesture, columns: 0, rows: -5, colour: false) == "+-+\n|1|\n+-+\n")
        let huge = renderPreview(gesture, columns: Int.max, rows: Int.max, colour: false)
        // 1000 columns at most: 998 cells across need 312 rows of cells.
        #expect(huge.split(separator: "\n").count == 314)
        #expect(huge.split(separator: "\n").allSatisfy { $0.count == 1_000 })
        #expect(renderPreview(F.gesture([]), columns: 6, rows: 4, colour: true) == "+----+\n|    |\n+----+\n")
        _ = renderPreview(SVGTests.hostile, colour: true)
    }

    @Test("A cursor is drawn as + where it is, over the strokes")
    func cursor() {
        let gesture = Gesture(name: "c", device: .synthDefault, strokes: [])
        let picture = renderPreview(gesture, columns: 12, rows: 8, colour: false, cursor: (x: 0, y: 0))
        let lines = picture.split(separator: "\n")
        #expect(lines[1].hasPrefix("|+"))
        let corner = renderPreview(gesture, columns: 12, rows: 8, colour: false, cursor: (x: 21_600, y: 13_500))
        #expect(corner.split(separator: "\n").dropLast().last?.hasSuffix("+|") == true)
    }
}
