import Glibc
import OperatingSystem
import Testing
import TestSupport

@testable import InputSystem

@Suite("Errors opening devices")
struct OpenErrorTests {
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

    @Test("Opening something that is not an input node is refused before libevdev sees it, as not found")
    func openNonEvdevNode() {
        #expect(throws: SystemError(call: "open", path: "/dev/null", errorNumber: ENODEV, kind: .notFound, detail: "not an input device")) {
            _ = try EvdevDevice(path: "/dev/null")
        }
    }

    @Test("A missing uinput is reported on open, after the description is checked")
    func missingUinput() {
        let path = "/nonexistent/uinput"
        #expect(throws: SystemError(call: "open", path: path, errorNumber: 2, kind: .notFound)) {
            _ = try UinputDevice(description: TestDevices.touchscreen, uinputPath: path)
        }
        var bad = TestDevices.touchscreen
        bad.absoluteAxes[.multitouchSlot]?.maximum = 100
        #expect(throws: SystemError(
            call: "uinput description", path: bad.name, errorNumber: 22,
            detail: "ABS_MT_SLOT must range from 0 to at most 99, not 0…100")
        ) {
            _ = try UinputDevice(description: bad, uinputPath: path)
        }
    }
}
