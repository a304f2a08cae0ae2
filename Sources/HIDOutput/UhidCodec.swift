/// The bytes of `struct uhid_event` (linux/uhid.h), in pure Swift.
///
/// The struct is packed: a `__u32 type`, then a union whose members start
/// at byte 4. Integers are in the host's byte order (the kernel copies the
/// struct as is); Linux on every platform Swift runs on here (x86-64,
/// arm64) is little-endian, which these functions write and read. The
/// kernel accepts writes shorter than the whole struct and zero-fills the
/// rest, so each request is only as long as its fields and data.
///
/// | event | fields after `type` (byte offsets in the event) |
/// |---|---|
/// | CREATE2 (11) | name[128] @4, phys[64] @132, uniq[64] @196, rd_size u16 @260, bus u16 @262, vendor u32 @264, product u32 @268, version u32 @272, country u32 @276, rd_data[4096] @280 |
/// | INPUT2 (12) | size u16 @4, data @6 |
/// | DESTROY (1) | none |
/// | START (2) | dev_flags u64 @4 |
/// | OUTPUT (6) | data[4096] @4, size u16 @4100, rtype u8 @4102 |
/// | GET_REPORT (9) | id u32 @4, rnum u8 @8, rtype u8 @9 |
/// | GET_REPORT_REPLY (10) | id u32 @4, err u16 @8, size u16 @10, data @12 |
/// | SET_REPORT (13) | id u32 @4, rnum u8 @8, rtype u8 @9, size u16 @10, data @12 |
/// | SET_REPORT_REPLY (14) | id u32 @4, err u16 @8 |
public enum UhidCodec {
    /// `sizeof(struct uhid_event)`: the type and the largest union member
    /// (`uhid_create2_req`, 4372 bytes). A read of this size takes one whole event.
    public static let eventSize = 4 + 128 + 64 + 64 + 2 + 2 + 4 * 4 + maximumDescriptorSize
    /// `HID_MAX_DESCRIPTOR_SIZE`: the longest report descriptor.
    public static let maximumDescriptorSize = 4096
    /// `UHID_DATA_MAX`: the longest report.
    public static let maximumDataSize = 4096
    /// The longest name, phys and uniq the kernel keeps (their arrays less the final NUL).
    public static let maximumNameLength = 127
    public static let maximumPhysLength = 63
    public static let maximumUniqLength = 63

    /// `enum uhid_event_type`.
    public enum EventType: UInt32, Hashable, Sendable {
        case destroy = 1, start = 2, stop = 3, open = 4, close = 5, output = 6
        case getReport = 9, getReportReply = 10, create2 = 11, input2 = 12, setReport = 13, setReportReply = 14
    }

    /// `enum uhid_report_type`.
    public enum ReportType: UInt8, Hashable, Sendable {
        case feature = 0, output = 1, input = 2
    }

    /// Why a request cannot be encoded.
    public enum EncodingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The report descriptor is empty or longer than 4096 bytes.
        case descriptorSize(Int)
        /// A report (input or reply) is longer than 4096 bytes.
        case dataSize(Int)

        public var description: String {
            switch self {
            case .descriptorSize(let count):
                "a HID report descriptor of \(count) bytes (uhid takes 1 to \(UhidCodec.maximumDescriptorSize))"
            case .dataSize(let count):
                "a HID report of \(count) bytes (uhid takes at most \(UhidCodec.maximumDataSize))"
            }
        }
    }

    /// An event the kernel writes to /dev/uhid, decoded.
    public enum KernelEvent: Hashable, Sendable {
        /// The HID driver bound the device (`UHID_START`) with these
        /// `UHID_DEV_NUMBERED_*` flags.
        case start(flags: UInt64)
        /// The driver unbound (`UHID_STOP`).
        case stop
        /// Someone opened one of the device's input nodes (`UHID_OPEN`).
        case open
        /// The last reader closed them (`UHID_CLOSE`).
        case close
        /// An output report (LEDs and the like; `UHID_OUTPUT`).
        case output(reportType: UInt8, data: [UInt8])
        /// The driver asks for a report; answer with ``getReportReply(id:error:data:)``.
        case getReport(id: UInt32, reportNumber: UInt8, reportType: UInt8)
        /// The driver sets a report; answer with ``setReportReply(id:error:)``.
        case setReport(id: UInt32, reportNumber: UInt8, reportType: UInt8, data: [UInt8])
        /// Any other type (legacy, or newer than this code), or an event too
        /// short for its type.
        case other(type: UInt32, size: Int)
    }

    // MARK: Requests (to the kernel)

    /// `UHID_CREATE2`: a device named `name` with `description`'s ids and
    /// report descriptor. `name`, `phys` and `uniq` are cut to what the
    /// kernel keeps (at a character boundary).
    /// - Throws: ``EncodingError/descriptorSize(_:)``.
    public static func create2(
        name: String, phys: String, uniq: String, bus: UInt16, vendor: UInt32, product: UInt32, version: UInt32,
        country: UInt32, reportDescriptor: [UInt8]
    ) throws(EncodingError) -> [UInt8] {
        guard (1...maximumDescriptorSize).contains(reportDescriptor.count) else {
            throw .descriptorSize(reportDescriptor.count)
        }
        var bytes = [UInt8](repeating: 0, count: 280)
        put(.create2, at: 0, in: &bytes)
        putString(name, at: 4, limit: maximumNameLength, in: &bytes)
        putString(phys, at: 132, limit: maximumPhysLength, in: &bytes)
        putString(uniq, at: 196, limit: maximumUniqLength, in: &bytes)
        put(UInt16(reportDescriptor.count), at: 260, in: &bytes)
        put(bus, at: 262, in: &bytes)
        put(vendor, at: 264, in: &bytes)
        put(product, at: 268, in: &bytes)
        put(version, at: 272, in: &bytes)
        put(country, at: 276, in: &bytes)
        bytes += reportDescriptor
        return bytes
    }

    /// `UHID_INPUT2`: one input report (its report id first when the
    /// descriptor uses ids).
    /// - Throws: ``EncodingError/dataSize(_:)``.
    public static func input2(_ report: [UInt8]) throws(EncodingError) -> [UInt8] {
        guard report.count <= maximumDataSize else { throw .dataSize(report.count) }
        var bytes = [UInt8](repeating: 0, count: 6)
        put(.input2, at: 0, in: &bytes)
        put(UInt16(report.count), at: 4, in: &bytes)
        return bytes + report
    }

    /// `UHID_DESTROY`.
    public static func destroy() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 4)
        put(.destroy, at: 0, in: &bytes)
        return bytes
    }

    /// `UHID_GET_REPORT_REPLY` to request `id`: `error` 0 and the report
    /// (id first), or an errno (e.g. EIO) and no data.
    /// - Throws: ``EncodingError/dataSize(_:)``.
    public static func getReportReply(id: UInt32, error: UInt16, data: [UInt8]) throws(EncodingError) -> [UInt8] {
        guard data.count <= maximumDataSize else { throw .dataSize(data.count) }
        var bytes = [UInt8](repeating: 0, count: 12)
        put(.getReportReply, at: 0, in: &bytes)
        put(id, at: 4, in: &bytes)
        put(error, at: 8, in: &bytes)
        put(UInt16(data.count), at: 10, in: &bytes)
        return bytes + data
    }

    /// `UHID_GET_REPORT_REPLY` to request `id` with the errno `error` and no data.
    public static func getReportRefusal(id: UInt32, error: UInt16) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12)
        put(.getReportReply, at: 0, in: &bytes)
        put(id, at: 4, in: &bytes)
        put(error, at: 8, in: &bytes)
        return bytes
    }

    /// `UHID_SET_REPORT_REPLY` to request `id`: `error` 0 for done, or an errno.
    public static func setReportReply(id: UInt32, error: UInt16) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 10)
        put(.setReportReply, at: 0, in: &bytes)
        put(id, at: 4, in: &bytes)
        put(error, at: 8, in: &bytes)
        return bytes
    }

    // MARK: Events (from the kernel)

    /// Decodes one event as the kernel wrote it (one `read`). A short
    /// event is extended with zeros, as linux/uhid.h asks readers to; an
    /// event shorter than its type is `.other`.
    public static func decode(_ bytes: [UInt8]) -> KernelEvent {
        guard bytes.count >= 4 else { return .other(type: 0, size: bytes.count) }
        let type = read(UInt32.self, at: 0, in: bytes)
        guard let known = EventType(rawValue: type) else { return .other(type: type, size: bytes.count) }
        switch known {
        case .start:
            return .start(flags: read(UInt64.self, at: 4, in: bytes))
        case .stop:
            return .stop
        case .open:
            return .open
        case .close:
            return .close
        case .output:
            let size = min(Int(read(UInt16.self, at: 4100, in: bytes)), maximumDataSize)
            return .output(reportType: read(UInt8.self, at: 4102, in: bytes), data: slice(bytes, from: 4, count: size))
        case .getReport:
            return .getReport(
                id: read(UInt32.self, at: 4, in: bytes), reportNumber: read(UInt8.self, at: 8, in: bytes),
                reportType: read(UInt8.self, at: 9, in: bytes))
        case .setReport:
            let size = min(Int(read(UInt16.self, at: 10, in: bytes)), maximumDataSize)
            return .setReport(
                id: read(UInt32.self, at: 4, in: bytes), reportNumber: read(UInt8.self, at: 8, in: bytes),
                reportType: read(UInt8.self, at: 9, in: bytes), data: slice(bytes, from: 12, count: size))
        case .destroy, .getReportReply, .create2, .input2, .setReportReply:
            // Requests user space writes; the kernel never sends them.
            return .other(type: type, size: bytes.count)
        }
    }

    // MARK: Bytes

    private static func put(_ type: EventType, at offset: Int, in bytes: inout [UInt8]) {
        put(type.rawValue, at: offset, in: &bytes)
    }

    /// Writes `value` little-endian at `offset`.
    private static func put<Value: FixedWidthInteger>(_ value: Value, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<(Value.bitWidth / 8) {
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (index * 8))
        }
    }

    /// Writes `text`'s UTF-8 bytes at `offset`, at most `limit` of them, cut
    /// before a character that would not fit whole; the rest stays 0.
    private static func putString(_ text: String, at offset: Int, limit: Int, in bytes: inout [UInt8]) {
        var utf8: [UInt8] = []
        for character in text {
            let encoded = Array(character.utf8)
            if utf8.count + encoded.count > limit { break }
            utf8 += encoded
        }
        for (index, byte) in utf8.enumerated() { bytes[offset + index] = byte }
    }

    /// Reads a little-endian value at `offset`; missing bytes count as 0.
    private static func read<Value: FixedWidthInteger>(_: Value.Type, at offset: Int, in bytes: [UInt8]) -> Value {
        var value: Value = 0
        for index in 0..<(Value.bitWidth / 8) where offset + index < bytes.count {
            value |= Value(truncatingIfNeeded: bytes[offset + index]) << (index * 8)
        }
        return value
    }

    /// `count` bytes from `offset`, zeros where the event was short.
    private static func slice(_ bytes: [UInt8], from offset: Int, count: Int) -> [UInt8] {
        (offset..<(offset + count)).map { $0 < bytes.count ? bytes[$0] : 0 }
    }
}
