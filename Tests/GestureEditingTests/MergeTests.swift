import GestureEditing
import GestureModel
import Testing

@Suite struct MergeTests {
    typealias F = Fixtures

    /// Three strokes drawn one after another: a swipe, a swipe, a tap.
    let sequential = F.gesture([
        F.stroke([(0, 100, 100), (100, 200, 100)]),
        F.stroke([(300, 100, 300), (400, 200, 300)]),
        F.stroke([(600, 100, 500)]),
    ])

    /// A two-finger group (touching at 100 ms counts as overlapping) then a
    /// one-finger stroke.
    let grouped = F.gesture([
        F.stroke([(0, 100, 100), (100, 200, 100)]),
        F.stroke([(100, 100, 300), (150, 200, 300)]),
        F.stroke([(200, 100, 500), (250, 200, 500)]),
    ])

    @Test func startAlignmentPlaysEveryStrokeAtZero() throws {
        let result = try GestureEditor.merge([sequential])
        #expect(
            F.points(result.gesture) == [
                [Point(0, 100, 100), Point(100, 200, 100)],
                [Point(0, 100, 300), Point(100, 200, 300)],
                [Point(0, 100, 500)],
            ])
        #expect(result.warnings.isEmpty)
        #expect(result.gesture.maximumSimultaneousContacts == 3)
    }

    @Test func overlappingStrokesKeepTheirRelativeTiming() throws {
        let result = try GestureEditor.merge([grouped])
        // Group 1 (0…150 ms) and group 2 (moved from 200 ms to 0); sorted by
        // start time, ties in order.
        #expect(
            F.points(result.gesture) == [
                [Point(0, 100, 100), Point(100, 200, 100)],
                [Point(0, 100, 500), Point(50, 200, 500)],
                [Point(100, 100, 300), Point(150, 200, 300)],
            ])
    }

    @Test func endAlignmentEndsEveryGroupTogether() throws {
        let result = try GestureEditor.merge([grouped], alignment: .end)
        // Group 1 lasts 150 ms and starts at 0; group 2 lasts 50 ms and
        // starts at 100 ms.
        #expect(
            F.points(result.gesture) == [
                [Point(0, 100, 100), Point(100, 200, 100)],
                [Point(100, 100, 300), Point(150, 200, 300)],
                [Point(100, 100, 500), Point(150, 200, 500)],
            ])
    }

    @Test func staggerWithOneOffsetIsAStep() throws {
        let result = try GestureEditor.merge([sequential], alignment: .stagger([F.ms(100)]))
        #expect(
            F.points(result.gesture) == [
                [Point(0, 100, 100), Point(100, 200, 100)],
                [Point(100, 100, 300), Point(200, 200, 300)],
                [Point(200, 100, 500)],
            ])
    }

    @Test func staggerWithSeveralOffsetsRepeatsTheLastStep() throws {
        let taps = F.gesture((0..<5).map { F.stroke([(Int64($0) * 1_000, 100 * $0, 0)]) })
        let result = try GestureEditor.merge([taps], alignment: .stagger([0, F.ms(50), F.ms(200)]))
        #expect(
            F.points(result.gesture) == [
                [Point(0, 0, 0)], [Point(50, 100, 0)], [Point(200, 200, 0)], [Point(350, 300, 0)],
                [Point(500, 400, 0)],
            ])
    }

    @Test func explicitOffsetsNeedNotIncreaseWhenTheyAreNotRepeated() throws {
        let result = try GestureEditor.merge([sequential], alignment: .stagger([F.ms(30), F.ms(10), 0]))
        #expect(result.gesture.strokes.map(\.startTime) == [0, F.ms(10), F.ms(30)])
        #expect(result.gesture.strokes.map { $0.samples[0].y } == [500, 300, 100])
    }

    @Test func invalidStaggerOffsetsAreRefused() {
        #expect(throws: EditError("stagger needs at least one offset")) {
            try GestureEditor.merge([sequential], alignment: .stagger([]))
        }
        #expect(throws: EditError("stagger offsets must not be negative, not -5 ms")) {
            try GestureEditor.merge([sequential], alignment: .stagger([0, F.ms(-5)]))
        }
        #expect(
            throws: EditError(
                "the last stagger step is negative (100 ms then 50 ms), so it cannot repeat for the 3 groups")
        ) {
            try GestureEditor.merge([sequential], alignment: .stagger([F.ms(100), F.ms(50)]))
        }
    }

    @Test func aSingleGroupMergesToItselfStartingAtZero() throws {
        let late = F.gesture([
            F.stroke([(1_000, 100, 100), (1_100, 200, 100)]),
            F.stroke([(1_050, 100, 300), (1_200, 200, 300)]),
        ])
        let result = try GestureEditor.merge([late])
        #expect(
            F.points(result.gesture) == [
                [Point(0, 100, 100), Point(100, 200, 100)],
                [Point(50, 100, 300), Point(200, 200, 300)],
            ])
    }

    @Test func severalGesturesUseTheFirstGeometryAndMapByMillimetres() throws {
        var first = F.gesture([F.stroke([(0, 100, 100), (100, 200, 100)])], name: "first")
        first.description = "from the first"
        first.metadata = RecordingMetadata(tool: "gesturectl 0.1.0", droppedEvents: 2)
        // 200 × 50 mm at 10 units/mm, with a pressure axis 0…255.
        let wide = DeviceGeometry(
            kind: .touchscreen,
            x: AxisRange(minimum: 0, maximum: 2_000, resolution: 10),
            y: AxisRange(minimum: 0, maximum: 500, resolution: 10),
            pressure: AxisRange(minimum: 0, maximum: 255), slots: 5)
        var second = F.gesture(
            [
                Stroke(samples: [
                    Sample(time: F.ms(500), x: 500, y: 100, pressure: 51),
                    Sample(time: F.ms(600), x: 1_500, y: 100, pressure: 255),
                ])
            ], device: wide, name: "second")
        second.metadata = RecordingMetadata(droppedEvents: 3)
        // The unequal device: (1000, 250) is (50 mm, 50 mm).
        let third = F.gesture([F.stroke([(0, 1_000, 250)])], device: F.unequal)

        var target = F.simple
        target.pressure = AxisRange(minimum: 0, maximum: 1_000)
        first.device = target
        let result = try GestureEditor.merge([first, second, third])
        #expect(result.gesture.name == "first")
        #expect(result.gesture.description == "from the first")
        #expect(result.gesture.device == target)
        #expect(result.gesture.metadata == RecordingMetadata(tool: "gesturectl 0.1.0", droppedEvents: 5))
        #expect(
            F.points(result.gesture) == [
                [Point(0, 100, 100), Point(100, 200, 100)],
                // 150 mm is past the 100 mm edge.
                [Point(0, 500, 100), Point(100, 1_000, 100)],
                [Point(0, 500, 500)],
            ])
        // 51 of 0…255 is 200 of 0…1000; the unequal device has no pressure.
        #expect(result.gesture.strokes[1].samples.map(\.pressure) == [200, 1_000])
        #expect(result.gesture.strokes[2].samples.map(\.pressure) == [nil])
        #expect(result.warnings == ["gesture 2: 1 sample fell outside the surface and was clipped to its edge"])
    }

    @Test func mixingPointerAndFingerStrokesIsRefused() {
        let pointer = F.gesture([F.stroke([(0, 10, 10), (50, 20, 10)], kind: .pointer)])
        #expect(throws: EditError("cannot merge finger strokes with pointer strokes")) {
            try GestureEditor.merge([sequential, pointer])
        }
    }

    @Test func tooManyFingersAtOnceIsRefused() {
        let eleven = F.gesture((0..<11).map { F.stroke([(Int64($0) * 100, 50 * $0, 0)]) })
        #expect(throws: EditError("merging gives 11 fingers at once; the most allowed is 10")) {
            try GestureEditor.merge([eleven])
        }
        #expect(throws: EditError("merging gives 3 fingers at once; the most allowed is 2")) {
            try GestureEditor.merge([sequential], maximumFingers: 2)
        }
        var twoSlots = sequential
        twoSlots.device.slots = 2
        #expect(throws: EditError("merging gives 3 fingers at once; the device tracks at most 2")) {
            try GestureEditor.merge([twoSlots])
        }
        // Mouse strokes are pointers, never fingers.
        let pointers = F.gesture((0..<3).map { F.stroke([(0, 50 * $0, 0), (100, 50 * $0, 10)], kind: .pointer) })
        #expect(throws: EditError("merging gives 3 pointers at once; the most allowed is 2")) {
            try GestureEditor.merge([pointers], maximumFingers: 2)
        }
        // Staggered far enough apart, the 11 taps never touch at once.
        #expect(throws: Never.self) { try GestureEditor.merge([eleven], alignment: .stagger([F.ms(1)])) }
    }

    @Test func emptyInputIsRefusedAndEmptyStrokesAreLeftOut() throws {
        #expect(throws: EditError("nothing to merge: no gestures were given")) { try GestureEditor.merge([]) }
        let withEmpty = F.gesture([F.stroke([(10, 1, 2)]), Stroke(samples: [])])
        let result = try GestureEditor.merge([withEmpty])
        #expect(F.points(result.gesture) == [[Point(0, 1, 2)]])
        #expect(result.warnings == ["gesture 1: left out 1 stroke with no samples"])
    }
}
