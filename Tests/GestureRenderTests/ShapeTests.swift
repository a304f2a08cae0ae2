#if canImport(Glibc)
import Glibc
#endif
import GestureModel
import GestureRender
import Testing

/// Issue 24 item 4: arcs, half circles, circles and zigzags.
@Suite("describe knows arcs and circles")
struct ShapeTests {
    typealias F = Fixtures

    /// A stroke going around `centre` from `startDegrees` by `degrees`
    /// (positive = clockwise on a screen, where y grows downwards), sampled
    /// every 10 ms from `startMilliseconds`; `wobble` mm of jitter, the
    /// same every run.
    static func arc(
        around centre: (x: Double, y: Double), radius: Double, startDegrees: Double, degrees: Double,
        durationMilliseconds: Int64, startMilliseconds: Int64 = 0, wobble: Double = 0
    ) -> Stroke {
        let steps = durationMilliseconds / 10
        return F.stroke(
            (0...steps).map { step in
                let angle = (startDegrees + degrees * Double(step) / Double(steps)) * Double.pi / 180
                let jitter = wobble * sin(Double(step) * 2.3)
                return (
                    startMilliseconds + step * 10, centre.x + (radius + jitter) * cos(angle),
                    centre.y + (radius - jitter) * sin(angle)
                )
            })
    }

    /// A stroke through `corners`, `millisecondsPerLeg` a leg, sampled every 10 ms.
    static func polyline(_ corners: [(x: Double, y: Double)], millisecondsPerLeg: Int64) -> Stroke {
        var points: [F.Point] = [(0, corners[0].x, corners[0].y)]
        let steps = millisecondsPerLeg / 10
        for (leg, (from, to)) in zip(corners, corners.dropFirst()).enumerated() {
            for step in 1...steps {
                let fraction = Double(step) / Double(steps)
                points.append(
                    (Int64(leg) * millisecondsPerLeg + step * 10, from.x + (to.x - from.x) * fraction, from.y + (to.y - from.y) * fraction))
            }
        }
        return F.stroke(points)
    }

    @Test func halfCircles() {
        // Left to right over the top: up, right, then down: clockwise on the screen.
        let overTheTop = F.gesture([Self.arc(around: (100, 70), radius: 25, startDegrees: 180, degrees: 180, durationMilliseconds: 700)])
        #expect(describe(overTheTop) == "1 finger · half circle clockwise · 0.70 s · 50 mm")
        #expect(describe(overTheTop, style: .spoken) == "1 finger, half circle clockwise, 0.7 seconds, 50 millimetres")
        #expect(suggestedName(for: overTheTop) == "half-circle-clockwise-1")
        // Left to right under the bottom: counter-clockwise.
        let underneath = F.gesture([Self.arc(around: (100, 70), radius: 25, startDegrees: 180, degrees: -180, durationMilliseconds: 700)])
        #expect(describe(underneath) == "1 finger · half circle counter-clockwise · 0.70 s · 50 mm")
        #expect(suggestedName(for: underneath) == "half-circle-anticlockwise-1")
        // Hand-drawn: uneven, a little short, with jitter.
        let drawn = F.gesture([Self.arc(around: (100, 70), radius: 30, startDegrees: 170, degrees: 165, durationMilliseconds: 600, wobble: 0.3)])
        #expect(describe(drawn).hasPrefix("1 finger · half circle clockwise · 0.60 s · "))
    }

    @Test func arcs() {
        let quarterAndAHalf = F.gesture([Self.arc(around: (100, 70), radius: 30, startDegrees: 90, degrees: 135, durationMilliseconds: 500)])
        #expect(describe(quarterAndAHalf) == "1 finger · arc clockwise 135° · 0.50 s · 51 mm")
        #expect(describe(quarterAndAHalf, style: .spoken) == "1 finger, arc clockwise 135 degrees, 0.5 seconds, 51 millimetres")
        #expect(suggestedName(for: quarterAndAHalf) == "arc-clockwise-1")
        let threeQuarters = F.gesture([Self.arc(around: (100, 70), radius: 20, startDegrees: 0, degrees: -270, durationMilliseconds: 800)])
        #expect(describe(threeQuarters) == "1 finger · arc counter-clockwise 270° · 0.80 s · 40 mm")
        // A quarter circle is not enough: a swipe, as before.
        let quarter = F.gesture([Self.arc(around: (100, 70), radius: 30, startDegrees: 180, degrees: 90, durationMilliseconds: 400)])
        #expect(describe(quarter) == "1 finger · swipe right · 0.40 s · 42 mm")
    }

    @Test func circles() {
        let clockwise = F.gesture([Self.arc(around: (100, 70), radius: 20, startDegrees: -90, degrees: 360, durationMilliseconds: 1_000)])
        #expect(describe(clockwise) == "1 finger · circle clockwise · 1.00 s · 40 mm")
        #expect(describe(clockwise, style: .spoken) == "1 finger, circle clockwise, 1 second, 40 millimetres")
        #expect(suggestedName(for: clockwise) == "circle-clockwise-1")
        let counter = F.gesture([Self.arc(around: (100, 70), radius: 20, startDegrees: -90, degrees: -350, durationMilliseconds: 1_000, wobble: 0.3)])
        #expect(describe(counter).hasPrefix("1 finger · circle counter-clockwise · 1.00 s · "))
        // A pen, and two turns.
        var pen = Self.arc(around: (100, 70), radius: 15, startDegrees: 0, degrees: 720, durationMilliseconds: 1_200)
        pen.kind = .pen
        #expect(describe(F.gesture([pen])) == "pen · circle clockwise · 1.20 s · 30 mm")
        // A loop in a longer line turns a full turn but does not come back: no circle.
        var loop = Self.polyline([(40, 70), (90, 70)], millisecondsPerLeg: 300).samples
        let around = Self.arc(around: (90, 60), radius: 10, startDegrees: 90, degrees: -360, durationMilliseconds: 600)
        loop += around.samples.dropFirst().map { sample in
            var moved = sample
            moved.time = Microseconds(sample.time.rawValue + 300_000)
            return moved
        }
        loop += Self.polyline([(90, 70), (150, 70)], millisecondsPerLeg: 300).samples.dropFirst().map { sample in
            var moved = sample
            moved.time = Microseconds(sample.time.rawValue + 900_000)
            return moved
        }
        #expect(describe(F.gesture([Stroke(kind: .finger, samples: loop)])).hasPrefix("1 finger · swipe right · 1.20 s"))
    }

    @Test func zigzags() {
        let zigzag = F.gesture([Self.polyline([(40, 50), (60, 80), (80, 50), (100, 80), (120, 50)], millisecondsPerLeg: 150)])
        #expect(describe(zigzag) == "1 finger · zigzag · 0.60 s · 80 mm")
        #expect(suggestedName(for: zigzag) == "zigzag-1")
        let scribble = F.gesture([Self.polyline([(50, 50), (90, 52), (52, 55), (92, 57), (50, 60), (88, 62)], millisecondsPerLeg: 120)])
        #expect(describe(scribble).hasPrefix("1 finger · zigzag · 0.60 s · "))
        // Two corners (a Z) are not several.
        let zed = F.gesture([Self.polyline([(40, 40), (80, 40), (40, 80), (80, 80)], millisecondsPerLeg: 200)])
        #expect(!describe(zed).contains("zigzag"))
        // A square turns a full turn at four corners: no circle, a path as before.
        let square = F.gesture([Self.polyline([(50, 50), (80, 50), (80, 80), (50, 80), (50, 50)], millisecondsPerLeg: 200)])
        #expect(describe(square) == "1 finger · path · 0.80 s · 120 mm")
    }

    @Test func straightLinesStaySwipes() {
        // Jitter of half a millimetre along a 60 mm swipe, and a hook at its end.
        var points: [F.Point] = (0...30).map { step in
            let place = Double(step)
            let wobble: Double = 0.5 * sin(place * 1.7)
            return (Int64(step) * 10, 50 + place * 2, 70 + wobble)
        }
        #expect(describe(F.gesture([F.stroke(points)])) == "1 finger · swipe right · 0.30 s · 60 mm")
        points += [(310, 111, 71), (320, 111.5, 72.5), (330, 110.5, 73)]
        #expect(describe(F.gesture([F.stroke(points)])).hasPrefix("1 finger · swipe right · 0.33 s"))
        // A gentle curve (a quarter turn spread over a long swipe) stays a swipe.
        let gentle = F.gesture([Self.arc(around: (100, 200), radius: 120, startDegrees: -110, degrees: 40, durationMilliseconds: 400)])
        #expect(describe(gentle).hasPrefix("1 finger · swipe right · 0.40 s"))
        // Small shapes are too small to name: a 6 mm circle is a path.
        let small = F.gesture([Self.arc(around: (100, 70), radius: 3, startDegrees: 0, degrees: 360, durationMilliseconds: 500)])
        #expect(describe(small).hasPrefix("1 finger · path · 0.50 s"))
    }

    /// Shaped like the Wacom ISDv4 E6 "double-center-circle" recording of
    /// evemu's device collection: two fingers 12 mm apart that go around
    /// together, clockwise, a little over one turn in 1.45 s.
    @Test func twoFingersCirclingTogether() {
        let lead = Self.arc(around: (100, 70), radius: 25, startDegrees: -120, degrees: 400, durationMilliseconds: 1_450, wobble: 0.3)
        let other = Self.arc(around: (91, 78), radius: 25, startDegrees: -120, degrees: 400, durationMilliseconds: 1_450, wobble: 0.3)
        let together = F.gesture([lead, other])
        #expect(describe(together).hasPrefix("2 fingers · circle clockwise · 1.45 s · "))
        #expect(describe(together, style: .spoken).hasPrefix("2 fingers, circle clockwise, 1.45 seconds, "))
        #expect(suggestedName(for: together) == "circle-clockwise-2")
        let counter = F.gesture([
            Self.arc(around: (100, 70), radius: 25, startDegrees: 0, degrees: -360, durationMilliseconds: 1_000),
            Self.arc(around: (110, 70), radius: 25, startDegrees: 0, degrees: -360, durationMilliseconds: 1_000),
        ])
        #expect(describe(counter) == "2 fingers · circle counter-clockwise · 1.00 s · 50 mm")
        // Half circles side by side.
        let halves = F.gesture([
            Self.arc(around: (100, 70), radius: 25, startDegrees: 180, degrees: 180, durationMilliseconds: 600),
            Self.arc(around: (100, 85), radius: 25, startDegrees: 180, degrees: 180, durationMilliseconds: 600),
        ])
        #expect(describe(halves) == "2 fingers · half circle clockwise · 0.60 s · 50 mm")
    }

    /// Shaped like the Wacom Bamboo and Intuos5 "center-circle" recordings:
    /// the finger lands in the middle, goes out to the circle (a corner) and
    /// round it two and a half times in 4.4 s, ending a radius from where it
    /// began. They were "swipe up".
    @Test func aCircleDrawnFromItsMiddle() {
        func drawn(offset: Double) -> Stroke {
            let leadIn = Self.polyline([(100 + offset, 70), (98 + offset, 71.5), (71.8 + offset, 59.7)], millisecondsPerLeg: 100)
            let round = Self.arc(
                around: (100 + offset, 70), radius: 30, startDegrees: 200, degrees: 880, durationMilliseconds: 4_200,
                startMilliseconds: 200, wobble: 0.3)
            return Stroke(kind: .finger, samples: leadIn.samples + round.samples.dropFirst())
        }
        #expect(describe(F.gesture([drawn(offset: 0)])) == "1 finger · circle clockwise · 4.40 s · 61 mm")
        #expect(describe(F.gesture([drawn(offset: 0), drawn(offset: 15)])) == "2 fingers · circle clockwise · 4.40 s · 60 mm")
    }

    @Test func rotationStaysRotate() {
        // Two fingers turning half a turn about their centre each draw a
        // half circle, but the centre stays put: a rotation, as before.
        let half = F.gesture([
            Self.arc(around: (100, 70), radius: 20, startDegrees: 0, degrees: 180, durationMilliseconds: 600),
            Self.arc(around: (100, 70), radius: 20, startDegrees: 180, degrees: 180, durationMilliseconds: 600),
        ])
        #expect(describe(half) == "2 fingers · rotate clockwise 180° · 0.60 s")
        let full = F.gesture([
            Self.arc(around: (100, 70), radius: 20, startDegrees: 0, degrees: -360, durationMilliseconds: 900),
            Self.arc(around: (100, 70), radius: 20, startDegrees: 120, degrees: -360, durationMilliseconds: 900),
            Self.arc(around: (100, 70), radius: 20, startDegrees: 240, degrees: -360, durationMilliseconds: 900),
        ])
        #expect(describe(full) == "3 fingers · rotate counter-clockwise 360° · 0.90 s")
    }

    @Test("Hostile values, whose differences overflow Int, are described without a crash: one line, finite numbers")
    func hostileValuesAreDescribed() {
        let huge = Stroke(kind: .finger, samples: [
            Sample(time: .zero, x: Int.min, y: 0), Sample(time: Microseconds(10), x: Int.max, y: Int.max),
            Sample(time: Microseconds(20), x: Int.min, y: Int.max), Sample(time: Microseconds(30), x: 0, y: Int.min),
        ])
        // It asserted nothing before (issue 37). describe accepts any values
        // (its contract); what it says of samples far off the surface is
        // not a shape a person drew, but it stays one line of finite numbers.
        let text = describe(Gesture(name: "h", device: .synthDefault, strokes: [huge, huge]))
        #expect(text.hasPrefix("2 fingers · "), "\(text)")
        #expect(!text.contains("\n") && !text.contains("nan") && !text.contains("inf"), "\(text)")
    }
}
