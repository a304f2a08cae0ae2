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

    /// The canonical text of `gesture`, handed to `write` in pieces of
    /// about 64 KiB as it is made, never held whole (a long gesture's
    /// text is hundreds of megabytes; issue 39). The bytes are those of
    /// ``encodeUTF8(_:)``. An error of `write` stops the writing and is
    /// thrown.
    public static func encode(_ gesture: Gesture, inPieces write: ([UInt8]) throws -> Void) throws {
        var failure: (any Error)?
        withoutActuallyEscaping(write) { write in
            _ = GestureEncoder(gesture) { (bytes: inout [UInt8]) -> Bool in
                do {
                    try write(bytes)
                } catch {
                    failure = error
                    return false
                }
                bytes.removeAll(keepingCapacity: true)
                return true
            }
        }
        if let failure { throw failure }
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

    /// Reads and validates a gesture from the bytes of a mapped file
    /// (OperatingSystem's `MappedFile`), as ``decode(_:source:)`` does,
    /// with the same errors, but leaving its samples in the file: each
    /// stroke's ``GestureModel/Samples`` reads them from `bytes` when asked,
    /// and the gesture keeps `owner` (the mapping) alive. Every 4 MiB
    /// walked, `discard` is called to give the mapping's pages back, so the
    /// memory used does not grow with the file (issue 39).
    public static func decode(
        mapped bytes: UnsafeBufferPointer<UInt8>, owner: AnyObject & Sendable, source: String,
        discard: @escaping @Sendable () -> Void
    ) throws(GestureFormatError) -> Gesture {
        if bytes.count > GestureLimits.maximumMappedFileBytes {
            throw GestureFormatError(
                kind: .tooLarge, source: source,
                message: "file is \(bytes.count) bytes; the limit is \(GestureLimits.maximumMappedFileBytes) bytes")
        }
        let trimmer = PageTrimmer(discard: discard)
        return try decode(
            buffer: bytes, source: source, syntaxChecked: false,
            mapped: MappedInput(owner: owner, bytes: bytes, trimmer: trimmer))
    }

    private static func decode(_ bytes: [UInt8], source: String, syntaxChecked: Bool) throws(GestureFormatError) -> Gesture {
        if bytes.count > GestureLimits.maximumFileBytes {
            throw GestureFormatError(
                kind: .tooLarge, source: source,
                message: "file is \(bytes.count) bytes; the limit is \(GestureLimits.maximumFileBytes) bytes")
        }
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<Gesture, GestureFormatError> in
            Result { () throws(GestureFormatError) -> Gesture in
                try decode(buffer: buffer, source: source, syntaxChecked: syntaxChecked, mapped: nil)
            }
        }
        return try result.get()
    }

    private static func decode(
        buffer: UnsafeBufferPointer<UInt8>, source: String, syntaxChecked: Bool, mapped: MappedInput?
    ) throws(GestureFormatError) -> Gesture {
        var scanner = JSONScanner(bytes: buffer)
        scanner.trimmer = mapped?.trimmer
        do throws(ScanError) {
            let version = try VersionCheck.check(scanner, syntaxChecked: syntaxChecked)
            var decoder = GestureDecoder(scanner: scanner, version: version, mapped: mapped)
            let gesture = try decoder.decodeGesture()
            do throws(GestureValidationError) {
                try gesture.validate()
            } catch {
                let offset = ValueLocator.offset(of: ValueLocator.path(of: error), in: scanner)
                throw ScanError(.invalid, .line(offset), error.description)
            }
            return gesture
        } catch {
            throw error.formatError(source: source, bytes: buffer)
        }
    }

    /// Reads and validates a gesture from text, as the byte version does.
    public static func decode(_ text: String, source: String) throws(GestureFormatError) -> Gesture {
        try decode(Array(text.utf8), source: source)
    }
}
