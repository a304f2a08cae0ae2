import GestureModel
import GesturePlayback
import HIDOutput
import InputSystem
import Testing

@Suite struct HIDDescriptorWriterTests {
    @Test func itemsUseTheFewestBytesThatHoldTheirValue() {
        var d = HIDDescriptorWriter()
        d.global(.logicalMinimum, signed: 0)
        d.global(.logicalMaximum, signed: 255)
        d.global(.logicalMinimum, signed: -32_767)
        d.global(.logicalMaximum, signed: 65_535)
        d.global(.unitExponent, signed: -3)
        d.global(.usagePage, 0x0D)
        d.global(.unit, 0x1001)
        d.local(.usage, 0x42)
        d.main(.input, HIDItem.dataVariableAbsolute)
        d.main(.endCollection)
        #expect(
            d.bytes == [
                0x15, 0x00, 0x26, 0xFF, 0x00, 0x16, 0x01, 0x80, 0x27, 0xFF, 0xFF, 0x00, 0x00, 0x55, 0x0D, 0x05, 0x0D,
                0x66, 0x01, 0x10, 0x09, 0x42, 0x81, 0x02, 0xC0,
            ])
    }

    @Test func itemsReadBackWithTheirSign() throws {
        var d = HIDDescriptorWriter()
        d.global(.logicalMinimum, signed: -127)
        d.global(.logicalMaximum, signed: 40_000)
        let items = try #require(HIDParsedItem.items(of: d.bytes))
        #expect(items.map(\.signedValue) == [-127, 40_000])
        #expect(HIDParsedItem.items(of: [0x26, 0xFF]) == nil)
    }
}

@Suite struct HIDTouchscreenLayoutTests {
    @Test func theDefaultTouchscreenIsTenContactsInOneSixtyFourByteReport() throws {
        let layout = try HIDTouchscreenLayout(profile: VirtualDeviceProfile.touchscreen())
        #expect(layout.contacts == 10)
        #expect(layout.axisBytes == 2)
        #expect(layout.inputReportLength == 64)
        let bytes = layout.reportDescriptor
        // Digitizer / Touch Screen / Application, report id 1.
        #expect(Array(bytes.prefix(8)) == [0x05, 0x0D, 0x09, 0x04, 0xA1, 0x01, 0x85, 0x01])
        #expect(bytes.last == 0xC0)
        #expect(bytes.count <= 4096)
        #expect(layout.featureReports[2] == [2, 10])
        #expect(layout.featureReports[3] == [3, 2, 0])
    }

    @Test(arguments: [
        (1, AbsoluteAxisInfo(minimum: 0, maximum: 21_600, resolution: 100), AbsoluteAxisInfo(minimum: 0, maximum: 13_500, resolution: 100)),
        (5, AbsoluteAxisInfo(minimum: 0, maximum: 4_095, resolution: 12), AbsoluteAxisInfo(minimum: 0, maximum: 2_303, resolution: 12)),
        (10, AbsoluteAxisInfo(minimum: -100, maximum: 100_000, resolution: 400), AbsoluteAxisInfo(minimum: 0, maximum: 60_000, resolution: 400)),
    ])
    func aLayoutReadsBackFromItsDescriptor(contacts: Int, x: AbsoluteAxisInfo, y: AbsoluteAxisInfo) throws {
        let layout = try HIDTouchscreenLayout(contacts: contacts, x: x, y: y)
        let parsed = try #require(HIDTouchscreenLayout(parsing: layout.reportDescriptor))
        #expect(parsed == layout)
        #expect(parsed.profile().description.absoluteAxes[.multitouchPositionX] == x)
        #expect(parsed.profile().description.slotCount == contacts)
    }

    @Test func pressureIsCarriedWhenTheProfileHasIt() throws {
        let geometry = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 1000, resolution: 10),
            y: AxisRange(minimum: 0, maximum: 500, resolution: 10), pressure: AxisRange(minimum: 0, maximum: 255), slots: 10)
        let layout = try HIDTouchscreenLayout(profile: VirtualDeviceProfile.touchscreen(fitting: geometry))
        #expect(layout.pressure == AbsoluteAxisInfo(minimum: 0, maximum: 255))
        #expect(HIDTouchscreenLayout(parsing: layout.reportDescriptor) == layout)
    }

    @Test func badLayoutsAreRefusedWithAReason() {
        let axis = AbsoluteAxisInfo(minimum: 0, maximum: 100, resolution: 1)
        #expect(throws: HIDTouchscreenLayout.Failure.contacts(11)) { try HIDTouchscreenLayout(contacts: 11, x: axis, y: axis) }
        #expect(throws: HIDTouchscreenLayout.Failure.axis("Y")) {
            try HIDTouchscreenLayout(contacts: 2, x: axis, y: AbsoluteAxisInfo(minimum: 5, maximum: 5))
        }
        #expect(HIDTouchscreenLayout(parsing: HIDMouseLayout.reportDescriptor) == nil)
        #expect(HIDTouchscreenLayout(parsing: [0x05]) == nil)
    }

    @Test func touchpadsAndTabletsHaveNoHIDFormAndSayWhatToDo() {
        #expect(throws: HIDDevicePlan.Failure.self) { try HIDDevicePlan.description(for: VirtualDeviceProfile.touchpad()) }
        do {
            _ = try HIDDevicePlan.description(for: VirtualDeviceProfile.tablet())
        } catch {
            #expect(error.description.contains("--as touchscreen"))
        }
        #expect((try? HIDDevicePlan.description(for: VirtualDeviceProfile.mouse()))?.inputReportLength == 6)
        #expect((try? HIDDevicePlan.description(for: VirtualKeyboard.profile()))?.inputReportLength == 9)
    }
}
