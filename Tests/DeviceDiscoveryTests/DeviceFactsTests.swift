import GestureFormat
import InputSystem
import Testing
import TestSupport

@testable import DeviceDiscovery

@Suite struct DeviceFactsTests {
    @Test("A device's facts survive the trip through the protocol's JSON, so both listings print the same")
    func deviceFactsRoundTrip() throws {
        let touchscreen = DeviceInfo(
            node: "/dev/input/event5", name: "ELAN \u{1b}Touch", kind: .touchscreen,
            links: ["/dev/input/by-id/usb-ELAN-event-if00"], vendor: 0x04f3, product: 0x2a1c,
            description: TestDevices.touchscreen)
        let keyboard = DeviceInfo(node: "/dev/input/event1", name: "Power Button", kind: .keyboard, openProblem: "no access")
        for info in [touchscreen, keyboard] {
            let facts = DeviceFacts(info)
            let line = facts.json.jsonText
            #expect(DeviceFacts(json: try JSONValue.parse(Array(line.utf8))) == facts)
        }
        #expect(DeviceFacts(touchscreen).slots != nil)
        #expect(DeviceFacts(keyboard).slots == nil)
        #expect(DeviceFacts(json: .object([("node", .string("x"))])) == nil)
    }
}
