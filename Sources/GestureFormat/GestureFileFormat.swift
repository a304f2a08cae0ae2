import GestureModel

/// The gesturectl timeline file format: versioned, human-readable JSON in
/// one canonical layout (see docs/FORMAT.md).
///
/// Writing always gives the canonical text, so canonical files round-trip
/// byte for byte and diffs stay small. Reading accepts any valid JSON with
/// the right keys in any order and any whitespace, so hand-edited files
/// load; it refuses unknown keys (to catch typos), duplicate keys, and
/// files from a newer format version.
public enum GestureFileFormat {
    /// The newest format version this code reads and writes. Version 2
    /// adds the stroke key `"estimated"`.
    public static let currentVersion = 2

    /// The version a gesture is written in: the lowest that holds it (1
    /// unless a stroke is estimated), so that files without the newer
    /// key stay readable by a gesturectl that reads only version 1.
    public static func version(for gesture: Gesture) -> Int {
        gesture.strokes.contains(where: \.isEstimated) ? 2 : 1
    }

    /// `text` as a JSON string literal, escaped exactly as the format writes
    /// strings (for other JSON output, such as the commands' `--json`).
    public static func jsonStringLiteral(_ text: String) -> String {
        "\"" + GestureEncoder.escaped(text) + "\""
    }

    /// The canonical text of `gesture`.
    ///
    /// The gesture is written as it is; call ``GestureModel/Gesture/validate()``
    /// first to be sure the file will read back (an invalid gesture is
    /// refused on reading, with the reason).
    public static func encode(_ gesture: Gesture) -> String {
        String(decoding: GestureEncoder(gesture).output, as: UTF8.self)
    }

    /// The canonical text of `gesture` as UTF-8 bytes, ready to write to a
    /// file (skips building a `String`).
    public static func encodeUTF8(_ gesture: Gesture) -> [UInt8] {
        GestureEncoder(gesture).output
    }

    /// The canonical text of `gesture` on one line (the line breaks and the
    /// indentation after them taken out; a string never holds a raw line
    /// break, so nothing else changes): for a protocol whose messages are
    /// lines, without parsing the text back into values to print them again.
    public static func encodeOneLineUTF8(_ gesture: Gesture) -> [UInt8] {
        let text = GestureEncoder(gesture).output
        var line: [UInt8] = []
        line.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            guard byte == 0x0A else {
                line.append(byte)
                continue
            }
            while index < text.count && text[index] == 0x20 { index += 1 }
        }
        return line
    }

    /// Reads and validates a gesture from the UTF-8 bytes of a file.
    ///
    /// The steps, each of which can fail with a ``GestureFormatError``: the
    /// size limit (``GestureLimits/maximumFileBytes``), the JSON syntax of
    /// the whole text, the `"format"` version, the version-1 keys and
    /// types, and ``GestureModel/Gesture/validate()``.
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - source: the name shown at the start of error messages, usually
    ///     the file's path.
    public static func decode(_ bytes: [UInt8], source: String) throws(GestureFormatError) -> Gesture {
        try decode(bytes, source: source, syntaxChecked: false)
    }

    /// ``decode(_:source:)`` of bytes checked as strict JSON already (a
    /// daemon request's inline gesture, checked with the rest of its line
    /// by ``JSONValue/parse(_:leavingUnbuilt:)``): the pass that checks the
    /// syntax is left out; the version, the keys, the types and the
    /// gesture are checked as in a file, with the same errors.
    package static func decode(checkedJSON bytes: [UInt8], source: String) throws(GestureFormatError) -> Gesture {
        try decode(bytes, source: source, syntaxChecked: true)
    }

    private static func decode(_ bytes: [UInt8], source: String, syntaxChecked: Bool) throws(GestureFormatError) -> Gesture {
        if bytes.count > GestureLimits.maximumFileBytes {
            throw GestureFormatError(
                kind: .tooLarge, source: source,
                message: "file is \(bytes.count) bytes; the limit is \(GestureLimits.maximumFileBytes) bytes")
        }
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<Gesture, GestureFormatError> in
            let scanner = JSONScanner(bytes: buffer)
            do throws(ScanError) {
                let version = try VersionCheck.check(scanner, syntaxChecked: syntaxChecked)
                var decoder = GestureDecoder(scanner: scanner, version: version)
                let gesture = try decoder.decodeGesture()
                do throws(GestureValidationError) {
                    try gesture.validate()
                } catch {
                    let offset = ValueLocator.offset(of: ValueLocator.path(of: error), in: scanner)
                    throw ScanError(.invalid, .line(offset), error.description)
                }
                return .success(gesture)
            } catch {
                return .failure(error.formatError(source: source, bytes: buffer))
            }
        }
        return try result.get()
    }

    /// Reads and validates a gesture from text, as the byte version does.
    public static func decode(_ text: String, source: String) throws(GestureFormatError) -> Gesture {
        try decode(Array(text.utf8), source: source)
    }
}
