import GestureModel
import InputSystem

/// One evdev device: what udev says about it and, when it could be opened,
/// its full description.
public struct DeviceInfo: Sendable, Equatable {
    /// The event node, e.g. `/dev/input/event5`.
    public var node: String
    /// The kernel's name for the device.
    public var name: String
    /// What kind of device it is (see ``InputSystem/DeviceClassifier``);
    /// `devices` prints its ``GestureModel/DeviceKind/listingName``.
    public var kind: DeviceKind
    /// Stable links under /dev/input/by-id and /dev/input/by-path.
    public var links: [String]
    /// USB/Bluetooth vendor and product ids, when known.
    public var vendor: UInt16?
    public var product: UInt16?
    /// The capabilities, when the node could be opened; `nil` otherwise.
    public var description: InputDeviceDescription?
    /// Why the node could not be opened, when it could not.
    public var openProblem: String?

    /// Creates a device record.
    public init(
        node: String, name: String, kind: DeviceKind, links: [String] = [], vendor: UInt16? = nil,
        product: UInt16? = nil, description: InputDeviceDescription? = nil, openProblem: String? = nil
    ) {
        self.node = node
        self.name = name
        self.kind = kind
        self.links = links
        self.vendor = vendor
        self.product = product
        self.description = description
        self.openProblem = openProblem
    }

    /// `vvvv:pppp` in lower-case hex, when both ids are known.
    public var vendorProduct: String? {
        guard let vendor, let product else { return nil }
        return Self.hex(vendor) + ":" + Self.hex(product)
    }

    static func hex(_ value: UInt16) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 4 - text.count) + text
    }

    /// Slots (simultaneous contacts) the device tracks; 1 for single-touch
    /// and pointers, nil when unknown.
    public var slots: Int? {
        guard let description else { return nil }
        return max(1, description.slotCount)
    }

    /// The position axes: the multi-touch ones when present, else ABS_X/Y.
    public var positionAxes: (x: AbsoluteAxisInfo, y: AbsoluteAxisInfo)? {
        guard let axes = description?.absoluteAxes else { return nil }
        if let x = axes[.multitouchPositionX], let y = axes[.multitouchPositionY] { return (x, y) }
        if let x = axes[.absoluteX], let y = axes[.absoluteY] { return (x, y) }
        return nil
    }

    /// Physical size in millimetres from the axes' resolution, when known.
    public var sizeMM: (width: Double, height: Double)? {
        guard let (x, y) = positionAxes, x.resolution > 0, y.resolution > 0 else { return nil }
        return (
            Double(Int64(x.maximum) - Int64(x.minimum)) / Double(x.resolution),
            Double(Int64(y.maximum) - Int64(y.minimum)) / Double(y.resolution)
        )
    }
}
