import GestureEditing
import GestureModel
import Testing

/// `play`'s placement (`--at`, `--scale`, `--rotate`; the daemon's `at`,
/// `scale`, `rotate`): exact device units for each rule of docs/EDITING.md.
@Suite struct PlacementTests {
    typealias F = Fixtures

    /// A 20 mm swipe through the middle of the simple surface (centre 50, 50 mm).
    let swipe = F.gesture([F.stroke([(0, 400, 500), (100, 600, 500)])])
    /// A one-sample tap at 10, 10 mm.
    let tap = F.gesture([F.stroke([(0, 100, 100)])])

    private func place(_ gesture: Gesture, _ placement: Placement) throws -> EditResult {
        try GestureEditor.place(gesture, placement)
    }

    private func at(_ x: Placement.Coordinate, _ y: Placement.Coordinate) -> Placement.Point {
        Placement.Point(x: x, y: y)
    }

    // MARK: where the centre lands

    @Test func theCentreLandsAtAPointInMillimetres() throws {
        let result = try place(swipe, Placement(at: at(.millimetres(20), .millimetres(30))))
        #expect(F.points(result.gesture) == [[Point(0, 100, 300), Point(100, 300, 300)]])
        #expect(result.warnings.isEmpty)
        let tapped = try place(tap, Placement(at: at(.millimetres(12.5), .millimetres(99.95))))
        // 125 units; 999.5 rounds away from zero.
        #expect(F.points(tapped.gesture) == [[Point(0, 125, 1_000)]])
    }

    @Test func theCentreIsTheCentreOfTheBoxAroundAllSamplesNotTheFirstSample() throws {
        // An L: the box is 10…30 × 10…50 mm, its centre 20, 30 mm.
        let shape = F.gesture([F.stroke([(0, 100, 100), (50, 300, 100), (100, 300, 500)])])
        let result = try place(shape, Placement(at: at(.millimetres(50), .millimetres(50))))
        #expect(F.points(result.gesture) == [[Point(0, 400, 300), Point(50, 600, 300), Point(100, 600, 700)]])
        // Two strokes: the box spans both.
        let two = F.gesture([F.stroke([(0, 100, 100)]), F.stroke([(0, 300, 300)])])
        let placed = try place(two, Placement(at: at(.millimetres(80), .millimetres(80))))
        #expect(F.points(placed.gesture) == [[Point(0, 700, 700)], [Point(0, 900, 900)]])
    }

    @Test func percentsAreOfTheSurfacesWidthAndHeight() throws {
        let simple = try place(tap, Placement(at: at(.percent(80), .percent(90))))
        #expect(F.points(simple.gesture) == [[Point(0, 800, 900)]])
        // Unequal resolutions: 80% of 100 mm = 80 mm = 1600 units; 90% = 90 mm = 450 units.
        let unequalTap = F.gesture([F.stroke([(0, 200, 50)])], device: F.unequal)
        let unequal = try place(unequalTap, Placement(at: at(.percent(80), .percent(90))))
        #expect(F.points(unequal.gesture) == [[Point(0, 1_600, 450)]])
        // 0% and 100% are the axes' minimum and maximum exactly.
        let corners = try place(tap, Placement(at: at(.percent(0), .percent(100))))
        #expect(F.points(corners.gesture) == [[Point(0, 0, 1_000)]])
        #expect(corners.warnings.isEmpty)
        // Mixed: x in percent, y in mm.
        let mixed = try place(tap, Placement(at: at(.percent(25), .millimetres(5))))
        #expect(F.points(mixed.gesture) == [[Point(0, 250, 50)]])
    }

    @Test func percentsCountFromTheAxisMinimumAndWorkWithoutAKnownSize() throws {
        // x −500…500 (100 mm), y 100…300 (20 mm) at 10 units/mm.
        let offset = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: -500, maximum: 500, resolution: 10),
            y: AxisRange(minimum: 100, maximum: 300, resolution: 10), slots: 10)
        let tapped = F.gesture([F.stroke([(0, 0, 200)])], device: offset)
        let result = try place(tapped, Placement(at: at(.percent(25), .percent(75))))
        #expect(F.points(result.gesture) == [[Point(0, -250, 250)]])
        // No resolution: the size is assumed (FORMAT.md's size rule); 50 %
        // is still the middle, to within the rounding of a tie.
        let unsized = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 4_095), y: AxisRange(minimum: 0, maximum: 2_047), slots: 10)
        let unsizedTap = F.gesture([F.stroke([(0, 10, 10)])], device: unsized)
        let unsizedResult = try place(unsizedTap, Placement(at: at(.percent(50), .percent(50))))
        #expect(F.points(unsizedResult.gesture) == [[Point(0, 2_047, 1_023)]])
    }

    // MARK: scale and rotate about the centre

    @Test func scaleAndRotateAreAboutTheCentreWhichStaysPutWithoutAt() throws {
        let bigger = try place(swipe, Placement(scale: 2))
        #expect(F.points(bigger.gesture) == [[Point(0, 300, 500), Point(100, 700, 500)]])
        // +90° turns clockwise on the screen: the right end goes below the centre.
        let turned = try place(swipe, Placement(degrees: 90))
        #expect(F.points(turned.gesture) == [[Point(0, 500, 400), Point(100, 500, 600)]])
        // The same as transform --scale 2 --rotate 90 (one rounding here, but exact anyway).
        let both = try place(swipe, Placement(scale: 2, degrees: 90))
        let transformed = try GestureEditor.rotate(try GestureEditor.scale(swipe, factor: 2).gesture, degrees: 90).gesture
        #expect(F.points(both.gesture) == F.points(transformed))
        #expect(F.points(both.gesture) == [[Point(0, 500, 300), Point(100, 500, 700)]])
    }

    @Test func scaleAndRotateThenMoveTheCentreToAt() throws {
        let result = try place(swipe, Placement(at: at(.percent(20), .millimetres(30)), scale: 0.5, degrees: 90))
        // Half size (10 mm), vertical, centred at 20, 30 mm.
        #expect(F.points(result.gesture) == [[Point(0, 200, 250), Point(100, 200, 350)]])
        let angled = try place(swipe, Placement(degrees: 45))
        // ±10 mm × cos 45° = ±7.0711 mm = ±70.711 units about 500.
        #expect(F.points(angled.gesture) == [[Point(0, 429, 429), Point(100, 571, 571)]])
    }

    @Test func timesAndEverythingButPositionsStay() throws {
        let pressed = F.gesture([
            Stroke(samples: [Sample(time: Microseconds(7), x: 100, y: 100, pressure: 30, size: 4)])
        ])
        let result = try place(pressed, Placement(at: at(.percent(50), .percent(50)), scale: 3, degrees: 10))
        let sample = try #require(result.gesture.strokes.first?.samples.first)
        #expect(sample == Sample(time: Microseconds(7), x: 500, y: 500, pressure: 30, size: 4))
    }

    @Test func theDefaultPlacementChangesNothing() throws {
        let odd = F.gesture([F.stroke([(0, 1, 999), (5, 3, 2)])])
        #expect(try place(odd, Placement()).gesture == odd)
        #expect(Placement().isIdentity)
        let empty = F.gesture([])
        #expect(try place(empty, Placement(at: at(.percent(50), .percent(50)), scale: 2)).gesture == empty)
    }

    // MARK: the edges

    @Test func samplesPushedOffTheSurfaceAreClippedWithTransformsWarning() throws {
        let result = try place(swipe, Placement(at: at(.millimetres(5), .percent(50))))
        #expect(F.points(result.gesture) == [[Point(0, 0, 500), Point(100, 150, 500)]])
        #expect(result.warnings == ["1 sample fell outside the surface and was clipped to its edge"])
        let huge = try place(swipe, Placement(scale: 10))
        #expect(F.points(huge.gesture) == [[Point(0, 0, 500), Point(100, 1_000, 500)]])
        #expect(huge.warnings == ["2 samples fell outside the surface and were clipped to its edge"])
    }

    @Test func anAtOffTheSurfaceIsRefused() {
        #expect(throws: Placement.Failure(.at, "X 120% is outside the surface (0% to 100%)")) {
            try place(tap, Placement(at: at(.percent(120), .percent(5))))
        }
        #expect(throws: Placement.Failure(.at, "Y -0.5% is outside the surface (0% to 100%)")) {
            try place(tap, Placement(at: at(.percent(5), .percent(-0.5))))
        }
        #expect(throws: Placement.Failure(.at, "X 100.5 mm is outside the surface (0 to 100 mm; or use 0% to 100%)")) {
            try place(tap, Placement(at: at(.millimetres(100.5), .millimetres(5))))
        }
        #expect(throws: Placement.Failure(.at, "Y -1 mm is outside the surface (0 to 100 mm; or use 0% to 100%)")) {
            try place(tap, Placement(at: at(.millimetres(5), .millimetres(-1))))
        }
        // Even for a gesture with nothing to place.
        #expect(throws: Placement.Failure(.at, "X 101 mm is outside the surface (0 to 100 mm; or use 0% to 100%)")) {
            try place(F.gesture([]), Placement(at: at(.millimetres(101), .millimetres(5))))
        }
    }

    // MARK: bad values

    @Test func badScalesAnglesAndPointsAreRefusedNamingThePart() {
        for scale in [0, -1, Double.nan, Double.infinity] {
            let shown = scale.isNaN ? "nan" : scale.isInfinite ? "inf" : String(Int(scale))
            #expect(throws: Placement.Failure(.scale, "the scale must be a finite number above 0, not \(shown)")) {
                try place(tap, Placement(scale: scale))
            }
        }
        #expect(throws: Placement.Failure(.rotate, "the angle must be a finite number of degrees, not nan")) {
            try place(tap, Placement(degrees: .nan))
        }
        #expect(throws: Placement.Failure(.at, "X must be a finite number, not inf")) {
            try Placement(at: at(.millimetres(.infinity), .percent(5))).validate()
        }
        #expect(throws: Placement.Failure(.at, "Y must be a finite number, not nan")) {
            try Placement(at: at(.percent(5), .percent(.nan))).validate()
        }
        #expect(Placement.Failure(.scale, "x").description == "scale: x")
    }

    @Test func pointsAreReadFromXCommaY() throws {
        #expect(try Placement.Point(parsing: "80%,90%") == at(.percent(80), .percent(90)))
        #expect(try Placement.Point(parsing: "12.5, 7") == at(.millimetres(12.5), .millimetres(7)))
        #expect(try Placement.Point(parsing: "0,100%") == at(.millimetres(0), .percent(100)))
        #expect(throws: Placement.Failure(.at, "needs X,Y: two numbers in mm or percents of the surface (e.g. 40,25 or 80%,90%), not \"5\"")) {
            try Placement.Point(parsing: "5")
        }
        #expect(throws: Placement.Failure.self) { try Placement.Point(parsing: "1,2,3") }
        #expect(throws: Placement.Failure.self) { try Placement.Point(parsing: "") }
        for text in ["nan,1", "inf,1", "0x10,1", "%,1", "1e999,1", "ten,1", "1%%,1"] {
            #expect(throws: Placement.Failure(.at, "X \"\(text.split(separator: ",")[0])\" is not a number of mm or a percent like 80%")) {
                try Placement.Point(parsing: text)
            }
        }
        #expect(throws: Placement.Failure(.at, "Y \"\" is not a number of mm or a percent like 90%")) {
            try Placement.Point(parsing: "1,")
        }
        #expect(Placement.Coordinate("80%")?.description == "80%")
        #expect(Placement.Coordinate("2.5")?.description == "2.5 mm")
    }
}
