import HIDOutput
import Testing

/// Every request and event against the byte offsets of linux/uhid.h
/// (`struct uhid_event` is packed: `__u32 type`, then the union at byte 4).
@Suite struct UhidCodecTests {
    /// Little-endian bytes of a value, for building expectations by hand.
    static func bytes<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        (0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func padded(_ text: String, to count: Int) -> [UInt8] {
        Array(text.utf8) + [UInt8](repeating: 0, count: count - text.utf8.count)
    }

    @Test func eventSizeIsTheTypeAndTheLargestMember() {
        // 4 + sizeof(struct uhid_create2_req) = 4 + 128 + 64 + 64 + 2 + 2 + 4 * 4 + 4096.
        #expect(UhidCodec.eventSize == 4376)
    }

    @Test func create2HasEveryFieldAtItsOffset() throws {
        let descriptor: [UInt8] = [0x05, 0x0D, 0x09, 0x04, 0xA1, 0x01, 0xC0]
        let encoded = try UhidCodec.create2(
            name: "gesturectl virtual touchscreen", phys: "gesturectl/uhid", uniq: "gesturectl-00000000000000ab",
            bus: 0x03, vendor: 0x4753, product: 0x0001, version: 0x0102, country: 7, reportDescriptor: descriptor)
        var expected = Self.bytes(UInt32(11))
        expected += Self.padded("gesturectl virtual touchscreen", to: 128)
        expected += Self.padded("gesturectl/uhid", to: 64)
        expected += Self.padded("gesturectl-00000000000000ab", to: 64)
        expected += Self.bytes(UInt16(7)) + Self.bytes(UInt16(0x03))
        expected += Self.bytes(UInt32(0x4753)) + Self.bytes(UInt32(1)) + Self.bytes(UInt32(0x0102)) + Self.bytes(UInt32(7))
        expected += descriptor
        #expect(encoded.count == 280 + descriptor.count)
        #expect(encoded == expected)
        // The fields the kernel reads, at the header's offsets.
        #expect(encoded[260] == 7 && encoded[261] == 0)  // rd_size
        #expect(encoded[262] == 3)  // bus
        #expect(Array(encoded[264..<268]) == [0x53, 0x47, 0, 0])  // vendor
        #expect(Array(encoded[280...]) == descriptor)  // rd_data
    }

    @Test func create2CutsLongStringsAtACharacterAndKeepsTheirNul() throws {
        let name = String(repeating: "a", count: 126) + "é"  // 128 bytes: the é does not fit whole
        let encoded = try UhidCodec.create2(
            name: name, phys: String(repeating: "p", count: 80), uniq: "u", bus: 3, vendor: 1, product: 2, version: 1,
            country: 0, reportDescriptor: [0xC0])
        #expect(Array(encoded[4..<132]) == [UInt8](repeating: 0x61, count: 126) + [0, 0])
        #expect(Array(encoded[132..<196]) == [UInt8](repeating: 0x70, count: 63) + [0])
    }

    @Test func create2RefusesAnEmptyOrOversizedDescriptor() {
        for size in [0, 4097] {
            #expect(throws: UhidCodec.EncodingError.descriptorSize(size)) {
                try UhidCodec.create2(
                    name: "x", phys: "", uniq: "", bus: 3, vendor: 0, product: 0, version: 0, country: 0,
                    reportDescriptor: [UInt8](repeating: 0, count: size))
            }
        }
    }

    @Test func input2IsTypeSizeAndReport() throws {
        let report: [UInt8] = [0x01, 0x03, 0x00, 0x10, 0x27, 0x88, 0x13]
        #expect(try UhidCodec.input2(report) == [12, 0, 0, 0, 7, 0] + report)
        #expect(throws: UhidCodec.EncodingError.dataSize(4097)) { try UhidCodec.input2([UInt8](repeating: 0, count: 4097)) }
    }

    @Test func destroyIsItsTypeAlone() {
        #expect(UhidCodec.destroy() == [1, 0, 0, 0])
    }

    @Test func repliesCarryTheRequestsId() throws {
        #expect(
            try UhidCodec.getReportReply(id: 0x0102_0304, error: 0, data: [0x02, 0x0A])
                == [10, 0, 0, 0, 0x04, 0x03, 0x02, 0x01, 0, 0, 2, 0, 0x02, 0x0A])
        #expect(UhidCodec.getReportRefusal(id: 9, error: 5) == [10, 0, 0, 0, 9, 0, 0, 0, 5, 0, 0, 0])
        #expect(UhidCodec.setReportReply(id: 0xFFFF_FFFE, error: 0) == [14, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0, 0])
    }

    @Test func kernelEventsDecode() {
        var start = [UInt8](repeating: 0, count: UhidCodec.eventSize)
        start[0] = 2
        start[4] = 0b101
        #expect(UhidCodec.decode(start) == .start(flags: 5))
        #expect(UhidCodec.decode([3, 0, 0, 0]) == .stop)
        #expect(UhidCodec.decode([4, 0, 0, 0]) == .open)
        #expect(UhidCodec.decode([5, 0, 0, 0]) == .close)
        #expect(
            UhidCodec.decode([9, 0, 0, 0, 0x2A, 0, 0, 0, 0x03, 0x00])
                == .getReport(id: 42, reportNumber: 3, reportType: 0))
        #expect(
            UhidCodec.decode([13, 0, 0, 0, 7, 0, 0, 0, 0x04, 0x00, 2, 0, 0x04, 0x02])
                == .setReport(id: 7, reportNumber: 4, reportType: 0, data: [0x04, 0x02]))
        var output = [UInt8](repeating: 0, count: UhidCodec.eventSize)
        output[0] = 6
        output[4] = 0x11
        output[4100] = 1
        output[4102] = 1
        #expect(UhidCodec.decode(output) == .output(reportType: 1, data: [0x11]))
    }

    @Test func shortAndUnknownEventsAreNotMisread() {
        #expect(UhidCodec.decode([]) == .other(type: 0, size: 0))
        #expect(UhidCodec.decode([99, 0, 0, 0]) == .other(type: 99, size: 4))
        // A short GET_REPORT is extended with zeros, as the header asks.
        #expect(UhidCodec.decode([9, 0, 0, 0, 1]) == .getReport(id: 1, reportNumber: 0, reportType: 0))
        // A SET_REPORT claiming more than it carries is cut to what the header allows, zero-filled.
        #expect(UhidCodec.decode([13, 0, 0, 0, 1, 0, 0, 0, 2, 0, 3, 0, 9]) == .setReport(id: 1, reportNumber: 2, reportType: 0, data: [9, 0, 0]))
    }
}
