import HIDOutput
import Testing

@Test func descriptionKeepsWhatItIsGiven() {
    let description = HIDDeviceDescription(name: "x", vendor: 1, product: 2, reportDescriptor: [0x05, 0x01], inputReportLength: 4)
    #expect(description.bus == 0x03)
    #expect(description.reportDescriptor == [0x05, 0x01])
}
