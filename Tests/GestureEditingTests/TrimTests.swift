import GestureEditing
import GestureModel
import Testing

@Suite struct TrimTests {
    typealias F = Fixtures

    /// Rests 500 ms, moves, rests 480 ms; then a one-second long press.
    let gesture = F.gesture([
        Stroke(samples: [
            Sample(time: F.ms(1_000), x: 100, y: 100, pressure: 10),
            Sample(time: F.ms(1_100), x: 100, y: 100, pressure: 20),
            Sample(time: F.ms(1_500), x: 100, y: 100, pressure: 30),
            Sample(time: F.ms(1_510), x: 200, y: 100),
            Sample(time: F.ms(1_520), x: 300, y: 100),
            Sample(time: F.ms(1_600), x: 300, y: 100),
            Sample(time: F.ms(2_000), x: 300, y: 100),
        ]),
        F.stroke([(3_000, 500, 500), (4_000, 500, 500)]),
    ])

    @Test func stillnessAtBothEndsIsShortenedAndTheLeadInRemoved() throws {
        let result = try GestureEditor.trim(gesture)
        // Cuts: 1000…1300 ms (leading rest 500 → 200 ms) and 1720…2000 ms
        // (trailing rest 480 → 200 ms): 580 ms in all, then the 1 s lead-in.
        // The samples at 1000 and 1100 ms both land on 0: the later is kept.
        #expect(
            F.points(result.gesture) == [
                [
                    Point(0, 100, 100), Point(200, 100, 100), Point(210, 200, 100), Point(220, 300, 100),
                    Point(300, 300, 100), Point(420, 300, 100),
                ],
                // The long press is not trimmed, only moved earlier.
                [Point(1_420, 500, 500), Point(2_420, 500, 500)],
            ])
        #expect(result.gesture.strokes[0].samples.map(\.pressure) == [20, 30, nil, nil, nil, nil])
        #expect(result.warnings.isEmpty)
    }

    @Test func maxStillOfZeroRemovesAllStillness() throws {
        let result = try GestureEditor.trim(gesture, maxStill: 0)
        #expect(
            F.points(result.gesture)[0] == [
                Point(0, 100, 100), Point(10, 200, 100), Point(20, 300, 100),
            ])
        #expect(F.points(result.gesture)[1] == [Point(1_020, 500, 500), Point(2_020, 500, 500)])
    }

    @Test func nothingIsCutWhileAnotherStrokeMoves() throws {
        // A rests from 0 to 1000 ms; B moves from 200 to 500 ms. A's excess
        // (0…800 ms) is cut only where B is not moving: 0…200 and 500…800 ms.
        let busy = F.gesture([
            F.stroke([(0, 100, 100), (1_000, 100, 100), (1_010, 200, 100)]),
            F.stroke([(200, 500, 500), (500, 600, 500)]),
        ])
        let result = try GestureEditor.trim(busy)
        #expect(
            F.points(result.gesture) == [
                [Point(0, 100, 100), Point(500, 100, 100), Point(510, 200, 100)],
                [Point(0, 500, 500), Point(300, 600, 500)],
            ])
    }

    @Test func strokesThatNeverMoveAreOnlyShifted() throws {
        let taps = F.gesture([F.stroke([(700, 1, 1), (1_700, 1, 1)]), F.stroke([(2_000, 5, 5)])])
        let result = try GestureEditor.trim(taps, maxStill: F.ms(10))
        #expect(F.points(result.gesture) == [[Point(0, 1, 1), Point(1_000, 1, 1)], [Point(1_300, 5, 5)]])
    }

    @Test func shortStillnessIsKept() throws {
        let brisk = F.gesture([F.stroke([(50, 1, 1), (150, 1, 1), (160, 9, 9), (300, 9, 9)])])
        let result = try GestureEditor.trim(brisk)
        #expect(F.points(result.gesture) == [[Point(0, 1, 1), Point(100, 1, 1), Point(110, 9, 9), Point(250, 9, 9)]])
    }

    @Test func negativeMaxStillIsRefused() {
        #expect(throws: EditError("the longest stillness kept must not be negative, not -1 ms")) {
            try GestureEditor.trim(gesture, maxStill: F.ms(-1))
        }
    }
}
