import CLibudev
import OperatingSystem

/// Hotplug events for input devices from udev's netlink socket
/// (`udev_monitor_new_from_netlink` with "udev", filtered to the `input`
/// subsystem).
///
/// Events arrive after udev has processed a device, so an "add" means its
/// permissions and `ID_INPUT_*` properties are set. To wait for a uinput
/// device, open the monitor before creating it. One owner; `deinit`
/// releases it (`udev_monitor_unref`). Not thread-safe.
public final class UdevMonitor {
    /// The non-blocking socket to wait on with `poll`; owned by the monitor.
    public let fileDescriptor: FileDescriptor
    private let monitor: OpaquePointer
    /// Keeps the libudev context alive as long as the monitor.
    private let udev: Udev

    /// Opens and starts the monitor.
    /// - Throws: ``SystemError`` from `udev_monitor_new_from_netlink`,
    ///   `udev_monitor_filter_add_match_subsystem_devtype` or
    ///   `udev_monitor_enable_receiving` (e.g. when netlink is unavailable).
    init(udev: Udev) throws(SystemError) {
        self.udev = udev
        let monitor = try Syscall.checkNull(call: "udev_monitor_new_from_netlink", path: "udev") {
            udev_monitor_new_from_netlink(udev.context, "udev")
        }
        do throws(SystemError) {
            try Syscall.checkNegativeErrno(
                udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil),
                call: "udev_monitor_filter_add_match_subsystem_devtype", path: "input")
            try Syscall.checkNegativeErrno(
                udev_monitor_enable_receiving(monitor), call: "udev_monitor_enable_receiving", path: "udev")
            fileDescriptor = FileDescriptor(
                rawValue: try Syscall.checkNegativeErrno(
                    udev_monitor_get_fd(monitor), call: "udev_monitor_get_fd", path: "udev"))
        } catch {
            udev_monitor_unref(monitor)
            throw error
        }
        self.monitor = monitor
    }

    deinit { udev_monitor_unref(monitor) }

    /// The next pending event about an evdev node (`udev_monitor_receive_device`);
    /// events about other input nodes (`inputN`, `mouseN`, `jsN`) are
    /// skipped. `nil` when none is pending: wait until ``fileDescriptor`` is
    /// readable.
    /// - Throws: ``SystemError`` for a receive error other than EAGAIN/EINTR.
    public func receive() throws(SystemError) -> UdevEvent? {
        while true {
            guard
                let device = try Syscall.optionalResult(
                    call: "udev_monitor_receive_device", path: "udev", { udev_monitor_receive_device(monitor) })
            else { return nil }
            defer { udev_device_unref(device) }
            guard let record = UdevInputDevice(udevDevice: device) else { continue }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? "change"
            return UdevEvent(action: UdevEvent.Action(action), device: record)
        }
    }
}
