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
    /// ``DeviceDiscovery/DeviceSelector``), opened. A node given by path
    /// works even where udev does not know it (a container without udev).
    ///
    /// The choice goes by udev's properties; only the nodes udev says too
    /// little about are opened to choose, and no node is opened twice (see
    /// ``DeviceDiscovery/DeviceSelector/open(_:udevDevices:unlistedNodes:resolveLink:approving:open:description:)``).
    /// - Throws: ``DeviceDiscovery/DeviceSelectionError`` when none or
    ///   several match; ``OperatingSystem/SystemError`` when it cannot be opened.
    public static func open(_ specification: String?) throws -> OpenedInputDevice {
        // Harmless: udev failing lists nothing, as in a container without udev: a node given by path still opens, and anything else is refused saying no input devices are visible.
        try open(specification, udevDevices: (try? Udev().inputDevices()) ?? [])
    }

    /// ``open(_:)`` among `udevDevices`, the nodes udev listed.
    /// - Parameters:
    ///   - unlistedNodes: Whether a node given by path that udev does not
    ///     list may be chosen.
    ///   - approving: Called with the choice before its node is opened.
    static func open(
        _ specification: String?, udevDevices: [UdevInputDevice], unlistedNodes: Bool = true,
        approving: (DeviceInfo) throws -> Void = { _ in }
    ) throws -> OpenedInputDevice {
        let selected = try DeviceSelector.open(
            specification, udevDevices: udevDevices, unlistedNodes: unlistedNodes, resolveLink: Paths.realPath,
            approving: approving, open: { (node) throws(SystemError) in try EvdevDevice(path: node) },
            description: \.description)
        return OpenedInputDevice(info: selected.info, evdev: selected.device)
    }
}
