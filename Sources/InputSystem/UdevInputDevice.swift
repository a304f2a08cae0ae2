import CLibudev

/// An evdev node as udev knows it: where it is, what it is, and its stable
/// links.
public struct UdevInputDevice: Hashable, Sendable {
    /// The event node, e.g. `/dev/input/event4`.
    public var node: String
    /// The sysfs path of the node, e.g.
    /// `/sys/devices/virtual/input/input12/event4`.
    public var syspath: String
    /// The kernel's device name (the parent input device's `name`
    /// attribute, or udev's `NAME` property); `nil` when unknown, as for a
    /// device already removed.
    public var name: String?
    /// The classes udev tagged (`ID_INPUT_*=1`).
    public var classes: Set<InputDeviceClass>
    /// Every udev property of the node (`ID_INPUT`, `ID_PATH`, `DEVLINKS`, …).
    public var properties: [String: String]
    /// The node's symbolic links (`DEVLINKS`), sorted, e.g.
    /// `/dev/input/by-id/usb-…-event-mouse`.
    public var links: [String]
    /// The bus type (`id/bustype`), when readable.
    public var bus: UInt16?
    /// The vendor id (`id/vendor`), when readable.
    public var vendor: UInt16?
    /// The product id (`id/product`), when readable.
    public var product: UInt16?
    /// The parent input device's unique identifier (`uniq`: a serial
    /// number, or the string a uhid device was created with), `nil` when
    /// empty or unreadable.
    public var uniq: String?

    /// Creates a device record.
    public init(
        node: String, syspath: String, name: String? = nil, classes: Set<InputDeviceClass> = [],
        properties: [String: String] = [:], links: [String] = [], bus: UInt16? = nil, vendor: UInt16? = nil,
        product: UInt16? = nil, uniq: String? = nil
    ) {
        self.node = node
        self.syspath = syspath
        self.name = name
        self.classes = classes
        self.properties = properties
        self.links = links
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.uniq = uniq
    }

    /// The `/dev/input/by-id/` links (stable across ports for USB devices).
    public var byIDLinks: [String] { links.filter { $0.hasPrefix("/dev/input/by-id/") } }
    /// The `/dev/input/by-path/` links (stable for a given port).
    public var byPathLinks: [String] { links.filter { $0.hasPrefix("/dev/input/by-path/") } }

    /// Whether `path` is an evdev node (`/dev/input/event` and a number).
    public static func isEventNode(_ path: String) -> Bool {
        let prefix = "/dev/input/event"
        guard path.hasPrefix(prefix) else { return false }
        let number = path.dropFirst(prefix.count)
        return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension UdevInputDevice {
    /// Builds a record from udev's data, without touching libudev, so the
    /// parsing is testable: `attributes` are the parent input device's sysfs
    /// attributes (`name`, `id/bustype`, `id/vendor`, `id/product`, `uniq`).
    init(node: String, syspath: String, properties: [String: String], links: [String], attributes: [String: String]) {
        var classes: Set<InputDeviceClass> = []
        for inputClass in InputDeviceClass.allCases where properties[inputClass.propertyName] == "1" {
            classes.insert(inputClass)
        }
        var name = attributes["name"].map { $0.trimmingTrailingNewlines() }
        if name == nil, let quoted = properties["NAME"] {
            // udev quotes the NAME property of input devices: "\"Foo\"".
            name = quoted.count >= 2 && quoted.hasPrefix("\"") && quoted.hasSuffix("\"")
                ? String(quoted.dropFirst().dropLast()) : quoted
        }
        self.init(
            node: node, syspath: syspath, name: name, classes: classes, properties: properties,
            links: links.sorted(), bus: UdevInputDevice.hexIdentifier(attributes["id/bustype"]),
            vendor: UdevInputDevice.hexIdentifier(attributes["id/vendor"]),
            product: UdevInputDevice.hexIdentifier(attributes["id/product"]),
            uniq: attributes["uniq"].map { $0.trimmingTrailingNewlines() }.flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    /// Parses a sysfs id such as `045e` or `045e\n`; `nil` when absent or invalid.
    static func hexIdentifier(_ text: String?) -> UInt16? {
        guard let text else { return nil }
        return UInt16(text.trimmingTrailingNewlines(), radix: 16)
    }

    /// Reads a record from a libudev device; `nil` when it is not an evdev
    /// node. `device` is borrowed.
    init?(udevDevice device: OpaquePointer) {
        guard let nodePointer = udev_device_get_devnode(device) else { return nil }
        let node = String(cString: nodePointer)
        guard UdevInputDevice.isEventNode(node) else { return nil }
        let syspath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
        var properties: [String: String] = [:]
        for (key, value) in UdevList(udev_device_get_properties_list_entry(device)) { properties[key] = value ?? "" }
        let links = UdevList(udev_device_get_devlinks_list_entry(device)).map(\.name)
        var attributes: [String: String] = [:]
        // The event node's parent `inputN` carries the name and ids; it is
        // owned by `device`, so it is not unreferenced here.
        if let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil) {
            for attribute in ["name", "id/bustype", "id/vendor", "id/product", "uniq"] {
                if let value = udev_device_get_sysattr_value(parent, attribute) {
                    attributes[attribute] = String(cString: value)
                }
            }
        }
        self.init(node: node, syspath: syspath, properties: properties, links: links, attributes: attributes)
    }
}

/// The entries of a libudev list (borrowed from its owner, which must outlive the iteration).
struct UdevList: Sequence {
    let first: OpaquePointer?

    init(_ first: OpaquePointer?) { self.first = first }

    func makeIterator() -> AnyIterator<(name: String, value: String?)> {
        var entry = first
        return AnyIterator {
            guard let current = entry else { return nil }
            entry = udev_list_entry_get_next(current)
            let name = udev_list_entry_get_name(current).map { String(cString: $0) } ?? ""
            let value = udev_list_entry_get_value(current).map { String(cString: $0) }
            return (name, value)
        }
    }
}

extension String {
    /// The string without trailing `\n` (sysfs attributes end with one).
    func trimmingTrailingNewlines() -> String {
        var result = Substring(self)
        while result.last == "\n" { result = result.dropLast() }
        return String(result)
    }
}
