import GestureModel

/// Draws a gesture as a small picture of plain characters for a terminal.
///
/// The picture is at most `columns` characters wide and `rows` lines tall,
/// border included: a box of `+`, `-` and `|` in the source device's aspect
/// ratio (a terminal cell counts as twice as tall as it is wide). Each
/// stroke is a trail of `.` ending in an arrowhead (`>`, `<`, `^`, `v`) and
/// starting with its number (`1`…`9`, then `a`…`z`, `A`…`Z`, then `#`); a
/// still stroke (see ``MotionThresholds/stillMovementMM``) is a `*` with its
/// number to its right (or left, at the right-hand border). Numbers are
/// drawn over stars, stars over arrowheads, arrowheads over trails; later
/// strokes over earlier ones.
///
/// - Parameters:
///   - gesture: The gesture to draw; any values are accepted.
///   - columns: Widest line, border included; clamped to 3…1000.
///   - rows: Most lines, border included; clamped to 3…500.
///   - colour: Whether to colour each stroke with ANSI 256-colour escapes
///     (the caller decides, from `NO_COLOR` and whether output is a
///     terminal). Without colour the output is plain ASCII.
/// - Returns: The lines, each ending with a line break.
///   - cursor: A point on the gesture's surface, in its device units, drawn
///     as `+` over everything else (a live pointer's position: a grabbed
///     pointer moves no cursor of its own).
public func renderPreview(
    _ gesture: Gesture, columns: Int = 40, rows: Int = 12, colour: Bool, cursor: (x: Int, y: Int)? = nil
) -> String {
    var canvas = PreviewCanvas(analysis: GestureAnalysis(gesture), columns: columns, rows: rows)
    canvas.draw()
    if let cursor {
        let (column, row) = canvas.cell(canvas.analysis.mapping.point(Sample(time: .zero, x: cursor.x, y: cursor.y)))
        canvas.cells[row][column] = PreviewCanvas.Cell(character: "+", strokeNumber: nil)
    }
    return canvas.text(colour: colour)
}

/// The character grid of one ``renderPreview(_:columns:rows:colour:)`` call.
private struct PreviewCanvas {
    /// One character cell inside the box.
    struct Cell {
        var character: Character = " "
        /// The number of the stroke that drew it; `nil` for blank cells.
        var strokeNumber: Int?
    }

    let analysis: GestureAnalysis
    /// Cells inside the box, across and down.
    let innerColumns: Int
    let innerRows: Int
    var cells: [[Cell]]

    init(analysis: GestureAnalysis, columns: Int, rows: Int) {
        self.analysis = analysis
        let widest = min(max(columns, 3), 1_000) - 2
        let tallest = min(max(rows, 3), 500) - 2
        // A cell is about twice as tall as wide: the surface's aspect ratio
        // W/H in cells is columns / (2 × rows).
        let aspect = analysis.mapping.widthMM / analysis.mapping.heightMM
        let rowsForFullWidth = NumberFormatting.roundedInteger(Double(widest) / aspect / 2)
        if rowsForFullWidth <= Int64(tallest) {
            innerColumns = widest
            innerRows = Int(max(rowsForFullWidth, 1))
        } else {
            innerRows = tallest
            innerColumns = Int(min(max(NumberFormatting.roundedInteger(Double(tallest) * 2 * aspect), 1), Int64(widest)))
        }
        cells = Array(repeating: Array(repeating: Cell(), count: innerColumns), count: innerRows)
    }

    mutating func draw() {
        let traces = analysis.traces
        for trace in traces where !trace.isStill { drawTrail(trace) }
        for trace in traces where !trace.isStill { drawArrowhead(trace) }
        for trace in traces where trace.isStill {
            let (column, row) = cell(trace.start)
            cells[row][column] = Cell(character: "*", strokeNumber: trace.index &+ 1)
        }
        for trace in traces {
            var (column, row) = cell(trace.start)
            if trace.isStill {
                // Beside the star: to its right, or to its left at the border.
                guard innerColumns > 1 else { continue }
                column = column + 1 < innerColumns ? column + 1 : column - 1
            }
            cells[row][column] = Cell(character: Self.label(trace.index &+ 1), strokeNumber: trace.index &+ 1)
        }
    }

    /// The cell a position falls in, clamped to the box.
    func cell(_ point: PointMM) -> (column: Int, row: Int) {
        (
            Self.index(point.x / analysis.mapping.widthMM, count: innerColumns),
            Self.index(point.y / analysis.mapping.heightMM, count: innerRows)
        )
    }

    private static func index(_ fraction: Double, count: Int) -> Int {
        let scaled = (fraction * Double(count)).rounded(.down)
        guard scaled > 0 else { return 0 }  // also NaN
        return scaled >= Double(count - 1) ? count - 1 : Int(scaled)
    }

    /// `.` on every cell the stroke's polyline crosses.
    private mutating func drawTrail(_ trace: StrokeTrace) {
        var previous = cell(trace.start)
        plot(previous, ".", trace)
        for point in trace.points.dropFirst() {
            let next = cell(point)
            // Bresenham's line between the two cells.
            let deltaColumn = abs(next.column - previous.column)
            let deltaRow = -abs(next.row - previous.row)
            let stepColumn = previous.column < next.column ? 1 : -1
            let stepRow = previous.row < next.row ? 1 : -1
            var error = deltaColumn + deltaRow
            var current = previous
            while current != next {
                let doubled = 2 * error
                if doubled >= deltaRow {
                    error += deltaRow
                    current.column += stepColumn
                }
                if doubled <= deltaColumn {
                    error += deltaColumn
                    current.row += stepRow
                }
                plot(current, ".", trace)
            }
            previous = next
        }
    }

    /// An arrowhead on the last cell, pointing along the stroke's last move
    /// to that cell (in millimetres, so the screen's cell shape does not
    /// bend it).
    private mutating func drawArrowhead(_ trace: StrokeTrace) {
        let last = cell(trace.end)
        guard let before = trace.points.last(where: { cell($0) != last }) else { return }
        let move = trace.end - before
        let arrow: Character =
            abs(move.x) >= abs(move.y) ? (move.x > 0 ? ">" : "<") : (move.y > 0 ? "v" : "^")
        plot(last, arrow, trace)
    }

    private mutating func plot(_ position: (column: Int, row: Int), _ character: Character, _ trace: StrokeTrace) {
        cells[position.row][position.column] = Cell(character: character, strokeNumber: trace.index &+ 1)
    }

    /// The mark for stroke `number`: `1`…`9`, `a`…`z`, `A`…`Z`, then `#`.
    static func label(_ number: Int) -> Character {
        let marks = Array("123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return number >= 1 && number <= marks.count ? marks[number - 1] : "#"
    }

    /// The picture, with the box around it.
    func text(colour: Bool) -> String {
        let border = "+" + String(repeating: "-", count: innerColumns) + "+\n"
        var text = border
        for row in cells {
            text += "|"
            var open: Int?
            for cell in row {
                if colour, cell.strokeNumber != open {
                    if open != nil { text += Self.reset }
                    if let number = cell.strokeNumber {
                        text += "\u{1B}[38;5;\(StrokePalette.colour(forStrokeNumber: number).ansi256)m"
                    }
                    open = cell.strokeNumber
                }
                text.append(cell.character)
            }
            if open != nil { text += Self.reset }
            text += "|\n"
        }
        return text + border
    }

    private static let reset = "\u{1B}[0m"
}
