import GestureModel
import GesturePlayback
import InputSystem

/// A multitouch touchscreen as a HID digitizer: what its report descriptor
/// says, what its input reports hold, and the evdev profile frames are
/// built for.
///
/// The descriptor follows Microsoft's touchscreen sample, which every host
/// reads (Linux's hid-multitouch, Android's kernels, Windows, ChromeOS):
/// - application collection Digitizer / Touch Screen, input report id 1,
///   parallel reporting: one logical collection (Finger) per contact, each
///   with Tip Switch (1 bit and 7 of padding), Contact Identifier (8 bits),
///   Tip Pressure when the profile has `ABS_MT_PRESSURE`, X and Y with their
///   logical range, their physical range in 0.01 mm (unit cm, exponent -3)
///   so that the host derives the resolution; then Scan Time (16 bits,
///   100 µs) and Contact Count (8 bits);
/// - feature report id 2: Contact Count Maximum, whose logical maximum is
///   the real count (a USB gadget cannot answer feature requests, and hosts
///   fall back on that maximum);
/// - application collection Digitizer / Device Configuration, feature
///   report id 3: Device Mode and Device Identifier (hosts set "multi-input").
///
/// No Windows certification blob: with it, hid-multitouch releases a
/// contact after 100 ms without a report, so a held finger would lift.
public struct HIDTouchscreenLayout: Hashable, Sendable {
    /// How many contacts each report carries (1…10).
    public var contacts: Int
    /// The X axis: range and resolution (units per mm).
    public var x: AbsoluteAxisInfo
    /// The Y axis: range and resolution (units per mm).
    public var y: AbsoluteAxisInfo
    /// The pressure range, when contacts report Tip Pressure.
    public var pressure: AbsoluteAxisInfo?

    /// The input report's id.
    public static let inputReportID: UInt8 = 1
    /// The Contact Count Maximum feature report's id.
    public static let contactCountMaximumReportID: UInt8 = 2
    /// The Device Mode feature report's id.
    public static let deviceModeReportID: UInt8 = 3
    /// The most contacts a layout has: the built-in touchscreen's slots.
    public static let maximumContacts = VirtualDeviceProfile.slotCount

    /// Why a layout cannot be made.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The contact count is outside 1…10.
        case contacts(Int)
        /// An axis is empty or reversed.
        case axis(String)

        /// A one-line message.
        public var description: String {
            switch self {
            case .contacts(let count): "a HID touchscreen has 1 to \(HIDTouchscreenLayout.maximumContacts) contacts, not \(count)"
            case .axis(let name): "the \(name) axis has no range (its maximum is not above its minimum)"
            }
        }
    }

    /// A layout from its parts.
    /// - Throws: ``Failure`` for a count outside 1…10 or an empty axis.
    public init(contacts: Int, x: AbsoluteAxisInfo, y: AbsoluteAxisInfo, pressure: AbsoluteAxisInfo? = nil) throws(Failure) {
        guard (1...Self.maximumContacts).contains(contacts) else { throw .contacts(contacts) }
        guard x.maximum > x.minimum else { throw .axis("X") }
        guard y.maximum > y.minimum else { throw .axis("Y") }
        self.contacts = contacts
        self.x = AbsoluteAxisInfo(minimum: x.minimum, maximum: x.maximum, resolution: x.resolution)
        self.y = AbsoluteAxisInfo(minimum: y.minimum, maximum: y.maximum, resolution: y.resolution)
        self.pressure = pressure.flatMap { $0.maximum > $0.minimum ? AbsoluteAxisInfo(minimum: $0.minimum, maximum: $0.maximum) : nil }
    }

    /// The layout of a touchscreen profile: its position axes, its slots
    /// (at most 10) and its pressure axis.
    /// - Throws: ``Failure`` when the profile has no multitouch position axes.
    public init(profile: VirtualDeviceProfile) throws(Failure) {
        let axes = profile.description.absoluteAxes
        guard let x = axes[.multitouchPositionX] ?? axes[.absoluteX] else { throw .axis("X") }
        guard let y = axes[.multitouchPositionY] ?? axes[.absoluteY] else { throw .axis("Y") }
        let slots = profile.description.slotCount
        try self.init(
            contacts: min(max(slots, 1), Self.maximumContacts), x: x, y: y, pressure: axes[.multitouchPressure])
    }

    /// The evdev profile frames are built for: a touchscreen with these
    /// axes and as many slots as contacts, named `name`. The device the
    /// host makes from the descriptor has the same ranges and resolution.
    public func profile(name: String = "gesturectl HID touchscreen") -> VirtualDeviceProfile {
        var absolute: [EventCode: AbsoluteAxisInfo] = [
            .absoluteX: x, .absoluteY: y, .multitouchPositionX: x, .multitouchPositionY: y,
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: Int32(contacts - 1)),
            .multitouchTrackingID: VirtualDeviceProfile.trackingIDRange,
        ]
        if let pressure {
            absolute[.multitouchPressure] = pressure
            absolute[.absolutePressure] = pressure
        }
        return VirtualDeviceProfile(
            kind: .touchscreen,
            description: InputDeviceDescription(
                name: name, bus: 0x03, vendor: VirtualDeviceProfile.vendor, product: HIDDevicePlan.touchscreenProduct,
                version: VirtualDeviceProfile.version, properties: [.direct], codes: [.key: [.buttonTouch]],
                absoluteAxes: absolute))
    }

    /// Bytes of X or Y in a report: 2 when both ranges fit a signed 16-bit
    /// number, else 4.
    public var axisBytes: Int {
        let fits = [x, y].allSatisfy { Int16(exactly: $0.minimum) != nil && Int16(exactly: $0.maximum) != nil }
        return fits ? 2 : 4
    }

    /// Bytes of Tip Pressure in a report (0 without pressure).
    public var pressureBytes: Int {
        guard let pressure else { return 0 }
        return Int16(exactly: pressure.minimum) != nil && Int16(exactly: pressure.maximum) != nil ? 2 : 4
    }

    /// Bytes of one contact: tip and padding, identifier, pressure, X, Y.
    public var contactBytes: Int { 2 + pressureBytes + 2 * axisBytes }

    /// The input report's length: id, contacts, scan time (2), contact count (1).
    public var inputReportLength: Int { 1 + contacts * contactBytes + 2 + 1 }

    /// An axis's physical size in 0.01 mm (the descriptor's unit); 0 when
    /// its resolution is unknown.
    static func physicalHundredths(_ axis: AbsoluteAxisInfo) -> Int64 {
        guard axis.resolution > 0 else { return 0 }
        let extent = Int64(axis.maximum) - Int64(axis.minimum)
        return (extent * 100 + Int64(axis.resolution) / 2) / Int64(axis.resolution)
    }

    /// The report descriptor.
    public var reportDescriptor: [UInt8] {
        var d = HIDDescriptorWriter()
        d.global(.usagePage, HIDItem.digitizerPage)
        d.local(.usage, 0x04)  // Touch Screen
        d.main(.collection, HIDItem.applicationCollection)
        d.global(.reportID, UInt32(Self.inputReportID))
        for _ in 0..<contacts {
            d.global(.usagePage, HIDItem.digitizerPage)
            d.local(.usage, 0x22)  // Finger
            d.main(.collection, HIDItem.logicalCollection)
            d.global(.logicalMinimum, signed: 0)
            d.global(.logicalMaximum, signed: 1)
            d.global(.reportSize, 1)
            d.global(.reportCount, 1)
            d.local(.usage, 0x42)  // Tip Switch
            d.main(.input, HIDItem.dataVariableAbsolute)
            d.global(.reportSize, 7)
            d.main(.input, HIDItem.constant)
            d.global(.reportSize, 8)
            d.global(.logicalMaximum, signed: Int64(Self.maximumContacts - 1))
            d.local(.usage, 0x51)  // Contact Identifier
            d.main(.input, HIDItem.dataVariableAbsolute)
            if let pressure {
                d.global(.logicalMinimum, signed: Int64(pressure.minimum))
                d.global(.logicalMaximum, signed: Int64(pressure.maximum))
                d.global(.reportSize, UInt32(pressureBytes * 8))
                d.local(.usage, 0x30)  // Tip Pressure
                d.main(.input, HIDItem.dataVariableAbsolute)
            }
            d.global(.usagePage, HIDItem.genericDesktopPage)
            d.global(.unit, 0x11)  // SI linear: centimetre
            d.global(.unitExponent, signed: -3)  // 0.01 mm
            d.global(.reportSize, UInt32(axisBytes * 8))
            for (usage, axis) in [(UInt32(0x30), x), (0x31, y)] {
                d.global(.logicalMinimum, signed: Int64(axis.minimum))
                d.global(.logicalMaximum, signed: Int64(axis.maximum))
                d.global(.physicalMinimum, signed: 0)
                d.global(.physicalMaximum, signed: Self.physicalHundredths(axis))
                d.local(.usage, usage)
                d.main(.input, HIDItem.dataVariableAbsolute)
            }
            // Units and physical ranges are global: reset them so that they
            // do not apply to what follows.
            d.global(.unit, 0)
            d.global(.unitExponent, signed: 0)
            d.global(.physicalMaximum, signed: 0)
            d.main(.endCollection)
        }
        d.global(.usagePage, HIDItem.digitizerPage)
        d.global(.unit, 0x1001)  // SI linear: second
        d.global(.unitExponent, signed: -4)  // 100 µs
        d.global(.logicalMinimum, signed: 0)
        d.global(.logicalMaximum, signed: 65_535)
        d.global(.reportSize, 16)
        d.global(.reportCount, 1)
        d.local(.usage, 0x56)  // Scan Time
        d.main(.input, HIDItem.dataVariableAbsolute)
        d.global(.unit, 0)
        d.global(.unitExponent, signed: 0)
        d.global(.logicalMaximum, signed: Int64(contacts))
        d.global(.reportSize, 8)
        d.local(.usage, 0x54)  // Contact Count
        d.main(.input, HIDItem.dataVariableAbsolute)
        d.global(.reportID, UInt32(Self.contactCountMaximumReportID))
        d.local(.usage, 0x55)  // Contact Count Maximum
        d.main(.feature, HIDItem.dataVariableAbsolute)
        d.main(.endCollection)

        d.global(.usagePage, HIDItem.digitizerPage)
        d.local(.usage, 0x0E)  // Device Configuration
        d.main(.collection, HIDItem.applicationCollection)
        d.global(.reportID, UInt32(Self.deviceModeReportID))
        d.local(.usage, 0x22)  // Finger
        d.main(.collection, HIDItem.logicalCollection)
        d.local(.usage, 0x52)  // Device Mode
        d.local(.usage, 0x53)  // Device Identifier
        d.global(.logicalMinimum, signed: 0)
        d.global(.logicalMaximum, signed: 10)
        d.global(.reportSize, 8)
        d.global(.reportCount, 2)
        d.main(.feature, HIDItem.dataVariableAbsolute)
        d.main(.endCollection)
        d.main(.endCollection)
        return d.bytes
    }

    /// The answers to GET_REPORT: Contact Count Maximum (the count) and
    /// Device Mode (2: multi-input, device 0).
    public var featureReports: [UInt8: [UInt8]] {
        [
            Self.contactCountMaximumReportID: [Self.contactCountMaximumReportID, UInt8(contacts)],
            Self.deviceModeReportID: [Self.deviceModeReportID, 2, 0],
        ]
    }

    /// What a transport needs to present this touchscreen.
    public func description(
        name: String = "gesturectl HID touchscreen", vendor: UInt32 = UInt32(VirtualDeviceProfile.vendor),
        product: UInt32 = UInt32(HIDDevicePlan.touchscreenProduct)
    ) -> HIDDeviceDescription {
        HIDDeviceDescription(
            name: name, vendor: vendor, product: product, reportDescriptor: reportDescriptor,
            featureReports: featureReports, inputReportLength: inputReportLength)
    }

    /// Reads a layout back from a report descriptor this type wrote (a
    /// running gadget's `report_desc`): the contacts are the Contact
    /// Identifier fields, the axes the first X and Y fields with their
    /// logical range and the resolution their physical range gives.
    /// - Returns: `nil` when the descriptor is not such a touchscreen.
    public init?(parsing descriptor: [UInt8]) {
        guard let items = HIDParsedItem.items(of: descriptor) else { return nil }
        var page: UInt32 = 0
        var logical: (Int64, Int64) = (0, 0)
        var physical: (Int64, Int64) = (0, 0)
        var exponent: Int64 = 0
        var usages: [UInt32] = []
        var contacts = 0
        var axes: [UInt32: AbsoluteAxisInfo] = [:]
        var pressure: AbsoluteAxisInfo?
        for item in items {
            switch (item.type, item.tag) {
            case (1, HIDItem.Global.usagePage.rawValue): page = item.unsignedValue
            case (1, HIDItem.Global.logicalMinimum.rawValue): logical.0 = item.signedValue
            case (1, HIDItem.Global.logicalMaximum.rawValue): logical.1 = item.signedValue
            case (1, HIDItem.Global.physicalMinimum.rawValue): physical.0 = item.signedValue
            case (1, HIDItem.Global.physicalMaximum.rawValue): physical.1 = item.signedValue
            case (1, HIDItem.Global.unitExponent.rawValue):
                let nibble = Int64(item.unsignedValue & 0x0F)
                exponent = nibble >= 8 ? nibble - 16 : nibble
            case (2, HIDItem.Local.usage.rawValue):
                let value = item.unsignedValue
                usages.append(item.data.count == 4 ? value : page << 16 | value)
            case (0, HIDItem.Main.input.rawValue):
                for usage in usages {
                    switch usage {
                    case 0x000D_0051: contacts += 1
                    case 0x000D_0030 where pressure == nil:
                        if let low = Int32(exactly: logical.0), let high = Int32(exactly: logical.1) {
                            pressure = AbsoluteAxisInfo(minimum: low, maximum: high)
                        }
                    case 0x0001_0030, 0x0001_0031:
                        guard axes[usage] == nil, let low = Int32(exactly: logical.0), let high = Int32(exactly: logical.1)
                        else { continue }
                        axes[usage] = AbsoluteAxisInfo(
                            minimum: low, maximum: high,
                            resolution: Self.resolution(logical: logical, physical: physical, exponent: exponent))
                    default: break
                    }
                }
                usages = []
            case (0, _):
                usages = []
            default: break
            }
        }
        // Harmless: parts that make no layout are no touchscreen of ours (nil, documented), which the
        // gadget's player reports ("is not a touchscreen gesturectl made; rebuild the gadget").
        guard let x = axes[0x0001_0030], let y = axes[0x0001_0031],
            let layout = try? HIDTouchscreenLayout(contacts: contacts, x: x, y: y, pressure: pressure)
        else { return nil }
        self = layout
    }

    /// Units per mm from a logical and a physical range in centimetres ×
    /// 10^exponent, as the kernel computes it (`hidinput_calc_abs_res`).
    static func resolution(logical: (Int64, Int64), physical: (Int64, Int64), exponent: Int64) -> Int32 {
        let physicalExtent = physical.1 - physical.0
        guard physicalExtent > 0 else { return 0 }
        var logicalExtent = logical.1 - logical.0
        var physicalScaled = physicalExtent
        var power = exponent + 1  // centimetres to millimetres
        while power < 0 { logicalExtent *= 10; power += 1 }
        while power > 0 { physicalScaled *= 10; power -= 1 }
        return Int32(clamping: (logicalExtent + physicalScaled / 2) / physicalScaled)
    }
}
