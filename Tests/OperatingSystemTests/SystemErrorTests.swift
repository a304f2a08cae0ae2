import Testing

@testable import InputSystem
import OperatingSystem

@Suite("System errors")
struct SystemErrorTests {
    @Test("The message names the call, the path and the errno's meaning")
    func message() {
        let error = SystemError(call: "open", path: "/dev/input/event7", errorNumber: 2)
        #expect(error.description == "open /dev/input/event7 failed: No such file or directory (errno 2)")
        #expect(error.kind == .notFound)
        let withDetail = SystemError(call: "write", errorNumber: 13, detail: "3 events")
        #expect(withDetail.description == "write failed: Permission denied (errno 13); 3 events")
        #expect(SystemError(call: "x", errorNumber: 99_999).errorMessage == "Unknown error 99999")
    }

    @Test("Errno values map to what they mean for the caller")
    func kinds() {
        #expect(SystemError.defaultKind(of: 13) == .permissionDenied)  // EACCES
        #expect(SystemError.defaultKind(of: 1) == .permissionDenied)  // EPERM
        #expect(SystemError.defaultKind(of: 2) == .notFound)  // ENOENT
        #expect(SystemError.defaultKind(of: 19) == .notFound)  // ENODEV
        #expect(SystemError.defaultKind(of: 6) == .notFound)  // ENXIO
        #expect(SystemError.defaultKind(of: 16) == .other)  // EBUSY
        #expect(Syscall.kind(of: 19, deviceIsOpen: true) == .deviceVanished)
        #expect(Syscall.kind(of: 2, deviceIsOpen: true) == .notFound)
        #expect(Syscall.kind(of: 19, deviceIsOpen: false) == .notFound)
    }

    @Test("The negative-errno funnel passes results and throws on negatives")
    func negativeErrnoFunnel() throws {
        #expect(try Syscall.checkNegativeErrno(5, call: "f", path: nil) == 5)
        #expect(throws: SystemError(call: "libevdev_grab", path: "/p", errorNumber: 16)) {
            try Syscall.checkNegativeErrno(-16, call: "libevdev_grab", path: "/p")
        }
        #expect(throws: SystemError(call: "f", path: nil, errorNumber: 19, kind: .deviceVanished)) {
            try Syscall.checkNegativeErrno(-19, call: "f", path: nil, deviceIsOpen: true)
        }
        // The most negative value must not trap when negated.
        #expect(throws: SystemError(call: "f", path: nil, errorNumber: Int32.max)) {
            try Syscall.checkNegativeErrno(Int32.min, call: "f", path: nil)
        }
    }

    @Test("Opening a missing node reports open, the path and ENOENT")
    func openMissingNode() {
        let path = "/nonexistent/gesturectl/event99"
        #expect(throws: SystemError(call: "open", path: path, errorNumber: 2, kind: .notFound)) {
            _ = try EvdevDevice(path: path)
        }
        do throws(SystemError) {
            _ = try EvdevDevice(path: path)
        } catch {
            #expect(error.description == "open \(path) failed: No such file or directory (errno 2)")
        }
    }

    @Test("Opening something that is not an evdev node reports libevdev's ENOTTY")
    func openNonEvdevNode() {
        #expect(throws: SystemError(call: "libevdev_new_from_fd", path: "/dev/null", errorNumber: 25, kind: .other)) {
            _ = try EvdevDevice(path: "/dev/null")
        }
    }

    @Test("A missing uinput is reported on open, after the description is checked")
    func missingUinput() {
        let path = "/nonexistent/uinput"
        #expect(throws: SystemError(call: "open", path: path, errorNumber: 2, kind: .notFound)) {
            _ = try UinputDevice(description: Fixtures.touchscreen, uinputPath: path)
        }
        var bad = Fixtures.touchscreen
        bad.absoluteAxes[.multitouchSlot]?.maximum = 100
        #expect(throws: SystemError(
            call: "uinput description", path: bad.name, errorNumber: 22,
            detail: "ABS_MT_SLOT must range from 0 to at most 99, not 0…100")
        ) {
            _ = try UinputDevice(description: bad, uinputPath: path)
        }
    }
}
