import Testing

@testable import InputSystem

@Suite("Event types, codes and properties")
struct EventCodeTests {
    @Test("Type constants have the kernel's numbers and names")
    func typeConstants() {
        let expected: [(EventType, UInt16, String)] = [
            (.synchronization, 0x00, "EV_SYN"), (.key, 0x01, "EV_KEY"), (.relative, 0x02, "EV_REL"),
            (.absolute, 0x03, "EV_ABS"), (.miscellaneous, 0x04, "EV_MSC"), (.keyRepeat, 0x14, "EV_REP"),
        ]
        for (type, number, name) in expected {
            #expect(type.rawValue == number)
            #expect(type.name == name)
            #expect(EventType(name: name) == type)
            #expect(type.description == name)
        }
    }

    @Test("Unknown type names and numbers")
    func unknownTypes() {
        #expect(EventType(name: "EV_NOPE") == nil)
        #expect(EventType(name: "") == nil)
        // A NUL inside the name must not match the prefix before it.
        #expect(EventType(name: "EV_ABS\u{0}junk") == nil)
        #expect(EventType(rawValue: 0x1e).name == nil)
        #expect(EventType(rawValue: 0x1e).description == "0x1e")
        #expect(EventType.absolute.maximumCode == EventCode(rawValue: 0x3f))
        #expect(EventType.key.maximumCode == EventCode(rawValue: 0x2ff))
    }

    static let codes: [(EventType, EventCode, UInt16, String)] = [
        (.synchronization, .synchronizationReport, 0, "SYN_REPORT"),
        (.synchronization, .synchronizationMultitouchReport, 2, "SYN_MT_REPORT"),
        (.synchronization, .synchronizationDropped, 3, "SYN_DROPPED"),
        (.absolute, .absoluteX, 0x00, "ABS_X"),
        (.absolute, .absoluteY, 0x01, "ABS_Y"),
        (.absolute, .absolutePressure, 0x18, "ABS_PRESSURE"),
        (.absolute, .absoluteDistance, 0x19, "ABS_DISTANCE"),
        (.absolute, .multitouchSlot, 0x2f, "ABS_MT_SLOT"),
        (.absolute, .multitouchTouchMajor, 0x30, "ABS_MT_TOUCH_MAJOR"),
        (.absolute, .multitouchPositionX, 0x35, "ABS_MT_POSITION_X"),
        (.absolute, .multitouchPositionY, 0x36, "ABS_MT_POSITION_Y"),
        (.absolute, .multitouchToolType, 0x37, "ABS_MT_TOOL_TYPE"),
        (.absolute, .multitouchTrackingID, 0x39, "ABS_MT_TRACKING_ID"),
        (.absolute, .multitouchPressure, 0x3a, "ABS_MT_PRESSURE"),
        (.relative, .relativeX, 0x00, "REL_X"),
        (.relative, .relativeY, 0x01, "REL_Y"),
        (.relative, .relativeHorizontalWheel, 0x06, "REL_HWHEEL"),
        (.relative, .relativeWheel, 0x08, "REL_WHEEL"),
        (.key, .buttonLeft, 0x110, "BTN_LEFT"),
        (.key, .buttonRight, 0x111, "BTN_RIGHT"),
        (.key, .buttonMiddle, 0x112, "BTN_MIDDLE"),
        (.key, .buttonToolPen, 0x140, "BTN_TOOL_PEN"),
        (.key, .buttonToolRubber, 0x141, "BTN_TOOL_RUBBER"),
        (.key, .buttonToolFinger, 0x145, "BTN_TOOL_FINGER"),
        (.key, .buttonTouch, 0x14a, "BTN_TOUCH"),
        (.key, .buttonStylus, 0x14b, "BTN_STYLUS"),
        (.key, .buttonToolDoubleTap, 0x14d, "BTN_TOOL_DOUBLETAP"),
        (.key, .buttonToolTripleTap, 0x14e, "BTN_TOOL_TRIPLETAP"),
        (.key, .buttonToolQuadTap, 0x14f, "BTN_TOOL_QUADTAP"),
        (.key, .buttonToolQuintTap, 0x148, "BTN_TOOL_QUINTTAP"),
        (.key, .keyEscape, 1, "KEY_ESC"),
        (.key, .keyEnter, 28, "KEY_ENTER"),
        (.key, .keySysRq, 99, "KEY_SYSRQ"),
        (.key, .keyMute, 113, "KEY_MUTE"),
        (.key, .keyVolumeDown, 114, "KEY_VOLUMEDOWN"),
        (.key, .keyVolumeUp, 115, "KEY_VOLUMEUP"),
        (.key, .keyPower, 116, "KEY_POWER"),
        (.key, .keySleep, 142, "KEY_SLEEP"),
        (.key, .keyMenu, 139, "KEY_MENU"),
        (.key, .keyBack, 158, "KEY_BACK"),
        (.key, .keyHomePage, 172, "KEY_HOMEPAGE"),
        (.key, .keySearch, 217, "KEY_SEARCH"),
        (.miscellaneous, .miscellaneousScan, 0x04, "MSC_SCAN"),
        (.miscellaneous, .miscellaneousTimestamp, 0x05, "MSC_TIMESTAMP"),
    ]

    @Test("Code constants have the kernel's numbers, and names round-trip")
    func codeConstantsRoundTrip() {
        for (type, code, number, name) in Self.codes {
            #expect(code.rawValue == number, "\(name)")
            #expect(code.name(type: type) == name)
            #expect(EventCode(name: name, type: type) == code)
            let lookedUp = EventCode.lookUp(codeName: name)
            #expect(lookedUp?.type == type, "\(name)")
            #expect(lookedUp?.code == code, "\(name)")
        }
    }

    @Test("Codes mean something only within their type")
    func codesDependOnType() {
        #expect(EventCode(rawValue: 0).name(type: .absolute) == "ABS_X")
        #expect(EventCode(rawValue: 0).name(type: .relative) == "REL_X")
        #expect(EventCode(name: "ABS_X", type: .relative) == nil)
        #expect(EventCode.lookUp(codeName: "ABS_NOPE") == nil)
        #expect(EventCode.lookUp(codeName: "") == nil)
        #expect(EventCode(rawValue: 0x3e).nameOrNumber(type: .absolute) == "0x3e")
        #expect(EventCode(rawValue: 0x3e).name(type: .absolute) == nil)
    }

    @Test("Property constants and names")
    func properties() {
        let expected: [(InputProperty, UInt16, String)] = [
            (.pointer, 0, "INPUT_PROP_POINTER"), (.direct, 1, "INPUT_PROP_DIRECT"),
            (.buttonPad, 2, "INPUT_PROP_BUTTONPAD"), (.semiMultitouch, 3, "INPUT_PROP_SEMI_MT"),
        ]
        for (property, number, name) in expected {
            #expect(property.rawValue == number)
            #expect(property.name == name)
            #expect(InputProperty(name: name) == property)
            #expect(property.description == name)
        }
        #expect(InputProperty(name: "INPUT_PROP_NOPE") == nil)
        #expect(InputProperty.maximum.rawValue == 0x1f)
        #expect(InputProperty(rawValue: 0x1e).description == "0x1e")
    }
}
