import GestureModel
import Testing
import TestSupport

@testable import InputSystem

/// A device made of kernel code names (`BTN_TOUCH`, `ABS_MT_SLOT`, `SW_LID`,
/// …) and property names; absolute axes range 0…1000 (`ABS_MT_SLOT` 0…9).
/// `extraAxes` are raw `EV_ABS` numbers libevdev may have no name for.
private func device(
    _ name: String, _ codeNames: [String], properties: [String] = [], bus: UInt16 = 0x03, extraAxes: [UInt16] = []
) -> InputDeviceDescription {
    var codes: [EventType: Set<EventCode>] = [:]
    var axes: [EventCode: AbsoluteAxisInfo] = [:]
    for codeName in codeNames {
        guard let (type, code) = EventCode.lookUp(codeName: codeName) else {
            Issue.record("unknown code name \(codeName)")
            continue
        }
        if type == .absolute {
            axes[code] = AbsoluteAxisInfo(minimum: 0, maximum: code == .multitouchSlot ? 9 : 1_000)
        } else {
            codes[type, default: []].insert(code)
        }
    }
    for raw in extraAxes { axes[EventCode(rawValue: raw)] = AbsoluteAxisInfo(minimum: 0, maximum: 1_000) }
    var propertySet: Set<InputProperty> = []
    for propertyName in properties {
        guard let property = InputProperty(name: propertyName) else {
            Issue.record("unknown property \(propertyName)")
            continue
        }
        propertySet.insert(property)
    }
    return InputDeviceDescription(name: name, bus: bus, properties: propertySet, codes: codes, absoluteAxes: axes)
}

/// One row of the table: a device and its kind.
struct ClassifierCase: Sendable, CustomTestStringConvertible {
    var description: InputDeviceDescription
    var kind: DeviceKind
    /// What the three classifiers before `DeviceClassifier` said, where they
    /// did not all agree with udev's input_id.
    var before: String?

    init(_ description: InputDeviceDescription, _ kind: DeviceKind, before: String? = nil) {
        self.description = description
        self.kind = kind
        self.before = before
    }

    var testDescription: String { "\(description.name) → \(kind.rawValue)" }
}

private let multitouch = ["ABS_MT_SLOT", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y", "ABS_MT_TRACKING_ID"]

@Suite("Device classifier")
struct DeviceClassifierTests {
    /// The test devices every test target shares (TestSupport's
    /// ``TestDevices``; the built-in virtual profiles are checked in
    /// GesturePlaybackTests).
    static let testDevices: [ClassifierCase] = [
        ClassifierCase(TestDevices.touchscreen, .touchscreen),
        ClassifierCase(TestDevices.touchscreenWithPressure, .touchscreen),
        ClassifierCase(TestDevices.twoSlotTouchscreen, .touchscreen),
        ClassifierCase(TestDevices.protocolA, .touchscreen),
        ClassifierCase(TestDevices.singleTouch, .touchscreen),
        ClassifierCase(TestDevices.touchpad, .touchpad),
        // On I²C (0x18) with BTN_LEFT: a touchpad, not a pointing stick.
        ClassifierCase(TestDevices.centredClickpad, .touchpad),
        ClassifierCase(TestDevices.pen, .tablet),
        ClassifierCase(TestDevices.mouse, .mouse),
        ClassifierCase(TestDevices.buttons, .keyboard),
        ClassifierCase(TestDevices.keyboard, .keyboard),
    ]

    /// Devices on which the old classifiers (`DeviceRole.classify`, the
    /// clone guess `VirtualDeviceProfile.guessKind`, the recorder's own
    /// rules) disagreed with each other or with udev, and the kind udev's
    /// input_id rules give, which is now everyone's answer. The recorder
    /// column: what it recorded the device as ("refused" when it did not).
    static let disagreements: [ClassifierCase] = [
        ClassifierCase(
            device("pen buttons without axes", ["BTN_TOOL_PEN", "BTN_STYLUS"]), .other,
            before: "DeviceRole tablet, clone tablet, recorder refused"),
        ClassifierCase(
            device("direct without axes", ["BTN_TOUCH"], properties: ["INPUT_PROP_DIRECT"]), .other,
            before: "DeviceRole touchscreen, clone touchscreen, recorder refused"),
        ClassifierCase(
            device("finger tool without axes", ["BTN_TOOL_FINGER", "BTN_TOUCH"]), .other,
            before: "DeviceRole touchpad, clone none, recorder refused"),
        ClassifierCase(
            device("one position axis", ["BTN_TOUCH", "ABS_X", "ABS_MT_SLOT"], properties: ["INPUT_PROP_DIRECT"]), .other,
            before: "DeviceRole touchscreen, clone touchscreen, recorder refused"),
        ClassifierCase(
            device("single touch with BTN_LEFT", ["BTN_TOUCH", "BTN_LEFT", "ABS_X", "ABS_Y"]), .mouse,
            before: "DeviceRole touchscreen, clone none, recorder touchscreen"),
        ClassifierCase(
            device("direct single touch with BTN_LEFT", ["BTN_TOUCH", "BTN_LEFT", "ABS_X", "ABS_Y"], properties: ["INPUT_PROP_DIRECT"]),
            .mouse, before: "DeviceRole touchscreen, clone touchscreen, recorder touchscreen"),
        ClassifierCase(
            device("pointer property without finger tool", ["BTN_TOUCH", "ABS_X", "ABS_Y"] + multitouch, properties: ["INPUT_PROP_POINTER"]),
            .touchscreen, before: "DeviceRole touchscreen, clone none, recorder touchpad"),
        ClassifierCase(
            device("multi-touch without DIRECT", ["BTN_TOUCH", "ABS_X", "ABS_Y"] + multitouch), .touchscreen,
            before: "DeviceRole touchscreen, clone none, recorder touchscreen"),
        ClassifierCase(
            device("multi-touch axes alone", multitouch), .other,
            before: "DeviceRole other, clone none, recorder touchscreen"),
        ClassifierCase(
            device("claims every axis", ["BTN_TOUCH"] + multitouch, extraAxes: [0x2e]), .other,
            before: "DeviceRole keyboard, clone none, recorder touchscreen"),
        ClassifierCase(
            device("stylus without pen tool", ["BTN_STYLUS", "BTN_TOUCH", "ABS_X", "ABS_Y"]), .tablet,
            before: "DeviceRole tablet, clone none, recorder tablet"),
        ClassifierCase(
            device("touchpad without slots", ["BTN_TOOL_FINGER", "BTN_TOUCH", "BTN_LEFT", "ABS_X", "ABS_Y"]), .touchpad,
            before: "DeviceRole touchpad, clone none, recorder touchpad"),
        ClassifierCase(
            device("mouse buttons alone", ["BTN_LEFT", "BTN_RIGHT"]), .mouse,
            before: "DeviceRole keyboard, clone none, recorder refused"),
        ClassifierCase(
            device("relative motion with a side button", ["BTN_SIDE", "REL_X", "REL_Y"]), .mouse,
            before: "DeviceRole keyboard, clone mouse, recorder refused"),
        ClassifierCase(
            device("relative motion and a wheel, no button", ["REL_X", "REL_Y", "REL_WHEEL"]), .keyboard,
            before: "DeviceRole other, clone mouse, recorder refused"),
        ClassifierCase(
            device("relative motion alone", ["REL_X", "REL_Y"]), .other,
            before: "DeviceRole other, clone mouse, recorder refused"),
        ClassifierCase(
            device("lone scroll wheel", ["REL_WHEEL", "REL_HWHEEL"]), .keyboard,
            before: "DeviceRole other, clone none, recorder refused"),
        ClassifierCase(
            device("gamepad", ["BTN_SOUTH", "BTN_EAST", "BTN_START", "ABS_X", "ABS_Y", "ABS_RX", "ABS_RY"]), .other,
            before: "DeviceRole keyboard, clone none, recorder refused"),
        ClassifierCase(
            device("VMware absolute mouse", ["BTN_LEFT", "BTN_RIGHT", "BTN_MIDDLE", "ABS_X", "ABS_Y"]), .mouse,
            before: "DeviceRole mouse, clone none, recorder refused"),
        ClassifierCase(
            device("tablet pad", ["BTN_0", "BTN_1", "BTN_STYLUS", "ABS_X", "ABS_Y", "ABS_WHEEL"]), .tablet,
            before: "DeviceRole tablet, clone none, recorder tablet"),
    ]

    /// Devices where all the old classifiers agreed with udev, kept to pin
    /// the rules' order down.
    static let agreements: [ClassifierCase] = [
        // udev: a mouse (the abs branch) and a touchscreen (the MT branch);
        // the touchscreen wins.
        ClassifierCase(
            device("touchscreen with BTN_LEFT", ["BTN_TOUCH", "BTN_LEFT", "ABS_X", "ABS_Y"] + multitouch, properties: ["INPUT_PROP_DIRECT"]),
            .touchscreen),
        // DIRECT beats BTN_TOOL_FINGER: a touchscreen.
        ClassifierCase(
            device("direct with finger tool", ["BTN_TOUCH", "BTN_TOOL_FINGER", "ABS_X", "ABS_Y"] + multitouch, properties: ["INPUT_PROP_DIRECT"]),
            .touchscreen),
        ClassifierCase(
            device("pen on a screen", ["BTN_TOOL_PEN", "BTN_STYLUS", "BTN_TOUCH", "ABS_X", "ABS_Y"], properties: ["INPUT_PROP_DIRECT"]),
            .tablet),
        ClassifierCase(device("accelerometer", ["ABS_X", "ABS_Y", "ABS_Z"]), .other),
        ClassifierCase(device("lid switch", ["SW_LID"]), .other),
        ClassifierCase(device("power button", ["KEY_POWER"]), .keyboard),
        ClassifierCase(device("I2C mouse", ["BTN_LEFT", "BTN_RIGHT", "REL_X", "REL_Y"], bus: 0x18), .mouse),
        ClassifierCase(
            device("mouse with keys", ["BTN_LEFT", "BTN_RIGHT", "REL_X", "REL_Y", "KEY_VOLUMEUP", "KEY_A"]), .mouse),
        ClassifierCase(InputDeviceDescription(name: "nothing"), .other),
    ]

    @Test(arguments: testDevices)
    func testDevice(_ row: ClassifierCase) {
        #expect(DeviceClassifier.kind(of: row.description) == row.kind)
    }

    @Test(arguments: disagreements)
    func disagreement(_ row: ClassifierCase) {
        #expect(DeviceClassifier.kind(of: row.description) == row.kind, "before: \(row.before ?? "")")
    }

    @Test(arguments: agreements)
    func agreement(_ row: ClassifierCase) {
        #expect(DeviceClassifier.kind(of: row.description) == row.kind)
    }

    @Test("The classes are udev input_id's, several where udev sets several")
    func classes() {
        func classes(_ name: String, _ codes: [String], properties: [String] = [], bus: UInt16 = 0x03) -> Set<InputDeviceClass> {
            DeviceClassifier.udevClasses(of: device(name, codes, properties: properties, bus: bus))
        }
        #expect(classes("i2c mouse", ["BTN_LEFT", "REL_X", "REL_Y"], bus: 0x18) == [.mouse, .pointingStick])
        #expect(classes("stick", ["BTN_LEFT", "REL_X", "REL_Y"], properties: ["INPUT_PROP_POINTING_STICK"]) == [.mouse, .pointingStick])
        #expect(
            classes("touchpad", ["BTN_LEFT", "BTN_TOOL_FINGER", "BTN_TOUCH", "ABS_X", "ABS_Y"] + multitouch, bus: 0x18)
                == [.touchpad])
        #expect(
            classes("screen", ["BTN_TOUCH", "BTN_LEFT", "ABS_X", "ABS_Y"] + multitouch, properties: ["INPUT_PROP_DIRECT"])
                == [.mouse, .touchscreen])
        #expect(classes("pad", ["BTN_0", "BTN_1", "BTN_STYLUS", "ABS_X", "ABS_Y"]) == [.tablet, .tabletPad])
        #expect(classes("gamepad", ["BTN_SOUTH", "ABS_X", "ABS_Y", "ABS_RX"]) == [.joystick])
        #expect(classes("accelerometer", ["ABS_X", "ABS_Y", "ABS_Z"]) == [.accelerometer])
        #expect(classes("property accelerometer", ["BTN_TOUCH", "ABS_X", "ABS_Y"], properties: ["INPUT_PROP_ACCELEROMETER"]) == [.accelerometer])
        #expect(classes("lid", ["SW_LID"]) == [.switch])
        #expect(classes("wheel", ["REL_WHEEL"]) == [.key])
        #expect(classes("mouse with a wheel", ["BTN_LEFT", "REL_X", "REL_Y", "REL_WHEEL"]) == [.mouse])
        #expect(classes("mouse with keys", ["BTN_LEFT", "REL_X", "REL_Y", "KEY_VOLUMEUP"]) == [.mouse, .key])
        #expect(classes("high key", ["KEY_OK"]) == [.key])
        #expect(classes("buttons only", ["BTN_0", "BTN_TOUCH"]) == [])
        // A mouse with more than 16 buttons (up to BTN_JOYSTICK − 1) is not a joystick.
        var manyButtons = device("many buttons", ["BTN_LEFT", "BTN_TASK", "BTN_TRIGGER", "REL_X", "REL_Y"])
        #expect(DeviceClassifier.udevClasses(of: manyButtons) == [.joystick])
        manyButtons.codes[.key]?.insert(EventCode(rawValue: 0x11f))
        #expect(DeviceClassifier.udevClasses(of: manyButtons) == [.mouse])
        let keyboard = InputDeviceDescription(name: "keyboard", codes: [.key: Set((1...31).map { EventCode(rawValue: $0) })])
        #expect(DeviceClassifier.udevClasses(of: keyboard) == [.key, .keyboard])
        var almost = keyboard
        almost.codes[.key]?.remove(EventCode(rawValue: 31))
        #expect(DeviceClassifier.udevClasses(of: almost) == [.key])
    }

    @Test("What udev said wins when it names a kind; the capabilities decide otherwise")
    func udevClassesFirst() {
        let mouse = device("mouse", ["BTN_LEFT", "REL_X", "REL_Y"])
        // The hardware database can make udev say more than the capabilities do.
        #expect(DeviceClassifier.kind(of: mouse, udevClasses: [.touchpad]) == .touchpad)
        #expect(DeviceClassifier.kind(of: mouse, udevClasses: [.trackball]) == .mouse)
        #expect(DeviceClassifier.kind(of: nil, udevClasses: [.key, .mouse]) == .mouse)
        #expect(DeviceClassifier.kind(of: nil, udevClasses: [.touchscreen, .mouse]) == .touchscreen)
        #expect(DeviceClassifier.kind(of: nil, udevClasses: [.keyboard, .switch]) == .keyboard)
        #expect(DeviceClassifier.kind(of: nil, udevClasses: [.joystick]) == .other)
        // No kind among udev's classes: the capabilities.
        #expect(DeviceClassifier.kind(of: mouse, udevClasses: [.switch]) == .mouse)
        #expect(DeviceClassifier.kind(of: mouse, udevClasses: []) == .mouse)
        #expect(DeviceClassifier.kind(of: nil) == .other)
        #expect(DeviceClassifier.kind(udevClasses: [.accelerometer, .tabletPad]) == nil)
    }
}
