import CLibevdev
import Glibc
import OperatingSystem

/// Everything that defines an evdev device's capabilities: identity,
/// properties, supported event codes and absolute axes.
///
/// It is read from an open device (``EvdevDevice/description``), used to
/// create a virtual device (``UinputDevice``), and is what evemu-style
/// exports write. Plain data, so tests can describe devices without a kernel.
public struct InputDeviceDescription: Hashable, Sendable {
    /// The device's name as the kernel reports it.
    public var name: String
    /// The bus type (`BUS_USB` = 0x03, `BUS_VIRTUAL` = 0x06, …).
    public var bus: UInt16
    /// The vendor id.
    public var vendor: UInt16
    /// The product id.
    public var product: UInt16
    /// The version number.
    public var version: UInt16
    /// The device properties (`INPUT_PROP_*`).
    public var properties: Set<InputProperty>
    /// The supported codes of each supported type. A type with no entry is
    /// not supported; `EV_SYN` is always supported by real devices.
    public var codes: [EventType: Set<EventCode>]
    /// The range of each absolute axis; every `EV_ABS` code in ``codes``
    /// needs an entry here to create a device from the description.
    public var absoluteAxes: [EventCode: AbsoluteAxisInfo]

    /// Creates a description. Codes of `absoluteAxes` are added to
    /// ``codes`` under `EV_ABS`, so they need not be listed twice.
    public init(
        name: String, bus: UInt16 = 0x06, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        properties: Set<InputProperty> = [], codes: [EventType: Set<EventCode>] = [:],
        absoluteAxes: [EventCode: AbsoluteAxisInfo] = [:]
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absoluteAxes = absoluteAxes
        if !absoluteAxes.isEmpty { self.codes[.absolute, default: []].formUnion(absoluteAxes.keys) }
    }

    /// Whether the device reports `code` of `type`.
    public func supports(_ type: EventType, _ code: EventCode) -> Bool { codes[type]?.contains(code) ?? false }

    /// The supported codes of `type`, in ascending order.
    public func sortedCodes(of type: EventType) -> [EventCode] {
        (codes[type] ?? []).sorted { $0.rawValue < $1.rawValue }
    }

    /// The supported types, in ascending order.
    public var sortedTypes: [EventType] { codes.keys.sorted { $0.rawValue < $1.rawValue } }

    /// How many contacts the device tracks (`ABS_MT_SLOT` maximum + 1); 0
    /// for a device without slots (single-touch, protocol A, pointers).
    public var slotCount: Int {
        guard let slot = absoluteAxes[.multitouchSlot], slot.maximum >= slot.minimum else { return 0 }
        return Int(slot.maximum) - Int(slot.minimum) + 1
    }
}

extension InputDeviceDescription {
    /// Reads the description of a libevdev device.
    init(libevdev device: OpaquePointer) {
        name = libevdev_get_name(device).map { String(cString: $0) } ?? ""
        bus = UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device))
        vendor = UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device))
        product = UInt16(truncatingIfNeeded: libevdev_get_id_product(device))
        version = UInt16(truncatingIfNeeded: libevdev_get_id_version(device))
        properties = []
        for property in 0...UInt32(INPUT_PROP_MAX) where libevdev_has_property(device, property) == 1 {
            properties.insert(InputProperty(rawValue: UInt16(property)))
        }
        codes = [:]
        absoluteAxes = [:]
        for type in 0...UInt32(EV_MAX) where libevdev_has_event_type(device, type) == 1 {
            var supported: Set<EventCode> = []
            let maximum = libevdev_event_type_get_max(type)
            if maximum >= 0 {
                for code in 0...UInt32(maximum) where libevdev_has_event_code(device, type, code) == 1 {
                    supported.insert(EventCode(rawValue: UInt16(code)))
                    if type == UInt32(EV_ABS), let info = libevdev_get_abs_info(device, code) {
                        absoluteAxes[EventCode(rawValue: UInt16(code))] = AbsoluteAxisInfo(
                            minimum: info.pointee.minimum, maximum: info.pointee.maximum, fuzz: info.pointee.fuzz,
                            flat: info.pointee.flat, resolution: info.pointee.resolution
                        )
                    }
                }
            }
            codes[EventType(rawValue: UInt16(type))] = supported
        }
    }

    /// Checks what libevdev and uinput would refuse, with a message that
    /// says which part is wrong (errno EINVAL, call `uinput description`).
    func validateForUinput() throws(SystemError) {
        func invalid(_ detail: String) -> SystemError {
            SystemError(call: "uinput description", path: name, errorNumber: EINVAL, detail: detail)
        }
        if name.isEmpty { throw invalid("the device name is empty") }
        if name.utf8.contains(0) { throw invalid("the device name contains a NUL byte") }
        // UINPUT_MAX_NAME_SIZE is 80 including the terminating NUL.
        if name.utf8.count > 79 { throw invalid("the device name is longer than 79 bytes") }
        for property in properties where property.rawValue > UInt16(INPUT_PROP_MAX) {
            throw invalid("unknown property \(property)")
        }
        for (type, typeCodes) in codes {
            guard type.rawValue <= UInt16(EV_MAX), let maximum = type.maximumCode else {
                throw invalid("unsupported event type \(type)")
            }
            for code in typeCodes where code.rawValue > maximum.rawValue {
                throw invalid("\(type) code \(code.nameOrNumber(type: type)) is above \(type)'s largest code")
            }
        }
        for code in codes[.absolute] ?? [] where absoluteAxes[code] == nil {
            throw invalid("absolute axis \(code.nameOrNumber(type: .absolute)) has no range")
        }
        for (code, axis) in absoluteAxes {
            let axisName = code.nameOrNumber(type: .absolute)
            if axis.minimum > axis.maximum {
                throw invalid("absolute axis \(axisName) has minimum \(axis.minimum) above maximum \(axis.maximum)")
            }
            if code == .multitouchSlot && (axis.minimum != 0 || axis.maximum > 99) {
                throw invalid("ABS_MT_SLOT must range from 0 to at most 99, not \(axis.minimum)…\(axis.maximum)")
            }
        }
    }

    /// A new libevdev device with these capabilities (not bound to a file
    /// descriptor), for `libevdev_uinput_create_from_device`.
    func makeLibevdev() throws(SystemError) -> LibevdevTemplate {
        try validateForUinput()
        let template = LibevdevTemplate(
            try Syscall.checkNull(call: "libevdev_new", path: name) { libevdev_new() })
        let device = template.device

        libevdev_set_name(device, name)
        libevdev_set_id_bustype(device, Int32(bus))
        libevdev_set_id_vendor(device, Int32(vendor))
        libevdev_set_id_product(device, Int32(product))
        libevdev_set_id_version(device, Int32(version))
        // libevdev's enable functions return -1 without an errno; the only
        // cause left after validation is a bad argument.
        func check(_ result: Int32, _ call: String, _ detail: @autoclosure () -> String) throws(SystemError) {
            if result != 0 { throw SystemError(call: call, path: name, errorNumber: EINVAL, detail: detail()) }
        }
        for property in properties.sorted(by: { $0.rawValue < $1.rawValue }) {
            try check(
                libevdev_enable_property(device, UInt32(property.rawValue)), "libevdev_enable_property",
                "property \(property)")
        }
        for type in sortedTypes {
            try check(
                libevdev_enable_event_type(device, UInt32(type.rawValue)), "libevdev_enable_event_type", "type \(type)")
            for code in sortedCodes(of: type) {
                let codeName = "\(type) \(code.nameOrNumber(type: type))"
                let result: Int32
                if type == .absolute, let axis = absoluteAxes[code] {
                    var info = input_absinfo(
                        value: axis.minimum, minimum: axis.minimum, maximum: axis.maximum, fuzz: axis.fuzz,
                        flat: axis.flat, resolution: axis.resolution)
                    result = libevdev_enable_event_code(device, UInt32(type.rawValue), UInt32(code.rawValue), &info)
                } else if type == .keyRepeat {
                    // libevdev wants a value for EV_REP codes; uinput ignores it
                    // and uses the kernel's repeat defaults.
                    var repeatValue: Int32 = 0
                    result = libevdev_enable_event_code(
                        device, UInt32(type.rawValue), UInt32(code.rawValue), &repeatValue)
                } else {
                    result = libevdev_enable_event_code(device, UInt32(type.rawValue), UInt32(code.rawValue), nil)
                }
                try check(result, "libevdev_enable_event_code", codeName)
            }
        }
        return template
    }
}
