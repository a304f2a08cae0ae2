import GestureModel
import InputSystem

/// An evemu recording as read: the device description, the events, and
/// what the reader passed over.
public struct EvemuRecording: Hashable, Sendable {
    /// An evemu file format version, e.g. 1.3 from `# EVEMU 1.3`.
    public struct Version: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The major number; this reader understands 1.
        public var major: Int
        /// The minor number.
        public var minor: Int

        /// Creates a version.
        public init(major: Int, minor: Int) {
            self.major = major
            self.minor = minor
        }

        public static func < (lhs: Version, rhs: Version) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }

        /// `1.3`.
        public var description: String { "\(major).\(minor)" }
    }

    /// The device, from the `N:`, `I:`, `P:`, `B:` and `A:` lines. `EV_SYN`
    /// is not listed in its codes (every device has it).
    public var description: InputDeviceDescription
    /// The events of the `E:` lines, in file order, with their times in
    /// microseconds as written (evemu-record starts at 1 µs).
    public var events: [InputEvent]
    /// The format version from the `# EVEMU x.y` header; 1.0 without one
    /// (as evemu assumes).
    public var formatVersion: Version
    /// Lines after the description that are neither events nor comments;
    /// `evemu-play` skips them too (e.g. a terminal's echo of a key press
    /// caught in the recording).
    public var ignoredLines: [Int]

    /// Creates a recording.
    public init(description: InputDeviceDescription, events: [InputEvent], formatVersion: Version, ignoredLines: [Int]) {
        self.description = description
        self.events = events
        self.formatVersion = formatVersion
        self.ignoredLines = ignoredLines
    }
}

/// Reads evemu text: what `evemu-describe` and `evemu-record` write (file
/// formats 1.0 to 1.3), a description optionally followed by events.
///
/// It accepts what evemu's own parser accepts, with two differences that
/// turn silent surprises into errors: numbers out of range (a bit beyond a
/// type's largest code, a value beyond 32 bits) and description lines that
/// cannot be parsed are reported with their line. `P:`, `B:`, `A:`, `L:` and
/// `S:` lines may come in any order; `L:` and `S:` (LED and switch states)
/// are checked and ignored, as evemu-device ignores them. An `A:` line for
/// an axis without a `B: 03` bit is ignored and an axis bit without an
/// `A:` line gets the range 0…1, both as evemu does.
public enum EvemuReader {
    /// Reads a recording or a bare description.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - source: The file name to show in errors.
    public static func read(_ text: String, source: String) throws(InteropError) -> EvemuRecording {
        try read(bytes: Array(text.utf8), source: source)
    }

    /// Reads a recording given as the file's bytes (no copy of the text is
    /// made); see ``read(_:source:)``.
    public static func read(bytes: [UInt8], source: String) throws(InteropError) -> EvemuRecording {
        var parser = Parser(source: source)
        let whole = bytes[...]
        var lastLine: Int?
        try LineSplitter.lines(in: whole, firstNumber: 1, final: true) { (line, number) throws(InteropError) in
            lastLine = number
            try parser.line(line, number: number)
        }
        return try parser.finish(lastLine: lastLine)
    }

    /// Reads an evemu text piece by piece, handing the events on as they
    /// are read: the memory used is a piece's, not the file's.
    ///
    /// Feed it the file's bytes in pieces of any size (``feed(_:)``),
    /// then ``finish()``. ``description`` is known once the first event
    /// is read; events read before then wait in ``events``.
    public struct Stream {
        private var parser: Parser
        private var splitter = LineSplitter()
        private var lastLine: Int?

        /// A reader for `source` (the name errors show).
        public init(source: String) { parser = Parser(source: source) }

        /// The device, once the description has ended (the first event is read).
        public var description: InputDeviceDescription? { parser.finishedDescription }

        /// The events read and not yet taken; take them with ``takeEvents()``.
        public var events: [InputEvent] { parser.events }

        /// Hands over the events read so far and forgets them.
        public mutating func takeEvents() -> [InputEvent] {
            defer { parser.events.removeAll(keepingCapacity: true) }
            return parser.events
        }

        /// Reads the next piece of the file.
        public mutating func feed(_ bytes: [UInt8]) throws(InteropError) {
            // Moved out (not copied) while the lines go to the parser.
            var splitter = self.splitter
            self.splitter = LineSplitter()
            defer { self.splitter = splitter }
            try splitter.feed(bytes, source: parser.source) { (line, number) throws(InteropError) in
                lastLine = number
                try parser.line(line, number: number)
            }
        }

        /// Reads what is left after the last piece and checks the whole.
        public mutating func finish() throws(InteropError) -> EvemuRecording {
            var splitter = self.splitter
            self.splitter = LineSplitter()
            try splitter.finish { (line, number) throws(InteropError) in
                lastLine = number
                try parser.line(line, number: number)
            }
            return try parser.finish(lastLine: lastLine)
        }
    }

    /// Reads a recording into its description and events; see ``read(_:source:)``.
    public static func parse(_ text: String, source: String) throws(InteropError) -> (InputDeviceDescription, [InputEvent]) {
        let recording = try read(text, source: source)
        return (recording.description, recording.events)
    }
}

extension EvemuReader {
    /// The newest format this reader knows; newer minor versions of format 1
    /// are read the same way (evemu itself only warns about them).
    static let newestKnownVersion = EvemuRecording.Version(major: 1, minor: 3)

    private struct Parser {
        let source: String
        var version = EvemuRecording.Version(major: 1, minor: 0)
        var name: String?
        var identity: [UInt16]?
        var properties: Set<InputProperty> = []
        var propertyBytes = 0
        var codes: [EventType: Set<EventCode>] = [:]
        var maskBytes: [UInt16: Int] = [:]
        var axes: [EventCode: AbsoluteAxisInfo] = [:]
        var events: [InputEvent] = []
        var ignoredLines: [Int] = []

        init(source: String) { self.source = source }

        func error(_ kind: InteropError.Kind, _ line: Int?, _ message: String) -> InteropError {
            InteropError(kind: kind, source: source, line: line, message: message)
        }

        /// The device, made when the description ends (at the first event).
        var finishedDescription: InputDeviceDescription?
        var inEvents = false
        var sawContent = false

        /// Reads one line (without its line break).
        mutating func line(_ bytes: ArraySlice<UInt8>, number: Int) throws(InteropError) {
            var scanner = ByteScanner(bytes)
            scanner.skipWhitespace()
            if scanner.isAtEnd { return }
            // evemu takes the version from the first line that is not empty.
            if !sawContent {
                sawContent = true
                try readVersion(TextLines.Line(number: number, bytes: bytes))
            }
            let content = scanner.remainder
            if content.first == UInt8(ascii: "#") { return }
            if content.starts(with: "E:") && identity != nil {
                if !inEvents, let name, let identity {
                    inEvents = true
                    finishedDescription = makeDescription(name: name, identity: identity)
                }
                try readEvent(content, line: number)
            } else if name == nil {
                try readName(content, line: number)
            } else if identity == nil {
                try readIdentity(content, line: number)
            } else if inEvents {
                ignoredLines.append(number)
            } else {
                try readDescriptionLine(content, line: number)
            }
        }

        /// Checks the whole once every line is read.
        func finish(lastLine: Int?) throws(InteropError) -> EvemuRecording {
            guard let name else { throw error(.malformed, nil, "the file is empty: no evemu device description (N: NAME)") }
            guard let identity else {
                throw error(.malformed, lastLine, "the description ends before its I: BUS VENDOR PRODUCT VERSION line")
            }
            return EvemuRecording(
                description: finishedDescription ?? makeDescription(name: name, identity: identity), events: events,
                formatVersion: version, ignoredLines: ignoredLines)
        }

        mutating func readVersion(_ line: TextLines.Line) throws(InteropError) {
            var scanner = ByteScanner(line.bytes)
            scanner.skipWhitespace()
            guard scanner.consume("#") else { return }
            scanner.skipWhitespace()
            guard scanner.consume("EVEMU") else { return }
            scanner.skipWhitespace()
            guard let major = scanner.unsignedDecimal(maximumDigits: 5), scanner.consume("."),
                let minor = scanner.unsignedDecimal(maximumDigits: 5)
            else { throw error(.malformed, line.number, "the header should read '# EVEMU MAJOR.MINOR', e.g. '# EVEMU 1.3'") }
            version = EvemuRecording.Version(major: Int(major), minor: Int(minor))
            if version.major != EvemuReader.newestKnownVersion.major {
                throw error(
                    .unsupportedVersion, line.number,
                    "evemu format \(version) is not supported (this reader knows 1.0 to \(EvemuReader.newestKnownVersion))")
            }
        }

        mutating func readName(_ content: ArraySlice<UInt8>, line: Int) throws(InteropError) {
            var scanner = ByteScanner(content)
            guard scanner.consume("N:") else {
                throw error(.malformed, line, "expected the device name ('N: NAME'), found '\(preview(content))'")
            }
            scanner.skipWhitespace()
            let value = scanner.remainder.text
            if value.isEmpty { throw error(.malformed, line, "the device name after 'N:' is empty") }
            name = value
        }

        mutating func readIdentity(_ content: ArraySlice<UInt8>, line: Int) throws(InteropError) {
            var scanner = ByteScanner(content)
            var values: [UInt16] = []
            if scanner.consume("I:") {
                for _ in 0..<4 {
                    scanner.skipWhitespace()
                    guard let value = scanner.hex(maximumDigits: 4) else { break }
                    values.append(UInt16(value))
                }
            }
            guard values.count == 4 else {
                throw error(
                    .malformed, line,
                    "expected 'I: BUS VENDOR PRODUCT VERSION' (four hex numbers), found '\(preview(content))'")
            }
            identity = values
        }

        mutating func readDescriptionLine(_ content: ArraySlice<UInt8>, line: Int) throws(InteropError) {
            if content.starts(with: "P:") {
                try readProperties(content, line: line)
            } else if content.starts(with: "B:") {
                try readMask(content, line: line)
            } else if content.starts(with: "A:") {
                try readAxis(content, line: line)
            } else if content.starts(with: "L:") || content.starts(with: "S:") {
                try readState(content, line: line)
            } else if content.starts(with: "N:") || content.starts(with: "I:") {
                throw error(.malformed, line, "a second '\(preview(content.prefix(2)))' line in the description")
            } else {
                throw error(
                    .malformed, line,
                    "expected a description line (P:, B:, A:, L:, S:) or an event (E:), found '\(preview(content))'")
            }
        }

        /// Eight hex bytes after the line's prefix and the given number of
        /// leading fields.
        func bytes(_ scanner: inout ByteScanner, count: Int, line: Int, layout: String) throws(InteropError) -> [UInt8] {
            var values: [UInt8] = []
            for _ in 0..<count {
                scanner.skipWhitespace()
                guard let value = scanner.hex(maximumDigits: 2) else {
                    throw error(.malformed, line, "expected '\(layout)' with \(count) two-digit hex bytes")
                }
                values.append(UInt8(value))
            }
            return values
        }

        mutating func readProperties(_ content: ArraySlice<UInt8>, line: Int) throws(InteropError) {
            var scanner = ByteScanner(content.dropFirst(2))
            let mask = try bytes(&scanner, count: 8, line: line, layout: "P: 00 00 00 00 00 00 00 00")
            for (index, byte) in mask.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let number = propertyBytes * 8 + index * 8 + bit
                    guard number < Int(KernelTables.propertyCount) else {
                        throw error(.outOfRange, line, "property bit \(number) is beyond INPUT_PROP_MAX")
                    }
                    properties.insert(InputProperty(rawValue: UInt16(number)))
                }
            }
            propertyBytes += 8
        }

        mutating func readMask(_ content: ArraySlice<UInt8>, line: Int) throws(InteropError) {
            var scanner = ByteScanner(content.dropFirst(2))
            scanner.skipWhitespace()
            guard let typeNumber = scanner.hex(maximumDigits: 2) else {
                throw error(.malformed, line, "expected 'B: TYPE' and eight hex bytes")
            }
            let mask = try bytes(&scanner, count: 8, line: line, layout: "B: TYPE 00 00 00 00 00 00 00 00")
            guard typeNumber < UInt64(KernelTables.eventTypeCount) else {
                throw error(.outOfRange, line, "event type 0x\(String(typeNumber, radix: 16)) is beyond EV_MAX")
            }
            let type = EventType(rawValue: UInt16(typeNumber))
            let offset = maskBytes[type.rawValue, default: 0]
            maskBytes[type.rawValue] = offset + 8
            // Every device has EV_SYN; evemu writes a fixed line for it.
            if type == .synchronization { return }
            for (index, byte) in mask.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let number = offset * 8 + index * 8 + bit
                    guard let maximum = KernelTables.maximumCode(of: type) else {
                        throw error(.outOfRange, line, "event type \(type) has no codes in libevdev")
                    }
                    guard number <= Int(maximum.rawValue) else {
                        throw error(.outOfRange, line, "code \(number) is beyond the largest code of \(type)")
                    }
                    codes[type, default: []].insert(EventCode(rawValue: UInt16(number)))
                }
            }
        }

        mutating func readAxis(_ content: ArraySlice<UInt8>, line: Int) throws(InteropError) {
            var scanner = ByteScanner(content.dropFirst(2))
            scanner.skipWhitespace()
            let layout = "A: CODE MIN MAX FUZZ FLAT RESOLUTION"
            guard let codeNumber = scanner.hex(maximumDigits: 2) else {
                throw error(.malformed, line, "expected '\(layout)', found '\(preview(content))'")
            }
            var numbers: [Int32] = []
            while true {
                scanner.skipWhitespace()
                if scanner.isAtEnd { break }
                guard numbers.count < 5, let value = scanner.signedDecimal() else {
                    throw error(.malformed, line, "expected '\(layout)', found '\(preview(content))'")
                }
                guard let number = Int32(exactly: value) else {
                    throw error(.outOfRange, line, "axis value \(value) does not fit 32 bits")
                }
                numbers.append(number)
            }
            // Formats after 1.1 carry the resolution; older ones may not.
            let resolutionRequired = version > EvemuRecording.Version(major: 1, minor: 1)
            guard numbers.count == 5 || (numbers.count == 4 && !resolutionRequired) else {
                throw error(
                    .malformed, line,
                    "expected '\(layout)': \(resolutionRequired ? "5" : "4 or 5") numbers after the code in format "
                        + "\(version), found \(numbers.count)")
            }
            let maximumAxis = KernelTables.maximumCode(of: .absolute)?.rawValue ?? 0
            guard codeNumber <= UInt64(maximumAxis) else {
                throw error(.outOfRange, line, "axis 0x\(String(codeNumber, radix: 16)) is beyond ABS_MAX")
            }
            axes[EventCode(rawValue: UInt16(codeNumber))] = AbsoluteAxisInfo(
                minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                resolution: numbers.count > 4 ? numbers[4] : 0)
        }

        func readState(_ content: ArraySlice<UInt8>, line: Int) throws(InteropError) {
            var scanner = ByteScanner(content.dropFirst(2))
            scanner.skipWhitespace()
            guard scanner.hex(maximumDigits: 2) != nil else {
                throw error(.malformed, line, "expected '\(preview(content.prefix(2))) CODE STATE'")
            }
            scanner.skipWhitespace()
            guard scanner.signedDecimal() != nil else {
                throw error(.malformed, line, "expected '\(preview(content.prefix(2))) CODE STATE'")
            }
        }

        mutating func readEvent(_ content: ArraySlice<UInt8>, line: Int) throws(InteropError) {
            var scanner = ByteScanner(content.dropFirst(2))
            // Made only for an error: every event of a long file passes here.
            func layout() -> InteropError {
                error(.malformed, line, "expected 'E: SECONDS.MICROSECONDS TYPE CODE VALUE', found '\(preview(content))'")
            }
            scanner.skipWhitespace()
            guard let seconds = scanner.unsignedDecimal(), scanner.consume("."),
                let microseconds = scanner.unsignedDecimal(maximumDigits: 6)
            else { throw layout() }
            var before = scanner.position
            scanner.skipWhitespace()
            guard scanner.position > before, let type = scanner.hex(maximumDigits: 4) else { throw layout() }
            before = scanner.position
            scanner.skipWhitespace()
            guard scanner.position > before, let code = scanner.hex(maximumDigits: 4) else { throw layout() }
            scanner.skipWhitespace()
            guard let value = scanner.signedDecimal() else { throw layout() }
            guard let value32 = Int32(exactly: value) else {
                throw error(.outOfRange, line, "event value \(value) does not fit 32 bits")
            }
            let (secondsPart, productOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
            let (total, sumOverflow) = secondsPart.addingReportingOverflow(microseconds)
            guard !productOverflow, !sumOverflow, let time = Int64(exactly: total) else {
                throw error(.outOfRange, line, "event time \(seconds) s is too large")
            }
            events.append(
                InputEvent(
                    time: Microseconds(time), type: EventType(rawValue: UInt16(type)),
                    code: EventCode(rawValue: UInt16(code)), value: value32))
        }

        func makeDescription(name: String, identity: [UInt16]) -> InputDeviceDescription {
            var absoluteAxes: [EventCode: AbsoluteAxisInfo] = [:]
            for code in codes[.absolute] ?? [] {
                // evemu gives an axis without an A: line the range 0…1.
                absoluteAxes[code] = axes[code] ?? AbsoluteAxisInfo(minimum: 0, maximum: 1)
            }
            return InputDeviceDescription(
                name: name, bus: identity[0], vendor: identity[1], product: identity[2], version: identity[3],
                properties: properties, codes: codes, absoluteAxes: absoluteAxes)
        }

        /// The start of a line for messages, at most 60 characters.
        /// At most 60 characters of `content`, control and invisible
        /// characters escaped (`DisplayText`).
        func preview(_ content: ArraySlice<UInt8>) -> String {
            let text = content.text
            return text.count > 60 ? DisplayText.escaped(String(text.prefix(60))) + "…" : DisplayText.escaped(text)
        }
    }
}
