/// Escaping of text for XML character data and attribute values.
enum XMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, and every character
    /// XML 1.0 forbids (control characters other than tab, line feed and
    /// carriage return; U+FFFE and U+FFFF) replaced with U+FFFD, so that any
    /// name or description gives a well-formed document.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
