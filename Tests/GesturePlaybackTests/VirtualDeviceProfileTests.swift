import GestureModel
import InputSystem
import Testing

@testable import GesturePlayback

@Suite("Virtual device profiles")
struct VirtualDeviceProfileTests {
    private let slot = AbsoluteAxisInfo(minimum: 0, maximum: 9)
    private let trackingID = AbsoluteAxisInfo(minimum: 0, maximum: 65_535)

    @Test("The default touchscreen is a direct 10-slot device with resolution and fuzz 0")
    func touchscreen() throws {
        let x = AbsoluteAxisInfo(minimum: 0, maximum: 21_600, resolution: 100)
        let y = AbsoluteAxisInfo(minimum: 0, maximum: 13_500, resolution: 100)
        let expected = InputDeviceDescription(
            name: "gesturectl virtual touchscreen", bus: 0x06, vendor: 0x4753, product: 0x0001, version: 1,
            properties: [.direct], codes: [.key: [.buttonTouch]],
            absoluteAxes: [
                .absoluteX: x, .absoluteY: y, .multitouchSlot: slot, .multitouchTrackingID: trackingID,
                .multitouchPositionX: x, .multitouchPositionY: y,
            ])
        let profile = VirtualDeviceProfile.touchscreen()
        #expect(profile.kind == .touchscreen)
        #expect(profile.description == expected)
        #expect(try profile == VirtualDeviceProfile.profile(for: .touchscreen, fitting: touchpadGeometry))
    }

    @Test("A touchscreen fitted to a gesture takes its axes, pressure and size")
    func fittedTouchscreen() {
        let geometry = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 4_095, resolution: 15),
            y: AxisRange(minimum: 0, maximum: 2_303, resolution: 13), pressure: AxisRange(minimum: 0, maximum: 255),
            size: AxisRange(minimum: 0, maximum: 30), slots: 10)
        let axes = VirtualDeviceProfile.touchscreen(fitting: geometry).description.absoluteAxes
        #expect(axes[.multitouchPositionX] == AbsoluteAxisInfo(minimum: 0, maximum: 4_095, resolution: 15))
        #expect(axes[.absoluteY] == AbsoluteAxisInfo(minimum: 0, maximum: 2_303, resolution: 13))
        #expect(axes[.multitouchPressure] == AbsoluteAxisInfo(minimum: 0, maximum: 255))
        #expect(axes[.absolutePressure] == AbsoluteAxisInfo(minimum: 0, maximum: 255))
        #expect(axes[.multitouchTouchMajor] == AbsoluteAxisInfo(minimum: 0, maximum: 30))
    }

    @Test("The default touchpad is a clickpad with every finger-count tool")
    func touchpad() {
        let x = AbsoluteAxisInfo(minimum: 0, maximum: 1_100, resolution: 10)
        let y = AbsoluteAxisInfo(minimum: 0, maximum: 700, resolution: 10)
        let expected = InputDeviceDescription(
            name: "gesturectl virtual touchpad", bus: 0x06, vendor: 0x4753, product: 0x0002, version: 1,
            properties: [.pointer, .buttonPad],
            codes: [
                .key: [
                    .buttonLeft, .buttonTouch, .buttonToolFinger, .buttonToolDoubleTap, .buttonToolTripleTap,
                    .buttonToolQuadTap, .buttonToolQuintTap,
                ]
            ],
            absoluteAxes: [
                .absoluteX: x, .absoluteY: y, .multitouchSlot: slot, .multitouchTrackingID: trackingID,
                .multitouchPositionX: x, .multitouchPositionY: y,
            ])
        #expect(VirtualDeviceProfile.touchpad().description == expected)
    }

    @Test("The mouse has relative axes, a wheel and three buttons")
    func mouse() {
        let expected = InputDeviceDescription(
            name: "gesturectl virtual mouse", bus: 0x06, vendor: 0x4753, product: 0x0003, version: 1,
            codes: [
                .relative: [.relativeX, .relativeY, .relativeWheel], .key: [.buttonLeft, .buttonRight, .buttonMiddle],
            ])
        #expect(VirtualDeviceProfile.mouse().description == expected)
    }

    @Test("The tablet has a pen, touch, stylus button, position with resolution and pressure")
    func tablet() {
        let expected = InputDeviceDescription(
            name: "gesturectl virtual tablet", bus: 0x06, vendor: 0x4753, product: 0x0004, version: 1,
            properties: [.pointer], codes: [.key: [.buttonToolPen, .buttonTouch, .buttonStylus]],
            absoluteAxes: [
                .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 15_200, resolution: 100),
                .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 9_500, resolution: 100),
                .absolutePressure: AbsoluteAxisInfo(minimum: 0, maximum: 4_095),
            ])
        #expect(VirtualDeviceProfile.tablet().description == expected)
    }

    @Test("A clone keeps the ids, gets a prefixed name and fuzz 0, and guesses its kind")
    func clone() throws {
        let original = InputDeviceDescription(
            name: "ELAN Touchscreen", bus: 0x03, vendor: 0x04f3, product: 0x2a1c, version: 0x110,
            properties: [.direct], codes: [.key: [.buttonTouch]],
            absoluteAxes: [
                // Both ABS_X and ABS_Y: udev's input_id (and so the
                // classifier) calls nothing with one position axis a
                // touchscreen.
                .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 3_000, fuzz: 4, resolution: 12),
                .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 2_000, fuzz: 4, resolution: 12),
                .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 9),
            ])
        let clone = try VirtualDeviceProfile.cloning(description: original)
        #expect(clone.kind == .touchscreen)
        #expect(clone.description.name == "gesturectl clone of ELAN Touchscreen")
        #expect(clone.description.vendor == 0x04f3)
        #expect(clone.description.product == 0x2a1c)
        #expect(clone.description.absoluteAxes[.absoluteX] == AbsoluteAxisInfo(minimum: 0, maximum: 3_000, resolution: 12))

        // A mouse button with REL_X/REL_Y: udev's input_id calls relative
        // motion without one no mouse.
        let long = InputDeviceDescription(
            name: String(repeating: "é", count: 60), codes: [.relative: [.relativeX, .relativeY], .key: [.buttonLeft]])
        let longClone = try VirtualDeviceProfile.cloning(description: long)
        #expect(longClone.kind == .mouse)
        // 20 bytes of prefix and 29 two-byte "é": the 30th would pass 79.
        #expect(longClone.description.name.utf8.count == 78)

        #expect(throws: PlaybackError.cannotClassify(device: "keys")) {
            try VirtualDeviceProfile.cloning(description: InputDeviceDescription(name: "keys", codes: [.key: [.keyMute]]))
        }
    }

    @Test("A clone's kind is the classifier's, where the old clone guess disagreed with udev too")
    func cloneKindFollowsUdev() throws {
        let axes: [EventCode: AbsoluteAxisInfo] = [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1_023), .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 767),
        ]
        // A single-touch screen without INPUT_PROP_DIRECT or slots: once
        // unclassifiable, a touchscreen for udev (BTN_TOUCH on ABS_X/ABS_Y);
        // playing then says what a touchscreen lacks.
        let singleTouch = InputDeviceDescription(name: "resistive", codes: [.key: [.buttonTouch]], absoluteAxes: axes)
        let singleTouchClone = try VirtualDeviceProfile.cloning(description: singleTouch)
        #expect(singleTouchClone.kind == .touchscreen)
        #expect(throws: PlaybackError.targetLacks(device: "gesturectl clone of resistive", kind: .touchscreen, missing: "ABS_MT_POSITION_X")) {
            try FrameBuilder(target: singleTouchClone)
        }
        // BTN_STYLUS without BTN_TOOL_PEN is a tablet for udev.
        let stylus = InputDeviceDescription(name: "stylus", codes: [.key: [.buttonStylus, .buttonTouch]], absoluteAxes: axes)
        #expect(try VirtualDeviceProfile.cloning(description: stylus).kind == .tablet)
        // Multi-touch with slots but no INPUT_PROP_DIRECT: a touchscreen for udev.
        var withoutDirect = VirtualDeviceProfile.touchscreen().description
        withoutDirect.properties = []
        #expect(try VirtualDeviceProfile.cloning(description: withoutDirect).kind == .touchscreen)
        // A touchpad without slots is still a touchpad.
        let oldTouchpad = InputDeviceDescription(
            name: "old touchpad", codes: [.key: [.buttonToolFinger, .buttonTouch, .buttonLeft]], absoluteAxes: axes)
        #expect(try VirtualDeviceProfile.cloning(description: oldTouchpad).kind == .touchpad)
        // Relative motion without a mouse button is no mouse.
        #expect(throws: PlaybackError.cannotClassify(device: "wheel")) {
            try VirtualDeviceProfile.cloning(
                description: InputDeviceDescription(name: "wheel", codes: [.relative: [.relativeX, .relativeY, .relativeWheel]]))
        }
        // A kind given by hand still wins; keyboard and other never play.
        #expect(try VirtualDeviceProfile.cloning(description: singleTouch, as: .tablet).kind == .tablet)
        #expect(throws: PlaybackError.cannotClassify(device: "resistive")) {
            try VirtualDeviceProfile.cloning(description: singleTouch, as: .keyboard)
        }
    }

    @Test("Keyboards and other devices have no gesture profile and play nothing")
    func noProfileForKeyboardOrOther() throws {
        for kind in [DeviceKind.keyboard, .other] {
            // The keyboard has an id (it presses buttons: KeyboardTests).
            #expect(VirtualDeviceProfile.product(for: kind) == (kind == .keyboard ? 0x0005 : nil))
            #expect(throws: PlaybackError.cannotClassify(device: "gesturectl virtual \(kind.rawValue)")) {
                try VirtualDeviceProfile.profile(for: kind)
            }
            let profile = VirtualDeviceProfile(kind: kind, description: VirtualDeviceProfile.touchscreen().description)
            #expect(throws: PlaybackError.cannotClassify(device: "gesturectl virtual touchscreen")) {
                try FrameBuilder(target: profile)
            }
        }
        for kind in DeviceKind.gestureKinds {
            let profile = try VirtualDeviceProfile.profile(for: kind)
            #expect(profile.kind == kind)
            #expect(VirtualDeviceProfile.product(for: kind) != nil)
            // udev (and so libinput) takes each built-in device for its kind.
            #expect(DeviceClassifier.kind(of: profile.description) == kind)
        }
    }
}
