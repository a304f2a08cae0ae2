import InputSystem

/// The recording formats this module reads: the Linux input peers' and
/// the two automation formats.
public enum InteropFormat: String, Hashable, Sendable, CaseIterable {
    /// evemu text (`evemu-describe`, `evemu-record`).
    case evemu
    /// `libinput record` YAML.
    case libinputRecord = "libinput"
    /// The command file of Android's `uinput` shell command (JSON).
    case androidUinput = "android-uinput"
    /// A W3C WebDriver Actions payload (JSON).
    case webdriver
    /// Neither.
    case unknown

    /// Recognises a file from its first lines: `# EVEMU x.y`, or a first
    /// content line `N:` (older evemu) or `E:` (events only), is evemu;
    /// `# libinput record`, or a first content line `version:`,
    /// `ndevices:`, `libinput:` or `devices:`, is libinput record. Only the
    /// first 64 KiB are looked at. A text that starts with `{` (after
    /// white space and `//`, `#` or `/* */` comments) is JSON: an Android
    /// `uinput` command file when the key `"command"` comes before
    /// `"actions"`, a WebDriver payload when `"actions"` comes first.
    public static func detect(_ bytes: some Sequence<UInt8>) -> InteropFormat {
        let head = Array(bytes.prefix(65_536))
        if let json = detectJSON(head) { return json }
        for line in TextLines(bytes: head).lines {
            var scanner = ByteScanner(line.bytes)
            scanner.skipWhitespace()
            let content = scanner.remainder
            if content.isEmpty { continue }
            if content.starts(with: "#") {
                var comment = ByteScanner(content.dropFirst())
                comment.skipWhitespace()
                if comment.remainder.starts(with: "EVEMU") { return .evemu }
                if comment.remainder.starts(with: "libinput record") { return .libinputRecord }
                continue
            }
            if content.starts(with: "N:") || content.starts(with: "E:") { return .evemu }
            for key in ["version:", "ndevices:", "libinput:", "devices:"] where content.starts(with: key) {
                return .libinputRecord
            }
            return .unknown
        }
        return .unknown
    }

    /// `.androidUinput`, `.webdriver` or `.unknown` for a text that starts
    /// with `{`; nil for one that does not.
    private static func detectJSON(_ head: [UInt8]) -> InteropFormat? {
        var index = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < head.count {
            switch head[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            case UInt8(ascii: "/") where index + 1 < head.count && head[index + 1] == UInt8(ascii: "/"),
                UInt8(ascii: "#"):
                // A `#` line is also evemu's and libinput's comment: with no
                // `{` after the comments, those formats are tried next.
                while index < head.count && head[index] != 0x0A { index += 1 }
            case UInt8(ascii: "/") where index + 1 < head.count && head[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index + 1 < head.count && !(head[index] == UInt8(ascii: "*") && head[index + 1] == UInt8(ascii: "/")) {
                    index += 1
                }
                index += 2
            case UInt8(ascii: "{"):
                if let format = detectByKeys(head) { return format }
                // The keys cannot be read to the object's end (the head ends
                // inside it, or it is broken): the first of the two keys
                // written anywhere decides, and the reader then says what
                // is wrong.
                let command = firstOffset(of: Array("\"command\"".utf8), in: head, from: index)
                let actions = firstOffset(of: Array("\"actions\"".utf8), in: head, from: index)
                switch (command, actions) {
                case (let c?, let a?): return c < a ? .androidUinput : .webdriver
                case (_?, nil): return .androidUinput
                case (nil, _?): return .webdriver
                case (nil, nil): return .unknown
                }
            default: return nil
            }
        }
        return nil
    }

    /// The first object's top-level keys: `"command"` is Android's,
    /// `"actions"` WebDriver's; `.unknown` for an object with neither;
    /// nil when the keys cannot be read to the end of the object.
    private static func detectByKeys(_ head: [UInt8]) -> InteropFormat? {
        head.withUnsafeBufferPointer { buffer -> InteropFormat? in
            var input = JSONInput(bytes: buffer, source: "", lenient: true)
            var found: InteropFormat?
            do throws(InteropError) {
                try input.object("") { (input, key, _) throws(InteropError) in
                    if found == nil && key == "command" { found = .androidUinput }
                    if found == nil && key == "actions" { found = .webdriver }
                    try input.skipValue()
                }
            } catch {
                return found
            }
            return found ?? .unknown
        }
    }

    private static func firstOffset(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for offset in start...(haystack.count - needle.count) where haystack[offset] == needle[0] {
            if haystack[offset..<offset + needle.count].elementsEqual(needle) { return offset }
        }
        return nil
    }

    /// Recognises a text; see ``detect(_:)``.
    public static func detect(text: String) -> InteropFormat { detect(text.utf8) }
}

/// A recording read from either peer's format.
public struct InteropRecording: Hashable, Sendable {
    /// The format it was read from.
    public var format: InteropFormat
    /// The device that was recorded.
    public var description: InputDeviceDescription
    /// Its events in file order, ready to feed to the recorder's state
    /// machine (times in microseconds as the file has them).
    public var events: [InputEvent]
    /// Lines (1-based) that were passed over: in an evemu file, lines after
    /// the description that are neither events nor comments, which
    /// `evemu-play` skips too (e.g. a terminal's echo caught in the file).
    public var ignoredLines: [Int]

    /// Creates a recording.
    public init(format: InteropFormat, description: InputDeviceDescription, events: [InputEvent], ignoredLines: [Int] = []) {
        self.format = format
        self.description = description
        self.events = events
        self.ignoredLines = ignoredLines
    }
}

/// Reads a file in whichever format it is: the entry point for
/// `gesturectl import`.
public enum InteropReader {
    /// Detects the format and reads the recording (the first device of a
    /// multi-device libinput recording).
    ///
    /// - Throws: ``InteropError`` with ``InteropError/Kind/unknownFormat``
    ///   for a file in neither format, or the format reader's error.
    public static func read(_ text: String, source: String, viewport: WebDriverViewport? = nil) throws(InteropError) -> InteropRecording {
        try read(bytes: Array(text.utf8), source: source, viewport: viewport)
    }

    /// Detects the format and reads the recording given as the file's
    /// bytes, without another copy of the text (a recording can be
    /// gigabytes); see ``read(_:source:)``.
    ///
    /// `viewport` is the viewport of a WebDriver payload's positions
    /// (without one: the smallest that holds them all); other formats
    /// carry their device's axes and ignore it.
    public static func read(bytes: [UInt8], source: String, viewport: WebDriverViewport? = nil) throws(InteropError) -> InteropRecording {
        switch InteropFormat.detect(bytes) {
        case .evemu:
            let recording = try EvemuReader.read(bytes: bytes, source: source)
            return InteropRecording(
                format: .evemu, description: recording.description, events: recording.events,
                ignoredLines: recording.ignoredLines)
        case .libinputRecord:
            let recording = try LibinputRecordReader.read(bytes: bytes, source: source)
            return InteropRecording(
                format: .libinputRecord, description: recording.description, events: recording.events)
        case .androidUinput:
            let recording = try AndroidUinputReader.read(bytes: bytes, source: source)
            return InteropRecording(format: .androidUinput, description: recording.description, events: recording.events)
        case .webdriver:
            let recording = try WebDriverActionsReader.read(bytes: bytes, source: source, viewport: viewport)
            return InteropRecording(format: .webdriver, description: recording.description, events: recording.events)
        case .unknown:
            throw InteropError(
                kind: .unknownFormat, source: source,
                message: "not an evemu recording ('# EVEMU 1.3', 'N: NAME'), a libinput record file ('version: 1'), "
                    + "an Android uinput command file ('{\"command\": \"register\", …}') "
                    + "or a WebDriver actions payload ('{\"actions\": […]}')")
        }
    }
}

extension InteropReader {
    /// How many bytes are looked at to tell the format before a file is
    /// read in pieces (as ``InteropFormat/detect(_:)`` looks at).
    static let detectionBytes = 65_536

    /// Reads a file that comes in pieces, handing its events on as they are
    /// read, so that a recording of any length is read in the memory of a
    /// piece: evemu text line by line, libinput record's YAML an `events:`
    /// entry at a time. The JSON formats are gathered whole and then read
    /// as ``read(bytes:source:viewport:)`` reads them.
    ///
    /// - Parameters:
    ///   - nextPiece: The file's next bytes; empty at its end. What it
    ///     throws (a read error, a size limit) ends the reading.
    ///   - begin: Called once, before any event, with the format and the
    ///     device; what it throws ends the reading.
    ///   - events: Called with the events read, in order, in batches.
    /// - Returns: The format and, for evemu, the lines passed over (see
    ///   ``InteropRecording/ignoredLines``).
    public static func stream(
        source: String, viewport: WebDriverViewport? = nil,
        nextPiece: () throws -> [UInt8],
        begin: (InteropFormat, InputDeviceDescription) throws -> Void,
        events: ([InputEvent]) throws -> Void
    ) throws -> (format: InteropFormat, ignoredLines: [Int]) {
        var head: [UInt8] = []
        var ended = false
        while head.count < detectionBytes {
            let piece = try nextPiece()
            if piece.isEmpty {
                ended = true
                break
            }
            head.append(contentsOf: piece)
        }
        let format = InteropFormat.detect(head)
        if format == .libinputRecord {
            var reader = LibinputRecordReader.Stream(source: source)
            return try run(&reader, format: format, head: head, ended: ended, nextPiece: nextPiece, begin: begin, events: events)
        }
        guard format == .evemu else {
            // Gathered whole; detection and reading as for a whole file.
            // A text in no format is refused from its head, without
            // reading on (`/dev/zero`, a FIFO that never ends).
            var bytes = head
            head = []
            while !ended && format != .unknown {
                let piece = try nextPiece()
                if piece.isEmpty { break }
                bytes.append(contentsOf: piece)
            }
            let recording = try read(bytes: bytes, source: source, viewport: viewport)
            bytes = []
            try begin(recording.format, recording.description)
            try events(recording.events)
            return (recording.format, recording.ignoredLines)
        }
        var reader = EvemuReader.Stream(source: source)
        return try run(&reader, format: format, head: head, ended: ended, nextPiece: nextPiece, begin: begin, events: events)
    }

    /// Feeds `reader` the head, then every further piece, handing on the
    /// device once it is known and the events as they are read.
    private static func run<Reader: PieceReader>(
        _ reader: inout Reader, format: InteropFormat, head: [UInt8], ended: Bool,
        nextPiece: () throws -> [UInt8],
        begin: (InteropFormat, InputDeviceDescription) throws -> Void,
        events: ([InputEvent]) throws -> Void
    ) throws -> (format: InteropFormat, ignoredLines: [Int]) {
        var begun = false
        var piece = head
        var ended = ended
        while true {
            try reader.feed(piece)
            if let description = reader.description {
                if !begun {
                    begun = true
                    try begin(format, description)
                }
                if !reader.events.isEmpty { try events(reader.takeEvents()) }
            }
            if ended { break }
            piece = try nextPiece()
            if piece.isEmpty { ended = true }
        }
        let (description, ignoredLines) = try reader.finishReading()
        if !begun { try begin(format, description) }
        if !reader.events.isEmpty { try events(reader.takeEvents()) }
        return (format, ignoredLines)
    }
}

/// A reader fed a file in pieces (``EvemuReader/Stream``,
/// ``LibinputRecordReader/Stream``).
protocol PieceReader {
    /// The device, once known.
    var description: InputDeviceDescription? { get }
    /// The events read and not yet taken.
    var events: [InputEvent] { get }
    /// Hands over the events read so far and forgets them.
    mutating func takeEvents() -> [InputEvent]
    /// Reads the next piece.
    mutating func feed(_ bytes: [UInt8]) throws(InteropError)
    /// Reads what is left and checks the whole: the device and the lines passed over.
    mutating func finishReading() throws(InteropError) -> (InputDeviceDescription, [Int])
}

extension EvemuReader.Stream: PieceReader {
    mutating func finishReading() throws(InteropError) -> (InputDeviceDescription, [Int]) {
        let recording = try finish()
        return (recording.description, recording.ignoredLines)
    }
}

extension LibinputRecordReader.Stream: PieceReader {
    mutating func finishReading() throws(InteropError) -> (InputDeviceDescription, [Int]) {
        (try finish().description, [])
    }
}
