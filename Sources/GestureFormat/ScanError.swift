/// A problem found while reading, located by byte offset; turned into a
/// ``GestureFormatError`` (with line and column) once, at the end, so that
/// the reader never counts lines while it works.
package struct ScanError: Error {
    /// Where the problem is.
    package enum Place {
        /// Nowhere in particular (the file as a whole).
        case none
        /// At a byte offset, shown as line and column.
        case spot(Int)
        /// In the value starting at a byte offset, shown as a line only.
        case line(Int)
    }

    package var kind: GestureFormatError.Kind
    package var place: Place
    package var message: String

    package init(_ kind: GestureFormatError.Kind, _ place: Place, _ message: String) {
        self.kind = kind
        self.place = place
        self.message = message
    }

    /// The public error, with the byte offset turned into a line and column.
    func formatError(source: String, bytes: UnsafeBufferPointer<UInt8>) -> GestureFormatError {
        switch place {
        case .none:
            return GestureFormatError(kind: kind, source: source, message: message)
        case .spot(let offset):
            let position = TextPosition(offset: offset, in: bytes)
            return GestureFormatError(
                kind: kind, source: source, line: position.line, column: position.column, message: message)
        case .line(let offset):
            let position = TextPosition(offset: offset, in: bytes)
            return GestureFormatError(kind: kind, source: source, line: position.line, message: message)
        }
    }
}

/// A 1-based line and column (in Unicode scalars) of a byte offset.
package struct TextPosition {
    package var line: Int
    package var column: Int

    package init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Count scalars, not bytes: UTF-8 continuation bytes (10xxxxxx) do
        // not start a new column.
        var column = 1
        for index in lineStart..<end where bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        self.line = line
        self.column = column
    }
}
