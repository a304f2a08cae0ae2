/// What a HID transport needs to present a device: its identity, its report
/// descriptor, and the answers to the host's feature-report requests.
///
/// Made by the layouts of this module (``HIDTouchscreenLayout`` and the
/// others) from a device's geometry; carried as is by /dev/uhid
/// (``UhidDevice``) and by a USB gadget's HID function.
public struct HIDDeviceDescription: Hashable, Sendable {
    /// The device's name (uhid: at most 127 bytes; the kernel's input device gets it).
    public var name: String
    /// The bus the host is told about: `BUS_USB` (0x03) by default, so hosts
    /// treat it as they treat a real touchscreen.
    public var bus: UInt16
    /// Vendor id.
    public var vendor: UInt32
    /// Product id.
    public var product: UInt32
    /// Version.
    public var version: UInt32
    /// HID country code (0: not localized).
    public var country: UInt32
    /// The report descriptor (at most 4096 bytes: HID_MAX_DESCRIPTOR_SIZE).
    public var reportDescriptor: [UInt8]
    /// The answer to GET_REPORT for each feature report, by report id, the
    /// id itself as first byte when the descriptor uses report ids (hosts ask
    /// for the Contact Count Maximum and the Device Mode while binding).
    public var featureReports: [UInt8: [UInt8]]
    /// The length in bytes of the longest input report, report id included.
    public var inputReportLength: Int
    /// HID subclass for a USB gadget (1: boot interface; 0: none).
    public var subclass: UInt8
    /// HID protocol for a USB gadget (1: keyboard, 2: mouse, 0: none).
    public var protocolCode: UInt8

    /// Creates a description; see each property.
    public init(
        name: String, bus: UInt16 = 0x03, vendor: UInt32, product: UInt32, version: UInt32 = 1, country: UInt32 = 0,
        reportDescriptor: [UInt8], featureReports: [UInt8: [UInt8]] = [:], inputReportLength: Int,
        subclass: UInt8 = 0, protocolCode: UInt8 = 0
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.country = country
        self.reportDescriptor = reportDescriptor
        self.featureReports = featureReports
        self.inputReportLength = inputReportLength
        self.subclass = subclass
        self.protocolCode = protocolCode
    }
}

/// Where HID input reports go: /dev/uhid, a USB gadget's /dev/hidgN, or a
/// test double. One report per call, written whole.
public protocol HIDReportOutput: Sendable {
    /// Sends one input report (its first byte is the report id when the
    /// device's descriptor uses report ids).
    func send(report: [UInt8]) throws
}
