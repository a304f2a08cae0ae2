import GestureModel
import GestureSynth
import Testing

/// The sample times of an 80 ms touch at 120 Hz.
let eightyMillisecondTimes: [Microseconds] = [
    0, 8333, 16667, 25000, 33333, 41667, 50000, 58333, 66667, 75000, 80000,
]

/// A stroke that stays at (x, y) at `times`.
func stillStroke(x: Int, y: Int, times: [Microseconds]) -> Stroke {
    Stroke(kind: .finger, samples: times.map { Sample(time: $0, x: x, y: y) })
}

/// Taps, double taps and long presses: fingers that do not move.
struct StationaryShapeTests {
    @Test func oneFingerTapAtTheCentre() throws {
        let gesture = try GestureSynthesizer.tap()
        #expect(gesture.name == "tap-1")
        #expect(gesture.description == "A 1-finger tap of 80 ms.")
        #expect(gesture.device == .synthDefault)
        #expect(gesture.metadata == nil)
        #expect(gesture.strokes == [stillStroke(x: 10800, y: 6750, times: eightyMillisecondTimes)])
    }

    @Test func threeFingerTapIsARowEighteenMillimetresApart() throws {
        let gesture = try GestureSynthesizer.tap(fingers: 3)
        #expect(gesture.name == "tap-3")
        #expect(
            gesture.strokes == [
                stillStroke(x: 9000, y: 6750, times: eightyMillisecondTimes),
                stillStroke(x: 10800, y: 6750, times: eightyMillisecondTimes),
                stillStroke(x: 12600, y: 6750, times: eightyMillisecondTimes),
            ])
        #expect(gesture.maximumSimultaneousContacts == 3)
    }

    @Test func tenFingersWithOtherSpacingAndCentre() throws {
        let gesture = try GestureSynthesizer.tap(
            fingers: 10, centre: MillimetrePoint(x: 100, y: 20), duration: 10_000,
            options: SynthOptions(spacingMM: 20))
        // Offsets −90, −70, …, 90 mm from x = 100 mm.
        let expected = [1000, 3000, 5000, 7000, 9000, 11000, 13000, 15000, 17000, 19000]
        #expect(gesture.strokes.map { $0.samples[0].x } == expected)
        #expect(gesture.strokes.allSatisfy { $0.samples.map(\.time) == [0, 8333, 10000] && $0.samples[0].y == 2000 })
    }

    @Test func twoFingersStraddleTheCentre() throws {
        let gesture = try GestureSynthesizer.tap(fingers: 2)
        #expect(gesture.strokes.map { $0.samples[0].x } == [9900, 11700])
    }

    @Test func samplesCarryNoPressureOrSize() throws {
        let gesture = try GestureSynthesizer.swipe(direction: .up, fingers: 2)
        let samples = gesture.strokes.flatMap(\.samples)
        #expect(samples.allSatisfy { $0.pressure == nil && $0.size == nil })
        #expect(gesture.strokes.allSatisfy { $0.kind == .finger && $0.button == nil })
    }

    @Test func doubleTapHasTwoStrokesPerFingerTheSecondAfterTheGap() throws {
        let gesture = try GestureSynthesizer.doubleTap(fingers: 2)
        #expect(gesture.name == "double-tap-2")
        #expect(gesture.description == "A 2-finger double tap: two 80 ms taps, 120 ms apart.")
        let second = eightyMillisecondTimes.map { $0 + 200_000 }
        #expect(
            gesture.strokes == [
                stillStroke(x: 9900, y: 6750, times: eightyMillisecondTimes),
                stillStroke(x: 11700, y: 6750, times: eightyMillisecondTimes),
                stillStroke(x: 9900, y: 6750, times: second),
                stillStroke(x: 11700, y: 6750, times: second),
            ])
        #expect(second.first == 200_000)
        #expect(second.last == 280_000)
        #expect(gesture.maximumSimultaneousContacts == 2)
    }

    @Test func doubleTapWithOtherTimings() throws {
        let gesture = try GestureSynthesizer.doubleTap(tapDuration: 10_000, gap: 5_000)
        #expect(gesture.strokes.map { $0.samples.map(\.time) } == [[0, 8333, 10000], [15000, 23333, 25000]])
        #expect(gesture.description == "A 1-finger double tap: two 10 ms taps, 5 ms apart.")
    }

    @Test func longPressLastsEightHundredMilliseconds() throws {
        let gesture = try GestureSynthesizer.longPress(fingers: 8)
        #expect(gesture.name == "long-press-8")
        #expect(gesture.description == "An 8-finger long press of 800 ms.")
        #expect(gesture.strokes.count == 8)
        let times = gesture.strokes[0].samples.map(\.time)
        #expect(times.count == 97)
        #expect(Array(times.prefix(4)) == [0, 8333, 16667, 25000])
        #expect(Array(times.suffix(3)) == [783333, 791667, 800000])
        // 8 fingers: offsets −63, −45, …, 63 mm.
        #expect(gesture.strokes.map { $0.samples[0].x } == [4500, 6300, 8100, 9900, 11700, 13500, 15300, 17100])
        #expect(gesture.duration == 800_000)
    }

    @Test func otherSampleRate() throws {
        let gesture = try GestureSynthesizer.tap(duration: 80_000, options: SynthOptions(sampleRateHz: 50))
        #expect(gesture.strokes[0].samples.map(\.time) == [0, 20000, 40000, 60000, 80000])
    }

    @Test func nameAndDescriptionCanBeGiven() throws {
        let gesture = try GestureSynthesizer.tap(options: SynthOptions(name: "knock", description: "Knock once."))
        #expect(gesture.name == "knock")
        #expect(gesture.description == "Knock once.")
    }

    @Test func theEntryPointMatchesTheShapeFunctions() throws {
        let options = SynthOptions(sampleRateHz: 60)
        #expect(
            try GestureSynthesizer.synthesize(.tap(fingers: 2), options: options)
                == GestureSynthesizer.tap(fingers: 2, options: options))
        #expect(try GestureSynthesizer.synthesize(.doubleTap()) == GestureSynthesizer.doubleTap())
        #expect(try GestureSynthesizer.synthesize(.longPress()) == GestureSynthesizer.longPress())
        #expect(
            try GestureSynthesizer.synthesize(.swipe(direction: .left, fingers: 4))
                == GestureSynthesizer.swipe(direction: .left, fingers: 4))
        #expect(try GestureSynthesizer.synthesize(.pinch(direction: .out)) == GestureSynthesizer.pinch(direction: .out))
        #expect(try GestureSynthesizer.synthesize(.rotate(degrees: -45)) == GestureSynthesizer.rotate(degrees: -45))
        #expect(
            try GestureSynthesizer.synthesize(.edgeSwipe(from: .top)) == GestureSynthesizer.edgeSwipe(from: .top))
    }
}
