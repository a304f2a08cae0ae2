import GestureModel
import InputSystem
import OperatingSystem

/// Finds the evdev devices on this machine through libudev.
public enum DeviceCatalog {
    /// Every /dev/input/event* device, sorted by node number, with its
    /// capabilities read where the node can be opened: what `devices`
    /// lists, so it opens every node (``DeviceSelector/open(_:udevDevices:unlistedNodes:resolveLink:approving:open:description:)``
    /// is the way to pick one without doing so).
    public static func scan() throws(SystemError) -> [DeviceInfo] {
        try Udev().inputDevices().map(info(for:))
    }

    /// The record for one udev device, opening its node to read its
    /// description.
    public static func info(for device: UdevInputDevice) -> DeviceInfo {
        do throws(SystemError) {
            return info(for: device, description: try EvdevDevice(path: device.node).description)
        } catch {
            return info(for: device, description: nil, openProblem: openProblem(error))
        }
    }

    /// The record for one udev device: what udev says, completed by the
    /// device's description where udev is silent.
    static func info(
        for device: UdevInputDevice, description: InputDeviceDescription?, openProblem: String? = nil
    ) -> DeviceInfo {
        DeviceInfo(
            node: device.node, name: device.name ?? description?.name ?? "(unnamed)",
            kind: DeviceClassifier.kind(of: description, udevClasses: device.classes), links: device.links,
            vendor: device.vendor ?? description?.vendor, product: device.product ?? description?.product,
            description: description, openProblem: openProblem)
    }

    /// The record for one udev device from what udev says alone, without
    /// opening its node: `nil` when udev leaves unsaid something a
    /// selection goes by (its kind: no `ID_INPUT_*` class that names one,
    /// as for a switch, a joystick, or every device where udev's database
    /// is missing; its name; its vendor or product id). The record has no
    /// description; the rest is what ``info(for:)`` would say, since udev's
    /// word wins there wherever it has one.
    public static func udevInfo(for device: UdevInputDevice) -> DeviceInfo? {
        guard let kind = DeviceClassifier.kind(udevClasses: device.classes), let name = device.name,
            let vendor = device.vendor, let product = device.product
        else { return nil }
        return DeviceInfo(node: device.node, name: name, kind: kind, links: device.links, vendor: vendor, product: product)
    }

    /// The record for a node udev does not know (no udev in a container),
    /// from the description of the device opened at `node`.
    public static func info(node: String, description: InputDeviceDescription) -> DeviceInfo {
        DeviceInfo(
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

    /// What `devices` says of a node it could not open.
    static func openProblem(_ error: SystemError) -> String {
        error.kind == .permissionDenied ? "no access (join the 'input' group)" : error.description
    }
}
