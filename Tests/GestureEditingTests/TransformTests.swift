import GestureEditing
import GestureModel
import Testing

@Suite struct TransformTests {
    typealias F = Fixtures

    /// A 20 mm swipe through the middle of the simple surface.
    let swipe = F.gesture([F.stroke([(0, 400, 500), (100, 600, 500)])])

    // MARK: speed

    @Test func speedDividesEveryTime() throws {
        let gesture = F.gesture([
            Stroke(samples: [
                Sample(time: 0, x: 1, y: 1), Sample(time: 301, x: 2, y: 1), Sample(time: 100_001, x: 3, y: 1),
            ])
        ])
        let faster = try GestureEditor.speed(gesture, factor: 2)
        // 150.5 and 50000.5 round away from zero.
        #expect(faster.gesture.strokes[0].samples.map(\.time) == [0, 151, 50_001])
        let slower = try GestureEditor.speed(gesture, factor: 0.5)
        #expect(slower.gesture.strokes[0].samples.map(\.time) == [0, 602, 200_002])
        #expect(slower.gesture.strokes[0].samples.map(\.x) == [1, 2, 3])
    }

    @Test func speedRefusesBadFactorsAndOverlongResults() {
        for factor in [0, -1] {
            #expect(throws: EditError("speed factor must be a finite number above 0, not \(factor)")) {
                try GestureEditor.speed(swipe, factor: Double(factor))
            }
        }
        #expect(throws: EditError("speed factor must be a finite number above 0, not inf")) {
            try GestureEditor.speed(swipe, factor: .infinity)
        }
        #expect(throws: EditError("speed factor must be a finite number above 0, not nan")) {
            try GestureEditor.speed(swipe, factor: .nan)
        }
        let hour = F.gesture([F.stroke([(0, 1, 1), (3_600_000, 2, 2)])])
        #expect(
            throws: EditError(
                "at this speed the result is a gesture lasting 180000 s; the longest allowed is 86400 s")
        ) {
            try GestureEditor.speed(hour, factor: 0.02)
        }
    }

    // MARK: scale

    @Test func scaleAboutTheCentreOfTheGesture() throws {
        let result = try GestureEditor.scale(swipe, factor: 2)
        #expect(F.points(result.gesture) == [[Point(0, 300, 500), Point(100, 700, 500)]])
        #expect(result.warnings.isEmpty)
    }

    @Test func scaleAboutAPoint() throws {
        let result = try GestureEditor.scale(swipe, factor: 0.5, about: .point(xMM: 0, yMM: 0))
        #expect(F.points(result.gesture) == [[Point(0, 200, 250), Point(100, 300, 250)]])
    }

    @Test func scaleOnUnequalAxesWorksInMillimetres() throws {
        // (40, 50), (60, 50), (50, 60) mm; box centre (50, 55) mm.
        let gesture = F.gesture(
            [F.stroke([(0, 800, 250), (10, 1_200, 250), (20, 1_000, 300)])], device: F.unequal)
        let result = try GestureEditor.scale(gesture, factor: 2)
        // (30, 45), (70, 45), (50, 65) mm.
        #expect(F.points(result.gesture) == [[Point(0, 600, 225), Point(10, 1_400, 225), Point(20, 1_000, 325)]])
    }

    @Test func scaleLeavesPressureAlone() throws {
        var gesture = swipe
        gesture.strokes[0].samples[0].pressure = 40
        gesture.strokes[0].samples[0].size = 7
        let result = try GestureEditor.scale(gesture, factor: 3)
        #expect(result.gesture.strokes[0].samples[0].pressure == 40)
        #expect(result.gesture.strokes[0].samples[0].size == 7)
    }

    @Test func scaleClipsOrRefusesPointsOffTheSurface() throws {
        let result = try GestureEditor.scale(swipe, factor: 6)
        // 50 ∓ 60 mm: both ends off the surface.
        #expect(F.points(result.gesture) == [[Point(0, 0, 500), Point(100, 1_000, 500)]])
        #expect(result.warnings == ["2 samples fell outside the surface and were clipped to its edge"])
        #expect(throws: EditError("2 samples would fall outside the surface")) {
            try GestureEditor.scale(swipe, factor: 6, strict: true)
        }
        #expect(throws: EditError("scale factor must be a finite number above 0, not -2")) {
            try GestureEditor.scale(swipe, factor: -2)
        }
    }

    // MARK: translate

    @Test func translateMovesByMillimetres() throws {
        let result = try GestureEditor.translate(swipe, dxMM: 10, dyMM: -5)
        #expect(F.points(result.gesture) == [[Point(0, 500, 450), Point(100, 700, 450)]])
        let unequal = F.gesture([F.stroke([(0, 1_000, 250)])], device: F.unequal)
        let moved = try GestureEditor.translate(unequal, dxMM: 10, dyMM: -5)
        #expect(F.points(moved.gesture) == [[Point(0, 1_200, 225)]])
        // 0.05 mm is half a unit: rounds away from zero.
        let half = try GestureEditor.translate(swipe, dxMM: 0.05, dyMM: -0.05)
        #expect(F.points(half.gesture) == [[Point(0, 401, 500), Point(100, 601, 500)]])
    }

    @Test func translateClipsOrRefuses() throws {
        let result = try GestureEditor.translate(swipe, dxMM: 50, dyMM: 0)
        #expect(F.points(result.gesture) == [[Point(0, 900, 500), Point(100, 1_000, 500)]])
        #expect(result.warnings == ["1 sample fell outside the surface and was clipped to its edge"])
        #expect(throws: EditError("1 sample would fall outside the surface")) {
            try GestureEditor.translate(swipe, dxMM: 50, dyMM: 0, strict: true)
        }
        #expect(throws: EditError("translation must be finite numbers of millimetres, not inf, 0")) {
            try GestureEditor.translate(swipe, dxMM: .infinity, dyMM: 0)
        }
    }

    // MARK: rotate

    @Test func positiveRotationIsClockwiseOnScreen() throws {
        let right = F.gesture([F.stroke([(0, 600, 500)])])
        let anchor = Anchor.point(xMM: 50, yMM: 50)
        // 10 mm right of the anchor: +90° puts it 10 mm below, −90° above.
        #expect(F.points(try GestureEditor.rotate(right, degrees: 90, about: anchor).gesture) == [[Point(0, 500, 600)]])
        #expect(F.points(try GestureEditor.rotate(right, degrees: -90, about: anchor).gesture) == [[Point(0, 500, 400)]])
        #expect(F.points(try GestureEditor.rotate(right, degrees: 180, about: anchor).gesture) == [[Point(0, 400, 500)]])
        #expect(F.points(try GestureEditor.rotate(right, degrees: 450, about: anchor).gesture) == [[Point(0, 500, 600)]])
    }

    @Test func rotateAboutTheCentreByFortyFiveDegrees() throws {
        // Ends 10 mm either side of (50, 50) mm: 10 × cos 45° = 7.0711 mm.
        let result = try GestureEditor.rotate(swipe, degrees: 45)
        #expect(F.points(result.gesture) == [[Point(0, 429, 429), Point(100, 571, 571)]])
    }

    @Test func rotateOnUnequalAxesWorksInMillimetres() throws {
        // (60, 50) mm about (50, 50) mm by 90° is (50, 60) mm.
        let gesture = F.gesture([F.stroke([(0, 1_200, 250)])], device: F.unequal)
        let result = try GestureEditor.rotate(gesture, degrees: 90, about: .point(xMM: 50, yMM: 50))
        #expect(F.points(result.gesture) == [[Point(0, 1_000, 300)]])
    }

    @Test func rotateClipsOrRefuses() throws {
        let corner = F.gesture([F.stroke([(0, 900, 900)])])
        let result = try GestureEditor.rotate(corner, degrees: 90, about: .point(xMM: 0, yMM: 0))
        // (90, 90) mm turns to (−90, 90) mm.
        #expect(F.points(result.gesture) == [[Point(0, 0, 900)]])
        #expect(result.warnings == ["1 sample fell outside the surface and was clipped to its edge"])
        #expect(throws: EditError("1 sample would fall outside the surface")) {
            try GestureEditor.rotate(corner, degrees: 90, about: .point(xMM: 0, yMM: 0), strict: true)
        }
        #expect(throws: EditError("rotation must be a finite number of degrees, not nan")) {
            try GestureEditor.rotate(corner, degrees: .nan)
        }
    }
}
