import Foundation
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Testing
import TestSupport

@testable import HIDOutput

/// /dev/uhid for real: they run in the VM (Tests/Integration/cases/50-uhid
/// loads uhid and runs this suite) and are skipped where /dev/uhid is not
/// writable, except under CI, where that fails them. Serialized: udev
/// events are broadcast.
@Suite("uhid devices", .serialized, .requiringDevice("/dev/uhid", "modprobe uhid; the VM tier runs this suite"))
struct UhidKernelTests {
    /// The boot mouse of the HID specification (Device Class Definition for
    /// HID 1.11, appendix E.10): three buttons, X and Y of -127…127, no report id.
    static let bootMouse: [UInt8] = [
        0x05, 0x01, 0x09, 0x02, 0xA1, 0x01, 0x09, 0x01, 0xA1, 0x00, 0x05, 0x09, 0x19, 0x01, 0x29, 0x03,
        0x15, 0x00, 0x25, 0x01, 0x95, 0x03, 0x75, 0x01, 0x81, 0x02, 0x95, 0x01, 0x75, 0x05, 0x81, 0x01,
        0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x15, 0x81, 0x25, 0x7F, 0x75, 0x08, 0x95, 0x02, 0x81, 0x06,
        0xC0, 0xC0,
    ]

    @Test("hid-multitouch binds the generated touchscreen: its feature reports are asked for and answered, Device Mode is set")
    func touchscreenBinds() throws {
        let description = try HIDDevicePlan.description(for: VirtualDeviceProfile.touchscreen())
        let device = try UhidDevice(description: description)
        defer { device.close() }
        let status = device.status
        // What hid-multitouch asked while binding, answered at once (the
        // kernel waits up to 5 s for each answer, and would bind without
        // the Contact Count Maximum otherwise).
        #expect(status.isStarted)
        #expect(status.reportsAnswered >= 1, "GET_REPORT of the Contact Count Maximum")
        #expect(status.reportsRefused == 0)
        #expect(status.setReports[HIDTouchscreenLayout.deviceModeReportID]?.first == HIDTouchscreenLayout.deviceModeReportID)
        let reader = try EvdevDevice(path: try #require(device.devnode))
        #expect(reader.description.properties.contains(.direct))
        #expect(reader.slotCount == 10)
        #expect(reader.description.absoluteAxes[.multitouchPositionX]?.resolution == 100)
    }

    @Test("A boot mouse is bound by a HID driver, its evdev node found, and its reports read back as events")
    func mouseRoundTrip() throws {
        let device = try UhidDevice(
            description: HIDDeviceDescription(
                name: "gesturectl uhid test mouse", vendor: 0x4753, product: 0x00F0, reportDescriptor: Self.bootMouse,
                inputReportLength: 3))
        #expect(device.status.isStarted)
        let node = try #require(device.devnode)
        #expect(device.isInitialisedByUdev)
        let reader = try EvdevDevice(path: node)
        #expect(reader.description.codes[.relative]?.contains(.relativeX) == true)
        #expect(reader.description.codes[.key]?.contains(.buttonLeft) == true)

        try device.send(report: [0x01, 0x05, 0xFD])  // left button, x +5, y -3
        try device.send(report: [0x00, 0x00, 0x00])
        var events: [InputEvent] = []
        while events.filter({ $0.type == .synchronization }).count < 2 {
            #expect(try Poll.waitReadable(reader.fileDescriptor, timeoutMilliseconds: 10_000))
            while case .event(let event) = try reader.nextEvent() { events.append(event) }
        }
        let seen = events.filter { $0.type != .synchronization && $0.type != .miscellaneous }
        #expect(
            seen.map { "\($0.type) \($0.code.nameOrNumber(type: $0.type)) \($0.value)" } == [
                "EV_KEY BTN_LEFT 1", "EV_REL REL_X 5", "EV_REL REL_Y -3", "EV_KEY BTN_LEFT 0",
            ])

        device.close()
        #expect(device.status.isStarted)
        // UHID_DESTROY unbinds at once: when close returns, the node is gone
        // or (suites run in parallel) already another device's, never ours.
        let sysfsName = "/sys/class/input/" + String(node.split(separator: "/").last ?? "") + "/device/name"
        let owner = (try? String(contentsOfFile: sysfsName, encoding: .utf8))?.split(separator: "\n").first.map(String.init)
        #expect(
            !FileManager.default.fileExists(atPath: node) || owner != "gesturectl uhid test mouse",
            "\(node) is still the test mouse after close")
        #expect(throws: UhidError.closed) { try device.send(report: [0, 0, 0]) }
    }
}
