import CLibevdev

/// A device property (`INPUT_PROP_*`), e.g. ``direct`` for touchscreens.
public struct InputProperty: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kernel's number for the property.
    public var rawValue: UInt16

    /// Creates a property from the kernel's number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates a property from its kernel name, e.g. `INPUT_PROP_DIRECT`;
    /// `nil` when unknown (`libevdev_property_from_name_n`).
    public init?(name: String) {
        let value = name.withCString { libevdev_property_from_name_n($0, name.utf8.count) }
        guard value >= 0, let rawValue = UInt16(exactly: value) else { return nil }
        self.rawValue = rawValue
    }

    /// `INPUT_PROP_POINTER`: moves a pointer (touchpads).
    public static let pointer = InputProperty(rawValue: UInt16(INPUT_PROP_POINTER))
    /// `INPUT_PROP_DIRECT`: touches land on the screen under them (touchscreens).
    public static let direct = InputProperty(rawValue: UInt16(INPUT_PROP_DIRECT))
    /// `INPUT_PROP_BUTTONPAD`: the whole pad clicks (clickpads).
    public static let buttonPad = InputProperty(rawValue: UInt16(INPUT_PROP_BUTTONPAD))
    /// `INPUT_PROP_SEMI_MT`: reports a bounding box, not real contacts.
    public static let semiMultitouch = InputProperty(rawValue: UInt16(INPUT_PROP_SEMI_MT))

    /// The largest property number the kernel headers know (`INPUT_PROP_MAX`).
    public static let maximum = InputProperty(rawValue: UInt16(INPUT_PROP_MAX))

    /// The kernel name, e.g. `INPUT_PROP_DIRECT`; `nil` when unknown
    /// (`libevdev_property_get_name`).
    public var name: String? { libevdev_property_get_name(UInt32(rawValue)).map { String(cString: $0) } }

    /// The kernel name, or the number in hex when unknown.
    public var description: String { name ?? "0x" + String(rawValue, radix: 16) }
}
