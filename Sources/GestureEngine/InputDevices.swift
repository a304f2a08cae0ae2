import DeviceDiscovery
import GestureRecording
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

/// An input opened for a recording: its events and what it is.
public struct OpenedInput {
    /// Its events. It has one owner: the recording that reads it.
    public var source: any EventSource
    /// What it is (it decides the recorder's geometry).
    public var description: InputDeviceDescription
    /// What the recording reports as its device.
    public var info: DeviceInfo
    /// A name that survives re-plugging (see ``OpenedInputDevice/stableID``).
    public var stableID: String?
    /// Its state when opened (contacts already down, keys held).
    public var initialState: DeviceStateSnapshot

    /// Creates an opened input.
    public init(
        source: any EventSource, description: InputDeviceDescription, info: DeviceInfo, stableID: String?,
        initialState: DeviceStateSnapshot = DeviceStateSnapshot()
    ) {
        self.source = source
        self.description = description
        self.info = info
        self.stableID = stableID
        self.initialState = initialState
    }
}

/// Where the engine's inputs come from: the kernel's evdev devices found
/// through udev (``system``), or test doubles. Only the edge is replaced:
/// the engine keeps its checks, its recording and watch loops, and what it
/// reports.
public struct InputFactory: Sendable {
    /// Opens the input a recording reads: the device `request.device`
    /// names (the only touch or pointer device when `nil`), taken for the
    /// recording alone when `request.grab` is set.
    public var openRecording: @Sendable (RecordRequest) throws -> OpenedInput
    /// Where a trigger watch finds its device, and learns of devices
    /// coming and going.
    public var triggerDevices: @Sendable (TriggerRequest) throws(SystemError) -> any TriggerDevices

    /// Opens the source of live fingertips: the device the `--device`
    /// string names (the only touch or pointer device when `nil`), taken
    /// for the session alone (EVIOCGRAB) until its source is let go. A
    /// device another program holds is refused with a
    /// ``FingertipsError`` naming it.
    public var openLiveSource: @Sendable (String?) throws -> OpenedInput

    /// Creates a factory from its operations. `triggerDevices` defaults
    /// to the system's (``UdevTriggerDevices``); `openLiveSource` to
    /// `openRecording` with a grab.
    public init(
        openRecording: @escaping @Sendable (RecordRequest) throws -> OpenedInput,
        triggerDevices: @escaping @Sendable (TriggerRequest) throws(SystemError) -> any TriggerDevices = {
            (request) throws(SystemError) in try UdevTriggerDevices(request)
        },
        openLiveSource: (@Sendable (String?) throws -> OpenedInput)? = nil
    ) {
        self.openRecording = openRecording
        self.triggerDevices = triggerDevices
        self.openLiveSource = openLiveSource ?? { device in
            try openRecording(RecordRequest(device: device, grab: true, details: RecordingDetails(name: "fingertips")))
        }
    }

    /// The system's inputs: evdev devices chosen among those udev lists
    /// (``InputDevices/open(_:)``), trigger devices followed through udev.
    public static let system = InputFactory(openRecording: { request in
        let device = try InputDevices.open(request.device)
        // The grab ends when the recording's source is released.
        if request.grab { try device.evdev.grab() }
        return OpenedInput(
            source: device.evdev, description: device.evdev.description, info: device.info, stableID: device.stableID,
            initialState: device.evdev.recordingSnapshot())
    }, openLiveSource: { specification in
        // Harmless: udev failing lists nothing; a node given by path still opens (see InputDevices.open).
        let device = try InputDevices.open(specification, udevDevices: (try? Udev().inputDevices()) ?? []) {
            // Never the fingertips' own device, nor another of gesturectl's.
            if Engine.isOwnVirtualDevice(name: $0.name) { throw FingertipsError.ownDevice(name: $0.name, node: $0.node) }
        }
        do throws(SystemError) {
            try device.evdev.grab()
        } catch {
            throw FingertipsError.grabFailed(error, name: device.info.name, node: device.info.node)
        }
        return OpenedInput(
            source: device.evdev, description: device.evdev.description, info: device.info, stableID: device.stableID)
    })
}
