import CLibevdev
import Glibc

/// A virtual input device created through uinput.
///
/// The device exists from `init` until `deinit`, which destroys it
/// (`libevdev_uinput_destroy`) and closes the `/dev/uinput` descriptor.
/// Readers lose events they have not read when the device is destroyed, so
/// keep it a moment after the last frame. Not thread-safe: one owner.
public final class UinputDevice {
    /// The capabilities the device was created with.
    public let description: InputDeviceDescription
    /// The event node, e.g. `/dev/input/event7`; `nil` when libevdev could
    /// not find it (`libevdev_uinput_get_devnode`). The node exists at
    /// once, but udev sets its permissions and `ID_INPUT_*` tags later:
    /// wait for the "add" event on a ``UdevMonitor`` opened before creating.
    public let devnode: String?
    /// The sysfs path, e.g. `/sys/devices/virtual/input/input12`; `nil` when
    /// unknown (`libevdev_uinput_get_syspath`).
    public let syspath: String?
    private let uinputDescriptor: Int32
    private let uinput: OpaquePointer
    private let uinputPath: String

    /// Creates a device with the capabilities of `description`: checks it,
    /// builds a libevdev device from it (properties, codes, absolute axes
    /// with their resolution), opens `uinputPath` (O_RDWR | O_CLOEXEC) and
    /// calls `libevdev_uinput_create_from_device` on that descriptor.
    ///
    /// - Throws: ``SystemError``: kind `.permissionDenied` when
    ///   `/dev/uinput` may not be opened (EACCES), `.notFound` when uinput
    ///   is missing (ENOENT, ENODEV), EINVAL with a detail when the
    ///   description is not acceptable (e.g. `ABS_MT_SLOT` above 99).
    public init(description: InputDeviceDescription, uinputPath: String = "/dev/uinput") throws(SystemError) {
        self.description = description
        self.uinputPath = uinputPath
        let template = try description.makeLibevdev()
        let descriptor = try Syscall.open(uinputPath, flags: O_RDWR | O_CLOEXEC)
        var created: OpaquePointer?
        do throws(SystemError) {
            try Syscall.checkNegativeErrno(
                libevdev_uinput_create_from_device(template.device, descriptor, &created),
                call: "libevdev_uinput_create_from_device", path: uinputPath, deviceIsOpen: false,
                detail: "creating \"\(description.name)\"")
        } catch {
            Syscall.close(descriptor)
            throw error
        }
        guard let created else {
            Syscall.close(descriptor)
            throw SystemError(call: "libevdev_uinput_create_from_device", path: uinputPath, errorNumber: ENOMEM)
        }
        uinputDescriptor = descriptor
        uinput = created
        syspath = libevdev_uinput_get_syspath(created).map { String(cString: $0) }
        devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
    }

    deinit {
        // Not managed by libevdev (we opened the descriptor), so destroy
        // does not close it.
        libevdev_uinput_destroy(uinput)
        Syscall.close(uinputDescriptor)
    }

    /// Writes `frame` with one `write()` of an array of `struct input_event`,
    /// so the kernel delivers it as one unit; short writes are continued and
    /// EINTR retried.
    ///
    /// The frame should end with ``InputEvent/synchronizationReport(time:)``
    /// (readers see nothing until then). Keep frames at most 64 events:
    /// libinput drops larger ones. The kernel stamps the events itself;
    /// event times are passed through (Linux ≥ 6.5 uses a recent one).
    ///
    /// - Throws: ``SystemError`` from `write`; kind `.deviceVanished` on ENODEV.
    public func write(frame: [InputEvent]) throws(SystemError) {
        guard !frame.isEmpty else { return }
        let kernelEvents = frame.map(\.kernelEvent)
        // withUnsafeBytes does not forward typed throws: carry the error out.
        let failure: SystemError? = kernelEvents.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(uinputDescriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    let errorNumber = errno
                    if errorNumber == EINTR { continue }
                    return SystemError(
                        call: "write", path: devnode ?? uinputPath, errorNumber: errorNumber,
                        kind: Syscall.kind(of: errorNumber, deviceIsOpen: true),
                        detail: "\(frame.count) events, \(offset) of \(bytes.count) bytes written")
                }
                if written == 0 {
                    // Would loop for ever; no descriptor should do this.
                    return SystemError(
                        call: "write", path: devnode ?? uinputPath, errorNumber: EIO,
                        detail: "wrote 0 of \(bytes.count - offset) bytes")
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }
}
