@testable import GestureEditing
import GestureModel
import Testing

@Suite struct FingersTests {
    typealias F = Fixtures

    /// One 10 mm swipe to the right from the middle of the simple surface.
    let swipe = F.gesture([F.stroke([(0, 500, 500), (100, 600, 500)])])

    @Test func rowPutsFingersSpacingApartCentredOnTheOriginal() throws {
        let result = try GestureEditor.fingers(swipe, count: 4)
        // Offsets −27, −9, 9, 27 mm = −270, −90, 90, 270 units.
        #expect(
            F.points(result.gesture) == [
                [Point(0, 230, 500), Point(100, 330, 500)],
                [Point(0, 410, 500), Point(100, 510, 500)],
                [Point(0, 590, 500), Point(100, 690, 500)],
                [Point(0, 770, 500), Point(100, 870, 500)],
            ])
        #expect(result.warnings.isEmpty)
        #expect(result.gesture.maximumSimultaneousContacts == 4)
    }

    @Test func rowOnUnequalAxesIsSpacedInMillimetres() throws {
        // (1000, 250) is (50 mm, 50 mm); ±9 mm is ±180 units across.
        let gesture = F.gesture([F.stroke([(0, 1_000, 250), (50, 1_000, 300)])], device: F.unequal)
        let result = try GestureEditor.fingers(gesture, count: 2)
        #expect(
            F.points(result.gesture) == [
                [Point(0, 820, 250), Point(50, 820, 300)],
                [Point(0, 1_180, 250), Point(50, 1_180, 300)],
            ])
    }

    @Test func arcOfThreeRaisesTheMiddleFinger() throws {
        // R = 50 mm, sin(θ/2) = 0.18, so sin θ = 0.36 × √0.9676 = 0.354120
        // and cos θ = 1 − 2 × 0.0324 = 0.9352. Outer fingers are
        // 50 × 0.354120 = 17.706 mm to each side; the fingertips span
        // 50 × (1 − 0.9352) = 3.24 mm vertically, centred: ±1.62 mm.
        let result = try GestureEditor.fingers(swipe, count: 3, layout: .arc)
        #expect(
            F.points(result.gesture) == [
                [Point(0, 323, 516), Point(100, 423, 516)],
                [Point(0, 500, 484), Point(100, 600, 484)],
                [Point(0, 677, 516), Point(100, 777, 516)],
            ])
    }

    @Test func arcOfFourOnUnequalAxes() throws {
        // Inner fingers ±9 mm across (sin(θ/2) = 0.18); outer ones
        // 50 × sin(1.5 θ) = 50 × (3 × 0.18 − 4 × 0.18³) = 25.8336 mm across;
        // vertically ±50 × (cos(θ/2) − cos(1.5 θ)) / 2 = ±3.18708 mm.
        // x at 20 units/mm, y at 5 units/mm, around (50 mm, 50 mm).
        let gesture = F.gesture([F.stroke([(0, 1_000, 250)])], device: F.unequal)
        let result = try GestureEditor.fingers(gesture, count: 4, layout: .arc)
        #expect(
            F.points(result.gesture) == [
                [Point(0, 483, 266)],  // 483.328, 265.935
                [Point(0, 820, 234)],  // 820, 234.065
                [Point(0, 1_180, 234)],
                [Point(0, 1_517, 266)],
            ])
    }

    @Test func arcNeighboursAreSpacingApartWithinAHalfCircle() {
        for count in 2...10 {
            for spacing in [5.0, 18, 40, 90] {
                let offsets = FingerLayout.arc.offsetsMM(count: count, spacingMM: spacing)
                for index in 1..<count {
                    let dx = offsets[index].x - offsets[index - 1].x
                    let dy = offsets[index].y - offsets[index - 1].y
                    #expect(abs((dx * dx + dy * dy).squareRoot() - spacing) < 1e-9)
                }
                // Within a half circle: the outer fingers are no higher than
                // the inner ones, and the ends are the lowest.
                let lowest = offsets.map(\.y).max()
                #expect(offsets[0].y == lowest)
            }
        }
    }

    @Test func delayStartsEachFingerLater() throws {
        let result = try GestureEditor.fingers(swipe, count: 3, delay: F.ms(50))
        #expect(result.gesture.strokes.map(\.startTime) == [0, F.ms(50), F.ms(100)])
        #expect(result.gesture.strokes.map(\.endTime) == [F.ms(100), F.ms(150), F.ms(200)])
        #expect(result.gesture.strokes.map { $0.samples[0].x } == [320, 500, 680])
    }

    @Test func pointsPushedOffTheSurfaceAreClippedOrRefused() throws {
        let nearEdge = F.gesture([F.stroke([(0, 950, 500), (100, 960, 500)])])
        let result = try GestureEditor.fingers(nearEdge, count: 2)
        #expect(
            F.points(result.gesture) == [
                [Point(0, 860, 500), Point(100, 870, 500)],
                [Point(0, 1_000, 500), Point(100, 1_000, 500)],
            ])
        #expect(result.warnings == ["2 samples fell outside the surface and were clipped to its edge"])
        #expect(throws: EditError("2 samples would fall outside the surface")) {
            try GestureEditor.fingers(nearEdge, count: 2, strict: true)
        }
    }

    @Test func choosingTheStroke() throws {
        let three = F.gesture([
            F.stroke([(0, 100, 100)]), F.stroke([(10, 500, 500)]), F.stroke([(20, 900, 900)]),
        ])
        #expect(throws: EditError("the gesture has 3 strokes; choose one with --stroke N")) {
            try GestureEditor.fingers(three, count: 2)
        }
        #expect(throws: EditError("there is no stroke 3; the gesture has 3 strokes, numbered from 0")) {
            try GestureEditor.fingers(three, count: 2, strokeIndex: 3)
        }
        let result = try GestureEditor.fingers(three, count: 2, strokeIndex: 1)
        #expect(F.points(result.gesture) == [[Point(10, 410, 500)], [Point(10, 590, 500)]])
        #expect(result.warnings == ["left out the other 2 strokes; the result holds only the 2 fingers"])
        #expect(throws: EditError("the gesture has no strokes")) {
            try GestureEditor.fingers(F.gesture([]), count: 2)
        }
    }

    @Test func invalidArgumentsAreRefused() {
        #expect(throws: EditError("fingers must be 2 to 10, not 11")) {
            try GestureEditor.fingers(swipe, count: 11)
        }
        #expect(throws: EditError("fingers must be 2 to 10, not 1")) {
            try GestureEditor.fingers(swipe, count: 1)
        }
        #expect(throws: EditError("finger spacing must be a positive number of millimetres, not 0")) {
            try GestureEditor.fingers(swipe, count: 2, spacingMM: 0)
        }
        #expect(throws: EditError("finger delay must not be negative, not -1 ms")) {
            try GestureEditor.fingers(swipe, count: 2, delay: F.ms(-1))
        }
    }

    @Test func theResultMustFitTheDeviceSlots() throws {
        var twoSlots = swipe
        twoSlots.device.slots = 2
        #expect(throws: EditError("3 fingers give 3 contacts at once; the device tracks at most 2")) {
            try GestureEditor.fingers(twoSlots, count: 3)
        }
        // Taps one after another never touch at once.
        var tap = F.gesture([F.stroke([(0, 500, 500)])])
        tap.device.slots = 1
        let result = try GestureEditor.fingers(tap, count: 3, delay: F.ms(10))
        #expect(F.points(result.gesture) == [[Point(0, 320, 500)], [Point(10, 500, 500)], [Point(20, 680, 500)]])
    }
}
