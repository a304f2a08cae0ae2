import CLibevdev

/// An evdev event type (`EV_*`), e.g. ``absolute`` for `EV_ABS`.
public struct EventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kernel's number for the type.
    public var rawValue: UInt16

    /// Creates a type from the kernel's number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates a type from its kernel name, e.g. `EV_ABS`; `nil` when
    /// libevdev does not know the name (`libevdev_event_type_from_name_n`).
    public init?(name: String) {
        let value = name.withCString { libevdev_event_type_from_name_n($0, name.utf8.count) }
        guard value >= 0, let rawValue = UInt16(exactly: value) else { return nil }
        self.rawValue = rawValue
    }

    /// `EV_SYN`: frame markers.
    public static let synchronization = EventType(rawValue: UInt16(EV_SYN))
    /// `EV_KEY`: keys and buttons.
    public static let key = EventType(rawValue: UInt16(EV_KEY))
    /// `EV_REL`: relative motion (mice, wheels).
    public static let relative = EventType(rawValue: UInt16(EV_REL))
    /// `EV_ABS`: absolute axes (touch positions, pressure, slots).
    public static let absolute = EventType(rawValue: UInt16(EV_ABS))
    /// `EV_MSC`: miscellaneous (scan codes, hardware timestamps).
    public static let miscellaneous = EventType(rawValue: UInt16(EV_MSC))

    /// `EV_REP`: the kernel's key auto-repeat (keyboards).
    public static let keyRepeat = EventType(rawValue: UInt16(EV_REP))

    /// The kernel name, e.g. `EV_ABS`; `nil` for an unknown type
    /// (`libevdev_event_type_get_name`).
    public var name: String? {
        libevdev_event_type_get_name(UInt32(rawValue)).map { String(cString: $0) }
    }

    /// The largest code of this type (`libevdev_event_type_get_max`), e.g.
    /// `ABS_MAX` for ``absolute``; `nil` for a type without codes.
    public var maximumCode: EventCode? {
        let maximum = libevdev_event_type_get_max(UInt32(rawValue))
        guard maximum >= 0, let rawValue = UInt16(exactly: maximum) else { return nil }
        return EventCode(rawValue: rawValue)
    }

    /// The kernel name, or the number in hex (e.g. `0x1f`) when unknown.
    public var description: String { name ?? "0x" + String(rawValue, radix: 16) }
}
