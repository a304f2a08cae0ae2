import InputSystem
import OperatingSystem

/// The device a `--device` specification means, with its node open.
public struct SelectedDevice<Device> {
    /// What udev and the device say about it, its description included.
    public var info: DeviceInfo
    /// The open node (an ``InputSystem/EvdevDevice``, or a test double).
    public var device: Device
}

extension DeviceSelector {
    /// Whether `path` is an evdev node's own path, `/dev/input/eventN`
    /// (no link, no other folder): the only unlisted path opened.
    public static func isEventNode(_ path: String) -> Bool {
        let prefix = "/dev/input/event"
        guard path.hasPrefix(prefix) else { return false }
        let number = path.utf8.dropFirst(prefix.utf8.count)
        return !number.isEmpty && number.count <= 10 && number.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// Picks the device `specification` means among udev's devices, as
    /// ``select(_:among:resolveLink:)`` does, and opens it, opening every
    /// node at most once.
    ///
    /// A node is opened before the choice only when udev leaves unsaid
    /// what the choice goes by (see ``DeviceCatalog/udevInfo(for:)``): its
    /// capabilities then decide its kind, as in `devices`. If that node is
    /// the one chosen, it is handed over as opened; any other is closed
    /// when this returns. The chosen node of a device udev described is
    /// opened once, after the choice.
    ///
    /// - Parameters:
    ///   - udevDevices: What udev lists (empty without udev).
    ///   - unlistedNodes: Whether a node given by path that udev does not
    ///     list (a container without udev) is opened and may be chosen.
    ///   - resolveLink: Maps a path to its target (realpath), `nil` when
    ///     nothing is there.
    ///   - approving: Called with the choice before its node is opened;
    ///     it may refuse it by throwing.
    ///   - open: Opens a node; the only way this function opens one.
    ///   - description: The capabilities of an opened node.
    /// - Throws: ``DeviceSelectionError`` when none or several match;
    ///   whatever `approving` throws; ``OperatingSystem/SystemError`` when
    ///   the chosen node (or an unlisted one given by path) cannot be opened.
    public static func open<Device>(
        _ specification: String?, udevDevices: [UdevInputDevice], unlistedNodes: Bool = true,
        resolveLink: (String) -> String?, approving: (DeviceInfo) throws -> Void = { _ in },
        open: (String) throws(SystemError) -> Device, description: (Device) -> InputDeviceDescription
    ) throws -> SelectedDevice<Device> {
        var opened: [String: Device] = [:]
        var devices = udevDevices.map { (udevDevice) -> DeviceInfo in
            if let info = DeviceCatalog.udevInfo(for: udevDevice) { return info }
            do throws(SystemError) {
                let device = try open(udevDevice.node)
                opened[udevDevice.node] = device
                return DeviceCatalog.info(for: udevDevice, description: description(device))
            } catch {
                return DeviceCatalog.info(
                    for: udevDevice, description: nil, openProblem: DeviceCatalog.openProblem(error))
            }
        }
        // Only an event node under /dev/input, whatever the path given
        // resolves to: anything else is "not found", as a missing path is,
        // so that an answer never tells which files exist (issue 36).
        if unlistedNodes, let specification, specification.hasPrefix("/"), let real = resolveLink(specification),
            isEventNode(real), !devices.contains(where: { $0.node == real })
        {
            let device = try open(real)
            opened[real] = device
            devices.append(DeviceCatalog.info(node: real, description: description(device)))
        }
        var info = try select(specification, among: devices, resolveLink: resolveLink)
        try approving(info)
        let device = try opened.removeValue(forKey: info.node) ?? open(info.node)
        info.description = description(device)
        info.openProblem = nil
        return SelectedDevice(info: info, device: device)
    }
}
