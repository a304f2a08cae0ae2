/// An evemu recording for tests, written from what the device has — its
/// name, ids, properties, event codes and axes — so that a fixture states
/// the device, not the bit masks: the `# EVEMU 1.3` header, the `N:`, `I:`,
/// `P:`, `B:` and `A:` lines, then the events as given.
///
/// Masks are written as evemu-record does, eight bytes a line, as many
/// lines as the highest code of a type needs; each axis sets its EV_ABS
/// bit, and EV_SYN's line has a bit for every type used.
public struct EvemuFixture: Sendable {
    /// An absolute axis (`A: CODE MIN MAX FUZZ FLAT RESOLUTION`).
    public struct Axis: Sendable {
        public var code: Int
        public var minimum: Int
        public var maximum: Int
        public var fuzz: Int
        public var flat: Int
        public var resolution: Int

        /// An axis `code` (ABS_X is 0x00, ABS_MT_POSITION_X 0x35, …) of `minimum`…`maximum`.
        public init(_ code: Int, _ minimum: Int, _ maximum: Int, fuzz: Int = 0, flat: Int = 0, resolution: Int = 0) {
            self.code = code
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }
    }

    /// EV_KEY.
    public static let key = 1
    /// EV_REL.
    public static let relative = 2
    /// EV_ABS.
    public static let absolute = 3
    /// EV_MSC.
    public static let misc = 4

    public var name: String
    public var bus: Int
    public var vendor: Int
    public var product: Int
    public var version: Int
    /// INPUT_PROP bits (INPUT_PROP_POINTER 0, _DIRECT 1, _BUTTONPAD 2, …).
    public var properties: [Int]
    /// Codes by event type (``key``, ``relative``, ``misc``, …) besides the axes.
    public var codes: [Int: [Int]]
    public var axes: [Axis]
    /// The `E:` lines, as evemu writes them, one a line.
    public var events: String

    /// A device described by what it has; `events` are `E:` lines.
    public init(
        name: String, bus: Int, vendor: Int, product: Int, version: Int, properties: [Int] = [],
        codes: [Int: [Int]] = [:], axes: [Axis] = [], events: String = ""
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.axes = axes
        self.events = events
    }

    /// The recording's text.
    public var text: String {
        var codes = self.codes
        if !axes.isEmpty { codes[Self.absolute, default: []] += axes.map(\.code) }
        codes[0] = [0] + codes.keys.filter { $0 != 0 }
        var lines = ["# EVEMU 1.3", "N: \(name)", "I: \([bus, vendor, product, version].map { Self.hex($0, width: 4) }.joined(separator: " "))"]
        lines.append("P: " + Self.mask(properties, bytes: 8).map { Self.hex($0, width: 2) }.joined(separator: " "))
        for type in codes.keys.sorted() {
            let set = codes[type] ?? []
            let byteCount = ((set.max() ?? 0) / 64 + 1) * 8
            let mask = Self.mask(set, bytes: byteCount)
            for line in stride(from: 0, to: byteCount, by: 8) {
                lines.append("B: \(Self.hex(type, width: 2)) " + mask[line..<line + 8].map { Self.hex($0, width: 2) }.joined(separator: " "))
            }
        }
        for axis in axes.sorted(by: { $0.code < $1.code }) {
            lines.append("A: \(Self.hex(axis.code, width: 2)) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)")
        }
        var text = lines.joined(separator: "\n") + "\n"
        if !events.isEmpty { text += events.hasSuffix("\n") ? events : events + "\n" }
        return text
    }

    private static func mask(_ bits: [Int], bytes: Int) -> [Int] {
        var mask = [Int](repeating: 0, count: bytes)
        for bit in bits { mask[bit / 8] |= 1 << (bit % 8) }
        return mask
    }

    private static func hex(_ value: Int, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
