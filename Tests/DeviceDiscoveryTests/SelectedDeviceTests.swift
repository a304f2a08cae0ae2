import Glibc
import GestureModel
import InputSystem
import OperatingSystem
import Testing

@testable import DeviceDiscovery

/// `--device` selection opens the chosen node once and no node udev
/// described (`DeviceSelector.open`).
@Suite struct SelectedDeviceTests {
    /// A node opened by the test opener.
    final class FakeDevice {
        let node: String
        let description: InputDeviceDescription
        init(node: String, description: InputDeviceDescription) {
            self.node = node
            self.description = description
        }
    }

    /// Opens nodes from a table, counting every attempt.
    final class Opener {
        var descriptions: [String: InputDeviceDescription]
        var attempts: [String] = []
        init(_ descriptions: [String: InputDeviceDescription]) { self.descriptions = descriptions }

        func open(_ node: String) throws(SystemError) -> FakeDevice {
            attempts.append(node)
            guard let description = descriptions[node] else {
                throw SystemError(call: "open", path: node, errorNumber: EACCES)
            }
            return FakeDevice(node: node, description: description)
        }

        func opens(of node: String) -> Int { attempts.filter { $0 == node }.count }
    }

    static let touchscreenDescription = InputDeviceDescription(
        name: "ELAN Touchscreen", bus: 3, vendor: 0x04f3, product: 0x2a1c, properties: [.direct],
        codes: [.key: [.buttonTouch]],
        absoluteAxes: [.absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 100), .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 100)])
    static let lidDescription = InputDeviceDescription(name: "Lid Switch", bus: 0x19, codes: [EventType(rawValue: 0x05): [EventCode(rawValue: 0)]])  // EV_SW, SW_LID

    /// A node udev classified, named and identified.
    static func described(_ number: Int, _ name: String, _ classes: Set<InputDeviceClass>, link: String? = nil) -> UdevInputDevice {
        UdevInputDevice(
            node: "/dev/input/event\(number)", syspath: "/sys/x/event\(number)", name: name, classes: classes,
            links: link.map { [$0] } ?? [], vendor: 0x04f3, product: UInt16(number))
    }

    func select(
        _ specification: String?, _ udevDevices: [UdevInputDevice], _ opener: Opener, unlistedNodes: Bool = true,
        resolveLink: (String) -> String? = { _ in nil }, approving: (DeviceInfo) throws -> Void = { _ in }
    ) throws -> SelectedDevice<FakeDevice> {
        try DeviceSelector.open(
            specification, udevDevices: udevDevices, unlistedNodes: unlistedNodes, resolveLink: resolveLink,
            approving: approving, open: opener.open, description: \.description)
    }

    @Test func theChosenNodeIsOpenedOnceAndNodesUdevDescribedAreNotOpenedToChoose() throws {
        let touchscreen = Self.described(5, "ELAN Touchscreen", [.touchscreen], link: "/dev/input/by-id/usb-ELAN-event-if00")
        let keyboard = Self.described(0, "AT Translated Set 2 keyboard", [.keyboard, .key])
        // udev names no kind for a switch: its capabilities decide, so it is opened.
        let lid = Self.described(1, "Lid Switch", [.switch])
        let opener = Opener(["/dev/input/event5": Self.touchscreenDescription, "/dev/input/event1": Self.lidDescription])
        for specification in [nil, "/dev/input/event5", "/dev/input/by-id/usb-ELAN-event-if00", "elan", "04f3:0005"] {
            opener.attempts = []
            let selected = try select(specification, [keyboard, lid, touchscreen], opener)
            #expect(selected.device.node == "/dev/input/event5")
            #expect(selected.info.node == "/dev/input/event5" && selected.info.kind == .touchscreen)
            #expect(selected.info.description == Self.touchscreenDescription)
            #expect(opener.opens(of: "/dev/input/event5") == 1, "\(specification ?? "nil"): \(opener.attempts)")
            #expect(opener.attempts == ["/dev/input/event1", "/dev/input/event5"])
        }
    }

    @Test func aNodeOpenedToChooseIsHandedOverNotReopened() throws {
        // No udev database (a container): udev knows the nodes but not their kinds.
        let silent = UdevInputDevice(node: "/dev/input/event3", syspath: "/sys/x/event3", name: "ELAN Touchscreen", vendor: 1, product: 2)
        let lid = Self.described(1, "Lid Switch", [])
        let opener = Opener(["/dev/input/event3": Self.touchscreenDescription, "/dev/input/event1": Self.lidDescription])
        let selected = try select(nil, [lid, silent], opener)
        #expect(selected.device.node == "/dev/input/event3")
        #expect(selected.info.kind == .touchscreen)
        #expect(selected.info.name == "ELAN Touchscreen" && selected.info.vendorProduct == "0001:0002")
        #expect(opener.attempts == ["/dev/input/event1", "/dev/input/event3"])
    }

    @Test func aNodeUdevDoesNotListIsOpenedOnce() throws {
        let opener = Opener(["/dev/input/event20": Self.touchscreenDescription])
        let selected = try select("/dev/input/event20", [], opener, resolveLink: { $0 == "/dev/input/event20" ? $0 : nil })
        #expect(selected.device.node == "/dev/input/event20")
        #expect(selected.info.name == "ELAN Touchscreen" && selected.info.kind == .touchscreen)
        #expect(opener.attempts == ["/dev/input/event20"])
        // Not where the caller waits for udev to list it.
        #expect(throws: DeviceSelectionError.self) {
            try select("/dev/input/event20", [], opener, unlistedNodes: false, resolveLink: { $0 })
        }
    }

    @Test func aRefusedChoiceIsNotOpenedAndSelectionErrorsAreUnchanged() {
        let touchscreen = Self.described(5, "ELAN Touchscreen", [.touchscreen])
        let mouse = Self.described(9, "Logitech USB Mouse", [.mouse])
        let opener = Opener(["/dev/input/event5": Self.touchscreenDescription])
        struct Refused: Error {}
        #expect(throws: Refused.self) { try select("elan", [touchscreen], opener, approving: { _ in throw Refused() }) }
        #expect(opener.attempts.isEmpty)
        #expect(
            throws: DeviceSelectionError(
                kind: .ambiguous,
                message: """
                    2 devices could be meant; choose one with --device:
                      /dev/input/event5  touchscreen  ELAN Touchscreen
                      /dev/input/event9  mouse/pointer  Logitech USB Mouse
                    """)
        ) { try select(nil, [touchscreen, mouse], opener) }
        #expect(opener.attempts.isEmpty)
    }

    @Test func aChosenNodeThatCannotBeOpenedSaysWhy() {
        let touchscreen = Self.described(5, "ELAN Touchscreen", [.touchscreen])
        let opener = Opener([:])
        #expect(throws: SystemError.self) { try select(nil, [touchscreen], opener) }
        #expect(opener.attempts == ["/dev/input/event5"])
    }
}
