import GestureFormat
import GestureModel
import InputSystem

/// What `gesturectl devices` says about one input device, as a value that
/// travels: built from a ``DeviceInfo`` here, or read back
/// from the JSON the daemon's `devices` sends, so that the local and the
/// daemon's listings print the same.
public struct DeviceFacts: Hashable, Sendable {
    /// One axis range.
    public struct Axis: Hashable, Sendable {
        public var minimum: Int
        public var maximum: Int
        public var resolution: Int
    }

    public var node: String
    public var name: String
    /// `touchscreen`, `touchpad`, `tablet/pen`, `mouse/pointer`, `keyboard/buttons` or `other`.
    public var kind: String
    public var links: [String]
    public var vendorProduct: String?
    /// Slots, for the kinds that record strokes.
    public var slots: Int?
    public var x: Axis?
    public var y: Axis?
    public var widthMM: Double?
    public var heightMM: Double?
    /// Why the node could not be opened, when it could not.
    public var problem: String?

    /// The facts of a device found here.
    public init(_ device: DeviceInfo) {
        node = device.node
        name = device.name
        kind = device.kind.listingName
        links = device.links
        vendorProduct = device.vendorProduct
        slots = device.kind.isGestureKind ? device.slots : nil
        if let (x, y) = device.positionAxes {
            self.x = Axis(minimum: Int(x.minimum), maximum: Int(x.maximum), resolution: Int(x.resolution))
            self.y = Axis(minimum: Int(y.minimum), maximum: Int(y.maximum), resolution: Int(y.resolution))
        }
        if let size = device.sizeMM {
            widthMM = (size.width * 10).rounded() / 10
            heightMM = (size.height * 10).rounded() / 10
        }
        problem = device.openProblem
    }

    /// The JSON object `devices --json` prints (and the protocol's `devices` carries).
    public var json: JSONValue {
        func axis(_ axis: Axis?) -> JSONValue {
            guard let axis else { return .null }
            return .object([("min", .integer(axis.minimum)), ("max", .integer(axis.maximum)), ("resolution", .integer(axis.resolution))])
        }
        return .object([
            ("node", .string(node)), ("name", .string(name)), ("kind", .string(kind)),
            ("links", .array(links.map(JSONValue.string))), ("vendor_product", vendorProduct.map(JSONValue.string) ?? .null),
            ("slots", slots.map(JSONValue.integer) ?? .null), ("x", axis(x)), ("y", axis(y)),
            ("width_mm", widthMM.map(JSONValue.decimal) ?? .null), ("height_mm", heightMM.map(JSONValue.decimal) ?? .null),
            ("problem", problem.map(JSONValue.string) ?? .null),
        ])
    }

    /// Reads the facts back from their JSON; `nil` when a field is missing or ill-typed.
    public init?(json value: JSONValue) {
        func string(_ key: String) -> String? { if case .string(let text)? = value[key] { text } else { nil } }
        func number(_ key: String) -> Double? { if case .number(let text)? = value[key] { Double(text) } else { nil } }
        func axis(_ key: String) -> Axis? {
            guard let object = value[key], case .number(let minimum)? = object["min"], case .number(let maximum)? = object["max"],
                case .number(let resolution)? = object["resolution"], let minimum = Int(minimum), let maximum = Int(maximum),
                let resolution = Int(resolution)
            else { return nil }
            return Axis(minimum: minimum, maximum: maximum, resolution: resolution)
        }
        guard let node = string("node"), let name = string("name"), let kind = string("kind"),
            case .array(let links)? = value["links"]
        else { return nil }
        self.node = node
        self.name = name
        self.kind = kind
        self.links = links.compactMap { if case .string(let text) = $0 { text } else { nil } }
        vendorProduct = string("vendor_product")
        slots = number("slots").map { Int($0) }
        x = axis("x")
        y = axis("y")
        widthMM = number("width_mm")
        heightMM = number("height_mm")
        problem = string("problem")
    }
}
