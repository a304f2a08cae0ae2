import DeviceDiscovery
import InputSystem
import OperatingSystem

/// A device coming or going, as a device watch reports it.
public struct DeviceEvent: Sendable {
    /// Whether the device came or went.
    public enum Change: String, Sendable {
        case added, removed
    }

    /// Whether it came or went.
    public var change: Change
    /// The device (for a removed one, only what udev still said: its node,
    /// name and classes).
    public var device: DeviceInfo
}

extension Engine {
    /// How the device-watch thread is set up: named `gesturectl-udev`.
    public static let watchThread = ThreadOptions(name: "gesturectl-udev")

    /// Follows udev's hotplug events on a dedicated thread
    /// (``watchThread``) and reports each evdev node added or removed as
    /// progress, until cancelled. The result is `nil` after a cancel, or the
    /// error that ended the watch.
    /// - Throws: ``OperatingSystem/SystemError`` when udev's monitor or the
    ///   thread cannot be set up.
    public func startWatchingDevices() throws(SystemError) -> JobHandle<SystemError?, DeviceEvent> {
        let monitor = try Udev().monitor()
        let handle = JobHandle<SystemError?, DeviceEvent>()
        let cancelled = try handle.cancellation.fileDescriptor
        try DedicatedThread.start(Self.watchThread) {
            handle.finish(Self.watch(monitor, cancelled: cancelled, handle: handle))
        }
        return handle
    }

    private static func watch(
        _ monitor: UdevMonitor, cancelled: FileDescriptor, handle: JobHandle<SystemError?, DeviceEvent>
    ) -> SystemError? {
        do throws(SystemError) {
            while true {
                let ready = try Poll.wait([(monitor.fileDescriptor, .readable), (cancelled, .readable)], timeoutMilliseconds: nil)
                if !ready[1].isEmpty || handle.isCancelled { return nil }
                while let event = try monitor.receive() {
                    guard UdevInputDevice.isEventNode(event.device.node) else { continue }
                    switch event.action {
                    case .add:
                        handle.report(DeviceEvent(change: .added, device: DeviceCatalog.info(for: event.device)))
                    case .remove:
                        handle.report(DeviceEvent(change: .removed, device: DeviceCatalog.info(removed: event.device)))
                    default:
                        continue
                    }
                }
            }
        } catch {
            return error
        }
    }
}
