import GestureModel
import GestureRender

/// The describe line of a gesture as a flow shows and speaks it.
enum Describing {
    /// `2 fingers · swipe down · 0.60 s · 40 mm`, spoken
    /// `2 fingers, swipe down, 0.6 seconds, 40 millimetres`; without the
    /// first part (who touches) when `withoutContacts`.
    static func line(for gesture: Gesture, withoutContacts: Bool = false) -> Announcement {
        var text = describe(gesture, style: .text)
        var spoken = describe(gesture, style: .spoken)
        if withoutContacts {
            text = dropFirstPart(text, separator: " · ")
            spoken = dropFirstPart(spoken, separator: ", ")
        }
        return Announcement(text, spoken: spoken)
    }

    /// A name made of the describe line's first two parts:
    /// `2-fingers-swipe-down`, `1-finger-tap`.
    static func nameStem(for gesture: Gesture) -> String {
        let parts = describe(gesture, style: .text).components(separatedBy: " · ").prefix(2).joined(separator: " ")
        var stem = ""
        for character in parts.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                stem.append(character)
            } else if !stem.isEmpty && stem.last != "-" {
                stem.append("-")
            }
        }
        while stem.last == "-" { stem.removeLast() }
        return stem.isEmpty ? "gesture" : String(stem.prefix(60))
    }

    private static func dropFirstPart(_ line: String, separator: String) -> String {
        let parts = line.components(separatedBy: separator)
        return parts.count > 1 ? parts.dropFirst().joined(separator: separator) : line
    }
}

extension String {
    /// The parts between occurrences of `separator` (Glibc-only builds have
    /// no Foundation `components(separatedBy:)`).
    fileprivate func components(separatedBy separator: String) -> [String] {
        // By UTF-8 bytes: String's firstRange(of:) lives in the regex
        // module, which the package does not import (start-up, issue 9).
        let bytes = Array(utf8)
        let separatorBytes = Array(separator.utf8)
        guard !separatorBytes.isEmpty else { return [self] }
        var parts: [String] = []
        var start = 0
        var index = 0
        while index + separatorBytes.count <= bytes.count {
            if bytes[index..<(index + separatorBytes.count)].elementsEqual(separatorBytes) {
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += separatorBytes.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(String(decoding: bytes[start...], as: UTF8.self))
        return parts
    }
}
