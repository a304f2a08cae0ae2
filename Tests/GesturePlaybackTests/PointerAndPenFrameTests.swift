import GestureModel
import InputSystem
import Testing

@testable import GesturePlayback

@Suite("Mouse and tablet frames")
struct PointerAndPenFrameTests {
    @Test("Mouse: each stroke presses its button, moves by whole-pixel deltas, hovers to the next stroke")
    func mouse() throws {
        // A 217 × 136 px screen: one pixel per 100 units of the synth surface.
        let options = PlaybackOptions(screenWidth: 217, screenHeight: 136)
        let gesture = touchscreenGesture([
            Stroke(
                kind: .pointer, button: .right,
                samples: [Sample(time: 0, x: 1_000, y: 2_000), Sample(time: 10_000, x: 1_500, y: 2_000)]),
            finger([(20_000, 3_000, 5_000), (30_000, 3_000, 5_500)]),
        ])
        #expect(
            timeline(try build(gesture, on: .mouse(), options: options)) == [
                "0: BTN_RIGHT 1, SYN_REPORT 0",
                "10000: REL_X 5, SYN_REPORT 0",
                "11000: BTN_RIGHT 0, SYN_REPORT 0",
                "20000: REL_X 15, REL_Y 30, SYN_REPORT 0",
                "20000: BTN_LEFT 1, SYN_REPORT 0",
                "30000: REL_Y 5, SYN_REPORT 0",
                "31000: BTN_LEFT 0, SYN_REPORT 0",
            ])
    }

    @Test("A mouse refuses several strokes at once")
    func mouseOnePointer() {
        let strokes = (0..<3).map { finger([(0, 100 * $0, 100), (1_000, 100 * $0, 100)]) }
        #expect(throws: PlaybackError.oneContactOnly(kind: .mouse, contacts: 3)) {
            try build(touchscreenGesture(strokes), on: .mouse())
        }
        #expect(
            PlaybackError.oneContactOnly(kind: .mouse, contacts: 3).description
                == "a mouse has one pointer; this gesture has 3 pointers at once")
    }

    @Test("Tablet: proximity and touch with pressure, default pressure, pressure 0 and both off at the lift")
    func tablet() throws {
        let geometry = DeviceGeometry(
            kind: .tablet, x: AxisRange(minimum: 0, maximum: 15_200, resolution: 100),
            y: AxisRange(minimum: 0, maximum: 9_500, resolution: 100), pressure: AxisRange(minimum: 0, maximum: 4_095),
            slots: 1)
        let gesture = Gesture(
            name: "pen", device: geometry,
            strokes: [
                Stroke(
                    kind: .pen,
                    samples: [
                        Sample(time: 0, x: 1_000, y: 1_000, pressure: 2_000), Sample(time: 10_000, x: 1_100, y: 1_000),
                    ])
            ])
        let target = VirtualDeviceProfile.tablet(fitting: geometry)
        #expect(target == .tablet())
        #expect(
            timeline(try build(gesture, on: target)) == [
                "0: ABS_X 1000, ABS_Y 1000, ABS_PRESSURE 2000, BTN_TOOL_PEN 1, BTN_TOUCH 1, SYN_REPORT 0",
                "10000: ABS_X 1100, ABS_PRESSURE 2048, SYN_REPORT 0",
                "11000: ABS_PRESSURE 0, BTN_TOUCH 0, BTN_TOOL_PEN 0, SYN_REPORT 0",
            ])
    }

    @Test("A target without what its kind needs is refused")
    func targetLacks() {
        #expect(
            throws: PlaybackError.targetLacks(
                device: "gesturectl virtual mouse", kind: .touchscreen, missing: "ABS_MT_POSITION_X")
        ) {
            try FrameBuilder(target: VirtualDeviceProfile(kind: .touchscreen, description: VirtualDeviceProfile.mouse().description))
        }
    }
}
