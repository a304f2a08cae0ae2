import Testing
import TestSupport

@testable import InputSystem
import OperatingSystem

@Suite("Device descriptions")
struct InputDeviceDescriptionTests {
    @Test("Absolute axes are listed as EV_ABS codes too")
    func axesBecomeCodes() {
        let description = TestDevices.touchscreen
        #expect(
            description.sortedCodes(of: .absolute) == [
                .absoluteX, .absoluteY, .multitouchSlot, .multitouchPositionX, .multitouchPositionY,
                .multitouchTrackingID,
            ])
        #expect(description.sortedTypes == [.key, .absolute])
        #expect(description.supports(.key, .buttonTouch))
        #expect(!description.supports(.key, .buttonLeft))
        #expect(!description.supports(.relative, .relativeX))
        #expect(description.slotCount == 10)
        #expect(TestDevices.buttons.slotCount == 0)
    }

    @Test("Equality covers every field")
    func equality() {
        let description = TestDevices.touchscreen
        #expect(description == TestDevices.touchscreen)
        var renamed = description
        renamed.name = "other"
        #expect(renamed != description)
        var finer = description
        finer.absoluteAxes[.absoluteX]?.resolution = 101
        #expect(finer != description)
        var pointer = description
        pointer.properties = [.pointer]
        #expect(pointer != description)
        var product = description
        product.product = 2
        #expect(product != description)
        var moreKeys = description
        moreKeys.codes[.key]?.insert(.buttonLeft)
        #expect(moreKeys != description)
    }

    @Test("A libevdev device built from a description reads back the same, plus EV_SYN")
    func libevdevRoundTrip() throws {
        for original in [TestDevices.touchscreen, TestDevices.buttons] {
            let template = try original.makeLibevdev()
            var readBack = InputDeviceDescription(libevdev: template.device)
            // libevdev always supports EV_SYN; the description need not say so.
            #expect(readBack.codes[.synchronization] != nil)
            readBack.codes[.synchronization] = nil
            #expect(readBack == original)
        }
    }

    @Test("Descriptions uinput would refuse are rejected with a reason")
    func validation() {
        func reason(_ change: (inout InputDeviceDescription) -> Void) -> String? {
            var description = TestDevices.touchscreen
            change(&description)
            do throws(SystemError) {
                try description.validateForUinput()
                return nil
            } catch {
                #expect(error.errorNumber == 22)
                #expect(error.call == "uinput description")
                return error.detail
            }
        }
        #expect(reason { _ in } == nil)
        #expect(reason { $0.absoluteAxes[.multitouchSlot]?.maximum = 100 }
            == "ABS_MT_SLOT must range from 0 to at most 99, not 0…100")
        #expect(reason { $0.absoluteAxes[.multitouchSlot]?.minimum = 1 }
            == "ABS_MT_SLOT must range from 0 to at most 99, not 1…9")
        #expect(reason { $0.absoluteAxes[.absoluteX]?.minimum = 30_000 }
            == "absolute axis ABS_X has minimum 30000 above maximum 21600")
        #expect(reason { $0.codes[.absolute]?.insert(.absolutePressure) }
            == "absolute axis ABS_PRESSURE has no range")
        #expect(reason { $0.codes[.key]?.insert(EventCode(rawValue: 0x300)) }
            == "EV_KEY code 0x300 is above EV_KEY's largest code")
        #expect(reason { $0.codes[EventType(rawValue: 0x20)] = [] } == "unsupported event type 0x20")
        #expect(reason { $0.properties.insert(InputProperty(rawValue: 0x20)) } == "unknown property 0x20")
        #expect(reason { $0.name = "" } == "the device name is empty")
        #expect(reason { $0.name = "a\u{0}b" } == "the device name contains a NUL byte")
        #expect(reason { $0.name = String(repeating: "x", count: 80) } == "the device name is longer than 79 bytes")
        #expect(reason { $0.name = String(repeating: "x", count: 79) } == nil)
    }
}
