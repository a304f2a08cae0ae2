import DeviceDiscovery
import InputSystem
import OperatingSystem

/// An opened evdev device and what is known about it.
public struct OpenedInputDevice {
    /// What udev and the device say about it.
    public var info: DeviceInfo
    /// The open device. It has one owner: the recording that reads it
    /// (hence not `Sendable`: hand it on with `sending`).
    public var evdev: EvdevDevice
    /// A name that survives re-plugging: the by-id link's file name, else vendor:product.
    public var stableID: String? {
        if let link = info.links.first(where: { $0.hasPrefix("/dev/input/by-id/") }) {
            return String(link.split(separator: "/").last ?? Substring(link))
        }
        return info.vendorProduct
    }
}

/// Finding and opening the input device a `--device` string means.
public enum InputDevices {
    /// Every evdev device udev knows (see ``DeviceDiscovery/DeviceCatalog``).
    public static func list() throws(SystemError) -> [DeviceInfo] { try DeviceCatalog.scan() }

    /// The device `specification` names (an event node, a by-id or by-path
    /// link, a name or a unique part of one, or vendor:product), or the only
    /// touch or pointer device when it is `nil` (see
    /// ``DeviceDiscovery/DeviceSelector``). A node given by path works even
    /// where udev does not know it (a container without udev).
    /// - Throws: ``DeviceDiscovery/DeviceSelectionError`` when none or
    ///   several match; ``OperatingSystem/SystemError`` when it cannot be opened.
    public static func open(_ specification: String?) throws -> OpenedInputDevice {
        var devices = (try? DeviceCatalog.scan()) ?? []
        if let specification, specification.hasPrefix("/"), Paths.exists(specification),
            let real = Paths.realPath(specification), !devices.contains(where: { $0.node == real })
        {
            let evdev = try EvdevDevice(path: real)
            devices.append(DeviceCatalog.info(node: real, opened: evdev))
        }
        let info = try DeviceSelector.select(specification, among: devices, resolveLink: Paths.realPath)
        return OpenedInputDevice(info: info, evdev: try EvdevDevice(path: info.node))
    }
}
