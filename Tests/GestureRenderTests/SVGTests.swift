import Foundation
import GestureModel
import GestureRender
import Testing
import TestSupport

@Suite("renderSVG")
struct SVGTests {
    typealias F = Fixtures

    /// A two-finger pinch, a tap and a sequential swipe.
    static let mixed = F.gesture(
        [
            F.line(from: (80, 60), to: (100, 60), durationMilliseconds: 500),
            F.line(from: (140, 60), to: (120, 60), durationMilliseconds: 500),
            F.still(at: (108, 100), startMilliseconds: 600, durationMilliseconds: 80),
            F.line(from: (1, 20), to: (60, 20), startMilliseconds: 800, durationMilliseconds: 300),
        ], name: "pinch & <friends>", description: #"Says "hi" & <b>bye</b>"#)

    @Test func oneTapExactDocument() {
        let gesture = F.gesture([F.still(at: (50, 40), durationMilliseconds: 80)], name: "tap")
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="600" height="419" viewBox="-8.64 -8.64 233.28 163.08" role="img" aria-labelledby="gesture-title gesture-caption" font-family="sans-serif">
            <title id="gesture-title">tap</title>
            <rect class="surface" x="0" y="0" width="216" height="135" rx="2.16" fill="#F7F7F7" stroke="#767676" stroke-width="0.65"/>
            <g class="stroke" id="stroke-1">
            <path d="M 50 40 L 50 40" fill="none" stroke="#0072B2" stroke-width="1.08" stroke-linecap="round" stroke-linejoin="round"/>
            <circle cx="50" cy="40" r="2.7" fill="#0072B2"/>
            <text x="46.56" y="38.45" font-size="5.4" font-weight="bold" text-anchor="middle" fill="#000000" stroke="#FFFFFF" stroke-width="0.86" paint-order="stroke">1</text>
            </g>
            <text class="caption" id="gesture-caption" x="0" y="149.04" font-size="5.4" fill="#000000">1 finger · tap · 0.08 s</text>
            </svg>

            """
        #expect(renderSVG(gesture) == expected)
    }

    @Test func structure() {
        let svg = renderSVG(Self.mixed)
        #expect(svg.components(separatedBy: "<path ").count - 1 == 4)
        #expect(svg.components(separatedBy: "<g class=\"stroke\"").count - 1 == 4)
        for number in 1...4 { #expect(svg.contains("paint-order=\"stroke\">\(number)</text>")) }
        // Three moving strokes have arrows; the tap has none.
        #expect(svg.components(separatedBy: "marker-end=").count - 1 == 3)
        #expect(svg.contains("<marker id=\"arrow-1\""))
        #expect(svg.contains("<marker id=\"arrow-4\""))
        #expect(!svg.contains("<marker id=\"arrow-3\""))
        #expect(svg.contains(">\(describe(Self.mixed))</text>"))
        #expect(svg.contains("<title id=\"gesture-title\">pinch &amp; &lt;friends&gt;</title>"))
        #expect(
            svg.contains(
                "<desc id=\"gesture-description\">Says &quot;hi&quot; &amp; &lt;b&gt;bye&lt;/b&gt;</desc>"))
        #expect(!svg.contains("<friends>"))
        #expect(!svg.contains("<b>"))
    }

    @Test func coloursFollowStrokeNumbersAndWrapAfterSeven() {
        let strokes = (0..<8).map { F.line(from: (20 + Double($0) * 20, 20), to: (20 + Double($0) * 20, 80),
            startMilliseconds: Int64($0) * 400, durationMilliseconds: 300) }
        let svg = renderSVG(F.gesture(strokes))
        let expectedColours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#0072B2"]
        for (offset, colour) in expectedColours.enumerated() {
            let group = svg.components(separatedBy: "<g class=\"stroke\" id=\"stroke-\(offset + 1)\">")[1]
            #expect(group.hasPrefix("\n<path d=\"M \(20 + offset * 20) 20 L"))
            #expect(group.contains("stroke=\"\(colour)\""))
            #expect(group.contains("marker-end=\"url(#arrow-\(offset % 7 + 1))\""))
        }
    }

    @Test func aspectRatioFollowsTheDevice() {
        let tall = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 1079, resolution: 15),
            y: AxisRange(minimum: 0, maximum: 2399, resolution: 15), slots: 10)
        let gesture = Gesture(name: "phone", device: tall, strokes: [Stroke(samples: [Sample(time: 0, x: 540, y: 1200)])])
        let svg = renderSVG(gesture, options: SVGOptions(widthPixels: 300, showsCaption: false))
        // 71.93 × 159.93 mm; unit = 159.93 / 200, margin 8 units = 6.4 mm.
        #expect(svg.contains(#"width="300" height="612" viewBox="-6.4 -6.4 84.73 172.73""#))
        #expect(svg.contains(#"<rect class="surface" x="0" y="0" width="71.93" height="159.93""#))
        #expect(!svg.contains("caption"))
    }

    @Test func pointsOnAStraightLineAreLeftOut() {
        let gesture = F.gesture([F.stroke([(0, 10, 10), (10, 10.1, 10), (20, 20, 10), (30, 20.1, 10)])])
        let svg = renderSVG(gesture)
        #expect(svg.contains(#"<path d="M 10 10 L 20.1 10""#))
        let everySample = renderSVG(gesture, options: SVGOptions(tolerancePixels: 0))
        #expect(everySample.contains(#"<path d="M 10 10 L 10.1 10 L 20 10 L 20.1 10""#))
        // A corner stays.
        let corner = F.gesture([F.stroke([(0, 10, 10), (10, 15, 10), (20, 20, 10), (30, 20, 15), (40, 20, 20)])])
        #expect(renderSVG(corner).contains(#"<path d="M 10 10 L 20 10 L 20 20""#))
    }

    /// The points of each `<path d="M x y L x y …">` in `svg`, in mm.
    static func paths(_ svg: String) -> [[(x: Double, y: Double)]] {
        svg.components(separatedBy: "<path d=\"").dropFirst().map { rest in
            let data = rest.prefix { $0 != "\"" }.split(separator: " ").filter { $0 != "M" && $0 != "L" }
            let numbers = data.compactMap { Double($0) }
            return stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
        }
    }

    /// The runs (`M x y L x y …`, up to the next `M`) of each path in `svg`, in mm.
    static func runs(_ svg: String) -> [[[(x: Double, y: Double)]]] {
        svg.components(separatedBy: "<path d=\"").dropFirst().map { rest in
            rest.prefix { $0 != "\"" }.components(separatedBy: "M ").filter { !$0.isEmpty }.map { run in
                let numbers = run.split(separator: " ").filter { $0 != "L" }.compactMap { Double($0) }
                return stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
            }
        }
    }

    /// The largest distance of a sample from the nearest segment of any run
    /// (segments bucketed in 2 mm squares, so that it stays quick).
    static func worstDistance(of samples: [(x: Double, y: Double)], toAnyOf runs: [[(x: Double, y: Double)]]) -> Double {
        struct Square: Hashable { var x: Int; var y: Int }
        let size = 2.0
        var buckets: [Square: [((x: Double, y: Double), (x: Double, y: Double))]] = [:]
        for run in runs {
            for (start, end) in zip(run, run.dropFirst().isEmpty ? run : Array(run.dropFirst())) {
                let steps = max(Int((hypot(end.x - start.x, end.y - start.y) / size).rounded(.up)), 1)
                var seen = Set<Square>()
                for step in 0...steps {
                    let t = Double(step) / Double(steps)
                    let square = Square(x: Int(((start.x + t * (end.x - start.x)) / size).rounded(.down)), y: Int(((start.y + t * (end.y - start.y)) / size).rounded(.down)))
                    if seen.insert(square).inserted { buckets[square, default: []].append((start, end)) }
                }
            }
        }
        var worst = 0.0
        for sample in samples {
            let centre = Square(x: Int((sample.x / size).rounded(.down)), y: Int((sample.y / size).rounded(.down)))
            var nearest = Double.infinity
            for dx in -1...1 {
                for dy in -1...1 {
                    for (start, end) in buckets[Square(x: centre.x + dx, y: centre.y + dy)] ?? [] {
                        nearest = min(nearest, distance(sample, from: start, to: end))
                    }
                }
            }
            worst = max(worst, nearest)
        }
        return worst
    }

    /// Distance from `point` to the segment from `start` to `end`.
    static func distance(_ point: (x: Double, y: Double), from start: (x: Double, y: Double), to end: (x: Double, y: Double)) -> Double {
        let (dx, dy) = (end.x - start.x, end.y - start.y)
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? min(max(((point.x - start.x) * dx + (point.y - start.y) * dy) / lengthSquared, 0), 1) : 0
        let (px, py) = (start.x + t * dx - point.x, start.y + t * dy - point.y)
        return (px * px + py * py).squareRoot()
    }

    /// The largest distance of a sample from the segment of `line` that
    /// replaces it: `line` keeps some of `samples`, in order.
    static func worstDeviation(of samples: [(x: Double, y: Double)], from line: [(x: Double, y: Double)]) -> Double {
        var segment = 0
        var worst = 0.0
        for sample in samples {
            if segment + 1 < line.count - 1, sample == line[segment + 1] { segment += 1 }
            worst = max(worst, distance(sample, from: line[segment], to: line[min(segment + 1, line.count - 1)]))
        }
        return worst
    }

    @Test func longGesturesAreSimplifiedWithinTheTolerance() {
        // Two fingers, 10,000 samples each: Lissajous curves over 80 s.
        let strokes = [0.0, 1.0].map { phase in
            F.stroke(
                (0..<10_000).map { index in
                    let t = Double(index) * 0.008
                    return (Int64(index) * 8, 108 + 80 * sin(0.7 * t + phase), 67.5 + 50 * sin(1.1 * t))
                })
        }
        let gesture = F.gesture(strokes)
        let simplified = renderSVG(gesture)
        let exact = renderSVG(gesture, options: SVGOptions(tolerancePixels: 0))
        #expect(simplified.utf8.count * 5 < exact.utf8.count, "\(simplified.utf8.count) vs \(exact.utf8.count) bytes")
        let simplifiedPaths = Self.paths(simplified)
        let exactPaths = Self.paths(exact)
        #expect(exactPaths.map(\.count) == [10_000, 10_000])
        // 600 pixels across a 233.28 mm viewBox: a quarter pixel is 0.097 mm;
        // both pictures round to 0.01 mm.
        let tolerance = 0.25 * 233.28 / 600 + 0.015
        // Where the curve crosses or runs along what it drew long before, that
        // part is left out (the path starts again with M): every sample
        // still lies within the tolerance, or within half the line's width
        // (1.08 mm) of a drawn part.
        for (runs, samples) in zip(Self.runs(simplified), exactPaths) {
            #expect(runs.first!.first! == samples.first! && runs.last!.last! == samples.last!)
            let worst = Self.worstDistance(of: samples, toAnyOf: runs)
            #expect(worst <= tolerance + 0.54, "a sample lies \(worst) mm from the drawn path")
        }
        // Without crossings, the simplification alone is measured.
        for (line, samples) in zip(simplifiedPaths, exactPaths) where !simplified.contains(" M ") {
            let worst = Self.worstDeviation(of: samples, from: line)
            #expect(worst <= tolerance, "a sample lies \(worst) mm from the simplified path")
        }
        // A wider picture can show more, so it keeps more.
        let wide = Self.paths(renderSVG(gesture, options: SVGOptions(widthPixels: 4_000)))
        #expect(wide[0].count > simplifiedPaths[0].count)
    }

    @Test func aPathThatGoesRoundAndRoundIsDrawnOnce() {
        // One finger circling 40 times (an hour of circling in small): each
        // revolution after the first only goes over the first one.
        let perRevolution = 120
        let samples = (0..<(40 * perRevolution + 1)).map { index in
            let angle = Double(index) * 2 * Double.pi / Double(perRevolution) + 0.01 * Double(index % 7)
            return (Int64(index) * 8, 108 + 40 * cos(angle), 67.5 + 40 * sin(angle))
        }
        let circling = F.gesture([F.stroke(samples)])
        let once = F.gesture([F.stroke(Array(samples.prefix(perRevolution + 1)))])
        let svg = renderSVG(circling)
        let points = Self.paths(svg)[0]
        #expect(points.count <= 2 * Self.paths(renderSVG(once))[0].count + 8, "\(points.count) points")
        #expect(svg.utf8.count < 3 * renderSVG(once).utf8.count)
        // It still ends where the finger ended.
        let last = samples[samples.count - 1]
        #expect(points.last! == (last.1.roundedToHundredths, last.2.roundedToHundredths))
        // --exact keeps every sample.
        #expect(Self.paths(renderSVG(circling, options: SVGOptions(tolerancePixels: 0)))[0].count == samples.count)
    }

    @Test func aSlowStrokeIsNotCutByItsOwnLastSamples() {
        // 0.01 mm a sample: every segment lies in squares its predecessors drew.
        let points = (0..<2_000).map { index -> F.Point in (Int64(index) * 8, 50 + Double(index) * 0.01, 50) }
        let slow = F.gesture([F.stroke(points)])
        #expect(!renderSVG(slow).contains(" M "))
    }

    @Test func controlCharactersAreReplaced() {
        let svg = renderSVG(F.gesture([], name: "a\u{01}b\u{FFFF}c\td"))
        #expect(svg.contains("<title id=\"gesture-title\">a\u{FFFD}b\u{FFFD}c\td</title>"))
        #expect(svg.contains(">no strokes · 0.00 s</text>"))
    }

    @Test(
        .enabled(
            if: ExternalTool.toolsAreInstalled || TestEnvironment.isContinuousIntegration,
            "SKIPPED LOUDLY: xmllint and rsvg-convert are not installed (apt-get install libxml2-utils librsvg2-bin)"),
        arguments: ["mixed", "empty", "hostile", "names"])
    func validXMLThatRenders(label: String) throws {
        let gestures = [
            "mixed": SVGTests.mixed,
            "empty": F.gesture([], name: ""),
            "hostile": SVGTests.hostile,
            "names": F.gesture([F.still(at: (0, 0), durationMilliseconds: 10)], name: "]]> <!-- & \u{00}\"'"),
        ]
        let gesture = try #require(gestures[label])
        let folder = try TemporaryFolder(prefix: "gesture-render-tests")
        let directory = folder.url
        defer { withExtendedLifetime(folder) {} }
        let svgFile = directory.appendingPathComponent("\(label).svg")
        let pngFile = directory.appendingPathComponent("\(label).png")
        try Data(renderSVG(gesture).utf8).write(to: svgFile)

        let lint = try ExternalTool.run("xmllint", ["--noout", svgFile.path])
        #expect(lint.status == 0, "xmllint: \(lint.standardError)")
        let convert = try ExternalTool.run("rsvg-convert", ["-o", pngFile.path, svgFile.path])
        #expect(convert.status == 0, "rsvg-convert: \(convert.standardError)")
        let png = try Data(contentsOf: pngFile)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    static let hostile = Gesture(
        name: "hostile",
        device: DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: Int.min, maximum: Int.max),
            y: AxisRange(minimum: 5, maximum: 5), widthMM: .nan, heightMM: .infinity, slots: 0),
        strokes: [
            Stroke(samples: [
                Sample(time: Microseconds(Int64.min), x: Int.min, y: Int.max),
                Sample(time: Microseconds(Int64.max), x: Int.max, y: Int.min),
            ]),
            Stroke(samples: [Sample(time: 5, x: 0, y: 0)]),
        ])
}

extension Double {
    /// The value as the SVG writer rounds it (0.01 mm).
    fileprivate var roundedToHundredths: Double { (self * 100).rounded() / 100 }
}
