import GesturePlayback
import InputSystem

/// The buttons as a HID device: consumer control (report id 1: volume,
/// mute, media, home, back, menu, lock, search, brightness, power) and a
/// keyboard (report id 2: the navigation keys and Print Screen), for the
/// keys gesturectl's virtual keyboard presses (``GesturePlayback/VirtualKeyboard``).
///
/// Each key is sent as the HID usage a host's HID driver turns back into
/// the same key (Linux's hid-input tables; Android and Windows read the
/// same usages). `KEY_MICMUTE` has no consumer usage hosts agree on and is
/// not sent this way (``usage(for:)`` is `nil`).
public enum HIDButtonsLayout {
    /// The consumer-control report's id.
    public static let consumerReportID: UInt8 = 1
    /// The keyboard report's id.
    public static let keyboardReportID: UInt8 = 2
    /// How many keys of each page can be down at once (array fields).
    public static let simultaneousKeys = 4

    /// A key's HID usage: its page and its usage id.
    public struct Usage: Hashable, Sendable {
        /// ``HIDItem/consumerPage`` or ``HIDItem/keyboardPage``.
        public var page: UInt32
        /// The usage id on that page.
        public var id: UInt16
    }

    /// The usage of each evdev key this device sends, by kernel code.
    static let usages: [UInt16: Usage] = [
        115: Usage(page: HIDItem.consumerPage, id: 0xE9),  // KEY_VOLUMEUP
        114: Usage(page: HIDItem.consumerPage, id: 0xEA),  // KEY_VOLUMEDOWN
        113: Usage(page: HIDItem.consumerPage, id: 0xE2),  // KEY_MUTE
        152: Usage(page: HIDItem.consumerPage, id: 0x19E),  // KEY_SCREENLOCK (AL Terminal Lock)
        172: Usage(page: HIDItem.consumerPage, id: 0x223),  // KEY_HOMEPAGE (AC Home)
        158: Usage(page: HIDItem.consumerPage, id: 0x224),  // KEY_BACK (AC Back)
        139: Usage(page: HIDItem.consumerPage, id: 0x40),  // KEY_MENU
        116: Usage(page: HIDItem.consumerPage, id: 0x30),  // KEY_POWER
        164: Usage(page: HIDItem.consumerPage, id: 0xCD),  // KEY_PLAYPAUSE
        163: Usage(page: HIDItem.consumerPage, id: 0xB5),  // KEY_NEXTSONG
        165: Usage(page: HIDItem.consumerPage, id: 0xB6),  // KEY_PREVIOUSSONG
        166: Usage(page: HIDItem.consumerPage, id: 0xB7),  // KEY_STOPCD
        225: Usage(page: HIDItem.consumerPage, id: 0x6F),  // KEY_BRIGHTNESSUP
        224: Usage(page: HIDItem.consumerPage, id: 0x70),  // KEY_BRIGHTNESSDOWN
        217: Usage(page: HIDItem.consumerPage, id: 0x221),  // KEY_SEARCH (AC Search)
        99: Usage(page: HIDItem.keyboardPage, id: 0x46),  // KEY_SYSRQ (Print Screen)
        1: Usage(page: HIDItem.keyboardPage, id: 0x29),  // KEY_ESC
        28: Usage(page: HIDItem.keyboardPage, id: 0x28),  // KEY_ENTER
        15: Usage(page: HIDItem.keyboardPage, id: 0x2B),  // KEY_TAB
        57: Usage(page: HIDItem.keyboardPage, id: 0x2C),  // KEY_SPACE
        103: Usage(page: HIDItem.keyboardPage, id: 0x52),  // KEY_UP
        108: Usage(page: HIDItem.keyboardPage, id: 0x51),  // KEY_DOWN
        105: Usage(page: HIDItem.keyboardPage, id: 0x50),  // KEY_LEFT
        106: Usage(page: HIDItem.keyboardPage, id: 0x4F),  // KEY_RIGHT
        104: Usage(page: HIDItem.keyboardPage, id: 0x4B),  // KEY_PAGEUP
        109: Usage(page: HIDItem.keyboardPage, id: 0x4E),  // KEY_PAGEDOWN
        102: Usage(page: HIDItem.keyboardPage, id: 0x4A),  // KEY_HOME
        107: Usage(page: HIDItem.keyboardPage, id: 0x4D),  // KEY_END
    ]

    /// The HID usage `code` is sent as; `nil` for a key this device cannot send.
    public static func usage(for code: EventCode) -> Usage? { usages[code.rawValue] }

    /// The input reports' longest length: id and four 16-bit usages.
    public static let inputReportLength = 1 + 2 * simultaneousKeys

    /// The report descriptor: two application collections.
    public static var reportDescriptor: [UInt8] {
        var d = HIDDescriptorWriter()
        d.global(.usagePage, HIDItem.consumerPage)
        d.local(.usage, 0x01)  // Consumer Control
        d.main(.collection, HIDItem.applicationCollection)
        d.global(.reportID, UInt32(consumerReportID))
        d.global(.logicalMinimum, signed: 0)
        d.global(.logicalMaximum, signed: 0x3FF)
        d.local(.usageMinimum, 0)
        d.local(.usageMaximum, 0x3FF)
        d.global(.reportSize, 16)
        d.global(.reportCount, UInt32(simultaneousKeys))
        d.main(.input, HIDItem.dataArrayAbsolute)
        d.main(.endCollection)
        d.global(.usagePage, HIDItem.genericDesktopPage)
        d.local(.usage, 0x06)  // Keyboard
        d.main(.collection, HIDItem.applicationCollection)
        d.global(.reportID, UInt32(keyboardReportID))
        d.global(.usagePage, HIDItem.keyboardPage)
        d.global(.logicalMinimum, signed: 0)
        d.global(.logicalMaximum, signed: 0xFF)
        d.local(.usageMinimum, 0)
        d.local(.usageMaximum, 0xFF)
        d.global(.reportSize, 8)
        d.global(.reportCount, UInt32(simultaneousKeys))
        d.main(.input, HIDItem.dataArrayAbsolute)
        d.main(.endCollection)
        return d.bytes
    }

    /// What a transport needs to present the buttons.
    public static func description(
        name: String = "gesturectl HID buttons", vendor: UInt32 = UInt32(VirtualDeviceProfile.vendor),
        product: UInt32 = UInt32(HIDDevicePlan.buttonsProduct)
    ) -> HIDDeviceDescription {
        HIDDeviceDescription(
            name: name, vendor: vendor, product: product, reportDescriptor: reportDescriptor,
            inputReportLength: inputReportLength)
    }

    /// The consumer report with these usages down (at most four, the
    /// rest 0: none).
    public static func consumerReport(_ down: [UInt16]) -> [UInt8] {
        var report = [consumerReportID]
        for index in 0..<simultaneousKeys {
            let usage = index < down.count ? down[index] : 0
            report += [UInt8(usage & 0xFF), UInt8(usage >> 8)]
        }
        return report
    }

    /// The keyboard report with these usages down (at most four).
    public static func keyboardReport(_ down: [UInt16]) -> [UInt8] {
        [keyboardReportID] + (0..<simultaneousKeys).map { $0 < down.count ? UInt8(truncatingIfNeeded: down[$0]) : 0 }
    }
}
