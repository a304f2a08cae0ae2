/// The short items of a HID report descriptor (HID 1.11, 6.2.2), written
/// and read back.
///
/// An item is a prefix byte — tag (4 bits), type (2 bits: main, global,
/// local), size (2 bits: 0, 1, 2 or 4 data bytes) — and its data, little
/// endian. Only what this module's layouts use is named here.
public enum HIDItem {
    /// Main items (type 0).
    public enum Main: UInt8, Sendable {
        case input = 0x8, output = 0x9, feature = 0xB, collection = 0xA, endCollection = 0xC
    }
    /// Global items (type 1).
    public enum Global: UInt8, Sendable {
        case usagePage = 0x0, logicalMinimum = 0x1, logicalMaximum = 0x2, physicalMinimum = 0x3
        case physicalMaximum = 0x4, unitExponent = 0x5, unit = 0x6, reportSize = 0x7, reportID = 0x8
        case reportCount = 0x9, push = 0xA, pop = 0xB
    }
    /// Local items (type 2).
    public enum Local: UInt8, Sendable {
        case usage = 0x0, usageMinimum = 0x1, usageMaximum = 0x2
    }

    /// Input/Feature flags: Data, Variable, Absolute.
    public static let dataVariableAbsolute: UInt32 = 0x02
    /// Input flags: Data, Variable, Relative.
    public static let dataVariableRelative: UInt32 = 0x06
    /// Input flags: Data, Array, Absolute (a list of pressed usages).
    public static let dataArrayAbsolute: UInt32 = 0x00
    /// Input flags: Constant (padding).
    public static let constant: UInt32 = 0x03
    /// Collection: Physical.
    public static let physicalCollection: UInt32 = 0x00
    /// Collection: Application.
    public static let applicationCollection: UInt32 = 0x01
    /// Collection: Logical.
    public static let logicalCollection: UInt32 = 0x02

    /// Usage pages.
    public static let genericDesktopPage: UInt32 = 0x01
    /// The keyboard/keypad usage page.
    public static let keyboardPage: UInt32 = 0x07
    /// The button usage page.
    public static let buttonPage: UInt32 = 0x09
    /// The consumer usage page.
    public static let consumerPage: UInt32 = 0x0C
    /// The digitizer usage page.
    public static let digitizerPage: UInt32 = 0x0D
}

/// Writes the bytes of a report descriptor, item by item, each with the
/// fewest data bytes that hold its value (signed values sign-extended, as
/// hosts read logical and physical ranges).
public struct HIDDescriptorWriter: Sendable {
    /// The descriptor so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty descriptor.
    public init() {}

    /// A main item with its flags (0 data bytes for End Collection).
    public mutating func main(_ tag: HIDItem.Main, _ flags: UInt32 = 0) {
        if tag == .endCollection { bytes.append(tag.rawValue << 4) } else { unsigned(tag.rawValue, type: 0, flags) }
    }

    /// A global item whose value is a number that may be negative
    /// (logical and physical ranges, the unit exponent).
    public mutating func global(_ tag: HIDItem.Global, signed value: Int64) {
        if tag == .unitExponent {
            // A 4-bit two's complement nibble, as the HID tables write it (-3 is 0x0D).
            append(prefix: tag.rawValue, type: 1, data: [UInt8(truncatingIfNeeded: value) & 0x0F])
            return
        }
        let data: [UInt8] =
            if Int8(exactly: value) != nil { [UInt8(truncatingIfNeeded: value)] }
            else if Int16(exactly: value) != nil { littleEndian(value, count: 2) }
            else { littleEndian(value, count: 4) }
        append(prefix: tag.rawValue, type: 1, data: data)
    }

    /// A global item whose value is never negative (usage page, unit,
    /// report size, id and count).
    public mutating func global(_ tag: HIDItem.Global, _ value: UInt32) { unsigned(tag.rawValue, type: 1, value) }

    /// A local item (usage, usage minimum and maximum).
    public mutating func local(_ tag: HIDItem.Local, _ value: UInt32) { unsigned(tag.rawValue, type: 2, value) }

    private mutating func unsigned(_ tag: UInt8, type: UInt8, _ value: UInt32) {
        let data: [UInt8] =
            if value <= 0xFF { [UInt8(value)] } else if value <= 0xFFFF { littleEndian(Int64(value), count: 2) }
            else { littleEndian(Int64(value), count: 4) }
        append(prefix: tag, type: type, data: data)
    }

    private mutating func append(prefix tag: UInt8, type: UInt8, data: [UInt8]) {
        let sizeCode: UInt8 = switch data.count {
        case 0: 0
        case 1: 1
        case 2: 2
        default: 3
        }
        bytes.append(tag << 4 | type << 2 | sizeCode)
        bytes.append(contentsOf: data)
    }

    private func littleEndian(_ value: Int64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// One short item read from a report descriptor.
public struct HIDParsedItem: Hashable, Sendable {
    /// 0 main, 1 global, 2 local.
    public var type: UInt8
    /// The item's tag within its type.
    public var tag: UInt8
    /// The data bytes (0, 1, 2 or 4).
    public var data: [UInt8]

    /// The data as an unsigned number.
    public var unsignedValue: UInt32 {
        data.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The data as a signed number (sign-extended from its size).
    public var signedValue: Int64 {
        switch data.count {
        case 1: Int64(Int8(bitPattern: data[0]))
        case 2: Int64(Int16(bitPattern: UInt16(unsignedValue)))
        case 4: Int64(Int32(bitPattern: unsignedValue))
        default: 0
        }
    }

    /// Splits `descriptor` into items; `nil` when it ends inside an item or
    /// holds a long item (this module never writes one).
    public static func items(of descriptor: [UInt8]) -> [HIDParsedItem]? {
        var items: [HIDParsedItem] = []
        var index = 0
        while index < descriptor.count {
            let prefix = descriptor[index]
            if prefix == 0xFE { return nil }
            let size = [0, 1, 2, 4][Int(prefix & 0x03)]
            guard index + 1 + size <= descriptor.count else { return nil }
            items.append(
                HIDParsedItem(
                    type: (prefix >> 2) & 0x03, tag: prefix >> 4, data: Array(descriptor[(index + 1)..<(index + 1 + size)])))
            index += 1 + size
        }
        return items
    }
}
