import Testing

@testable import OperatingSystem

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
}
