import GesturePlayback

/// A relative mouse as a HID device: three buttons, X and Y as signed
/// 16-bit moves, a wheel as a signed 8-bit move; no report id.
///
/// The device iPadOS accepts (through AssistiveTouch's pointer support,
/// which turns clicks into touches) and every other host does too.
public enum HIDMouseLayout {
    /// The input report's length: buttons, X (2), Y (2), wheel.
    public static let inputReportLength = 6

    /// The report descriptor.
    public static var reportDescriptor: [UInt8] {
        var d = HIDDescriptorWriter()
        d.global(.usagePage, HIDItem.genericDesktopPage)
        d.local(.usage, 0x02)  // Mouse
        d.main(.collection, HIDItem.applicationCollection)
        d.local(.usage, 0x01)  // Pointer
        d.main(.collection, HIDItem.physicalCollection)
        d.global(.usagePage, HIDItem.buttonPage)
        d.local(.usageMinimum, 1)
        d.local(.usageMaximum, 3)
        d.global(.logicalMinimum, signed: 0)
        d.global(.logicalMaximum, signed: 1)
        d.global(.reportSize, 1)
        d.global(.reportCount, 3)
        d.main(.input, HIDItem.dataVariableAbsolute)
        d.global(.reportSize, 5)
        d.global(.reportCount, 1)
        d.main(.input, HIDItem.constant)
        d.global(.usagePage, HIDItem.genericDesktopPage)
        d.local(.usage, 0x30)  // X
        d.local(.usage, 0x31)  // Y
        d.global(.logicalMinimum, signed: -32_767)
        d.global(.logicalMaximum, signed: 32_767)
        d.global(.reportSize, 16)
        d.global(.reportCount, 2)
        d.main(.input, HIDItem.dataVariableRelative)
        d.local(.usage, 0x38)  // Wheel
        d.global(.logicalMinimum, signed: -127)
        d.global(.logicalMaximum, signed: 127)
        d.global(.reportSize, 8)
        d.global(.reportCount, 1)
        d.main(.input, HIDItem.dataVariableRelative)
        d.main(.endCollection)
        d.main(.endCollection)
        return d.bytes
    }

    /// What a transport needs to present the mouse (a USB gadget's
    /// function says subclass 0, protocol 2: a mouse, not a boot device,
    /// since its moves are 16-bit).
    public static func description(
        name: String = "gesturectl HID mouse", vendor: UInt32 = UInt32(VirtualDeviceProfile.vendor),
        product: UInt32 = UInt32(HIDDevicePlan.mouseProduct)
    ) -> HIDDeviceDescription {
        HIDDeviceDescription(
            name: name, vendor: vendor, product: product, reportDescriptor: reportDescriptor,
            inputReportLength: inputReportLength, subclass: 0, protocolCode: 2)
    }

    /// One report: `buttons` (bit 0 left, 1 right, 2 middle), a move and a
    /// wheel step, each within its field.
    public static func report(buttons: UInt8, dx: Int16, dy: Int16, wheel: Int8) -> [UInt8] {
        let x = UInt16(bitPattern: dx == .min ? -32_767 : dx)
        let y = UInt16(bitPattern: dy == .min ? -32_767 : dy)
        let w = UInt8(bitPattern: wheel == .min ? -127 : wheel)
        return [buttons & 0x07, UInt8(x & 0xFF), UInt8(x >> 8), UInt8(y & 0xFF), UInt8(y >> 8), w]
    }
}
