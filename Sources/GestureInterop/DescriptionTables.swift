import InputSystem

/// The kernel's table sizes that both peers' layouts are built on.
enum KernelTables {
    /// `EV_CNT`: event types are 0 ..< 0x20.
    static let eventTypeCount: UInt16 = 0x20
    /// `INPUT_PROP_CNT`: properties are 0 ..< 0x20.
    static var propertyCount: UInt16 { InputProperty.maximum.rawValue &+ 1 }

    /// Every event type libevdev has a code table for (`EV_SYN`, `EV_KEY`,
    /// `EV_REL`, `EV_ABS`, `EV_MSC`, `EV_SW`, `EV_LED`, `EV_SND`, `EV_REP`,
    /// `EV_FF`), ascending, with its largest code.
    static let typesWithCodes: [(type: EventType, maximum: EventCode)] = (0..<eventTypeCount).compactMap { raw in
        let type = EventType(rawValue: raw)
        return type.maximumCode.map { (type, $0) }
    }

    /// The largest code of `type`, or `nil` for a type without codes or
    /// beyond `EV_MAX`.
    static func maximumCode(of type: EventType) -> EventCode? {
        type.rawValue < eventTypeCount ? type.maximumCode : nil
    }
}

// Writers cannot fail, so what no peer could express is left out here, once:
// types and codes beyond libevdev's tables, properties beyond
// INPUT_PROP_MAX. EV_SYN is not listed: every device has it and both peers
// write it themselves.
extension InputDeviceDescription {
    /// The supported types other than `EV_SYN` that have at least one
    /// writable code, ascending.
    var writableTypes: [EventType] {
        KernelTables.typesWithCodes.map(\.type).filter { $0 != .synchronization && !writableCodes(of: $0).isEmpty }
    }

    /// The supported codes of `type` that libevdev knows, ascending; for
    /// `EV_ABS` also every code that has an axis range.
    func writableCodes(of type: EventType) -> [EventCode] {
        guard let maximum = KernelTables.maximumCode(of: type) else { return [] }
        var all = codes[type] ?? []
        if type == .absolute { all.formUnion(absoluteAxes.keys) }
        return all.filter { $0.rawValue <= maximum.rawValue }.sorted { $0.rawValue < $1.rawValue }
    }

    /// The range of an absolute axis; an axis listed without a range is
    /// written as 0…0 (what the kernel reports for an unset axis).
    func writableAxis(_ code: EventCode) -> AbsoluteAxisInfo {
        absoluteAxes[code] ?? AbsoluteAxisInfo(minimum: 0, maximum: 0)
    }

    /// The properties below `INPUT_PROP_CNT`, ascending.
    var writableProperties: [InputProperty] {
        properties.filter { $0.rawValue < KernelTables.propertyCount }.sorted { $0.rawValue < $1.rawValue }
    }

    /// The physical size in whole millimetres, `(max − min) / resolution` on
    /// `ABS_X` and `ABS_Y` as both peers compute it; `nil` without both axes
    /// or without resolution on both.
    var sizeInMillimetres: (width: Int64, height: Int64)? {
        guard writableCodes(of: .absolute).contains(.absoluteX), writableCodes(of: .absolute).contains(.absoluteY)
        else { return nil }
        let x = writableAxis(.absoluteX)
        let y = writableAxis(.absoluteY)
        guard x.resolution != 0, y.resolution != 0 else { return nil }
        // In 64 bits: the peers' 32-bit subtraction is undefined on overflow.
        let width = (Int64(x.maximum) - Int64(x.minimum)) / Int64(x.resolution)
        let height = (Int64(y.maximum) - Int64(y.minimum)) / Int64(y.resolution)
        return (width, height)
    }
}
