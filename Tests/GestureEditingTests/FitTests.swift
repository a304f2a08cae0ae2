import GestureEditing
import GestureModel
import Testing

@Suite struct FitTests {
    typealias F = Fixtures

    /// The simple surface's corners and centre.
    let corners = F.gesture([F.stroke([(0, 0, 0), (10, 1_000, 1_000), (20, 500, 500)])])

    @Test func wideRatioLetterboxesASquareSurface() throws {
        // 100 × 100 mm to 2:1 keeping the larger side: 100 × 50 mm. The old
        // surface is scaled by 0.5 and centred: 25 mm bars left and right.
        let result = try GestureEditor.fit(corners, aspectRatio: AspectRatio(width: 2, height: 1))
        var expected = F.simple
        expected.y.maximum = 500
        expected.heightMM = 50
        #expect(result.gesture.device == expected)
        #expect(F.points(result.gesture) == [[Point(0, 250, 0), Point(10, 750, 500), Point(20, 500, 250)]])
        #expect(result.warnings.isEmpty)
    }

    @Test func tallRatioKeepsTheLargerSideAsHeight() throws {
        // 1:2 gives 50 × 100 mm; scale 0.5, 25 mm bars above and below.
        let result = try GestureEditor.fit(corners, aspectRatio: AspectRatio("1:2")!)
        #expect(result.gesture.device.x == AxisRange(minimum: 0, maximum: 500, resolution: 10))
        #expect(result.gesture.device.y == F.simple.y)
        #expect(result.gesture.device.widthMM == 50)
        #expect(result.gesture.device.heightMM == 100)
        #expect(F.points(result.gesture) == [[Point(0, 0, 250), Point(10, 500, 750), Point(20, 250, 500)]])
    }

    @Test func sixteenTenToFourThreeOnUnequalAxes() throws {
        // 216 × 135 mm to 4:3: 216 × 162 mm; the old surface fits at scale
        // 1 with 13.5 mm bars above and below. y is 100 units/mm.
        let device = DeviceGeometry(
            kind: .touchscreen,
            x: AxisRange(minimum: 0, maximum: 4_320, resolution: 20),
            y: AxisRange(minimum: 0, maximum: 13_500, resolution: 100),
            slots: 10)
        let gesture = F.gesture([F.stroke([(0, 0, 0), (5, 4_320, 13_500)])], device: device)
        let result = try GestureEditor.fit(gesture, aspectRatio: AspectRatio(width: 4, height: 3))
        #expect(result.gesture.device.y.maximum == 16_200)
        #expect(result.gesture.device.heightMM == 162)
        #expect(result.gesture.device.x == device.x)
        #expect(F.points(result.gesture) == [[Point(0, 0, 1_350), Point(5, 4_320, 14_850)]])
    }

    @Test func badRatiosAreRefused() {
        #expect(AspectRatio("16:0") == nil)
        #expect(AspectRatio("wide") == nil)
        #expect(AspectRatio("16:9") == AspectRatio(width: 16, height: 9))
        #expect(throws: EditError("the aspect ratio must be two positive numbers, not -4:3")) {
            try GestureEditor.fit(corners, aspectRatio: AspectRatio(width: -4, height: 3))
        }
    }

    /// 150 × 80 mm, x at 20 units/mm and y at 10, five slots, pressure 0…1000.
    let tablet = DeviceGeometry(
        kind: .touchscreen,
        x: AxisRange(minimum: 0, maximum: 3_000, resolution: 20),
        y: AxisRange(minimum: 0, maximum: 800, resolution: 10),
        pressure: AxisRange(minimum: 0, maximum: 1_000), slots: 5)

    @Test func fitToALargerDeviceKeepsThePhysicalSizeCentred() throws {
        var gesture = F.gesture([F.stroke([(0, 400, 500), (100, 600, 500)])])
        gesture.device.pressure = AxisRange(minimum: 0, maximum: 255)
        gesture.strokes[0].samples[0].pressure = 255
        gesture.strokes[0].samples[1].pressure = 51
        let result = try GestureEditor.fit(gesture, to: tablet)
        // 20 mm wide, centred on (75, 40) mm: (65, 40) and (85, 40) mm.
        #expect(result.gesture.device == tablet)
        #expect(F.points(result.gesture) == [[Point(0, 1_300, 400), Point(100, 1_700, 400)]])
        #expect(result.gesture.strokes[0].samples.map(\.pressure) == [1_000, 200])
    }

    @Test func fitToASmallerDeviceScalesDownUniformly() throws {
        // 10 × 80 mm: the 20 × 10 mm gesture is scaled by 0.5 to 10 × 5 mm.
        let narrow = DeviceGeometry(
            kind: .touchscreen,
            x: AxisRange(minimum: 0, maximum: 100, resolution: 10),
            y: AxisRange(minimum: 0, maximum: 800, resolution: 10), slots: 2)
        var gesture = F.gesture([F.stroke([(0, 400, 450), (100, 600, 550)])])
        gesture.device.pressure = AxisRange(minimum: 0, maximum: 255)
        gesture.strokes[0].samples[0].pressure = 9
        let result = try GestureEditor.fit(gesture, to: narrow)
        #expect(F.points(result.gesture) == [[Point(0, 0, 375), Point(100, 100, 425)]])
        // The target has no pressure axis.
        #expect(result.gesture.strokes[0].samples[0].pressure == nil)
        #expect(result.warnings.isEmpty)
    }

    @Test func fitToADeviceWithTooFewSlotsIsRefused() {
        let three = F.gesture([
            F.stroke([(0, 1, 1), (10, 2, 2)]), F.stroke([(0, 3, 3), (10, 4, 4)]), F.stroke([(5, 5, 5)]),
        ])
        var twoSlots = tablet
        twoSlots.slots = 2
        #expect(throws: EditError("the gesture has 3 fingers at once; the target device tracks at most 2")) {
            try GestureEditor.fit(three, to: twoSlots)
        }
    }
}

/// Issue 7 item 5: operations follow FORMAT.md's size rule.
@Suite struct SizeRuleEditingTests {
    typealias F = Fixtures

    /// 216 × 135 mm by resolution only: width_mm and height_mm 0.
    let sizeFromResolution = DeviceGeometry(
        kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 21_600, resolution: 100),
        y: AxisRange(minimum: 0, maximum: 13_500, resolution: 100), widthMM: 0, heightMM: 0, slots: 10)

    @Test func fitWithSizeFromTheResolutionKeepsItDerived() throws {
        let gesture = F.gesture([F.stroke([(0, 10_800, 6_750)])], device: sizeFromResolution)
        let result = try GestureEditor.fit(gesture, aspectRatio: AspectRatio("9:16")!)
        // Not 12150 mm: 121.5 × 216 mm, stated by the resolution.
        #expect(result.gesture.device.widthMM == 0 && result.gesture.device.heightMM == 0)
        #expect(result.gesture.device.x.maximum == 12_150 && result.gesture.device.y.maximum == 21_600)
        #expect(result.gesture.device.surfaceWidthMM == 121.5)
        #expect(throws: Never.self) { try result.gesture.validate() }
        // The centre stays the centre.
        #expect(F.points(result.gesture) == [[Point(0, 6_075, 10_800)]])
    }

    @Test func mergingWithAnUnknownSizeKeepsACentredTapCentredAndSaysSo() throws {
        let known = F.gesture([F.stroke([(0, 500, 500)])])
        let unknown = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 4_095), y: AxisRange(minimum: 0, maximum: 4_095),
            slots: 10)
        let centred = F.gesture([F.stroke([(0, 2_048, 2_048)])], device: unknown)
        let result = try GestureEditor.merge([known, centred])
        #expect(F.points(result.gesture) == [[Point(0, 500, 500)], [Point(0, 500, 500)]])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.hasPrefix("gesture 2: its surface size is unknown") == true)
        // Known sizes are still mapped in millimetres, without a warning.
        let resolved = F.gesture([F.stroke([(0, 10_800, 6_750)])], device: sizeFromResolution)
        let byMillimetres = try GestureEditor.merge([resolved, known])
        #expect(byMillimetres.warnings.isEmpty)
        #expect(F.points(byMillimetres.gesture)[1] == [Point(0, 5_000, 5_000)])
    }
}

@Suite struct FitToUnknownSizeTests {
    typealias F = Fixtures

    @Test func fitToADeviceOfUnknownSizeKeepsThePlaceInPercent() throws {
        let unknown = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 4_000), y: AxisRange(minimum: 0, maximum: 2_000),
            slots: 10)
        let gesture = F.gesture([F.stroke([(0, 250, 500)])])
        let result = try GestureEditor.fit(gesture, to: unknown)
        #expect(F.points(result.gesture) == [[Point(0, 1_000, 1_000)]])
        #expect(result.warnings.first?.hasPrefix("the target's surface size is unknown") == true)
    }
}
