/// Text from a file, an argument or a device, made safe to show a person.
///
/// A gesture's name, a value quoted in an error, a device name from the
/// kernel: any of them may hold bytes that drive a terminal (ESC [ 2 J
/// clears the screen, BEL rings, C1 controls are commands to some
/// terminals) or characters that cannot be seen (a BOM, a non-breaking
/// space, a zero-width joiner, a bidi override that reverses what follows).
/// Every human-readable output passes such text through ``escaped(_:keepingLineBreaks:)``.
///
/// The rule, one spelling everywhere:
/// - line feed, carriage return and tab are shown as `\n`, `\r`, `\t`
///   (a line feed is kept as it is with `keepingLineBreaks`, for text
///   whose lines are meant to be lines);
/// - every other control character (U+0000–U+001F, U+007F, the C1 controls
///   U+0080–U+009F) and every invisible or direction-changing character
///   (see ``isInvisible(_:)``) is shown as its code point, `<U+001B>`,
///   `<U+FEFF>`: `U+` and at least four upper-case hex digits in angle brackets;
/// - everything else, including every visible non-ASCII letter, is kept.
///
/// JSON output does not use this: it is for programs, and JSON's own
/// escaping (RFC 8259) already keeps control characters out.
public enum DisplayText {
    /// `text` with control and invisible characters made visible (see the
    /// rule above).
    public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        // The common case: nothing to change.
        if !text.unicodeScalars.contains(where: { needsEscaping($0, keepingLineBreaks: keepingLineBreaks) }) {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscaping(scalar, keepingLineBreaks: keepingLineBreaks) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += codePoint(scalar)
            }
        }
        return result
    }

    /// Whether `text` would be shown differently by ``escaped(_:keepingLineBreaks:)``.
    public static func needsEscaping(_ text: String, keepingLineBreaks: Bool = false) -> Bool {
        text.unicodeScalars.contains { needsEscaping($0, keepingLineBreaks: keepingLineBreaks) }
    }

    /// `<U+XXXX>`: the spelling of a code point in every message.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }

    /// Control characters: C0, DEL and C1.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Characters that show nothing, or look like an ordinary space, or
    /// change the direction of what follows: no-break and typographic
    /// spaces, zero-width characters, soft hyphen, bidi marks, embeddings,
    /// overrides and isolates, line and paragraph separators, invisible
    /// operators, the BOM, interlinear annotation marks, noncharacters
    /// U+FFFE/U+FFFF and tag characters.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00A0, 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E: true
        case 0x2000...0x200F: true  // typographic spaces, ZWSP, ZWNJ, ZWJ, LRM, RLM
        case 0x2028...0x202F: true  // line/paragraph separators, LRE…RLO (U+202E), narrow no-break space
        case 0x205F...0x206F: true  // medium math space, word joiner, invisible operators, isolates
        case 0x3000, 0x3164, 0xFEFF, 0xFFA0: true
        case 0xFFF9...0xFFFB, 0xFFFE, 0xFFFF: true
        case 0xE0000...0xE007F: true  // tags
        default: false
        }
    }

    private static func needsEscaping(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        if scalar == "\n" { return !keepingLineBreaks }
        return isControl(scalar) || isInvisible(scalar)
    }
}

extension DisplayText {
    /// The longest start of `text` that fits in `limit` UTF-8 bytes, cut
    /// at a character boundary (a name for a kernel's 80-byte field, a
    /// file name's 255 bytes, a log line's bound), and its size in bytes.
    public static func prefix(_ text: String, utf8Bytes limit: Int) -> (text: String, bytes: Int) {
        var kept = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > limit { break }
            kept.append(character)
            bytes += size
        }
        return (kept, bytes)
    }
}

/// Counts in messages with the noun agreeing: "1 stroke", "2 strokes".
public enum Plural {
    /// `count` and `singular`, or `plural` (default: `singular` + "s")
    /// when `count` is not 1.
    public static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(noun(count, singular, plural))"
    }

    /// `singular`, or `plural` (default: `singular` + "s") when `count` is not 1.
    public static func noun(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        count == 1 ? singular : (plural ?? singular + "s")
    }
}

extension Plural {
    /// `count` contacts named by what `strokes` are: "3 fingers", "1 pointer"
    /// (mouse strokes are never fingers), "2 pens", or "2 contacts" for a mix.
    public static func contacts(_ count: Int, of strokes: [Stroke]) -> String {
        let kinds = Set(strokes.map(\.kind))
        let noun: String =
            switch kinds.count == 1 ? kinds.first : nil {
            case .finger?: "finger"
            case .pointer?: "pointer"
            case .pen?: "pen"
            case nil: "contact"
            }
        return Self.count(count, noun)
    }
}
