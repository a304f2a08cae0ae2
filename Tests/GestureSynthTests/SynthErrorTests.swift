import GestureModel
import GestureSynth
import Testing

/// The error `body` throws, or `nil`.
func synthError(_ body: () throws(SynthError) -> Gesture) -> SynthError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Bad input: every case is a thrown error with a clear message, never a trap.
struct SynthErrorTests {
    @Test func countsAgreeInNumber() {
        #expect(
            SynthError.moreFingersThanSlots(fingers: 2, slots: 1).description
                == "the device tracks at most 1 contact at once, too few for 2 fingers")
        #expect(
            SynthError.moreFingersThanSlots(fingers: 5, slots: 2).description
                == "the device tracks at most 2 contacts at once, too few for 5 fingers")
    }

    @Test func fingerCounts() {
        let error = synthError { () throws(SynthError) in try GestureSynthesizer.swipe(direction: .up, fingers: 11) }
        #expect(error == .fingersOutOfRange(shape: "swipe", fingers: 11, allowed: 1...10))
        #expect(error?.description == "--fingers must be 1 to 10 for a swipe (got 11)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.tap(fingers: 0) }?.description
                == "--fingers must be 1 to 10 for a tap (got 0)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.pinch(direction: .in, fingers: 1) }?
                .description == "--fingers must be 2 to 10 for a pinch (got 1)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.rotate(fingers: Int.min) }
                == .fingersOutOfRange(shape: "rotation", fingers: Int.min, allowed: 2...10))
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.doubleTap(fingers: 11) }
                == .fingersOutOfRange(shape: "double tap", fingers: 11, allowed: 1...10))
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.longPress(fingers: -1) }
                == .fingersOutOfRange(shape: "long press", fingers: -1, allowed: 1...10))
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.edgeSwipe(from: .left, fingers: 11) }
                == .fingersOutOfRange(shape: "edge swipe", fingers: 11, allowed: 1...10))
    }

    @Test func distanceThatDoesNotFit() {
        let error = synthError { () throws(SynthError) in
            try GestureSynthesizer.swipe(direction: .left, distanceMM: 500)
        }
        #expect(error?.description == "distance 500 mm does not fit on the 216 × 135 mm surface")
        // Vertical swipes and edge swipes from the top are limited by the height.
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.swipe(direction: .up, distanceMM: 136) }
                == .distanceDoesNotFit(distanceMM: 136, widthMM: 216, heightMM: 135))
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.edgeSwipe(from: .top, distanceMM: 136) }
                == .distanceDoesNotFit(distanceMM: 136, widthMM: 216, heightMM: 135))
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.edgeSwipe(from: .left, distanceMM: 136) }
                == nil)
    }

    @Test func distancesMustBePositiveNumbers() {
        for bad in [0, -5, Double.nan, Double.infinity] {
            let error = synthError { () throws(SynthError) in
                try GestureSynthesizer.swipe(direction: .up, distanceMM: bad)
            }
            guard case .invalidNumber(option: "--distance", _, requirement: "greater than 0 mm") = error else {
                Issue.record("distance \(bad): \(String(describing: error))")
                continue
            }
        }
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.swipe(direction: .up, distanceMM: -5) }?
                .description == "--distance must be greater than 0 mm (got -5)")
    }

    @Test func sampleRate() {
        for rate in [0, -120, 1_001, Int.max] {
            let error = synthError { () throws(SynthError) in
                try GestureSynthesizer.tap(options: SynthOptions(sampleRateHz: rate))
            }
            #expect(error == .sampleRateOutOfRange(rate))
        }
        #expect(SynthError.sampleRateOutOfRange(0).description == "--rate must be 1 to 1000 Hz (got 0)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.tap(options: SynthOptions(sampleRateHz: 1)) }
                == nil)
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.tap(options: SynthOptions(sampleRateHz: 1_000))
            } == nil)
    }

    @Test func durations() {
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.swipe(direction: .up, duration: 0) }?
                .description == "--duration must be more than 0 s and at most 60 s (got 0 s)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.longPress(duration: 60_000_001) }
                == .durationOutOfRange(option: "--duration", duration: 60_000_001))
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.tap(duration: Microseconds(Int64.min)) }
                == .durationOutOfRange(option: "--duration", duration: Microseconds(Int64.min)))
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.doubleTap(tapDuration: -1) }
                == .durationOutOfRange(option: "--tap-duration", duration: -1))
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.doubleTap(gap: 0) }
                == .durationOutOfRange(option: "--gap", duration: 0))
        #expect(synthError { () throws(SynthError) in try GestureSynthesizer.longPress(duration: 60_000_000) } == nil)
    }

    @Test func aDoubleTapLongerThanSixtySeconds() {
        let error = synthError { () throws(SynthError) in
            try GestureSynthesizer.doubleTap(tapDuration: 30_000_000, gap: 1)
        }
        #expect(error == .gestureTooLong(shape: "1-finger double tap", duration: 60_000_001))
        #expect(
            error?.description
                == "the 1-finger double tap would last 60.000001 s; a synthesised gesture lasts at most 60 s")
    }

    @Test func fingersThatWouldLeaveTheSurface() {
        let error = synthError { () throws(SynthError) in
            try GestureSynthesizer.swipe(direction: .up, fingers: 3, centre: MillimetrePoint(x: 10, y: 67.5))
        }
        #expect(error?.description == "the 3-finger swipe up reaches (-8, 87.5) mm, outside the 216 × 135 mm surface")
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.tap(fingers: 10, options: SynthOptions(spacingMM: 30))
            } == .outsideSurface(
                shape: "10-finger tap", point: MillimetrePoint(x: -27, y: 67.5), widthMM: 216, heightMM: 135))
        // A pinch out to 70 mm ends at x = 38 and 178 mm, on the surface; to 110 mm it does not.
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.pinch(direction: .out, endRadiusMM: 70) }
                == nil)
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.pinch(direction: .out, endRadiusMM: 110)
            } == .outsideSurface(
                shape: "2-finger pinch out", point: MillimetrePoint(x: -2, y: 67.5), widthMM: 216, heightMM: 135))
        // A rotation whose circle crosses the top edge part of the way round.
        let rotation = synthError { () throws(SynthError) in
            try GestureSynthesizer.rotate(radiusMM: 20, centre: MillimetrePoint(x: 108, y: 15))
        }
        guard case .outsideSurface(shape: "2-finger rotation", let point, 216, 135) = rotation else {
            Issue.record("expected a rotation off the top edge, got \(String(describing: rotation))")
            return
        }
        #expect(point.y < 0)
    }

    @Test func centreAndAlongMustBeOnTheSurface() {
        let error = synthError { () throws(SynthError) in
            try GestureSynthesizer.tap(centre: MillimetrePoint(x: 300, y: 10))
        }
        #expect(error?.description == "--centre (300, 10) mm is outside the 216 × 135 mm surface")
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.pinch(direction: .in, centre: MillimetrePoint(x: .nan, y: 10))
            } != nil)
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.edgeSwipe(from: .left, alongMM: 136) }?
                .description == "--along must be from 0 to 135 mm along the left edge (got 136)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.edgeSwipe(from: .top, alongMM: -1) }
                == .invalidNumber(option: "--along", value: -1, requirement: "from 0 to 216 mm along the top edge"))
        // A row that runs past the end of the edge.
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.edgeSwipe(from: .left, fingers: 2, alongMM: 5)
            } == .outsideSurface(
                shape: "2-finger edge swipe from the left edge", point: MillimetrePoint(x: 0, y: -4),
                widthMM: 216, heightMM: 135))
    }

    @Test func pinchRadii() {
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.pinch(direction: .in, startRadiusMM: 10, endRadiusMM: 30)
            }?.description == "a pinch in must end on a smaller radius than it starts (start 10 mm, end 30 mm)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.pinch(direction: .out, startRadiusMM: 40) }
                == .pinchRadiiWrongWay(direction: .out, startRadiusMM: 40, endRadiusMM: 30))
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.pinch(direction: .in, startRadiusMM: 30, endRadiusMM: 10, distanceMM: 20)
            }?.description == "give --start-radius and --end-radius, or one of them with --distance, not all three")
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.pinch(direction: .in, startRadiusMM: 20, distanceMM: 25)
            }?.description == "--distance must be less than the 20 mm radius for a pinch in (got 25)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.pinch(direction: .in, endRadiusMM: 0) }
                == .invalidNumber(option: "--end-radius", value: 0, requirement: "greater than 0 mm"))
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.pinch(direction: .in, startRadiusMM: -.infinity)
            } == .invalidNumber(option: "--start-radius", value: -.infinity, requirement: "greater than 0 mm"))
    }

    @Test func rotationDegreesAndRadius() {
        for bad in [0, 3_601, -3_601, Double.nan] {
            let error = synthError { () throws(SynthError) in try GestureSynthesizer.rotate(degrees: bad) }
            guard case .invalidNumber(option: "--degrees", _, requirement: "a non-zero number from -3600 to 3600") =
                error
            else {
                Issue.record("degrees \(bad): \(String(describing: error))")
                continue
            }
        }
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.rotate(radiusMM: 0) }?.description
                == "--radius must be greater than 0 mm (got 0)")
        #expect(synthError { () throws(SynthError) in try GestureSynthesizer.rotate(degrees: -3_600) } == nil)
    }

    @Test func spacingNameAndDescription() {
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.tap(options: SynthOptions(spacingMM: 0)) }?
                .description == "--spacing must be greater than 0 mm (got 0)")
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.tap(options: SynthOptions(name: " ")) }?
                .description == "--name must not be empty")
        let long = String(repeating: "é", count: 101)
        #expect(
            synthError { () throws(SynthError) in try GestureSynthesizer.tap(options: SynthOptions(name: long)) }?
                .description == "--name must be at most 200 bytes (got 202)")
        let essay = String(repeating: "a", count: 4_097)
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.tap(options: SynthOptions(description: essay))
            }?.description == "--description must be at most 4096 bytes (got 4097)")
    }

    @Test func unusableGeometries() {
        func error(_ geometry: DeviceGeometry) -> SynthError? {
            synthError { () throws(SynthError) in
                try GestureSynthesizer.tap(options: SynthOptions(geometry: geometry))
            }
        }
        let noSize = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 4095), y: AxisRange(minimum: 0, maximum: 4095),
            slots: 10)
        // No size and no resolution: drawn on the assumed size (FORMAT.md's
        // size rule); the command notes it.
        #expect(error(noSize) == nil)
        let huge = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: Int.min, maximum: Int.max),
            y: AxisRange(minimum: 0, maximum: 100), widthMM: 100, heightMM: 100, slots: 10)
        #expect(
            error(huge)?.description
                == "cannot synthesise on this device geometry: the x axis must run from a smaller to a larger value "
                + "within ±2147483648 (it runs \(Int.min)…\(Int.max))")
        let empty = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 100), y: AxisRange(minimum: 5, maximum: 5),
            widthMM: 100, heightMM: 100, slots: 10)
        #expect(
            error(empty) == .unusableGeometry(
                "the y axis must run from a smaller to a larger value within ±2147483648 (it runs 5…5)"))
        var noSlots = DeviceGeometry.synthDefault
        noSlots.slots = 0
        #expect(error(noSlots) == .unusableGeometry("it tracks no contacts (slots 0)"))
        var nanSize = DeviceGeometry.synthDefault
        nanSize.widthMM = .nan
        #expect(error(nanSize) != nil)
    }

    @Test func moreFingersThanTheDeviceTracks() {
        var geometry = DeviceGeometry.synthDefault
        geometry.slots = 2
        let error = synthError { () throws(SynthError) in
            try GestureSynthesizer.swipe(direction: .up, fingers: 3, options: SynthOptions(geometry: geometry))
        }
        #expect(error?.description == "the device tracks at most 2 contacts at once, too few for 3 fingers")
        // A double tap of two fingers needs two slots, not four.
        #expect(
            synthError { () throws(SynthError) in
                try GestureSynthesizer.doubleTap(fingers: 2, options: SynthOptions(geometry: geometry))
            } == nil)
    }
}
