import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording

@Suite struct ProfileTests {
    @Test func touchscreenWithSlotsIsProtocolB() throws {
        let profile = try RecordingDeviceProfile(device: TestDevices.touchscreenWithPressure)
        #expect(profile.inputKind == .multitouchSlots)
        #expect(profile.deviceName == "gesturectl test touchscreen")
        #expect(
            profile.geometry
                == DeviceGeometry(
                    kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 21_600, resolution: 100),
                    y: AxisRange(minimum: 0, maximum: 13_500, resolution: 100),
                    pressure: AxisRange(minimum: 0, maximum: 255), size: AxisRange(minimum: 0, maximum: 100),
                    widthMM: 216, heightMM: 135, slots: 10))
    }

    @Test func pointerPropertyWithoutDirectIsATouchpad() throws {
        let profile = try RecordingDeviceProfile(device: TestDevices.touchpad)
        #expect(profile.inputKind == .multitouchSlots)
        #expect(profile.geometry.kind == .touchpad)
        #expect(profile.geometry.slots == 5)
        #expect(profile.geometry.widthMM == 100)
        #expect(profile.geometry.heightMM == 800.0 / 12.0)
        #expect(profile.geometry.pressure == nil)
        #expect(profile.geometry.size == nil)
    }

    @Test func toolFingerWithoutPropertiesIsATouchpad() throws {
        var device = TestDevices.touchpad
        device.properties = []
        #expect(try RecordingDeviceProfile(device: device).geometry.kind == .touchpad)
    }

    @Test func multitouchWithoutSlotsIsProtocolA() throws {
        let profile = try RecordingDeviceProfile(device: TestDevices.protocolA)
        #expect(profile.inputKind == .multitouchProtocolA)
        #expect(profile.geometry.kind == .touchscreen)
        #expect(profile.geometry.slots == 10)
        #expect(profile.geometry.x == AxisRange(minimum: 0, maximum: 4_095))
        #expect(profile.geometry.widthMM == 0)
    }

    @Test func absoluteAxesWithTouchAreSingleTouch() throws {
        let profile = try RecordingDeviceProfile(device: TestDevices.singleTouch)
        #expect(profile.inputKind == .singleTouch)
        #expect(
            profile.geometry
                == DeviceGeometry(
                    kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 1_023, resolution: 4),
                    y: AxisRange(minimum: 0, maximum: 767, resolution: 4), pressure: AxisRange(minimum: 0, maximum: 63),
                    widthMM: 255.75, heightMM: 191.75, slots: 1))
    }

    @Test func penToolIsATablet() throws {
        let profile = try RecordingDeviceProfile(device: TestDevices.pen)
        #expect(profile.inputKind == .pen)
        #expect(profile.geometry.kind == .tablet)
        #expect(profile.geometry.pressure == AxisRange(minimum: 0, maximum: 4_095))
        #expect(profile.geometry.widthMM == 152)
        #expect(profile.geometry.heightMM == 95)
        #expect(profile.geometry.slots == 1)
    }

    @Test func relativeMotionWithLeftButtonIsAMouseOnAVirtualScreen() throws {
        let profile = try RecordingDeviceProfile(device: TestDevices.mouse)
        #expect(profile.inputKind == .relativePointer)
        #expect(
            profile.geometry
                == DeviceGeometry(
                    kind: .mouse, x: AxisRange(minimum: 0, maximum: 1_919), y: AxisRange(minimum: 0, maximum: 1_079),
                    widthMM: 508, heightMM: 285.75, slots: 1))
        let small = try RecordingDeviceProfile(
            device: TestDevices.mouse, options: RecorderOptions(virtualScreenWidth: 960, virtualScreenHeight: 96))
        #expect(small.geometry.x == AxisRange(minimum: 0, maximum: 959))
        #expect(small.geometry.widthMM == 254)
        #expect(small.geometry.heightMM == 25.4)
    }

    @Test func kindsAreTheClassifiers() throws {
        for device in [
            TestDevices.touchscreenWithPressure, TestDevices.touchpad, TestDevices.protocolA, TestDevices.singleTouch,
            TestDevices.pen, TestDevices.mouse,
        ] {
            #expect(try RecordingDeviceProfile(device: device).geometry.kind == DeviceClassifier.kind(of: device))
        }
        #expect(DeviceClassifier.kind(of: TestDevices.buttons) == .keyboard)
    }

    /// Where the recorder's own rules disagreed with udev's input_id, udev decides.
    @Test func pointerPropertyWithoutFingerToolIsATouchscreen() throws {
        var device = TestDevices.touchpad
        device.codes[.key] = [.buttonTouch]
        let profile = try RecordingDeviceProfile(device: device)
        #expect(profile.inputKind == .multitouchSlots)
        #expect(profile.geometry.kind == .touchscreen)
    }

    @Test func stylusWithoutPenToolIsATablet() throws {
        var device = TestDevices.pen
        device.codes[.key] = [.buttonStylus, .buttonTouch]
        let profile = try RecordingDeviceProfile(device: device)
        #expect(profile.inputKind == .pen)
        #expect(profile.geometry.kind == .tablet)
    }

    @Test func multitouchAxesWithoutTouchAreRefused() {
        var device = TestDevices.protocolA
        device.properties = []
        device.codes[.key] = nil
        #expect(throws: RecordingError.unsupportedDevice(
            deviceName: "test protocol A",
            reason: "it has the axes ABS_MT_POSITION_X and ABS_MT_POSITION_Y but none of BTN_TOUCH, BTN_TOOL_FINGER and INPUT_PROP_DIRECT, so udev does not take it for a touchscreen or touchpad"
        )) {
            try RecordingDeviceProfile(device: device)
        }
    }

    @Test func absolutePointerIsRecordedAsPointerStrokes() throws {
        // Issue 7 item 14: ABS_X/ABS_Y with mouse buttons (a QEMU "USB
        // tablet", VMware's absolute mouse), with or without BTN_TOUCH, was refused.
        var device = TestDevices.singleTouch
        device.codes[.key] = [.buttonTouch, .buttonLeft]
        let withTouch = try RecordingDeviceProfile(device: device)
        #expect(withTouch.inputKind == .absolutePointer)
        #expect(withTouch.geometry.kind == .mouse && withTouch.geometry.slots == 1)
        // A whiteboard: INPUT_PROP_DIRECT does not make it a touchscreen to udev.
        device.properties = [.direct]
        #expect(try RecordingDeviceProfile(device: device).inputKind == .absolutePointer)
        device.codes[.key] = [.buttonLeft]
        let profile = try RecordingDeviceProfile(device: device)
        #expect(profile.inputKind == .absolutePointer)
        #expect(profile.geometry.x == AxisRange(
            minimum: Int(device.absoluteAxes[.absoluteX]!.minimum), maximum: Int(device.absoluteAxes[.absoluteX]!.maximum),
            resolution: Int(device.absoluteAxes[.absoluteX]!.resolution)))
    }

    @Test func absolutePointerStrokesArePressDragRelease() throws {
        var device = TestDevices.singleTouch
        device.codes[.key] = [.buttonLeft, .buttonRight]
        var recorder = try StrokeRecorder(device: device)
        recorder.feed(all: frame(0, [abs(.absoluteX, 100), abs(.absoluteY, 200)]))  // hovering: nothing
        recorder.feed(all: frame(10, [key(.buttonLeft, 1)]))
        recorder.feed(all: frame(20, [abs(.absoluteX, 300)]))
        recorder.feed(all: frame(30, [key(.buttonLeft, 0)]))
        recorder.feed(all: frame(40, [abs(.absoluteX, 900)]))  // released: nothing
        let result = try recorder.finished()
        #expect(result.gesture.strokes.count == 1)
        let stroke = result.gesture.strokes[0]
        #expect(stroke.kind == .pointer && stroke.button == .left)
        #expect(stroke.samples.map { [Int($0.time.rawValue), $0.x, $0.y] } == [[0, 100, 200], [10_000, 300, 200], [20_000, 300, 200]])
    }

    @Test func mouseWithAbsoluteAxesTooIsRecordedByItsRelativeMotion() throws {
        var device = TestDevices.mouse
        device.codes[.key]?.insert(.buttonTouch)
        device.absoluteAxes = [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1_000), .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 1_000),
        ]
        device.codes[.absolute] = [.absoluteX, .absoluteY]
        #expect(try RecordingDeviceProfile(device: device).inputKind == .relativePointer)
    }

    @Test func penWithoutAxesIsRefused() {
        var device = TestDevices.pen
        device.absoluteAxes = [:]
        device.codes[.absolute] = nil
        #expect(throws: RecordingError.unsupportedDevice(
            deviceName: "Wacom Intuos S Pen", reason: "it is a pen device without the ABS_X and ABS_Y axes"
        )) {
            try RecordingDeviceProfile(device: device)
        }
    }

    @Test func keyboardIsRefused() {
        #expect(throws: RecordingError.unsupportedDevice(
            deviceName: "gesturectl test buttons",
            reason: "it reports no touch (ABS_MT_POSITION_X/Y, or ABS_X/Y with BTN_TOUCH), pen (BTN_TOOL_PEN) or pointer (REL_X/Y with BTN_LEFT) input"
        )) {
            try StrokeRecorder(device: TestDevices.buttons)
        }
        let error = RecordingError.unsupportedDevice(deviceName: "k", reason: "r")
        #expect(error.description == "cannot record from \"k\": r")
    }

    @Test func axisWithoutSpanIsRefused() {
        var device = TestDevices.singleTouch
        device.absoluteAxes[.absoluteX] = AbsoluteAxisInfo(minimum: 5, maximum: 5)
        #expect(throws: RecordingError.unsupportedDevice(
            deviceName: "test single touch", reason: "its axis ABS_X has minimum 5, not below maximum 5"
        )) {
            try RecordingDeviceProfile(device: device)
        }
    }

    @Test func onlyOneMultitouchAxisIsRefused() {
        var device = TestDevices.protocolA
        device.absoluteAxes[.multitouchPositionY] = nil
        device.codes[.absolute]?.remove(.multitouchPositionY)
        #expect(throws: RecordingError.unsupportedDevice(
            deviceName: "test protocol A", reason: "it reports only one of the position axes X and Y"
        )) {
            try RecordingDeviceProfile(device: device)
        }
    }

    @Test func absoluteAxesWithoutTouchAreRefused() {
        var device = TestDevices.singleTouch
        device.codes[.key] = []
        #expect(throws: RecordingError.unsupportedDevice(
            deviceName: "test single touch",
            reason: "it has the axes ABS_X and ABS_Y but no BTN_TOUCH to say when it is touched"
        )) {
            try RecordingDeviceProfile(device: device)
        }
    }

    @Test func virtualScreenMustHaveTwoPixels() {
        #expect(throws: RecordingError.invalidOption("the virtual screen width must be 2 to 1048576 pixels, not 1")) {
            try StrokeRecorder(device: TestDevices.mouse, options: RecorderOptions(virtualScreenWidth: 1))
        }
        #expect(throws: RecordingError.invalidOption("the virtual screen height must be 2 to 1048576 pixels, not -5")) {
            try StrokeRecorder(device: TestDevices.mouse, options: RecorderOptions(virtualScreenHeight: -5))
        }
    }
}
