/// The first reading pass: checks that the whole text is well-formed JSON
/// and finds the top-level `"format"`, so that the version is judged before
/// anything is read as version 1 (a newer file gets "newer version", not a
/// confusing error about a key it is allowed to have).
///
/// It builds nothing; it only walks the bytes.
enum VersionCheck {
    /// Checks the syntax and the format version of the text; only the
    /// version when `syntaxChecked` (a text checked as strict JSON already).
    /// - Returns: the version (1 up to ``GestureFileFormat/currentVersion``).
    @discardableResult
    static func check(_ scanner: JSONScanner, syntaxChecked: Bool = false) throws(ScanError) -> Int {
        var scanner = scanner
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        if scanner.isAtEnd {
            throw ScanError(.notAGesture, .none, "not a gesturectl gesture: the file is empty")
        }
        let isObject = scanner.current == UInt8(ascii: "{")
        var formatOffset: Int? = nil
        if isObject {
            scanner.position += 1
            var first = true
            while let (key, keyOffset) = try scanner.nextKey(first: &first) {
                if key == "format" {
                    if formatOffset != nil {
                        throw ScanError(.invalid, .spot(keyOffset), "duplicate key \"format\" in gesture")
                    }
                    formatOffset = scanner.position
                }
                if syntaxChecked {
                    scanner.skipWhitespace()
                    scanner.skipCheckedValue()
                } else {
                    try scanner.skipValue(depth: 2)
                }
            }
        } else {
            try scanner.skipValue(depth: 1)
        }
        scanner.skipWhitespace()
        if !scanner.isAtEnd { throw scanner.unexpected(expecting: "the end of the file") }

        guard isObject else {
            throw ScanError(.notAGesture, .none, "not a gesturectl gesture: expected a JSON object")
        }
        guard let formatOffset else {
            throw ScanError(.notAGesture, .none, "not a gesturectl gesture: no \"format\" key")
        }
        return try checkVersion(at: formatOffset, scanner: scanner)
    }

    /// Judges the `"format"` value starting at `offset`.
    private static func checkVersion(at offset: Int, scanner: JSONScanner) throws(ScanError) -> Int {
        var scanner = scanner
        scanner.position = offset
        let current = GestureFileFormat.currentVersion
        let notAnInteger = ScanError(
            .notAGesture, .none,
            "not a gesturectl gesture: \"format\" must be an integer, found \(scanner.describeValue(at: offset))")
        // Harmless: a number that does not scan is thrown as notAnInteger, which describes what is there.
        guard let byte = scanner.current, byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte),
            let token = try? scanner.scanNumber(), token.isInteger
        else { throw notAnInteger }
        let literal = scanner.text(of: token)
        guard let version = scanner.integerValue(of: token) else {
            // Too large even for an Int: a version from the far future, or nonsense below zero.
            if byte == UInt8(ascii: "-") {
                throw ScanError(.notAGesture, .none, "not a gesturectl gesture: format version \(literal) is not valid")
            }
            throw ScanError(.newerVersion(Int.max), .none, "format version \(literal); this gesturectl reads up to \(current)")
        }
        if version > current {
            throw ScanError(.newerVersion(version), .none, "format version \(version); this gesturectl reads up to \(current)")
        }
        if version < 1 {
            throw ScanError(
                .notAGesture, .none, "not a gesturectl gesture: format version \(version) is not valid; versions start at 1")
        }
        return version
    }
}
