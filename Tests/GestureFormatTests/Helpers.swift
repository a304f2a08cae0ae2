import GestureFormat
import GestureModel

/// The error decoding `text` gives, or nil when it decodes.
func decodeError(_ text: String, source: String = "g.json") -> GestureFormatError? {
    decodeError(Array(text.utf8), source: source)
}

/// The error decoding `bytes` gives, or nil when they decode.
func decodeError(_ bytes: [UInt8], source: String = "g.json") -> GestureFormatError? {
    do {
        _ = try GestureFileFormat.decode(bytes, source: source)
        return nil
    } catch {
        return error
    }
}
