import CLibevdev
import Glibc
import OperatingSystem

/// An open evdev node (`/dev/input/eventN`) read through libevdev.
///
/// The device has one owner; `deinit` frees libevdev's state and closes the
/// descriptor. It is not thread-safe: read it from one thread or task.
/// The descriptor is non-blocking: wait for it to become readable (poll)
/// and call ``nextEvent()`` until it returns ``ReadOutcome/wouldBlock``.
public final class EvdevDevice {
    /// The node this device was opened from.
    public let path: String
    /// The open descriptor, to wait on with `poll`; owned by this object.
    public let fileDescriptor: FileDescriptor
    private let device: OpaquePointer
    /// Whether a `SYN_DROPPED` resync is in progress, so reads use
    /// `LIBEVDEV_READ_FLAG_SYNC`.
    public private(set) var isResyncing = false

    /// Opens `path` (`open` with O_RDONLY | O_NONBLOCK | O_CLOEXEC), binds
    /// libevdev to it (`libevdev_new_from_fd`) and switches its timestamps
    /// to CLOCK_MONOTONIC (`libevdev_set_clock_id`, i.e. `EVIOCSCLOCKID`).
    ///
    /// - Throws: ``SystemError`` with kind `.permissionDenied` (EACCES),
    ///   `.notFound` (ENOENT, ENODEV), or `.other`, e.g. ENOTTY from
    ///   `libevdev_new_from_fd` when the node is not an evdev device.
    public init(path: String) throws(SystemError) {
        self.path = path
        let descriptor: FileDescriptor
        do throws(SystemError) {
            descriptor = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
        } catch {
            throw error.about(.inputDevice)
        }
        var device: OpaquePointer?
        do throws(SystemError) {
            try Syscall.checkNegativeErrno(
                libevdev_new_from_fd(descriptor.rawValue, &device), call: "libevdev_new_from_fd", path: path)
            guard let device else { throw SystemError(call: "libevdev_new_from_fd", path: path, errorNumber: ENOMEM) }
            do throws(SystemError) {
                try Syscall.checkNegativeErrno(
                    libevdev_set_clock_id(device, CLOCK_MONOTONIC), call: "libevdev_set_clock_id", path: path,
                    deviceIsOpen: true)
            } catch {
                libevdev_free(device)
                throw error
            }
            self.device = device
        } catch {
            descriptor.close()
            throw error
        }
        self.fileDescriptor = descriptor
    }

    deinit {
        libevdev_free(device)
        fileDescriptor.close()
    }

    /// The device's capabilities as they are now.
    public var description: InputDeviceDescription { InputDeviceDescription(libevdev: device) }

    /// Takes the device for this reader alone (`libevdev_grab`, i.e.
    /// `EVIOCGRAB`): no other reader (compositor, X server) sees its events.
    /// - Throws: ``SystemError``; EBUSY when another process holds the grab.
    public func grab() throws(SystemError) {
        try Syscall.checkNegativeErrno(
            libevdev_grab(device, LIBEVDEV_GRAB), call: "libevdev_grab", path: path, deviceIsOpen: true)
    }

    /// Releases a ``grab()`` (`libevdev_grab` with LIBEVDEV_UNGRAB).
    public func ungrab() throws(SystemError) {
        try Syscall.checkNegativeErrno(
            libevdev_grab(device, LIBEVDEV_UNGRAB), call: "libevdev_grab", path: path, deviceIsOpen: true)
    }

    /// Reads the next event (`libevdev_next_event`).
    ///
    /// After ``ReadOutcome/resyncNeeded(_:)`` the following calls drain the
    /// resync (`LIBEVDEV_READ_FLAG_SYNC`) and return
    /// ``ReadOutcome/resyncEvent(_:)`` values, then ``ReadOutcome/resyncDone``.
    ///
    /// - Throws: ``SystemError`` with kind `.deviceVanished` when the device
    ///   was unplugged or destroyed (ENODEV); any other read error.
    public func nextEvent() throws(SystemError) -> ReadOutcome {
        var event = input_event()
        while true {
            let flags = isResyncing ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
            let result = libevdev_next_event(device, flags, &event)
            switch result {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
                // In sync mode libevdev reports every delta event as SYNC,
                // so SUCCESS is always a normal event.
                return .event(InputEvent(event))
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
                if isResyncing { return .resyncEvent(InputEvent(event)) }
                isResyncing = true
                return .resyncNeeded(InputEvent(event))
            case -EAGAIN:
                if isResyncing {
                    isResyncing = false
                    return .resyncDone
                }
                return .wouldBlock
            case -EINTR:
                continue
            default:
                try Syscall.checkNegativeErrno(result, call: "libevdev_next_event", path: path, deviceIsOpen: true)
                // A positive status libevdev does not document: report it
                // rather than guess.
                throw SystemError(call: "libevdev_next_event", path: path, errorNumber: EIO,
                                  detail: "unexpected status \(result)")
            }
        }
    }

    /// Whether events are waiting, in libevdev's queue or the kernel's
    /// (`libevdev_has_event_pending`).
    public func hasEventPending() throws(SystemError) -> Bool {
        let result = try Syscall.checkNegativeErrno(
            libevdev_has_event_pending(device), call: "libevdev_has_event_pending", path: path,
            deviceIsOpen: true)
        return result > 0
    }

    /// The number of slots (`libevdev_get_num_slots`); 0 without slots.
    public var slotCount: Int { max(0, Int(libevdev_get_num_slots(device))) }

    /// The slot selected by the last `ABS_MT_SLOT` (`libevdev_get_current_slot`);
    /// `nil` without slots.
    public var currentSlot: Int? {
        let slot = libevdev_get_current_slot(device)
        return slotCount > 0 && slot >= 0 ? Int(slot) : nil
    }

    /// The last known value of an `ABS_MT_*` code in `slot`
    /// (`libevdev_fetch_slot_value`), e.g. the tracking id (-1 when no
    /// contact) or position; `nil` when the slot or code does not exist.
    /// After a resync this is the device's real state, so a recorder can
    /// rebuild the contacts it was following.
    public func slotValue(slot: Int, code: EventCode) -> Int32? {
        guard slot >= 0, slot < slotCount else { return nil }
        var value: Int32 = 0
        guard libevdev_fetch_slot_value(device, UInt32(slot), UInt32(code.rawValue), &value) != 0 else { return nil }
        return value
    }

    /// The last known value of a non-slot code, e.g. `BTN_TOUCH` or `ABS_X`
    /// (`libevdev_fetch_event_value`); `nil` when the device lacks it.
    public func value(type: EventType, code: EventCode) -> Int32? {
        var value: Int32 = 0
        guard libevdev_fetch_event_value(device, UInt32(type.rawValue), UInt32(code.rawValue), &value) != 0
        else { return nil }
        return value
    }
}
