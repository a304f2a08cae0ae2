import DeviceDiscovery
import GestureEngine
import InputSystem
import OperatingSystem

/// The input devices as the protocol's `devices` reports them: the fields
/// of `gesturectl devices --json`.
enum InputDevicesJSON {
    /// Every evdev device, described.
    static func list() throws(SystemError) -> [JSONValue] { try InputDevices.list().map(describe) }

    static func describe(_ device: DeviceInfo) -> JSONValue {
        .object([
            ("node", .string(device.node)), ("name", .string(device.name)), ("kind", .string(device.kind.listingName)),
            ("links", .array(device.links.map(JSONValue.string))),
            ("vendor_product", device.vendorProduct.map(JSONValue.string) ?? .null),
            ("slots", device.kind.isGestureKind ? device.slots.map(JSONValue.integer) ?? .null : .null),
        ])
    }
}
