import GestureModel

/// Draws a gesture as an SVG picture.
///
/// The picture has the source device's aspect ratio: its `viewBox` is in
/// millimetres of the device's surface, which is drawn as a light rectangle
/// with a border. Each stroke is one `<path>` through its samples
/// (simplified to within ``SVGOptions/tolerancePixels``) with an arrowhead at its end,
/// a small dot at its start and its number (1-based, in stroke order) next
/// to the start; a still stroke (see ``MotionThresholds/stillMovementMM``)
/// is a large dot instead of an arrow. Strokes take their colours in turn
/// from the Okabe–Ito palette, which stays apart for colour-blind viewers,
/// and the numbers mean colour is never the only cue. The `<title>` is the
/// gesture's name, the `<desc>` its description, and a caption under the
/// surface gives the ``describe(_:style:)`` line. All text is escaped.
///
/// - Parameters:
///   - gesture: The gesture to draw; any values are accepted.
///   - options: Size, caption and simplification.
/// - Returns: A standalone SVG 1.1 document, ending with a line break.
public func renderSVG(_ gesture: Gesture, options: SVGOptions = .init()) -> String {
    SVGRenderer(gesture: gesture, options: options).document()
}

/// The drawing state of one ``renderSVG(_:options:)`` call.
private struct SVGRenderer {
    let gesture: Gesture
    let options: SVGOptions
    let analysis: GestureAnalysis
    /// One drawing unit: 1/200 of the surface's longer side, so that lines
    /// and text keep their proportions on any device size.
    let unit: Double

    init(gesture: Gesture, options: SVGOptions) {
        self.gesture = gesture
        self.options = options
        analysis = GestureAnalysis(gesture)
        unit = max(analysis.mapping.widthMM, analysis.mapping.heightMM) / 200
    }

    /// Light grey surface, with a border of 4.5 : 1 contrast against white.
    static let surfaceFill = "#F7F7F7"
    static let surfaceBorder = "#767676"
    /// Numbers and caption are black with a white halo, readable on any
    /// stroke colour.
    static let textColour = "#000000"
    static let haloColour = "#FFFFFF"

    var width: Double { analysis.mapping.widthMM }
    var height: Double { analysis.mapping.heightMM }
    var margin: Double { 8 * unit }
    var fontSize: Double { 5 * unit }
    var captionHeight: Double { options.showsCaption ? 10 * unit : 0 }

    var viewWidth: Double { width + 2 * margin }
    var pixelWidth: Int { min(max(options.widthPixels, 16), 16_384) }

    func document() -> String {
        let viewHeight = height + 2 * margin + captionHeight
        let pixelHeight = max(NumberFormatting.roundedInteger(Double(pixelWidth) * viewHeight / viewWidth), 1)
        let title = gesture.name.isEmpty ? "Gesture" : gesture.name
        let labelledBy = options.showsCaption ? "gesture-title gesture-caption" : "gesture-title"

        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\#(pixelWidth)" height="\#(pixelHeight)" "#
                + #"viewBox="\#(number(-margin)) \#(number(-margin)) \#(number(viewWidth)) \#(number(viewHeight))" "#
                + #"role="img" aria-labelledby="\#(labelledBy)" font-family="sans-serif">"#,
            #"<title id="gesture-title">\#(XMLEscaping.escape(title))</title>"#,
        ]
        if let description = gesture.description, !description.isEmpty {
            lines.append(#"<desc id="gesture-description">\#(XMLEscaping.escape(description))</desc>"#)
        }
        lines += markerDefinitions()
        lines.append(
            #"<rect class="surface" x="0" y="0" width="\#(number(width))" height="\#(number(height))" "#
                + #"rx="\#(number(2 * unit))" fill="\#(Self.surfaceFill)" stroke="\#(Self.surfaceBorder)" stroke-width="\#(number(0.6 * unit))"/>"#
        )
        for trace in analysis.traces { lines += strokeElements(trace) }
        if options.showsCaption {
            let baseline = height + margin + 0.5 * captionHeight
            lines.append(
                #"<text class="caption" id="gesture-caption" x="0" y="\#(number(baseline))" "#
                    + #"font-size="\#(number(fontSize))" fill="\#(Self.textColour)">\#(XMLEscaping.escape(describe(gesture)))</text>"#
            )
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One arrowhead per palette colour in use: SVG 1.1 markers cannot take
    /// the colour of the line they end.
    private func markerDefinitions() -> [String] {
        let used = Set(
            analysis.traces.filter { !$0.isStill }.map { StrokePalette.paletteIndex(forStrokeNumber: $0.index &+ 1) })
        guard !used.isEmpty else { return [] }
        var lines = ["<defs>"]
        for index in used.sorted() {
            lines.append(
                #"<marker id="arrow-\#(index + 1)" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" "#
                    + #"markerHeight="4" markerUnits="strokeWidth" orient="auto">"#
                    + #"<polygon points="0,0 10,5 0,10" fill="\#(StrokePalette.colours[index].hex)"/></marker>"#
            )
        }
        lines.append("</defs>")
        return lines
    }

    /// The group for one stroke: its path, its dots and its number.
    private func strokeElements(_ trace: StrokeTrace) -> [String] {
        let strokeNumber = trace.index &+ 1
        let paletteIndex = StrokePalette.paletteIndex(forStrokeNumber: strokeNumber)
        let colour = StrokePalette.colours[paletteIndex].hex
        // The tolerance in millimetres: the viewBox is viewWidth mm across pixelWidth pixels.
        let tolerance = options.tolerancePixels * viewWidth / Double(pixelWidth)
        let points = PathSimplifier.simplify(trace.points, tolerance: tolerance)
        // What retraces what the stroke drew long before adds nothing to the
        // picture (an hour of circling is one circle): left out, unless --exact.
        // Squares of a sixth of the line's width: what is left out lies
        // within half the width (the 3 × 3 squares around) of what is drawn.
        let runs = tolerance > 0 ? PathSimplifier.visibleRuns(points, cell: unit / 6, lookback: 8 * unit) : [points]
        let pathData = runs.map { run in
            run.enumerated().map { offset, point in
                "\(offset == 0 ? "M" : "L") \(number(point.x)) \(number(point.y))"
            }.joined(separator: " ")
        }.joined(separator: " ")
        let marker = trace.isStill ? "" : #" marker-end="url(#arrow-\#(paletteIndex + 1))""#

        // An estimated stroke (a finger the device did not track) is drawn
        // dashed with a hollow dot, so the picture does not pass it off as measured.
        let estimated = trace.stroke.isEstimated
        var lines = [#"<g class="stroke\#(estimated ? " estimated" : "")" id="stroke-\#(strokeNumber)">"#]
        if estimated { lines.append("<title>estimated: the device reported this finger but did not track it</title>") }
        let dash = estimated ? #" stroke-dasharray="\#(number(2 * unit)) \#(number(1.5 * unit))""# : ""
        lines.append(
            #"<path d="\#(pathData)" fill="none" stroke="\#(colour)" stroke-width="\#(number(unit))" "#
                + #"stroke-linecap="round" stroke-linejoin="round"\#(dash)\#(marker)/>"#
        )
        let dotRadius = trace.isStill ? 2.5 * unit : 1.2 * unit
        let dotPaint = estimated
            ? #"fill="none" stroke="\#(colour)" stroke-width="\#(number(0.5 * unit))""# : #"fill="\#(colour)""#
        lines.append(
            #"<circle cx="\#(number(trace.start.x))" cy="\#(number(trace.start.y))" r="\#(number(dotRadius))" "#
                + dotPaint + "/>"
        )
        let label = labelPosition(trace)
        lines.append(
            #"<text x="\#(number(label.x))" y="\#(number(label.y + 0.35 * fontSize))" font-size="\#(number(fontSize))" "#
                + #"font-weight="bold" text-anchor="middle" fill="\#(Self.textColour)" stroke="\#(Self.haloColour)" "#
                + #"stroke-width="\#(number(0.8 * unit))" paint-order="stroke">\#(strokeNumber)</text>"#
        )
        lines.append("</g>")
        return lines
    }

    /// Where a stroke's number goes: beside its start, on the side away
    /// from where it heads (up and to the left for a still stroke), kept
    /// inside the picture.
    private func labelPosition(_ trace: StrokeTrace) -> PointMM {
        var direction = PointMM(x: 1, y: 1)
        if let ahead = trace.points.first(where: { $0.distance(to: trace.start) >= MotionThresholds.stillMovementMM }) {
            direction = ahead - trace.start
        }
        let distance = (trace.isStill ? 4.5 : 4) * unit
        let length = direction.length
        let offset = length > 0 ? direction * (distance / length) : PointMM(x: 0, y: 0)
        let wanted = trace.start - offset
        let inset = 0.6 * fontSize
        return PointMM(
            x: min(max(wanted.x, -margin + inset), width + margin - inset),
            y: min(max(wanted.y, -margin + inset), height + margin - inset)
        )
    }

    private func number(_ value: Double) -> String { NumberFormatting.decimal(value) }
}
