import GestureModel
import InputSystem

/// One device of a `libinput record` file, as read.
public struct LibinputRecording: Hashable, Sendable {
    /// The device, from its `evdev:` block. `EV_SYN` is not listed in its
    /// codes (every device has it).
    public var description: InputDeviceDescription
    /// The evdev events of its `events:` list, in file order, with their
    /// times in microseconds as written (`libinput record` starts at 0).
    /// libinput's own events and hidraw reports, which are interpretations
    /// rather than input, are skipped.
    public var events: [InputEvent]
    /// The device node it was recorded from (`node:`), when given.
    public var node: String?
    /// The udev properties recorded for it (`udev: properties:`), such as
    /// `ID_INPUT_TOUCHSCREEN=1`, in file order.
    public var udevProperties: [String]
    /// How many devices the file holds.
    public var deviceCount: Int

    /// Creates a recording.
    public init(
        description: InputDeviceDescription, events: [InputEvent], node: String?, udevProperties: [String],
        deviceCount: Int
    ) {
        self.description = description
        self.events = events
        self.node = node
        self.udevProperties = udevProperties
        self.deviceCount = deviceCount
    }
}

/// Reads the YAML files `libinput record` writes (file version 1), without
/// a YAML library: see ``YAMLSubsetParser`` for the subset understood and
/// docs/INTEROP.md for the fields.
///
/// Read: `version` (must be 1), `devices:` → the chosen device's `node`,
/// `evdev:` (`name`, `id: [bus, vendor, product, version]`,
/// `codes: {type: [codes]}`, `absinfo: {code: [min, max, fuzz, flat,
/// resolution]}`, `properties: [numbers]`), `udev: properties:` and
/// `events:` (each `- evdev:` list of `[sec, usec, type, code, value]`).
/// Everything else (`libinput:`, `system:`, `hid:`, `quirks:`, libinput
/// events) is skipped. Every number is range-checked; an axis listed under
/// `codes` needs its `absinfo` entry, as `libinput replay` needs it.
public enum LibinputRecordReader {
    /// The file version understood.
    public static let supportedVersion = 1

    /// Reads device `deviceIndex` (0 for the first) of a recording.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - source: The file name to show in errors.
    ///   - deviceIndex: Which device of a multi-device recording to read.
    public static func read(_ text: String, source: String, deviceIndex: Int = 0) throws(InteropError) -> LibinputRecording {
        try read(bytes: Array(text.utf8), source: source, deviceIndex: deviceIndex)
    }

    /// Reads device `deviceIndex` of a recording given as the file's bytes
    /// (no copy of the text is made); see ``read(_:source:deviceIndex:)``.
    public static func read(bytes: [UInt8], source: String, deviceIndex: Int = 0) throws(InteropError) -> LibinputRecording {
        let root = try YAMLSubsetParser.parse(TextLines(bytes: bytes), source: source)
        let reader = SchemaReader(source: source)
        return try reader.recording(root, deviceIndex: deviceIndex)
    }

    /// Reads the first device into its description and events; see
    /// ``read(_:source:deviceIndex:)``.
    public static func parse(_ text: String, source: String) throws(InteropError) -> (InputDeviceDescription, [InputEvent]) {
        let recording = try read(text, source: source)
        return (recording.description, recording.events)
    }
}

/// Turns the YAML tree into a recording, with errors that name the field
/// and its line.
private struct SchemaReader {
    let source: String

    func error(_ line: Int?, _ message: String, kind: InteropError.Kind = .malformed) -> InteropError {
        InteropError(kind: kind, source: source, line: line, message: message)
    }

    func recording(_ root: YAMLNode, deviceIndex: Int) throws(InteropError) -> LibinputRecording {
        let top = try mapping(root, "the file (a libinput record document)")
        guard let versionNode = value(top, "version") else {
            throw error(root.line, "no 'version:' key: this is not a libinput record file", kind: .unknownFormat)
        }
        let version = try integer(versionNode, "version", in: Int64.min...Int64.max)
        guard version == Int64(LibinputRecordReader.supportedVersion) else {
            throw error(
                versionNode.line,
                "libinput record file version \(version) is not supported (this reader knows version \(LibinputRecordReader.supportedVersion))",
                kind: .unsupportedVersion)
        }
        let devices = try sequence(try required(top, "devices", in: root), "devices")
        guard !devices.isEmpty else { throw error(root.line, "'devices:' lists no device") }
        guard devices.indices.contains(deviceIndex) else {
            throw error(
                root.line,
                "the recording holds \(devices.count) device\(devices.count == 1 ? "" : "s"); there is no device \(deviceIndex + 1)")
        }
        let device = devices[deviceIndex]
        let fields = try mapping(device, "a device")
        let node = try value(fields, "node").map { node throws(InteropError) in try string(node, "node") }
        let description = try evdevDescription(try required(fields, "evdev", in: device))
        var udevProperties: [String] = []
        if let udev = value(fields, "udev"), case .mapping(let udevFields) = udev.content,
            let properties = value(udevFields, "properties")
        {
            for property in try sequence(properties, "udev properties") {
                udevProperties.append(try string(property, "a udev property"))
            }
        }
        var events: [InputEvent] = []
        if let eventList = value(fields, "events") {
            for item in try sequence(eventList, "events") {
                let itemFields = try mapping(item, "an events entry (- evdev: …)")
                guard let evdev = value(itemFields, "evdev") else { continue }
                for event in try sequence(evdev, "evdev events") { events.append(try self.event(event)) }
            }
        }
        return LibinputRecording(
            description: description, events: events, node: node, udevProperties: udevProperties,
            deviceCount: devices.count)
    }

    func evdevDescription(_ evdev: YAMLNode) throws(InteropError) -> InputDeviceDescription {
        let fields = try mapping(evdev, "evdev")
        let name = try string(try required(fields, "name", in: evdev), "name")
        let idNode = try required(fields, "id", in: evdev)
        let ids = try sequence(idNode, "id")
        guard ids.count == 4 else {
            throw error(idNode.line, "'id:' should be [bus, vendor, product, version], found \(ids.count) numbers")
        }
        var identity: [UInt16] = []
        for (id, what) in zip(ids, ["bus", "vendor", "product", "version"]) {
            identity.append(UInt16(try integer(id, "the \(what) id", in: 0...Int64(UInt16.max))))
        }

        var codes: [EventType: Set<EventCode>] = [:]
        var absoluteCodeLines: [(EventCode, Int)] = []
        if let codesNode = value(fields, "codes") {
            for entry in try entries(codesNode, "codes") {
                let typeNumber = try integer(key: entry, "an event type", in: 0...Int64(KernelTables.eventTypeCount) - 1)
                let type = EventType(rawValue: UInt16(typeNumber))
                var typeCodes: Set<EventCode> = []
                let maximum = KernelTables.maximumCode(of: type)
                for codeNode in try sequence(entry.value, "the codes of type \(typeNumber)") {
                    guard let maximum else {
                        throw error(codeNode.line, "event type \(typeNumber) has no codes in libevdev", kind: .outOfRange)
                    }
                    let code = EventCode(
                        rawValue: UInt16(try integer(codeNode, "a \(type) code", in: 0...Int64(maximum.rawValue))))
                    typeCodes.insert(code)
                    if type == .absolute { absoluteCodeLines.append((code, codeNode.line)) }
                }
                // Every device has EV_SYN; a type without codes is not supported.
                if type != .synchronization, !typeCodes.isEmpty { codes[type, default: []].formUnion(typeCodes) }
            }
        }

        var ranges: [EventCode: AbsoluteAxisInfo] = [:]
        if let absinfo = value(fields, "absinfo") {
            let maximumAxis = Int64(KernelTables.maximumCode(of: .absolute)?.rawValue ?? 0)
            for entry in try entries(absinfo, "absinfo") {
                let code = EventCode(rawValue: UInt16(try integer(key: entry, "an axis code", in: 0...maximumAxis)))
                let numbers = try sequence(entry.value, "absinfo \(entry.key)")
                guard numbers.count == 5 else {
                    throw error(
                        entry.value.line,
                        "absinfo \(entry.key) should be [min, max, fuzz, flat, resolution], found \(numbers.count) numbers")
                }
                var values: [Int32] = []
                for number in numbers {
                    values.append(Int32(try integer(number, "an absinfo value", in: Int64(Int32.min)...Int64(Int32.max))))
                }
                ranges[code] = AbsoluteAxisInfo(
                    minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3], resolution: values[4])
            }
        }
        var absoluteAxes: [EventCode: AbsoluteAxisInfo] = [:]
        for (code, line) in absoluteCodeLines {
            guard let range = ranges[code] else {
                throw error(line, "axis \(code.nameOrNumber(type: .absolute)) is listed under codes but has no absinfo entry")
            }
            absoluteAxes[code] = range
        }

        var properties: Set<InputProperty> = []
        if let propertyList = value(fields, "properties") {
            for property in try sequence(propertyList, "properties") {
                let number = try integer(property, "a property", in: 0...Int64(KernelTables.propertyCount) - 1)
                properties.insert(InputProperty(rawValue: UInt16(number)))
            }
        }
        return InputDeviceDescription(
            name: name, bus: identity[0], vendor: identity[1], product: identity[2], version: identity[3],
            properties: properties, codes: codes, absoluteAxes: absoluteAxes)
    }

    func event(_ node: YAMLNode) throws(InteropError) -> InputEvent {
        let fields = try sequence(node, "an evdev event ([sec, usec, type, code, value])")
        guard fields.count == 5 else {
            throw error(node.line, "an evdev event should be [sec, usec, type, code, value], found \(fields.count) numbers")
        }
        let seconds = try integer(fields[0], "the event's seconds", in: 0...Int64.max / 1_000_000 - 1)
        let microseconds = try integer(fields[1], "the event's microseconds", in: 0...999_999)
        let type = try integer(fields[2], "the event type", in: 0...Int64(UInt16.max))
        let code = try integer(fields[3], "the event code", in: 0...Int64(UInt16.max))
        let value = try integer(fields[4], "the event value", in: Int64(Int32.min)...Int64(Int32.max))
        return InputEvent(
            time: Microseconds(seconds * 1_000_000 + microseconds), type: EventType(rawValue: UInt16(type)),
            code: EventCode(rawValue: UInt16(code)), value: Int32(value))
    }

    // MARK: Typed access

    func mapping(_ node: YAMLNode, _ what: String) throws(InteropError) -> [YAMLNode.Entry] {
        guard case .mapping(let entries) = node.content else {
            throw error(node.line, "\(what) should be a mapping ('key: value' lines)")
        }
        return entries
    }

    /// A mapping's entries; null (nothing after the key) is an empty mapping.
    func entries(_ node: YAMLNode, _ what: String) throws(InteropError) -> [YAMLNode.Entry] {
        if case .null = node.content { return [] }
        return try mapping(node, "'\(what):'")
    }

    /// A sequence's items; null (nothing after the key) is an empty sequence.
    func sequence(_ node: YAMLNode, _ what: String) throws(InteropError) -> [YAMLNode] {
        switch node.content {
        case .sequence(let items): return items
        case .null: return []
        default: throw error(node.line, "\(what) should be a list")
        }
    }

    func value(_ entries: [YAMLNode.Entry], _ key: String) -> YAMLNode? {
        entries.first { $0.key == key }?.value
    }

    func required(_ entries: [YAMLNode.Entry], _ key: String, in parent: YAMLNode) throws(InteropError) -> YAMLNode {
        guard let node = value(entries, key) else { throw error(parent.line, "the '\(key):' key is missing") }
        return node
    }

    func string(_ node: YAMLNode, _ what: String) throws(InteropError) -> String {
        guard case .scalar(let text, _) = node.content else { throw error(node.line, "\(what) should be text") }
        return text
    }

    func integer(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int64>) throws(InteropError) -> Int64 {
        guard case .scalar(let text, let quoted) = node.content, !quoted else {
            throw error(node.line, "\(what) should be a whole number")
        }
        return try integer(text, line: node.line, what, in: range)
    }

    func integer(key entry: YAMLNode.Entry, _ what: String, in range: ClosedRange<Int64>) throws(InteropError) -> Int64 {
        try integer(entry.key, line: entry.keyLine, what, in: range)
    }

    func integer(_ text: String, line: Int, _ what: String, in range: ClosedRange<Int64>) throws(InteropError) -> Int64 {
        var scanner = ByteScanner(Array(text.utf8)[...])
        guard let number = scanner.signedDecimal(), scanner.isAtEnd else {
            throw error(line, "\(what) should be a whole number, not '\(text.prefix(40))'")
        }
        guard range.contains(number) else {
            throw error(line, "\(what) \(number) is outside \(range.lowerBound)…\(range.upperBound)", kind: .outOfRange)
        }
        return number
    }
}
