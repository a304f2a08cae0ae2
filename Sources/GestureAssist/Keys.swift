/// A key from the terminal, as the flows use them.
public enum Key: Hashable, Sendable {
    case up, down, left, right, tab, backTab
    case enter, escape, backspace, space
    /// Ctrl-U: clear the typed text.
    case clearLine
    /// A printable character.
    case character(Character)
}

/// Turns the bytes a terminal sends in character mode into ``Key``s.
/// Bytes it does not know (other escape sequences, control characters)
/// are dropped. An escape byte at the end of a read is the Escape key: a
/// terminal sends an arrow's bytes in one write, so they arrive together.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder.
    public init() {}

    /// The keys in `bytes` (one read's worth).
    public mutating func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        let input = pending + bytes
        pending = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x1B:
                if index + 1 >= input.count {
                    keys.append(.escape)
                    index += 1
                } else if input[index + 1] == UInt8(ascii: "[") || input[index + 1] == UInt8(ascii: "O") {
                    // CSI or SS3: parameters, then a final byte 0x40–0x7E.
                    var end = index + 2
                    while end < input.count, !(0x40...0x7E).contains(input[end]) { end += 1 }
                    guard end < input.count else {
                        pending = Array(input[index...])
                        return keys
                    }
                    switch input[end] {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    case UInt8(ascii: "C"): keys.append(.right)
                    case UInt8(ascii: "D"): keys.append(.left)
                    case UInt8(ascii: "Z"): keys.append(.backTab)
                    default: break
                    }
                    index = end + 1
                } else {
                    keys.append(.escape)
                    index += 1
                }
            case 0x0D, 0x0A: keys.append(.enter); index += 1
            case 0x09: keys.append(.tab); index += 1
            case 0x7F, 0x08: keys.append(.backspace); index += 1
            case 0x15: keys.append(.clearLine); index += 1
            case 0x20: keys.append(.space); index += 1
            case 0x21...0x7E: keys.append(.character(Character(Unicode.Scalar(byte)))); index += 1
            case 0x80...0xFF:
                // A UTF-8 sequence: take it whole when it is complete.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard length > 1 else { index += 1; continue }
                guard index + length <= input.count else {
                    pending = Array(input[index...])
                    return keys
                }
                let scalars = String(decoding: input[index..<(index + length)], as: UTF8.self)
                if let character = scalars.first, scalars.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }),
                    character != "\u{FFFD}"
                {
                    keys.append(.character(character))
                }
                index += length
            default: index += 1
            }
        }
        return keys
    }
}
