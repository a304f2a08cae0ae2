import InputSystem

/// The recording formats of the Linux input peers this module reads.
public enum InteropFormat: String, Hashable, Sendable, CaseIterable {
    /// evemu text (`evemu-describe`, `evemu-record`).
    case evemu
    /// `libinput record` YAML.
    case libinputRecord = "libinput"
    /// Neither.
    case unknown

    /// Recognises a file from its first lines: `# EVEMU x.y`, or a first
    /// content line `N:` (older evemu) or `E:` (events only), is evemu;
    /// `# libinput record`, or a first content line `version:`,
    /// `ndevices:`, `libinput:` or `devices:`, is libinput record. Only the
    /// first 64 KiB are looked at.
    public static func detect(_ bytes: some Sequence<UInt8>) -> InteropFormat {
        let head = Array(bytes.prefix(65_536))
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
    public static func read(_ text: String, source: String) throws(InteropError) -> InteropRecording {
        try read(bytes: Array(text.utf8), source: source)
    }

    /// Detects the format and reads the recording given as the file's
    /// bytes, without another copy of the text (a recording can be
    /// gigabytes); see ``read(_:source:)``.
    public static func read(bytes: [UInt8], source: String) throws(InteropError) -> InteropRecording {
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
        case .unknown:
            throw InteropError(
                kind: .unknownFormat, source: source,
                message: "neither an evemu recording ('# EVEMU 1.3', 'N: NAME') nor a libinput record file ('version: 1')")
        }
    }
}
