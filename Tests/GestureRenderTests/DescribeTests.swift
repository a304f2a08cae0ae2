#if canImport(Glibc)
import Glibc
#endif
import GestureModel
import GestureRender
import Testing

@Suite("describe and classifyMotion")
struct DescribeTests {
    typealias F = Fixtures

    @Test func threeFingerSwipeUp() {
        let gesture = F.gesture(
            [80.0, 100, 120].map { F.line(from: ($0, 100), to: ($0, 62), durationMilliseconds: 420) })
        #expect(describe(gesture) == "3 fingers · swipe up · 0.42 s · 38 mm")
        #expect(classifyMotion(gesture) == .swipe(.up, distanceMM: 38))
    }

    @Test func swipesInEachDirection() {
        let right = F.gesture([F.line(from: (50, 50), to: (90, 60), durationMilliseconds: 300)])
        #expect(describe(right) == "1 finger · swipe right · 0.30 s · 41 mm")
        let left = F.gesture([F.line(from: (90, 50), to: (70, 50), durationMilliseconds: 250)])
        #expect(describe(left) == "1 finger · swipe left · 0.25 s · 20 mm")
        let down = F.gesture([
            F.line(from: (50, 30), to: (55, 60), durationMilliseconds: 200),
            F.line(from: (70, 30), to: (75, 60), durationMilliseconds: 200),
        ])
        #expect(describe(down) == "2 fingers · swipe down · 0.20 s · 30 mm")
        // A tie between the axes counts as horizontal.
        let diagonal = F.gesture([F.line(from: (50, 50), to: (40, 40), durationMilliseconds: 100)])
        #expect(classifyMotion(diagonal) == .swipe(.left, distanceMM: (200.0).squareRoot()))
    }

    @Test func swipeThresholdIsTenMillimetres() {
        let short = F.gesture([F.line(from: (50, 50), to: (59.9, 50), durationMilliseconds: 100)])
        #expect(describe(short) == "1 finger · path · 0.10 s · 10 mm")
        let enough = F.gesture([F.line(from: (50, 50), to: (60, 50), durationMilliseconds: 100)])
        #expect(describe(enough) == "1 finger · swipe right · 0.10 s · 10 mm")
    }

    @Test func tapsAndPresses() {
        #expect(describe(F.gesture([F.still(at: (50, 50), durationMilliseconds: 80)])) == "1 finger · tap · 0.08 s")
        // A single sample is a tap too.
        #expect(describe(F.gesture([F.stroke([(0, 50, 50)])])) == "1 finger · tap · 0.00 s")
        let twoFingerTap = F.gesture([
            F.still(at: (50, 50), durationMilliseconds: 120),
            F.still(at: (70, 50), startMilliseconds: 10, durationMilliseconds: 100),
        ])
        #expect(describe(twoFingerTap) == "2 fingers · tap · 0.12 s")
        // Moving 2.9 mm is still; 299 ms is still a tap.
        let wobbly = F.gesture([F.stroke([(0, 50, 50), (150, 52.9, 50), (299, 50, 50)])])
        #expect(describe(wobbly) == "1 finger · tap · 0.30 s")
        #expect(describe(F.gesture([F.still(at: (50, 50), durationMilliseconds: 300)])) == "1 finger · press · 0.30 s")
        #expect(describe(F.gesture([F.still(at: (50, 50), durationMilliseconds: 499)])) == "1 finger · press · 0.50 s")
        let longPress = F.gesture([F.stroke([(0, 50, 50), (250, 51, 51), (600, 50.5, 50)])])
        #expect(describe(longPress) == "1 finger · long press · 0.60 s")
        #expect(classifyMotion(longPress) == .longPress)
        let threeFingerLongPress = F.gesture([
            F.still(at: (50, 50), durationMilliseconds: 800),
            F.still(at: (70, 50), durationMilliseconds: 800),
            F.still(at: (90, 50), durationMilliseconds: 500),
        ])
        #expect(describe(threeFingerLongPress) == "3 fingers · long press · 0.80 s")
    }

    @Test func doubleTaps() {
        let oneFinger = F.gesture([
            F.still(at: (50, 50), durationMilliseconds: 60),
            F.still(at: (52, 51), startMilliseconds: 200, durationMilliseconds: 70),
        ])
        #expect(describe(oneFinger) == "1 finger · double tap · 0.27 s")
        #expect(classifyMotion(oneFinger) == .doubleTap)
        let twoFingers = F.gesture([
            F.still(at: (50, 50), durationMilliseconds: 60),
            F.still(at: (70, 50), durationMilliseconds: 60),
            F.still(at: (50, 50), startMilliseconds: 150, durationMilliseconds: 60),
            F.still(at: (70, 50), startMilliseconds: 150, durationMilliseconds: 60),
        ])
        #expect(describe(twoFingers) == "2 fingers · double tap · 0.21 s")
    }

    @Test func tapsThatAreNotADoubleTap() {
        // Too far apart in time (more than 500 ms between lift and touch).
        let slow = F.gesture([
            F.still(at: (50, 50), durationMilliseconds: 60),
            F.still(at: (50, 50), startMilliseconds: 561, durationMilliseconds: 60),
        ])
        #expect(describe(slow) == "2 strokes one after another · tap · 0.62 s")
        // Too far apart in space (more than 10 mm).
        let apart = F.gesture([
            F.still(at: (50, 50), durationMilliseconds: 60),
            F.still(at: (61, 50), startMilliseconds: 100, durationMilliseconds: 60),
        ])
        #expect(describe(apart) == "2 strokes one after another · tap · 0.16 s")
        // Four single taps in a row are not a two-finger double tap.
        let four = F.gesture(
            (0..<4).map { F.still(at: (50, 50), startMilliseconds: Int64($0) * 100, durationMilliseconds: 50) })
        #expect(describe(four) == "4 strokes one after another · tap · 0.35 s")
    }

    @Test func edgeSwipes() {
        let fromLeft = F.gesture([F.line(from: (1, 60), to: (41, 70), durationMilliseconds: 300)])
        #expect(describe(fromLeft) == "1 finger · edge swipe from the left · 0.30 s · 41 mm")
        let fromRight = F.gesture([
            F.line(from: (215, 50), to: (185, 50), durationMilliseconds: 250),
            F.line(from: (214, 70), to: (184, 70), durationMilliseconds: 250),
        ])
        #expect(describe(fromRight) == "2 fingers · edge swipe from the right · 0.25 s · 30 mm")
        let fromTop = F.gesture([F.line(from: (100, 0), to: (100, 25), durationMilliseconds: 200)])
        #expect(describe(fromTop) == "1 finger · edge swipe from the top · 0.20 s · 25 mm")
        let fromBottom = F.gesture([F.line(from: (100, 134), to: (100, 100), durationMilliseconds: 200)])
        #expect(classifyMotion(fromBottom) == .edgeSwipe(from: .bottom, distanceMM: 34))
        // Starting 2.5 mm from the edge is an ordinary swipe.
        let notAtEdge = F.gesture([F.line(from: (2.5, 60), to: (42.5, 60), durationMilliseconds: 300)])
        #expect(describe(notAtEdge) == "1 finger · swipe right · 0.30 s · 40 mm")
        // At the edge but moving along it: a swipe down.
        let alongEdge = F.gesture([F.line(from: (1, 20), to: (12, 60), durationMilliseconds: 300)])
        #expect(describe(alongEdge) == "1 finger · swipe down · 0.30 s · 41 mm")
        // Only one of two fingers at the edge.
        let oneAtEdge = F.gesture([
            F.line(from: (1, 50), to: (31, 50), durationMilliseconds: 300),
            F.line(from: (20, 70), to: (50, 70), durationMilliseconds: 300),
        ])
        #expect(describe(oneAtEdge) == "2 fingers · swipe right · 0.30 s · 30 mm")
    }

    @Test func pinches() {
        let pinchIn = F.gesture([
            F.line(from: (80, 60), to: (100, 60), durationMilliseconds: 500),
            F.line(from: (140, 60), to: (120, 60), durationMilliseconds: 500),
        ])
        #expect(describe(pinchIn) == "2 fingers · pinch in · 0.50 s · 20 mm")
        #expect(classifyMotion(pinchIn) == .pinch(.inward, changeMM: 20))
        let pinchOut = F.gesture([
            F.line(from: (100, 60), to: (80, 40), durationMilliseconds: 400),
            F.line(from: (110, 60), to: (130, 40), durationMilliseconds: 400),
            F.line(from: (105, 70), to: (105, 100), durationMilliseconds: 400),
        ])
        #expect(describe(pinchOut) == "3 fingers · pinch out · 0.40 s · 28 mm")
        // 4 mm is under the 5 mm minimum.
        let small = F.gesture([
            F.line(from: (80, 60), to: (76, 60), durationMilliseconds: 500),
            F.line(from: (140, 60), to: (144, 60), durationMilliseconds: 500),
        ])
        #expect(describe(small) == "2 fingers · path · 0.50 s · 4 mm")
        // 8 mm out of 50 is under the 20 % minimum.
        let relativelySmall = F.gesture([
            F.line(from: (50, 60), to: (42, 60), durationMilliseconds: 500),
            F.line(from: (150, 60), to: (158, 60), durationMilliseconds: 500),
        ])
        #expect(describe(relativelySmall) == "2 fingers · path · 0.50 s · 8 mm")
    }

    @Test func rotations() {
        // Around (110, 60), radius 10: left → top and right → bottom is
        // clockwise on a screen, where y grows downwards.
        let clockwise = F.gesture([
            F.stroke([(0, 100, 60), (500, 102.93, 52.93), (1000, 110, 50)]),
            F.stroke([(0, 120, 60), (500, 117.07, 67.07), (1000, 110, 70)]),
        ])
        #expect(describe(clockwise) == "2 fingers · rotate clockwise 90° · 1.00 s")
        #expect(classifyMotion(clockwise) == .rotate(.clockwise, degrees: 90))
        let counterClockwise = F.gesture([
            F.stroke([(0, 100, 60), (700, 101.34, 65)]),
            F.stroke([(0, 120, 60), (700, 118.66, 55)]),
        ])
        #expect(describe(counterClockwise) == "2 fingers · rotate counter-clockwise 30° · 0.70 s")
        // 14° (radius 30 mm) is under the 15° minimum, and the centroid
        // stays put.
        let slight = F.gesture([
            F.stroke([(0, 80, 60), (700, 80.89, 67.26)]),
            F.stroke([(0, 140, 60), (700, 139.11, 52.74)]),
        ])
        #expect(describe(slight) == "2 fingers · path · 0.70 s · 7 mm")
    }

    /// A contact going around `centre` from `startDegrees` by `degrees`
    /// (positive = clockwise on a screen), sampled every 10 ms.
    static func arc(
        around centre: (x: Double, y: Double), radius: Double, startDegrees: Double, degrees: Double,
        durationMilliseconds: Int64
    ) -> Stroke {
        let steps = durationMilliseconds / 10
        return F.stroke(
            (0...steps).map { step in
                let angle = (startDegrees + degrees * Double(step) / Double(steps)) * Double.pi / 180
                return (step * 10, centre.x + radius * cos(angle), centre.y + radius * sin(angle))
            })
    }

    @Test func fingersMovingInDifferentDirections() {
        // Three swipes (up, down, left) merged: they turn around the centroid
        // from start to end, but go across it, not around it.
        let merged = F.gesture([
            F.line(from: (108, 87.5), to: (108, 47.5), durationMilliseconds: 250),
            F.line(from: (108, 47.5), to: (108, 87.5), durationMilliseconds: 250),
            F.line(from: (128, 67.5), to: (88, 67.5), durationMilliseconds: 250),
        ])
        #expect(describe(merged) == "3 fingers · move in different directions · 0.25 s · 40 mm")
        #expect(describe(merged, style: .spoken) == "3 fingers, move in different directions, 0.25 seconds, 40 millimetres")
        #expect(classifyMotion(merged) == .differentDirections(distanceMM: 40))
        // A swipe up beside a swipe down: a half turn from start to end.
        let crossing = F.gesture([
            F.line(from: (100, 100), to: (100, 60), durationMilliseconds: 300),
            F.line(from: (110, 60), to: (110, 100), durationMilliseconds: 300),
        ])
        #expect(describe(crossing) == "2 fingers · move in different directions · 0.30 s · 40 mm")
        // Drawn one after another, compared as if merged.
        let sequential = F.gesture([
            F.line(from: (100, 100), to: (100, 60), durationMilliseconds: 300),
            F.line(from: (110, 60), to: (110, 100), startMilliseconds: 500, durationMilliseconds: 300),
        ])
        #expect(describe(sequential) == "2 strokes one after another · move in different directions · 0.80 s · 40 mm")
        // 30° apart is one direction: a swipe (the fingers far apart, so
        // that neither their spread nor their angle changes much).
        let fanned = F.gesture([
            F.line(from: (100, 100), to: (94.82, 80.68), durationMilliseconds: 300),
            F.line(from: (100, 40), to: (105.18, 20.68), durationMilliseconds: 300),
        ])
        #expect(describe(fanned) == "2 fingers · swipe up · 0.30 s · 19 mm")
    }

    @Test func realRotationsGoAroundTheCentroid() {
        for degrees in [30.0, 90, 180, 270, 360, -180, -720] {
            let gesture = F.gesture([
                Self.arc(around: (110, 60), radius: 20, startDegrees: 180, degrees: degrees, durationMilliseconds: 500),
                Self.arc(around: (110, 60), radius: 20, startDegrees: 0, degrees: degrees, durationMilliseconds: 500),
            ])
            let sense: GestureMotion.Rotation = degrees > 0 ? .clockwise : .counterClockwise
            #expect(describe(gesture) == "2 fingers · rotate \(sense.rawValue) \(Int(abs(degrees)))° · 0.50 s")
        }
        // Three fingers turning while the whole hand moves right.
        let moving = F.gesture(
            [90.0, 210, 330].map { start in
                var stroke = Self.arc(around: (80, 60), radius: 15, startDegrees: start, degrees: 120, durationMilliseconds: 600)
                for index in stroke.samples.indices { stroke.samples[index].x += index * 50 }
                return stroke
            })
        #expect(describe(moving) == "3 fingers · rotate clockwise 120° · 0.60 s")
        // One finger pivots, the other goes around it.
        let pivot = F.gesture([
            F.still(at: (100, 60), durationMilliseconds: 500),
            Self.arc(around: (100, 60), radius: 30, startDegrees: 0, degrees: -90, durationMilliseconds: 500),
        ])
        #expect(describe(pivot) == "2 fingers · rotate counter-clockwise 90° · 0.50 s")
    }

    @Test func strokesOneAfterAnother() {
        let strokes = (0..<3).map { index in
            F.line(
                from: (50, 30 + Double(index) * 20), to: (80, 30 + Double(index) * 20),
                startMilliseconds: Int64(index) * 600, durationMilliseconds: 300)
        }
        #expect(describe(F.gesture(strokes)) == "3 strokes one after another · swipe right · 1.50 s · 30 mm")
        // Drawn one at a time, but a pinch once merged.
        let sequentialPinch = F.gesture([
            F.line(from: (80, 60), to: (100, 60), durationMilliseconds: 300),
            F.line(from: (140, 60), to: (120, 60), startMilliseconds: 500, durationMilliseconds: 300),
        ])
        #expect(describe(sequentialPinch) == "2 strokes one after another · pinch in · 0.80 s · 20 mm")
    }

    @Test func pensAndPointers() {
        let square = F.gesture([
            F.stroke([(0, 50, 50), (200, 80, 50), (400, 80, 80), (600, 50, 80), (800, 50, 50)], kind: .pen)
        ])
        #expect(describe(square) == "pen · path · 0.80 s · 120 mm")
        let twoPens = F.gesture([
            F.line(from: (50, 50), to: (50, 80), durationMilliseconds: 200, kind: .pen),
            F.line(from: (60, 50), to: (60, 80), startMilliseconds: 300, durationMilliseconds: 200, kind: .pen),
        ])
        #expect(describe(twoPens) == "2 pen strokes one after another · swipe down · 0.50 s · 30 mm")
        let drag = F.gesture([F.line(from: (50, 50), to: (90, 50), durationMilliseconds: 500, kind: .pointer, button: .left)])
        #expect(describe(drag) == "mouse drag · swipe right · 0.50 s · 40 mm")
        let noButton = F.gesture([F.line(from: (50, 50), to: (90, 50), durationMilliseconds: 500, kind: .pointer)])
        #expect(describe(noButton) == "mouse drag · swipe right · 0.50 s · 40 mm")
        let middle = F.gesture([F.line(from: (50, 50), to: (50, 90), durationMilliseconds: 500, kind: .pointer, button: .middle)])
        #expect(describe(middle) == "middle button drag · swipe down · 0.50 s · 40 mm")
        let rightClick = F.gesture([F.still(at: (50, 50), durationMilliseconds: 100, kind: .pointer, button: .right)])
        #expect(describe(rightClick) == "right button · tap · 0.10 s")
        let doubleClick = F.gesture([
            F.still(at: (50, 50), durationMilliseconds: 100, kind: .pointer, button: .left),
            F.still(at: (50, 50), startMilliseconds: 200, durationMilliseconds: 100, kind: .pointer, button: .left),
        ])
        #expect(describe(doubleClick) == "left button · double tap · 0.30 s")
        let held = F.gesture([F.still(at: (50, 50), durationMilliseconds: 900, kind: .pointer, button: .left)])
        #expect(describe(held) == "left button · long press · 0.90 s")
        let mixed = F.gesture([
            F.line(from: (50, 50), to: (50, 80), durationMilliseconds: 200, kind: .pen),
            F.line(from: (60, 50), to: (60, 80), durationMilliseconds: 200),
        ])
        #expect(describe(mixed) == "2 contacts · swipe down · 0.20 s · 30 mm")
    }

    @Test func durationsRoundToHundredths() {
        let roundsUp = F.gesture([F.stroke([(0, 50, 50)]), F.stroke([(0, 60, 50)])])
        #expect(describe(roundsUp) == "2 fingers · tap · 0.00 s")
        var gesture = F.gesture([F.still(at: (50, 50), durationMilliseconds: 0)])
        gesture.strokes[0].samples[1].time = Microseconds(4_995_000)
        #expect(describe(gesture) == "1 finger · long press · 5.00 s")
        gesture.strokes[0].samples[1].time = Microseconds(4_994_999)
        #expect(describe(gesture) == "1 finger · long press · 4.99 s")
    }

    @Test func emptyGestures() {
        #expect(describe(F.gesture([])) == "no strokes · 0.00 s")
        #expect(describe(F.gesture([Stroke(samples: []), Stroke(samples: [])])) == "no strokes · 0.00 s")
        #expect(classifyMotion(F.gesture([])) == .empty)
        // Empty strokes are left out of the count.
        let oneReal = F.gesture([Stroke(samples: []), F.still(at: (50, 50), durationMilliseconds: 50)])
        #expect(describe(oneReal) == "1 finger · tap · 0.05 s")
    }

    @Test func unknownPhysicalSizeGivesPercentOfTheSurface() {
        // Without a size or resolution, millimetres would be invented
        // (issue 7 item 14: "11402 mm" on an N-Trig panel): percent instead.
        let device = DeviceGeometry(
            kind: .touchpad, x: AxisRange(minimum: 0, maximum: 1000), y: AxisRange(minimum: 0, maximum: 500), slots: 5)
        let gesture = Gesture(
            name: "pad", device: device,
            strokes: [Stroke(samples: [Sample(time: 0, x: 100, y: 100), Sample(time: 200_000, x: 600, y: 100)])])
        #expect(describe(gesture) == "1 finger · swipe right · 0.20 s · 50 % of the width")
        #expect(describe(gesture, style: .spoken) == "1 finger, swipe right, 0.2 seconds, 50 percent of the width")
        let down = Gesture(
            name: "pad", device: device,
            strokes: [Stroke(samples: [Sample(time: 0, x: 100, y: 100), Sample(time: 200_000, x: 100, y: 400)])])
        #expect(describe(down) == "1 finger · swipe down · 0.20 s · 60 % of the height")
    }

    @Test func sizeZeroWithAResolutionIsTheResolutionsSize() {
        // Issue 7 item 5: width_mm 0 and resolution 100 made a 40 mm swipe "4000 mm".
        var device = DeviceGeometry.synthDefault
        device.widthMM = 0
        device.heightMM = 0
        let gesture = Gesture(
            name: "swipe", device: device,
            strokes: [Stroke(samples: [Sample(time: 0, x: 1_000, y: 5_000), Sample(time: 200_000, x: 5_000, y: 5_000)])])
        #expect(describe(gesture) == "1 finger · swipe right · 0.20 s · 40 mm")
    }

    @Test func hostileValuesDoNotTrap() {
        let device = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: Int.min, maximum: Int.max),
            y: AxisRange(minimum: Int.max, maximum: Int.min), widthMM: .nan, heightMM: -.infinity, slots: 0)
        let gesture = Gesture(
            name: "hostile", device: device,
            strokes: [
                Stroke(samples: [
                    Sample(time: Microseconds(Int64.min), x: Int.min, y: Int.max),
                    Sample(time: Microseconds(Int64.max), x: Int.max, y: Int.min),
                ]),
                Stroke(samples: [Sample(time: Microseconds(Int64.max), x: 0, y: 0), Sample(time: Microseconds(Int64.min), x: 0, y: 0)]),
            ])
        // Nonsense in, a sentence out: the span is clamped, not overflowed.
        #expect(describe(gesture).contains(" · 9223372036854.78 s"))
    }
    @Test func spokenFormHasWordsAndPauses() {
        let swipe = F.gesture(
            [80.0, 100, 120].map { F.line(from: ($0, 100), to: ($0, 60), durationMilliseconds: 250) })
        #expect(describe(swipe, style: .spoken) == "3 fingers, swipe up, 0.25 seconds, 40 millimetres")
        #expect(describe(swipe, style: .text) == describe(swipe))
        // Trailing zeros go; exactly one is singular; a fraction is plural.
        #expect(describe(F.gesture([F.still(at: (50, 50), durationMilliseconds: 1_000)]), style: .spoken)
            == "1 finger, long press, 1 second")
        #expect(describe(F.gesture([F.still(at: (50, 50), durationMilliseconds: 500)]), style: .spoken)
            == "1 finger, long press, 0.5 seconds")
        #expect(describe(F.gesture([F.still(at: (50, 50), durationMilliseconds: 2_070)]), style: .spoken)
            == "1 finger, long press, 2.07 seconds")
        #expect(describe(F.gesture([F.still(at: (50, 50), durationMilliseconds: 80)]), style: .spoken)
            == "1 finger, tap, 0.08 seconds")
        let nudge = F.gesture([F.line(from: (50, 50), to: (51, 50), durationMilliseconds: 600)])
        #expect(describe(nudge, style: .spoken) == "1 finger, long press, 0.6 seconds")
        let shortPath = F.gesture([F.stroke([(0, 50, 50), (100, 53.2, 50), (200, 50.5, 50)])])
        #expect(describe(shortPath, style: .spoken) == "1 finger, path, 0.2 seconds, 6 millimetres")
        let twoFingers = F.gesture([
            F.line(from: (50, 50), to: (60, 50), durationMilliseconds: 100),
            F.line(from: (50, 70), to: (60, 70), durationMilliseconds: 100),
        ])
        #expect(describe(twoFingers, style: .spoken) == "2 fingers, swipe right, 0.1 seconds, 10 millimetres")
        #expect(describe(F.gesture([]), style: .spoken) == "no strokes, 0 seconds")
        // The angle in words.
        let clockwise = F.gesture([
            F.stroke([(0, 100, 60), (500, 102.93, 52.93), (1000, 110, 50)]),
            F.stroke([(0, 120, 60), (500, 117.07, 67.07), (1000, 110, 70)]),
        ])
        #expect(describe(clockwise, style: .spoken) == "2 fingers, rotate clockwise 90 degrees, 1 second")
        #expect(GestureMotion.rotate(.counterClockwise, degrees: 30.4).spokenPhrase == "rotate counter-clockwise 30 degrees")
        #expect(GestureMotion.pinch(.inward, changeMM: 20).spokenPhrase == "pinch in")
        // Nothing of the screen form's symbols is left for speech to spell out.
        for gesture in [swipe, clockwise, nudge, shortPath] {
            let spoken = describe(gesture, style: .spoken)
            #expect(!spoken.contains("·") && !spoken.contains("°") && !spoken.contains(" mm") && !spoken.contains(" s,"))
        }
    }

    @Test func suggestedNamesFollowTheSummary() {
        let swipe = F.gesture(
            [80.0, 100, 120].map { F.line(from: ($0, 100), to: ($0, 60), durationMilliseconds: 250) })
        #expect(suggestedName(for: swipe) == "swipe-up-3")
        let doubleTap = F.gesture([
            F.still(at: (50, 50), durationMilliseconds: 60),
            F.still(at: (70, 50), durationMilliseconds: 60),
            F.still(at: (50, 50), startMilliseconds: 150, durationMilliseconds: 60),
            F.still(at: (70, 50), startMilliseconds: 150, durationMilliseconds: 60),
        ])
        #expect(suggestedName(for: doubleTap) == "double-tap-2")
        let counterClockwise = F.gesture([
            F.stroke([(0, 100, 60), (700, 101.34, 65)]),
            F.stroke([(0, 120, 60), (700, 118.66, 55)]),
        ])
        #expect(suggestedName(for: counterClockwise) == "rotate-anticlockwise-2")
        let sequence = (0..<3).map { index in
            F.line(
                from: (50, 30 + Double(index) * 20), to: (80, 30 + Double(index) * 20),
                startMilliseconds: Int64(index) * 600, durationMilliseconds: 300)
        }
        #expect(suggestedName(for: F.gesture(sequence)) == "swipe-right-3-strokes")
        #expect(suggestedName(for: F.gesture([F.line(from: (1, 60), to: (41, 70), durationMilliseconds: 300)])) == "edge-swipe-left-1")
        #expect(suggestedName(for: F.gesture([F.still(at: (50, 50), durationMilliseconds: 900, kind: .pointer)])) == "pointer-long-press-1")
        let mixed = F.gesture([
            F.line(from: (50, 50), to: (50, 80), durationMilliseconds: 200, kind: .pen),
            F.line(from: (60, 50), to: (60, 80), durationMilliseconds: 200),
        ])
        #expect(suggestedName(for: mixed) == "mixed-swipe-down-2")
        #expect(suggestedName(for: F.gesture([])) == "empty")
        for gesture in [swipe, doubleTap, counterClockwise, mixed] {
            #expect(suggestedName(for: gesture).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        }
    }
}
