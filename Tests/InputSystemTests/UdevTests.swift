import Testing

@testable import InputSystem

@Suite("udev")
struct UdevTests {
    @Test("Enumeration runs and returns only evdev nodes, in node order")
    func enumeration() throws {
        let udev = try Udev()
        let devices = try udev.inputDevices()
        for device in devices {
            #expect(UdevInputDevice.isEventNode(device.node))
        }
        #expect(devices.map(\.node) == devices.map(\.node).sorted(by: Udev.nodeOrder))
    }

    @Test("A monitor opens with a pollable descriptor and nothing pending at first")
    func monitor() throws {
        let monitor = try Udev().monitor()
        #expect(monitor.fileDescriptor.rawValue >= 0)
        #expect(try monitor.receive() == nil)
    }

    @Test("Event nodes are recognised by path")
    func eventNodes() {
        #expect(UdevInputDevice.isEventNode("/dev/input/event0"))
        #expect(UdevInputDevice.isEventNode("/dev/input/event12"))
        #expect(!UdevInputDevice.isEventNode("/dev/input/event"))
        #expect(!UdevInputDevice.isEventNode("/dev/input/mouse0"))
        #expect(!UdevInputDevice.isEventNode("/dev/input/js0"))
        #expect(!UdevInputDevice.isEventNode("/dev/input/event1x"))
    }

    @Test("Nodes sort by number")
    func nodeOrder() {
        let nodes = ["/dev/input/event10", "/dev/input/event2", "/dev/input/event1"]
        #expect(nodes.sorted(by: Udev.nodeOrder) == ["/dev/input/event1", "/dev/input/event2", "/dev/input/event10"])
    }

    @Test("Properties and attributes become a device record")
    func parsing() {
        let device = UdevInputDevice(
            node: "/dev/input/event5", syspath: "/sys/devices/virtual/input/input9/event5",
            properties: [
                "ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1", "ID_INPUT_KEY": "0", "ID_INPUT_MOUSE": "1",
                "DEVNAME": "/dev/input/event5",
            ],
            links: ["/dev/input/by-path/platform-i8042-serio-1-event-mouse", "/dev/input/by-id/usb-Foo-event-mouse"],
            attributes: ["name": "SynPS/2 Synaptics TouchPad\n", "id/bustype": "0011\n", "id/vendor": "0002",
                         "id/product": "0007\n"]
        )
        #expect(device.name == "SynPS/2 Synaptics TouchPad")
        #expect(device.classes == [.touchpad, .mouse])
        #expect(device.bus == 0x11)
        #expect(device.vendor == 0x0002)
        #expect(device.product == 0x0007)
        #expect(device.links == [
            "/dev/input/by-id/usb-Foo-event-mouse", "/dev/input/by-path/platform-i8042-serio-1-event-mouse",
        ])
        #expect(device.byIDLinks == ["/dev/input/by-id/usb-Foo-event-mouse"])
        #expect(device.byPathLinks == ["/dev/input/by-path/platform-i8042-serio-1-event-mouse"])
        #expect(device.properties["DEVNAME"] == "/dev/input/event5")
    }

    @Test("Without attributes the quoted NAME property is used and ids are unknown")
    func parsingRemovedDevice() {
        let device = UdevInputDevice(
            node: "/dev/input/event5", syspath: "/sys/x", properties: ["NAME": "\"Virtual Pad\""], links: [],
            attributes: ["id/vendor": "zz"])
        #expect(device.name == "Virtual Pad")
        #expect(device.classes == [])
        #expect(device.vendor == nil)
        #expect(device.bus == nil)
    }

    @Test("The parent's uniq is kept without its newline; an empty one is nil")
    func parsingUniq() {
        func device(_ uniq: String) -> UdevInputDevice {
            UdevInputDevice(node: "/dev/input/event5", syspath: "/sys/x", properties: [:], links: [], attributes: ["uniq": uniq])
        }
        #expect(device("gesturectl-00ff\n").uniq == "gesturectl-00ff")
        #expect(device("\n").uniq == nil)
    }

    @Test("Actions are parsed from udev's words")
    func actions() {
        #expect(UdevEvent.Action("add") == .add)
        #expect(UdevEvent.Action("remove") == .remove)
        #expect(UdevEvent.Action("change") == .change)
        #expect(UdevEvent.Action("bind") == .other("bind"))
    }

    @Test("Class property names are udev's")
    func classNames() {
        #expect(InputDeviceClass.touchscreen.propertyName == "ID_INPUT_TOUCHSCREEN")
        #expect(InputDeviceClass.switch.propertyName == "ID_INPUT_SWITCH")
        #expect(InputDeviceClass.allCases.count == 12)
    }
}

