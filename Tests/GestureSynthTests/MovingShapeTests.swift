import GestureModel
import GestureSynth
import Testing

/// The sample times of a 250 ms swipe at 120 Hz.
let swipeTimes: [Microseconds] = [
    0, 8333, 16667, 25000, 33333, 41667, 50000, 58333, 66667, 75000, 83333, 91667, 100000, 108333, 116667,
    125000, 133333, 141667, 150000, 158333, 166667, 175000, 183333, 191667, 200000, 208333, 216667, 225000,
    233333, 241667, 250000,
]

/// y of a default swipe up at `swipeTimes`: 87.5 mm to 47.5 mm, linear in time.
let swipeUpY = [
    8750, 8617, 8483, 8350, 8217, 8083, 7950, 7817, 7683, 7550, 7417, 7283, 7150, 7017, 6883, 6750, 6617, 6483,
    6350, 6217, 6083, 5950, 5817, 5683, 5550, 5417, 5283, 5150, 5017, 4883, 4750,
]

/// Swipes: a row of fingers moving together at constant velocity.
struct SwipeTests {
    @Test func oneFingerSwipeUpIsCentredOnTheCentre() throws {
        let gesture = try GestureSynthesizer.swipe(direction: .up)
        #expect(gesture.name == "swipe-up-1")
        #expect(gesture.description == "A 1-finger swipe up, 40 mm in 250 ms.")
        let expected = zip(swipeTimes, swipeUpY).map { Sample(time: $0, x: 10800, y: $1) }
        #expect(gesture.strokes == [Stroke(kind: .finger, samples: expected)])
    }

    @Test func threeFingerSwipeUpMovesTheRowTogether() throws {
        let gesture = try GestureSynthesizer.swipe(direction: .up, fingers: 3)
        #expect(gesture.name == "swipe-up-3")
        #expect(gesture.description == "A 3-finger swipe up, 40 mm in 250 ms.")
        let expected = [9000, 10800, 12600].map { x in
            Stroke(kind: .finger, samples: zip(swipeTimes, swipeUpY).map { Sample(time: $0, x: x, y: $1) })
        }
        #expect(gesture.strokes == expected)
    }

    @Test func swipeDownIsSwipeUpReversed() throws {
        let gesture = try GestureSynthesizer.swipe(direction: .down)
        #expect(gesture.name == "swipe-down-1")
        #expect(gesture.strokes[0].samples.map(\.y) == swipeUpY.reversed())
        #expect(gesture.strokes[0].samples.allSatisfy { $0.x == 10800 })
    }

    @Test func swipeLeftAndRightMoveAlongX() throws {
        let left = try GestureSynthesizer.swipe(direction: .left)
        // x of a swipe up's y, shifted: 128 mm to 88 mm.
        #expect(left.strokes[0].samples.map(\.x) == swipeUpY.map { $0 + 4050 })
        #expect(left.strokes[0].samples.allSatisfy { $0.y == 6750 })
        let right = try GestureSynthesizer.swipe(direction: .right, fingers: 3)
        #expect(right.name == "swipe-right-3")
        #expect(right.strokes.map { $0.samples.first?.x } == [7000, 8800, 10600])
        #expect(right.strokes.map { $0.samples.last?.x } == [11000, 12800, 14600])
        #expect(right.strokes.map { $0.samples[15] } == [
            Sample(time: 125_000, x: 9000, y: 6750), Sample(time: 125_000, x: 10800, y: 6750),
            Sample(time: 125_000, x: 12600, y: 6750),
        ])
    }

    @Test func distanceDurationAndCentreCanBeGiven() throws {
        let gesture = try GestureSynthesizer.swipe(
            direction: .down, distanceMM: 100, duration: 25_000, centre: MillimetrePoint(x: 20, y: 60))
        #expect(gesture.description == "A 1-finger swipe down, 100 mm in 25 ms.")
        #expect(
            gesture.strokes[0].samples == [
                Sample(time: 0, x: 2000, y: 1000), Sample(time: 8333, x: 2000, y: 4333),
                Sample(time: 16667, x: 2000, y: 7667), Sample(time: 25000, x: 2000, y: 11000),
            ])
    }

    @Test func aSwipeAsLongAsTheSurfaceReachesBothEdges() throws {
        let gesture = try GestureSynthesizer.swipe(direction: .up, distanceMM: 135)
        #expect(gesture.strokes[0].samples.first?.y == 13500)
        #expect(gesture.strokes[0].samples.last?.y == 0)
    }
}

/// x of finger 0 of a default two-finger pinch in, 49 samples over 400 ms: 78 mm to 98 mm.
let pinchInX = [
    7800, 7842, 7883, 7925, 7967, 8008, 8050, 8092, 8133, 8175, 8217, 8258, 8300, 8342, 8383, 8425, 8467, 8508,
    8550, 8592, 8633, 8675, 8717, 8758, 8800, 8842, 8883, 8925, 8967, 9008, 9050, 9092, 9133, 9175, 9217, 9258,
    9300, 9342, 9383, 9425, 9467, 9508, 9550, 9592, 9633, 9675, 9717, 9758, 9800,
]

/// Pinches: fingers on a circle moving along radii.
struct PinchTests {
    @Test func twoFingerPinchInFromThirtyToTenMillimetres() throws {
        let gesture = try GestureSynthesizer.pinch(direction: .in)
        #expect(gesture.name == "pinch-in-2")
        #expect(gesture.description == "A 2-finger pinch in, radius 30 mm to 10 mm in 400 ms.")
        #expect(gesture.strokes.count == 2)
        let times = gesture.strokes[0].samples.map(\.time)
        #expect(times.count == 49)
        #expect(Array(times.prefix(3)) == [0, 8333, 16667])
        #expect(times.last == 400_000)
        #expect(gesture.strokes[1].samples.map(\.time) == times)
        // Finger 0 is left of the centre, finger 1 right of it, mirror images.
        #expect(gesture.strokes[0].samples.map(\.x) == pinchInX)
        #expect(gesture.strokes[1].samples.map(\.x) == pinchInX.map { 21600 - $0 })
        #expect(gesture.strokes.allSatisfy { $0.samples.allSatisfy { $0.y == 6750 } })
    }

    @Test func pinchOutIsPinchInReversed() throws {
        let gesture = try GestureSynthesizer.pinch(direction: .out)
        #expect(gesture.name == "pinch-out-2")
        #expect(gesture.description == "A 2-finger pinch out, radius 10 mm to 30 mm in 400 ms.")
        #expect(gesture.strokes[0].samples.map(\.x) == pinchInX.reversed())
        #expect(gesture.strokes[1].samples.map(\.x) == pinchInX.reversed().map { 21600 - $0 })
    }

    @Test func threeFingersSitAtOneHundredAndEightyThreeHundredAndSixtyDegrees() throws {
        let gesture = try GestureSynthesizer.pinch(direction: .in, fingers: 3)
        let starts = gesture.strokes.map { [$0.samples[0].x, $0.samples[0].y] }
        let ends = gesture.strokes.map { [$0.samples[48].x, $0.samples[48].y] }
        // 180°, 300° (up and right: y grows downward), 60° (down and right).
        #expect(starts == [[7800, 6750], [12300, 4152], [12300, 9348]])
        #expect(ends == [[9800, 6750], [11300, 5884], [11300, 7616]])
    }

    @Test func radiiAndDistance() throws {
        func radii(_ gesture: Gesture) -> [Int] {
            // Finger 0 is left of the centre: radius = centre − x.
            [10800 - gesture.strokes[0].samples[0].x, 10800 - (gesture.strokes[0].samples.last?.x ?? 0)]
        }
        #expect(try radii(GestureSynthesizer.pinch(direction: .in, distanceMM: 25)) == [3500, 1000])
        #expect(try radii(GestureSynthesizer.pinch(direction: .out, distanceMM: 25)) == [1000, 3500])
        #expect(try radii(GestureSynthesizer.pinch(direction: .in, startRadiusMM: 50)) == [5000, 1000])
        #expect(try radii(GestureSynthesizer.pinch(direction: .out, endRadiusMM: 20, distanceMM: 5)) == [1500, 2000])
        #expect(try radii(GestureSynthesizer.pinch(direction: .in, startRadiusMM: 40, distanceMM: 5)) == [4000, 3500])
        #expect(
            try radii(GestureSynthesizer.pinch(direction: .out, startRadiusMM: 2, endRadiusMM: 60)) == [200, 6000])
        let described = try GestureSynthesizer.pinch(direction: .in, startRadiusMM: 12.5, endRadiusMM: 2.25)
        #expect(described.description == "A 2-finger pinch in, radius 12.5 mm to 2.25 mm in 400 ms.")
    }
}

/// (x, y) of finger 0 of a default rotation, 61 samples over 500 ms: from
/// 180° to 270° on a 20 mm circle, clockwise on screen (left, then up).
let rotateFinger0: [[Int]] = [
    [8800, 6750], [8801, 6698], [8803, 6645], [8806, 6593], [8811, 6541], [8817, 6489], [8825, 6437],
    [8833, 6386], [8844, 6334], [8855, 6283], [8868, 6232], [8882, 6182], [8898, 6132], [8915, 6082],
    [8933, 6033], [8952, 5985], [8973, 5937], [8995, 5889], [9018, 5842], [9042, 5796], [9068, 5750],
    [9095, 5705], [9123, 5661], [9152, 5617], [9182, 5574], [9213, 5532], [9246, 5491], [9279, 5451],
    [9314, 5412], [9349, 5373], [9386, 5336], [9423, 5299], [9462, 5264], [9501, 5229], [9541, 5196],
    [9582, 5163], [9624, 5132], [9667, 5102], [9711, 5073], [9755, 5045], [9800, 5018], [9846, 4992],
    [9892, 4968], [9939, 4945], [9987, 4923], [10035, 4902], [10083, 4883], [10132, 4865], [10182, 4848],
    [10232, 4832], [10282, 4818], [10333, 4805], [10384, 4794], [10436, 4783], [10487, 4775], [10539, 4767],
    [10591, 4761], [10643, 4756], [10695, 4753], [10748, 4751], [10800, 4750],
]

/// Rotations: fingers turning together on a circle.
struct RotateTests {
    @Test func twoFingersTurnNinetyDegreesClockwise() throws {
        let gesture = try GestureSynthesizer.rotate()
        #expect(gesture.name == "rotate-clockwise-2")
        #expect(gesture.description == "A 2-finger clockwise rotation by 90° on a 20 mm radius in 500 ms.")
        let times = gesture.strokes[0].samples.map(\.time)
        #expect(times.count == 61)
        #expect(times[30] == 250_000)
        #expect(times.last == 500_000)
        #expect(gesture.strokes[0].samples.map { [$0.x, $0.y] } == rotateFinger0)
        // Finger 1 is opposite finger 0 (right, then down).
        #expect(gesture.strokes[1].samples.map { [$0.x, $0.y] } == rotateFinger0.map { [21600 - $0[0], 13500 - $0[1]] })
    }

    @Test func negativeDegreesTurnAnticlockwise() throws {
        let gesture = try GestureSynthesizer.rotate(degrees: -90)
        #expect(gesture.name == "rotate-anticlockwise-2")
        #expect(gesture.description == "A 2-finger anticlockwise rotation by 90° on a 20 mm radius in 500 ms.")
        // Mirror image of the clockwise turn about the horizontal through the centre.
        #expect(gesture.strokes[0].samples.map { [$0.x, $0.y] } == rotateFinger0.map { [$0[0], 13500 - $0[1]] })
    }

    @Test func fourFingersFullTurnEndWhereTheyStarted() throws {
        let gesture = try GestureSynthesizer.rotate(degrees: 360, fingers: 4, radiusMM: 30, duration: 100_000)
        let starts = gesture.strokes.map { [$0.samples[0].x, $0.samples[0].y] }
        let ends = gesture.strokes.map { [$0.samples.last?.x ?? 0, $0.samples.last?.y ?? 0] }
        #expect(starts == [[7800, 6750], [10800, 3750], [13800, 6750], [10800, 9750]])
        #expect(ends == starts)
        // A quarter of the way (25 ms), each finger is where the next one started.
        let quarter = gesture.strokes.map { [$0.samples[3].x, $0.samples[3].y] }
        #expect(gesture.strokes[0].samples[3].time == 25_000)
        #expect(quarter == [[10800, 3750], [13800, 6750], [10800, 9750], [7800, 6750]])
    }
}

/// x of a default edge swipe from the left, 37 samples over 300 ms: 0 to 30 mm.
let edgeSwipeX = [
    0, 83, 167, 250, 333, 417, 500, 583, 667, 750, 833, 917, 1000, 1083, 1167, 1250, 1333, 1417, 1500, 1583, 1667,
    1750, 1833, 1917, 2000, 2083, 2167, 2250, 2333, 2417, 2500, 2583, 2667, 2750, 2833, 2917, 3000,
]

/// Edge swipes: from exactly on an edge, straight inward.
struct EdgeSwipeTests {
    @Test func fromTheLeftEdgeStartsAtTheAxisMinimum() throws {
        let gesture = try GestureSynthesizer.edgeSwipe(from: .left)
        #expect(gesture.name == "edge-swipe-left-1")
        #expect(gesture.description == "A 1-finger swipe in from the left edge, 30 mm in 300 ms.")
        let samples = gesture.strokes[0].samples
        #expect(samples.map(\.x) == edgeSwipeX)
        #expect(samples.allSatisfy { $0.y == 6750 })
        #expect(samples.last?.time == 300_000)
        #expect(samples.count == 37)
    }

    @Test func fromTheRightEdgeStartsAtTheAxisMaximum() throws {
        let gesture = try GestureSynthesizer.edgeSwipe(from: .right)
        #expect(gesture.strokes[0].samples.map(\.x) == edgeSwipeX.map { 21600 - $0 })
    }

    @Test func fromTheTopAndBottomEdges() throws {
        let top = try GestureSynthesizer.edgeSwipe(from: .top)
        #expect(top.strokes[0].samples.map(\.y) == edgeSwipeX)
        #expect(top.strokes[0].samples.allSatisfy { $0.x == 10800 })
        let bottom = try GestureSynthesizer.edgeSwipe(from: .bottom, fingers: 2)
        #expect(bottom.name == "edge-swipe-bottom-2")
        #expect(bottom.strokes.map { $0.samples[0].x } == [9900, 11700])
        #expect(bottom.strokes.allSatisfy { $0.samples.map(\.y) == edgeSwipeX.map { 13500 - $0 } })
    }

    @Test func theRowRunsAlongTheLeftAndRightEdges() throws {
        let gesture = try GestureSynthesizer.edgeSwipe(from: .left, fingers: 3)
        #expect(gesture.strokes.map { $0.samples[0].y } == [4950, 6750, 8550])
        #expect(gesture.strokes.allSatisfy { $0.samples.map(\.x) == edgeSwipeX })
    }

    @Test func alongDistanceAndDuration() throws {
        let gesture = try GestureSynthesizer.edgeSwipe(from: .top, distanceMM: 50, duration: 16_667, alongMM: 50)
        #expect(
            gesture.strokes[0].samples == [
                Sample(time: 0, x: 5000, y: 0), Sample(time: 8333, x: 5000, y: 2500),
                Sample(time: 16667, x: 5000, y: 5000),
            ])
        let corner = try GestureSynthesizer.edgeSwipe(from: .right, alongMM: 0)
        #expect(corner.strokes[0].samples[0] == Sample(time: 0, x: 21600, y: 0))
    }
}
