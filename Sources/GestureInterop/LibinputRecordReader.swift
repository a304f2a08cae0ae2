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

    /// Reads a `libinput record` file piece by piece, handing the first
    /// device's events on as they are read: the memory used is the
    /// description's and a piece's, not the file's.
    ///
    /// Everything but the `events:` lists is kept and read as a YAML tree
    /// (it is small); each entry of an `events:` list is read on its own
    /// as it ends: its `- [sec, usec, type, code, value]` lines directly,
    /// or, for anything else (libinput's own events, a line that does not
    /// read), by the same YAML subset and checks as a whole file, so that
    /// errors are the same and name the same lines. ``description`` is
    /// known once the first device's `events:` begins; events read before
    /// it is taken wait in ``events``.
    public struct Stream {
        private let source: String
        private var splitter = LineSplitter()
        /// The document without the `events:` lists' entries.
        private var held: [TextLines.Line] = []
        private var sawDevices = false
        /// Inside an `events:` list: the indentation of its key, of its
        /// entries (once known), and whether its events are the first device's.
        private var list: (keyIndent: Int, itemIndent: Int?, streamed: Bool)?
        /// The lines of the entry being read, and whether they are all events.
        private var item: [TextLines.Line] = []
        private var itemIsPlain = true
        private var eventIndent: Int?
        /// Flow lists and mappings left open by the entry's lines so far.
        private var flowDepth = 0
        private var itemEvents: [InputEvent] = []
        /// The first device, once its `events:` begins (or at the end).
        public private(set) var description: InputDeviceDescription?
        private var sawFirstDeviceEvents = false
        /// The events read and not yet taken; take them with ``takeEvents()``.
        public private(set) var events: [InputEvent] = []

        /// A reader for `source` (the name errors show).
        public init(source: String) { self.source = source }

        /// Hands over the events read so far and forgets them.
        public mutating func takeEvents() -> [InputEvent] {
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }

        /// Reads the next piece of the file.
        public mutating func feed(_ bytes: [UInt8]) throws(InteropError) {
            // Moved out (not copied) while the lines go to the reader.
            var splitter = self.splitter
            self.splitter = LineSplitter()
            defer { self.splitter = splitter }
            try splitter.feed(bytes, source: source) { (line, number) throws(InteropError) in
                try self.line(line, number: number)
            }
        }

        /// Reads what is left after the last piece and checks the whole.
        public mutating func finish() throws(InteropError) -> LibinputRecording {
            var splitter = self.splitter
            self.splitter = LineSplitter()
            try splitter.finish { (line, number) throws(InteropError) in try self.line(line, number: number) }
            self.splitter = splitter
            try endItem()
            let root = try YAMLSubsetParser.parse(TextLines(lines: held), source: source)
            var recording = try SchemaReader(source: source).recording(root, deviceIndex: 0)
            if description == nil { description = recording.description }
            // The tree's lists are empty: the events went out as they were read.
            recording.events = []
            return recording
        }

        private mutating func line(_ bytes: ArraySlice<UInt8>, number: Int) throws(InteropError) {
            var indent = 0
            var position = bytes.startIndex
            while position < bytes.endIndex, bytes[position] == UInt8(ascii: " ") {
                indent += 1
                position += 1
            }
            let content = bytes[position...]
            if flowDepth > 0, list != nil {
                // A flow list or mapping left open goes on, whatever the indentation.
                try addToItem(bytes, content: content, number: number, first: false)
                return
            }
            // Blank as YAML sees it: nothing but a comment and white space.
            let blank =
                content.isEmpty
                || ((content.first == UInt8(ascii: "#") || content.first == UInt8(ascii: "\t"))
                    && YAMLSubsetParser.trimTrailingSpace(YAMLSubsetParser.stripComment(content)).isEmpty)
            let isItem = content.first == UInt8(ascii: "-") && (content.count == 1 || content[position + 1] == UInt8(ascii: " "))
            if var current = list, !blank {
                if current.itemIndent == nil && isItem && indent >= current.keyIndent {
                    current.itemIndent = indent
                    list = current
                }
                if let itemIndent = current.itemIndent, indent > itemIndent || (indent == itemIndent && isItem) {
                    if indent == itemIndent { try endItem() }
                    try addToItem(bytes, content: content, number: number, first: indent == itemIndent)
                    return
                }
                try endItem()
                list = nil
            } else if list != nil {
                // Blank and comment lines inside a list belong to no entry.
                return
            }
            held.append(TextLines.Line(number: number, bytes: Array(bytes)[...]))
            if indent == 0 && content.starts(with: "devices:") { sawDevices = true }
            if sawDevices && indent > 0 && Self.isEventsKey(content) {
                try beginList(keyIndent: indent)
            }
        }

        private static func isEventsKey(_ content: ArraySlice<UInt8>) -> Bool {
            guard content.starts(with: "events:") else { return false }
            let rest = content.dropFirst(7)
            return rest.allSatisfy { $0 == UInt8(ascii: " ") } || rest.first == UInt8(ascii: " ") && rest.drop { $0 == UInt8(ascii: " ") }.first == UInt8(ascii: "#")
        }

        /// An `events:` key: its entries are the first device's when the
        /// document so far lists one device; the device is read from it.
        private mutating func beginList(keyIndent: Int) throws(InteropError) {
            var streamed = false
            if !sawFirstDeviceEvents {
                let root = try YAMLSubsetParser.parse(TextLines(lines: held), source: source)
                let recording = try SchemaReader(source: source).recording(root, deviceIndex: 0)
                sawFirstDeviceEvents = true
                if recording.deviceCount == 1 {
                    description = recording.description
                    streamed = true
                }
            }
            list = (keyIndent, nil, streamed)
        }

        private mutating func addToItem(
            _ bytes: ArraySlice<UInt8>, content: ArraySlice<UInt8>, number: Int, first: Bool
        ) throws(InteropError) {
            let indent = content.startIndex - bytes.startIndex
            if first {
                // `- evdev:` starts an entry whose lines may all be events.
                itemIsPlain = Self.trimmed(content).elementsEqual("- evdev:".utf8)
                eventIndent = nil
            } else if itemIsPlain, eventIndent == nil || eventIndent == indent, let event = Self.plainEvent(content) {
                // One list: every event line at the indentation of the first.
                eventIndent = indent
                itemEvents.append(event)
            } else {
                itemIsPlain = false
            }
            if !itemIsPlain || first { flowDepth = max(0, flowDepth + Self.flowBalance(content)) }
            // Not copied: the piece it lies in lives as long as the entry.
            item.append(TextLines.Line(number: number, bytes: bytes))
        }

        /// Reads the entry whose lines were gathered.
        private mutating func endItem() throws(InteropError) {
            guard !item.isEmpty else { return }
            defer {
                item.removeAll(keepingCapacity: true)
                itemEvents.removeAll(keepingCapacity: true)
                itemIsPlain = true
                flowDepth = 0
            }
            let streamed = list?.streamed ?? false
            if itemIsPlain {
                if streamed { events.append(contentsOf: itemEvents) }
                return
            }
            // As a whole file reads it: the same subset, checks and lines.
            let node = try YAMLSubsetParser.parse(TextLines(lines: item), source: source)
            let reader = SchemaReader(source: source)
            for entry in try reader.sequence(node, "events") {
                let fields = try reader.mapping(entry, "an events entry (- evdev: …)")
                guard let evdev = reader.value(fields, "evdev") else { continue }
                for event in try reader.sequence(evdev, "evdev events") {
                    let read = try reader.event(event)
                    if streamed { events.append(read) }
                }
            }
        }

        /// How many flow lists and mappings (`[`, `{`) a line opens and
        /// leaves open (negative: closes), outside quotes and comments.
        static func flowBalance(_ content: ArraySlice<UInt8>) -> Int {
            var balance = 0
            _ = YAMLSubsetParser.scanUnquoted(YAMLSubsetParser.stripComment(content)) { byte, _ in
                if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                    balance += 1
                } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                    balance -= 1
                }
                return true
            }
            return balance
        }

        private static func trimmed(_ content: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            var text = content
            if let hash = text.firstIndex(of: UInt8(ascii: "#")), hash > text.startIndex, text[hash - 1] == UInt8(ascii: " ") {
                text = text[..<hash]
            }
            while let last = text.last, last == UInt8(ascii: " ") { text = text.dropLast() }
            return text
        }

        /// `- [sec, usec, type, code, value]` (and a comment), every number
        /// in its range; nil for anything else, which is then read as YAML.
        static func plainEvent(_ content: ArraySlice<UInt8>) -> InputEvent? {
            var scanner = ByteScanner(content)
            guard scanner.consume("-") else { return nil }
            scanner.skipSpaces()
            guard scanner.consume("[") else { return nil }
            var numbers: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
            for index in 0..<5 {
                scanner.skipSpaces()
                guard let number = scanner.signedDecimal() else { return nil }
                switch index {
                case 0: numbers.0 = number
                case 1: numbers.1 = number
                case 2: numbers.2 = number
                case 3: numbers.3 = number
                default: numbers.4 = number
                }
                scanner.skipSpaces()
                guard scanner.consume(index < 4 ? "," : "]") else { return nil }
            }
            // Nothing after the list but a comment, which YAML starts after a space.
            let end = scanner.position
            scanner.skipSpaces()
            guard scanner.isAtEnd || (scanner.position > end && scanner.consume("#")) else { return nil }
            let (seconds, microseconds, type, code, value) = numbers
            guard (0...Int64.max / 1_000_000 - 1).contains(seconds), (0...999_999).contains(microseconds),
                (0...Int64(UInt16.max)).contains(type), (0...Int64(UInt16.max)).contains(code),
                (Int64(Int32.min)...Int64(Int32.max)).contains(value)
            else { return nil }
            return InputEvent(
                time: Microseconds(seconds * 1_000_000 + microseconds), type: EventType(rawValue: UInt16(type)),
                code: EventCode(rawValue: UInt16(code)), value: Int32(value))
        }
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
