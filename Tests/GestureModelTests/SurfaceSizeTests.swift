import GestureModel
import Testing

/// FORMAT.md's one rule for size, resolution and axes (issue 7 item 5).
@Suite struct SurfaceSizeTests {
    private func device(
        x: AxisRange = AxisRange(minimum: 0, maximum: 21_600, resolution: 100),
        y: AxisRange = AxisRange(minimum: 0, maximum: 13_500, resolution: 100),
        width: Double = 0, height: Double = 0, kind: DeviceKind = .touchscreen
    ) -> DeviceGeometry {
        DeviceGeometry(kind: kind, x: x, y: y, widthMM: width, heightMM: height, slots: 10)
    }

    @Test func statedWinsThenResolutionThenTheOtherAxisThenTheAssumption() {
        let stated = device(width: 216, height: 135)
        #expect(stated.sizeSource == .stated)
        #expect(stated.surfaceWidthMM == 216 && stated.surfaceHeightMM == 135)

        // Size 0 and resolution 100: 216 × 135 mm from the resolution.
        let derived = device()
        #expect(derived.sizeSource == .resolution)
        #expect(derived.surfaceWidthMM == 216 && derived.surfaceHeightMM == 135)
        #expect(derived.mmPerUnitX == 0.01)

        // Only y known: x at the same millimetres per unit.
        let half = device(x: AxisRange(minimum: 0, maximum: 2_000))
        #expect(half.sizeSource == .assumed)
        #expect(half.surfaceWidthMM == 20)

        // Nothing known: square units in the assumed box.
        let none = device(x: AxisRange(minimum: 0, maximum: 4_000), y: AxisRange(minimum: 0, maximum: 1_000))
        #expect(none.sizeSource == .assumed && !none.isSizeKnown)
        #expect(none.surfaceWidthMM == 216 && none.surfaceHeightMM == 54)
        let pad = device(
            x: AxisRange(minimum: 0, maximum: 1_000), y: AxisRange(minimum: 0, maximum: 1_000), kind: .touchpad)
        #expect(pad.surfaceWidthMM == 50 && pad.surfaceHeightMM == 50)
        #expect(DeviceGeometry.assumedSize(for: .touchpad) == (69, 50))
    }

    @Test func statedAndResolutionMustAgree() {
        func problem(_ geometry: DeviceGeometry) -> String? {
            let gesture = Gesture(
                name: "g", device: geometry, strokes: [Stroke(samples: [Sample(time: 0, x: 0, y: 0)])])
            do {
                try gesture.validate()
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(device(width: 216, height: 135)) == nil)
        // Within 1 % (and within the rounding of an integer resolution).
        #expect(problem(device(width: 217, height: 134)) == nil)
        #expect(
            problem(device(width: 300, height: 135))
                == "device width_mm 300 mm disagrees with the x axis: 21600 units at resolution 100 units/mm are 216 mm (they must agree within 1 %, or set width_mm or the resolution to 0 for unknown)")
        #expect(problem(device(width: 216, height: 12_150))?.hasPrefix("device height_mm 12150 mm disagrees with the y axis") == true)
        // Resolution 2 on 0…100 is 50 mm; 40 mm implies 2.5 units/mm, which
        // an integer resolution could not say better: accepted. 30 mm is not.
        let coarse = AxisRange(minimum: 0, maximum: 100, resolution: 2)
        #expect(problem(device(x: coarse, width: 40)) == nil)
        #expect(problem(device(x: coarse, width: 30)) != nil)
        // Unknown on either side never disagrees.
        #expect(problem(device(x: AxisRange(minimum: 0, maximum: 21_600), width: 5)) == nil)
    }
}
