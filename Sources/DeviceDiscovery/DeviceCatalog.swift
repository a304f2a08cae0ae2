import GestureModel
import InputSystem
import OperatingSystem

/// Finds the evdev devices on this machine through libudev.
public enum DeviceCatalog {
    /// Every /dev/input/event* device, sorted by node number, with its
    /// capabilities read where the node can be opened.
    public static func scan() throws(SystemError) -> [DeviceInfo] {
        let udev = try Udev()
        return try udev.inputDevices().map(info(for:)).sorted {
            (Int($0.node.dropFirst("/dev/input/event".count)) ?? 0) < (Int($1.node.dropFirst("/dev/input/event".count)) ?? 0)
        }
    }

    /// The record for one udev device, opening its node to read its
    /// description.
    public static func info(for device: UdevInputDevice) -> DeviceInfo {
        var description: InputDeviceDescription?
        var problem: String?
        do {
            description = try EvdevDevice(path: device.node).description
        } catch {
            problem = error.kind == .permissionDenied
                ? "no access (join the 'input' group)" : error.description
        }
        return DeviceInfo(
            node: device.node, name: device.name ?? description?.name ?? "(unnamed)",
            kind: DeviceClassifier.kind(of: description, udevClasses: device.classes), links: device.links,
            vendor: device.vendor ?? description?.vendor, product: device.product ?? description?.product,
            description: description, openProblem: problem)
    }

    /// The record for a node udev does not know (no udev in a container),
    /// from the device opened at `node`.
    public static func info(node: String, opened evdev: EvdevDevice) -> DeviceInfo {
        let description = evdev.description
        return DeviceInfo(
            node: node, name: description.name, kind: DeviceClassifier.kind(of: description),
            vendor: description.vendor, product: description.product, description: description)
    }

    /// The record for a device that is gone: only what udev said in its
    /// "remove" event (its node, name and classes; it cannot be opened).
    public static func info(removed device: UdevInputDevice) -> DeviceInfo {
        DeviceInfo(
            node: device.node, name: device.name ?? "(unnamed)",
            kind: DeviceClassifier.kind(of: nil, udevClasses: device.classes))
    }
}
