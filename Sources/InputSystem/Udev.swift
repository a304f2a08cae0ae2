import CLibudev
import OperatingSystem

/// A libudev context: finds input devices and opens monitors.
///
/// One owner; `deinit` releases it (`udev_unref`). Not thread-safe.
public final class Udev {
    let context: OpaquePointer

    /// Creates a context (`udev_new`).
    /// - Throws: ``SystemError`` when libudev cannot start (ENOMEM).
    public init() throws(SystemError) {
        context = try Syscall.checkNull(call: "udev_new", path: nil) { udev_new() }
    }

    deinit { udev_unref(context) }

    /// The evdev nodes (`/dev/input/event*`) of the `input` subsystem, in
    /// node-number order (`udev_enumerate_scan_devices`). Devices that
    /// vanish during the scan are left out. Empty when there are none (as
    /// in a container without /dev/input).
    public func inputDevices() throws(SystemError) -> [UdevInputDevice] {
        let enumerator = try Syscall.checkNull(call: "udev_enumerate_new", path: nil) { udev_enumerate_new(context) }
        defer { udev_enumerate_unref(enumerator) }
        try Syscall.checkNegativeErrno(
            udev_enumerate_add_match_subsystem(enumerator, "input"), call: "udev_enumerate_add_match_subsystem",
            path: "input")
        try Syscall.checkNegativeErrno(
            udev_enumerate_add_match_sysname(enumerator, "event[0-9]*"), call: "udev_enumerate_add_match_sysname",
            path: "event[0-9]*")
        try Syscall.checkNegativeErrno(
            udev_enumerate_scan_devices(enumerator), call: "udev_enumerate_scan_devices", path: "input")
        var devices: [UdevInputDevice] = []
        for entry in UdevList(udev_enumerate_get_list_entry(enumerator)) {
            guard let device = udev_device_new_from_syspath(context, entry.name) else { continue }
            defer { udev_device_unref(device) }
            if let record = UdevInputDevice(udevDevice: device) { devices.append(record) }
        }
        return devices.sorted { Udev.nodeOrder($0.node, $1.node) }
    }

    /// Opens a monitor for input hotplug events (see ``UdevMonitor``).
    public func monitor() throws(SystemError) -> UdevMonitor { try UdevMonitor(udev: self) }

    /// `/dev/input/event2` before `/dev/input/event10`.
    static func nodeOrder(_ first: String, _ second: String) -> Bool {
        func number(_ node: String) -> Int? {
            Int(String(node.reversed().prefix { $0.isASCII && $0.isNumber }.reversed()))
        }
        switch (number(first), number(second)) {
        case let (left?, right?) where left != right: return left < right
        default: return first < second
        }
    }
}
