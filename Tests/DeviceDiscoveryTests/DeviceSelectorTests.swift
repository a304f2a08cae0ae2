import GestureModel
import InputSystem
import Testing

@testable import DeviceDiscovery

@Suite struct DeviceSelectorTests {
    static let touchscreen = DeviceInfo(
        node: "/dev/input/event5", name: "ELAN Touchscreen", kind: .touchscreen,
        links: ["/dev/input/by-id/usb-ELAN_Touchscreen-event-if00"], vendor: 0x04f3, product: 0x2a1c)
    static let pen = DeviceInfo(node: "/dev/input/event6", name: "ELAN Touchscreen Stylus", kind: .tablet)
    static let keyboard = DeviceInfo(node: "/dev/input/event0", name: "AT Translated Set 2 keyboard", kind: .keyboard)
    static let mouse = DeviceInfo(node: "/dev/input/event9", name: "Logitech USB Mouse", kind: .mouse, vendor: 0x046d, product: 0xc077)

    @Test func theOnlyRecordableDeviceIsChosenWithoutASpecification() throws {
        #expect(try DeviceSelector.select(nil, among: [Self.keyboard, Self.touchscreen]) == Self.touchscreen)
    }

    @Test func severalCandidatesAreListed() {
        do {
            _ = try DeviceSelector.select(nil, among: [Self.keyboard, Self.touchscreen, Self.mouse])
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .ambiguous)
            #expect(
                error.message == """
                    2 devices could be meant; choose one with --device:
                      /dev/input/event5  touchscreen  ELAN Touchscreen
                      /dev/input/event9  mouse/pointer  Logitech USB Mouse
                    """)
        }
    }

    @Test func noCandidates() {
        #expect(throws: DeviceSelectionError(kind: .notFound, message: "no touchscreen, touchpad, tablet or mouse found")) {
            try DeviceSelector.select(nil, among: [Self.keyboard])
        }
        #expect(
            throws: DeviceSelectionError(
                kind: .notFound,
                message: "no touchscreen, touchpad, tablet or mouse found (no input devices are visible: are you in the 'input' group?)")
        ) { try DeviceSelector.select(nil, among: []) }
    }

    @Test func byNodeLinkVendorProductAndName() throws {
        let all = [Self.keyboard, Self.touchscreen, Self.pen, Self.mouse]
        #expect(try DeviceSelector.select("/dev/input/event9", among: all) == Self.mouse)
        #expect(try DeviceSelector.select("/dev/input/by-id/usb-ELAN_Touchscreen-event-if00", among: all) == Self.touchscreen)
        #expect(try DeviceSelector.select("/dev/input/by-path/x", among: all, resolveLink: { _ in "/dev/input/event0" }) == Self.keyboard)
        #expect(try DeviceSelector.select("046D:C077", among: all) == Self.mouse)
        #expect(try DeviceSelector.select("ELAN Touchscreen", among: all) == Self.touchscreen)
        #expect(try DeviceSelector.select("logitech", among: all) == Self.mouse)
    }

    @Test func ambiguousAndUnknownNames() {
        let all = [Self.touchscreen, Self.pen, Self.keyboard]
        do {
            _ = try DeviceSelector.select("elan", among: all)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .ambiguous)
            #expect(error.message.hasPrefix("\"elan\" matches 2 devices; use a node or a /dev/input/by-id link:\n"))
        }
        do {
            _ = try DeviceSelector.select("/dev/input/event42", among: all)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.message.hasPrefix("no input device matches \"/dev/input/event42\"; these exist:\n  /dev/input/event5"))
        }
    }
}

@Suite struct DeviceKindTests {
    func description(properties: Set<InputProperty> = [], keys: Set<EventCode> = [], relative: Set<EventCode> = [], axes: [EventCode] = []) -> InputDeviceDescription {
        var codes: [EventType: Set<EventCode>] = [:]
        if !keys.isEmpty { codes[.key] = keys }
        if !relative.isEmpty { codes[.relative] = relative }
        if !axes.isEmpty { codes[.absolute] = Set(axes) }
        return InputDeviceDescription(
            name: "x", bus: 3, vendor: 1, product: 2, version: 1, properties: properties, codes: codes,
            absoluteAxes: Dictionary(uniqueKeysWithValues: axes.map { ($0, AbsoluteAxisInfo(minimum: 0, maximum: 100)) }))
    }

    @Test func udevPropertiesWin() {
        #expect(DeviceClassifier.kind(of: nil, udevClasses: [.touchpad, .mouse]) == .touchpad)
        #expect(DeviceClassifier.kind(of: nil, udevClasses: [.key]) == .keyboard)
        #expect(DeviceClassifier.kind(of: nil, udevClasses: []) == .other)
    }

    @Test func capabilitiesWhenUdevSaysNothing() {
        #expect(DeviceClassifier.kind(of: description(properties: [.direct], keys: [.buttonTouch], axes: [.absoluteX, .absoluteY])) == .touchscreen)
        #expect(DeviceClassifier.kind(of: description(keys: [.buttonToolFinger, .buttonTouch], axes: [.absoluteX, .absoluteY])) == .touchpad)
        #expect(DeviceClassifier.kind(of: description(keys: [.buttonToolPen, .buttonTouch], axes: [.absoluteX, .absoluteY])) == .tablet)
        #expect(DeviceClassifier.kind(of: description(keys: [.buttonLeft], relative: [.relativeX, .relativeY])) == .mouse)
        #expect(DeviceClassifier.kind(of: description(keys: [.keyVolumeUp])) == .keyboard)
    }

    @Test func aRemovedDeviceIsWhatUdevSaid() {
        func removed(_ classes: Set<InputDeviceClass>) -> DeviceKind {
            DeviceCatalog.info(
                removed: UdevInputDevice(node: "/dev/input/event3", syspath: "/sys/x", name: "gone", classes: classes)
            ).kind
        }
        #expect(removed([.mouse, .key]) == .mouse)
        #expect(removed([.pointingStick]) == .mouse)
        #expect(removed([.tablet, .tabletPad]) == .tablet)
        #expect(removed([.joystick]) == .other)
        #expect(removed([]) == .other)
    }

    @Test func listingNamesAndCandidatesAreTodays() {
        #expect(DeviceKind.allCases.map(\.listingName) == [
            "touchscreen", "touchpad", "tablet/pen", "mouse/pointer", "keyboard/buttons", "other",
        ])
        #expect(DeviceKind.allCases.filter(\.isGestureKind) == [.touchscreen, .touchpad, .tablet, .mouse])
        let buttons = DeviceInfo(node: "/dev/input/event2", name: "Power Button", kind: .keyboard)
        let other = DeviceInfo(node: "/dev/input/event4", name: "Accelerometer", kind: .other)
        #expect(
            DeviceSelector.list([DeviceSelectorTests.pen, DeviceSelectorTests.mouse, buttons, other]) == """
                  /dev/input/event6  tablet/pen  ELAN Touchscreen Stylus
                  /dev/input/event9  mouse/pointer  Logitech USB Mouse
                  /dev/input/event2  keyboard/buttons  Power Button
                  /dev/input/event4  other  Accelerometer
                """)
    }
}
