import CLibevdev
import Glibc
import OperatingSystem

/// A virtual input device created through uinput.
///
/// The device exists from `init` until `deinit`, which destroys it
/// (`libevdev_uinput_destroy`) and closes the `/dev/uinput` descriptor.
/// Readers lose events they have not read when the device is destroyed, so
/// keep it a moment after the last frame.
///
/// `@unchecked Sendable`: every stored property is set in `init` and never
/// changes; ``write(frame:)`` is one `write(2)` system call, which the
/// kernel serialises; libevdev's object is used again only by `deinit`.
public final class UinputDevice: @unchecked Sendable {
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
    private let uinputDescriptor: FileDescriptor
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
        let descriptor: FileDescriptor
        do throws(SystemError) {
            descriptor = try FileDescriptor.open(uinputPath, .readWrite)
        } catch {
            // Whatever the path, this is uinput: the advice is about loading it or access to it.
            throw error.about(.uinput)
        }
        var created: OpaquePointer?
        do throws(SystemError) {
            try Syscall.checkNegativeErrno(
                libevdev_uinput_create_from_device(template.device, descriptor.rawValue, &created),
                call: "libevdev_uinput_create_from_device", path: uinputPath, deviceIsOpen: false,
                detail: "creating \"\(description.name)\"")
        } catch {
            descriptor.close()
            throw error
        }
        guard let created else {
            descriptor.close()
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
        uinputDescriptor.close()
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
        try InputEvent.write(frame, to: uinputDescriptor, path: devnode ?? uinputPath)
    }
}

extension InputEvent {
    /// Writes `frame` to `descriptor` as one `write()` of an array of
    /// `struct input_event` (``UinputDevice/write(frame:)``'s path, which a
    /// benchmark can run against any descriptor); short writes are
    /// continued and EINTR retried.
    /// - Throws: ``SystemError`` from `write`, naming `path` and the event
    ///   count; kind `.deviceVanished` on ENODEV.
    public static func write(_ frame: [InputEvent], to descriptor: FileDescriptor, path: String) throws(SystemError) {
        guard !frame.isEmpty else { return }
        // The kernel's structures go in a buffer on the stack, not in an
        // array made per frame: a play writes up to 1,000 frames a second,
        // and under emulation each allocation costs as much as a system call.
        // withUnsafeTemporaryAllocation does not forward typed throws: carry the error out.
        let failure: SystemError? = withUnsafeTemporaryAllocation(of: input_event.self, capacity: frame.count) {
            buffer in
            for index in frame.indices { buffer.initializeElement(at: index, to: frame[index].kernelEvent) }
            do throws(SystemError) {
                try descriptor.writeAll(UnsafeRawBufferPointer(buffer), path: path, deviceIsOpen: true)
                return nil
            } catch {
                return error
            }
        }
        // The detail is made only for an error: every frame of a play comes here.
        if var failure {
            failure.detail = ["\(frame.count) events", failure.detail].compactMap { $0 }.joined(separator: ", ")
            throw failure
        }
    }
}
