import GestureModel
import GestureSynth
import Testing

/// Shapes on a geometry other than the default: millimetres map through
/// the given resolution and axis minimum.
struct GeometryTests {
    /// 100 × 50 mm, 10 units per mm, axes offset from zero.
    let offsetGeometry = DeviceGeometry(
        kind: .touchpad, x: AxisRange(minimum: 100, maximum: 1100, resolution: 10),
        y: AxisRange(minimum: -200, maximum: 300, resolution: 10), slots: 5)

    @Test func theCentreIsTheMiddleOfTheSurface() throws {
        let gesture = try GestureSynthesizer.tap(fingers: 2, options: SynthOptions(geometry: offsetGeometry))
        #expect(gesture.device == offsetGeometry)
        #expect(gesture.strokes.map { [$0.samples[0].x, $0.samples[0].y] } == [[510, 50], [690, 50]])
    }

    @Test func edgesAreTheAxisEnds() throws {
        let options = SynthOptions(geometry: offsetGeometry)
        let right = try GestureSynthesizer.edgeSwipe(from: .right, distanceMM: 10, duration: 16_667, options: options)
        #expect(right.strokes[0].samples.map { [$0.x, $0.y] } == [[1100, 50], [1050, 50], [1000, 50]])
        let top = try GestureSynthesizer.edgeSwipe(from: .top, distanceMM: 10, duration: 16_667, options: options)
        #expect(top.strokes[0].samples.map { [$0.x, $0.y] } == [[600, -200], [600, -150], [600, -100]])
        let bottom = try GestureSynthesizer.edgeSwipe(from: .bottom, distanceMM: 50, duration: 8_333, options: options)
        #expect(bottom.strokes[0].samples.map { [$0.x, $0.y] } == [[600, 300], [600, -200]])
    }

    @Test func positionsRoundToTheNearestUnit() throws {
        // 0.25 mm steps are 2.5 units: x = 51.25 mm → 612.5 units → 613 (halves round away from zero).
        let gesture = try GestureSynthesizer.tap(
            centre: MillimetrePoint(x: 51.25, y: 0.04), options: SynthOptions(geometry: offsetGeometry))
        #expect(gesture.strokes[0].samples[0].x == 613)
        #expect(gesture.strokes[0].samples[0].y == -200)
    }

    @Test func theSameInputGivesTheSameGesture() throws {
        let first = try GestureSynthesizer.rotate(degrees: 123.4, fingers: 7, radiusMM: 25)
        let second = try GestureSynthesizer.synthesize(.rotate(degrees: 123.4, fingers: 7, radiusMM: 25))
        #expect(first == second)
        #expect(first.strokes.count == 7)
        #expect(first.sampleCount == 7 * 61)
    }
}
