import GestureModel
import InputSystem
import Testing

@testable import GesturePlayback

@Suite("Touch frames")
struct TouchFrameTests {
    @Test("A one-finger tap: touch-down with emulation, no frame for an unchanged sample, a lift 1 ms after")
    func tap() throws {
        let frames = try build(touchscreenGesture([finger([(0, 1_000, 2_000), (50_000, 1_000, 2_000)])]))
        #expect(
            timeline(frames) == [
                "0: ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 1000, ABS_MT_POSITION_Y 2000, BTN_TOUCH 1, ABS_X 1000, ABS_Y 2000, SYN_REPORT 0",
                "51000: ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            ])
    }

    @Test("Two merged fingers touch down in one frame; only changed values follow")
    func mergedTwoFingers() throws {
        let gesture = touchscreenGesture([
            finger([(0, 100, 100), (10_000, 200, 100)]),
            finger([(0, 5_000, 5_000), (10_000, 5_100, 5_000)]),
        ])
        #expect(
            timeline(try build(gesture)) == [
                "0: ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 100, ABS_MT_POSITION_Y 100, ABS_MT_SLOT 1, ABS_MT_TRACKING_ID 1, ABS_MT_POSITION_X 5000, ABS_MT_POSITION_Y 5000, BTN_TOUCH 1, ABS_X 100, ABS_Y 100, SYN_REPORT 0",
                "10000: ABS_MT_SLOT 0, ABS_MT_POSITION_X 200, ABS_MT_SLOT 1, ABS_MT_POSITION_X 5100, ABS_X 200, SYN_REPORT 0",
                "11000: ABS_MT_SLOT 0, ABS_MT_TRACKING_ID -1, ABS_MT_SLOT 1, ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            ])
    }

    @Test("Slots are reused lowest first, tracking ids increase, ABS_X/Y follow the oldest contact")
    func slotReuseAndEmulation() throws {
        let gesture = touchscreenGesture([
            finger([(0, 100, 100), (20_000, 100, 100)]),
            finger([(10_000, 300, 300), (40_000, 300, 300)]),
            finger([(30_000, 500, 500), (35_000, 500, 500)]),
        ])
        #expect(
            timeline(try build(gesture)) == [
                "0: ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 100, ABS_MT_POSITION_Y 100, BTN_TOUCH 1, ABS_X 100, ABS_Y 100, SYN_REPORT 0",
                "10000: ABS_MT_SLOT 1, ABS_MT_TRACKING_ID 1, ABS_MT_POSITION_X 300, ABS_MT_POSITION_Y 300, SYN_REPORT 0",
                "21000: ABS_MT_SLOT 0, ABS_MT_TRACKING_ID -1, ABS_X 300, ABS_Y 300, SYN_REPORT 0",
                "30000: ABS_MT_TRACKING_ID 2, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 500, SYN_REPORT 0",
                "36000: ABS_MT_TRACKING_ID -1, SYN_REPORT 0",
                "41000: ABS_MT_SLOT 1, ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            ])
    }

    @Test("Repetitions continue tracking ids and start after the gap; speed scales times")
    func repeatAndSpeed() throws {
        let gesture = touchscreenGesture([finger([(0, 100, 100), (20_000, 200, 100)])])
        let options = PlaybackOptions(speed: 2, repeatCount: 2, repeatGap: Microseconds(100_000))
        #expect(
            timeline(try build(gesture, options: options)) == [
                "0: ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 100, ABS_MT_POSITION_Y 100, BTN_TOUCH 1, ABS_X 100, ABS_Y 100, SYN_REPORT 0",
                "10000: ABS_MT_POSITION_X 200, ABS_X 200, SYN_REPORT 0",
                "11000: ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
                "111000: ABS_MT_TRACKING_ID 1, ABS_MT_POSITION_X 100, BTN_TOUCH 1, ABS_X 100, SYN_REPORT 0",
                "121000: ABS_MT_POSITION_X 200, ABS_X 200, SYN_REPORT 0",
                "122000: ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            ])
    }

    @Test("A touchpad carries exactly one BTN_TOOL_* for 1, 2, 3, 2 and then no fingers")
    func touchpadTools() throws {
        let gesture = Gesture(
            name: "tools", device: touchpadGeometry,
            strokes: [
                finger([(0, 100, 100), (39_000, 100, 100)]),
                finger([(10_000, 300, 300), (39_000, 300, 300)]),
                finger([(20_000, 500, 500), (29_000, 500, 500)]),
            ])
        #expect(
            timeline(try build(gesture, on: .touchpad())) == [
                "0: ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 100, ABS_MT_POSITION_Y 100, BTN_TOUCH 1, BTN_TOOL_FINGER 1, ABS_X 100, ABS_Y 100, SYN_REPORT 0",
                "10000: ABS_MT_SLOT 1, ABS_MT_TRACKING_ID 1, ABS_MT_POSITION_X 300, ABS_MT_POSITION_Y 300, BTN_TOOL_FINGER 0, BTN_TOOL_DOUBLETAP 1, SYN_REPORT 0",
                "20000: ABS_MT_SLOT 2, ABS_MT_TRACKING_ID 2, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 500, BTN_TOOL_DOUBLETAP 0, BTN_TOOL_TRIPLETAP 1, SYN_REPORT 0",
                "30000: ABS_MT_TRACKING_ID -1, BTN_TOOL_TRIPLETAP 0, BTN_TOOL_DOUBLETAP 1, SYN_REPORT 0",
                "40000: ABS_MT_SLOT 0, ABS_MT_TRACKING_ID -1, ABS_MT_SLOT 1, ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, BTN_TOOL_DOUBLETAP 0, SYN_REPORT 0",
            ])
    }

    @Test("Ten fingers with pressure and size: the touch-down leaves the optional axes out to stay within 64 events")
    func sixtyFourEventLimit() throws {
        var target = VirtualDeviceProfile.touchpad()
        target.description.absoluteAxes[.multitouchPressure] = AbsoluteAxisInfo(minimum: 0, maximum: 255)
        target.description.absoluteAxes[.absolutePressure] = AbsoluteAxisInfo(minimum: 0, maximum: 255)
        target.description.absoluteAxes[.multitouchTouchMajor] = AbsoluteAxisInfo(minimum: 0, maximum: 100)
        target.description.codes[.absolute, default: []].formUnion([
            .multitouchPressure, .absolutePressure, .multitouchTouchMajor,
        ])
        var geometry = touchpadGeometry
        geometry.pressure = AxisRange(minimum: 0, maximum: 255)
        geometry.size = AxisRange(minimum: 0, maximum: 100)
        let strokes = (0..<10).map { index in
            Stroke(samples: [
                Sample(time: 0, x: 50 + index * 100, y: 50 + index * 50, pressure: 100 + index, size: 10 + index),
                Sample(time: 10_000, x: 51 + index * 100, y: 50 + index * 50, pressure: 150 + index, size: 20 + index),
            ])
        }
        let frames = try build(Gesture(name: "ten", device: geometry, strokes: strokes), on: target)
        #expect(frames.count == 3)
        // Slot 0: 3 events; slots 1–9: 4 each; BTN_TOUCH, QUINTTAP, ABS_X, ABS_Y, SYN_REPORT.
        #expect(frames[0].events.count == 44)
        let optional: Set<EventCode> = [.multitouchPressure, .multitouchTouchMajor, .absolutePressure]
        #expect(!frames[0].events.contains { optional.contains($0.code) })
        // The move frame fits with them: 10 × (slot, x, size, pressure), ABS_X, ABS_PRESSURE, SYN_REPORT.
        #expect(frames[1].events.count == 43)
        let pressures: [Int32] = frames[1].events.filter { $0.code == .multitouchPressure }.map(\.value)
        let expected: [Int32] = (0..<10).map { 150 + Int32($0) }
        #expect(pressures == expected)
        #expect(frames.allSatisfy { $0.events.count <= 64 })
    }

    @Test("More fingers at once than slots is an error before anything plays")
    func tooManyFingers() throws {
        let strokes = (0..<11).map { finger([(0, 100 * $0, 100), (1_000, 100 * $0, 100)]) }
        #expect(
            throws: PlaybackError.tooManyContacts(
                contacts: 11, limit: 10, device: "gesturectl virtual touchscreen", at: .zero)
        ) { try build(touchscreenGesture(strokes)) }
    }

    @Test("The lift-all frame mid-gesture lifts every slot, BTN_TOUCH and the tool")
    func liftAllMidGesture() throws {
        let gesture = Gesture(
            name: "two", device: touchpadGeometry,
            strokes: [finger([(0, 100, 100), (10_000, 200, 100)]), finger([(0, 500, 500), (10_000, 600, 500)])])
        let target = VirtualDeviceProfile.touchpad()
        let builder = try FrameBuilder(target: target)
        let frames = try builder.frames(for: gesture)
        var state = DeviceState(description: target.description)
        #expect(builder.liftAllFrame(state: state) == nil)
        state.apply(frames[0])
        let lift = try #require(builder.liftAllFrame(state: state))
        #expect(
            lines(lift) == [
                "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0",
                "BTN_TOOL_DOUBLETAP 0", "SYN_REPORT 0",
            ])
        state.apply(lift)
        #expect(state.isReleased)
    }

    @Test("Physical placement keeps millimetres, centred on the target")
    func physicalPlacement() throws {
        // A 110 × 70 mm touchpad gesture on the 216 × 135 mm touchscreen:
        // its centre (55, 35 mm) lands on the screen's centre (108, 67.5 mm).
        let gesture = Gesture(name: "p", device: touchpadGeometry, strokes: [finger([(0, 550, 350)])])
        let frames = try build(gesture, options: PlaybackOptions(physicalSize: true))
        #expect(lines(frames[0]).prefix(3) == ["ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 10800", "ABS_MT_POSITION_Y 6750"])
        let normalised = try build(gesture)
        #expect(lines(normalised[0]).prefix(3) == ["ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 10800", "ABS_MT_POSITION_Y 6750"])
        let corner = Gesture(name: "c", device: touchpadGeometry, strokes: [finger([(0, 0, 0)])])
        // 0 mm on the pad is (216 − 110) / 2 = 53 mm from the screen's left edge.
        #expect(
            lines(try build(corner, options: PlaybackOptions(physicalSize: true))[0]).prefix(3) == [
                "ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 5300", "ABS_MT_POSITION_Y 3250",
            ])
    }

    @Test("Bad options are refused with the option's name")
    func badOptions() {
        #expect(throws: PlaybackError.invalidOption(name: "speed", message: "0.0 is outside 0.01…100")) {
            try FrameBuilder(target: .touchscreen(), options: PlaybackOptions(speed: 0))
        }
        #expect(throws: PlaybackError.invalidOption(name: "repeat", message: "0 is outside 1…10000")) {
            try FrameBuilder(target: .touchscreen(), options: PlaybackOptions(repeatCount: 0))
        }
    }
}
