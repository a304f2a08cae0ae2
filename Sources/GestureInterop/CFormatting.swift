import GestureModel
import InputSystem

/// The few `printf` conversions the peers' writers use, reproduced exactly so
/// that our output is byte for byte what evemu and `libinput record` write.
enum CFormatting {
    /// `%Nd`: right-aligned in `width` columns with spaces.
    static func padded(_ value: Int64, width: Int) -> String {
        leftPad(String(value), width: width, with: " ")
    }

    /// `%0Nd`: zero-padded to `width` columns, the sign first (`-001`).
    static func zeroPadded(_ value: Int64, width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + leftPad(digits, width: width - sign.count, with: "0")
    }

    /// `%0Nx`: lower-case hex, zero-padded to `width` digits.
    static func hex(_ value: UInt64, width: Int) -> String {
        leftPad(String(value, radix: 16), width: width, with: "0")
    }

    /// `%#0Nx`: `0x` and lower-case hex, zero-padded so that the whole field
    /// is `width` wide; C prints a zero without the `0x` prefix (`0000`).
    static func alternateHex(_ value: UInt64, width: Int) -> String {
        if value == 0 { return leftPad("0", width: width, with: "0") }
        return "0x" + leftPad(String(value, radix: 16), width: width - 2, with: "0")
    }

    /// `%-Ns`: left-aligned in `width` columns.
    static func rightPad(_ text: String, width: Int) -> String {
        let count = text.utf8.count
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    /// `%+d`: the sign always shown.
    static func signed(_ value: Int64) -> String { value < 0 ? String(value) : "+" + String(value) }

    /// What glibc prints for `%s` of a NULL pointer, as libevdev's name
    /// functions return for unnamed codes.
    static let nullName = "(null)"

    /// The kernel name of `type`, or `(null)` as the peers print it.
    static func typeName(_ type: EventType) -> String { type.name ?? nullName }

    /// The kernel name of `code` within `type`, or `(null)`.
    static func codeName(_ code: EventCode, type: EventType) -> String { code.name(type: type) ?? nullName }

    private static func leftPad(_ text: String, width: Int, with fill: Character) -> String {
        let count = text.utf8.count
        return count >= width ? text : String(repeating: fill, count: width - count) + text
    }
}

/// Formatting straight into UTF-8 bytes, for the writers whose output is
/// large (an hour's export is a gigabyte): no String, no allocation per number.
extension Array where Element == UInt8 {
    /// `%d`, `%Nd` (spaces before) or `%0Nd` (`zeroPadded`: the sign, then
    /// zeros), as ``CFormatting/padded(_:width:)`` and
    /// ``CFormatting/zeroPadded(_:width:)`` write it.
    mutating func appendDecimal(_ value: Int64, width: Int = 0, zeroPadded: Bool = false) {
        let magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let sign = value < 0 ? 1 : 0
        let padding = Swift.max(0, width - digits - sign)
        if zeroPadded {
            if sign == 1 { append(0x2D) }
            append(contentsOf: repeatElement(0x30, count: padding))
        } else {
            append(contentsOf: repeatElement(0x20, count: padding))
            if sign == 1 { append(0x2D) }
        }
        let end = count + digits
        append(contentsOf: repeatElement(0x30, count: digits))
        var index = end - 1
        var remaining = magnitude
        while true {
            self[index] = 0x30 + UInt8(remaining % 10)
            remaining /= 10
            if remaining == 0 { break }
            index -= 1
        }
    }

    /// `%+d`: the sign always shown.
    mutating func appendSigned(_ value: Int64) {
        if value >= 0 { append(0x2B) }
        appendDecimal(value)
    }

    /// The UTF-8 of `text`.
    mutating func append(_ text: String) { append(contentsOf: text.utf8) }
}

/// The unchanging text of a type and code's event lines (its number
/// fields, its comment's names), formatted once per writer as UTF-8: a
/// flat table by type and code, since hashing each event costs as much as
/// formatting.
struct LineParts: Sendable {
    private static let codesPerType = 0x300
    private static let types = 0x20
    private var table: [(fields: [UInt8], comment: [UInt8])?] = []

    /// The parts of `event`'s type and code; `nil` until set (and always
    /// for a type or code beyond the kernel's tables).
    subscript(event: InputEvent) -> (fields: [UInt8], comment: [UInt8])? {
        get {
            guard let index = Self.index(event), index < table.count else { return nil }
            return table[index]
        }
        set {
            guard let index = Self.index(event) else { return }
            if table.isEmpty { table = Array(repeating: nil, count: Self.types * Self.codesPerType) }
            table[index] = newValue
        }
    }

    private static func index(_ event: InputEvent) -> Int? {
        let type = Int(event.type.rawValue)
        let code = Int(event.code.rawValue)
        return type < types && code < codesPerType ? type * codesPerType + code : nil
    }
}

/// A frame writer's time origin: the first frame's time. Every frame's
/// time is counted from it, never below 0 (a frame earlier than the first
/// is written at the first's time) and, when the difference overflows,
/// at the writer's `ceiling`.
struct TimeOrigin: Sendable {
    private var first: Int64?

    /// `time` in microseconds since the first time given (which this call
    /// sets when it is the first).
    mutating func elapsed(_ time: Microseconds, ceiling: Int64) -> Int64 {
        let first = self.first ?? time.rawValue
        self.first = first
        let (difference, overflow) = time.rawValue.subtractingReportingOverflow(first)
        return overflow ? (time.rawValue < first ? 0 : ceiling) : max(0, difference)
    }
}

/// A writer of frames as UTF-8 text, one frame at a time (export streams an
/// hour's gesture through it without holding the whole text).
public protocol FrameTextWriter {
    /// Appends `frame`'s text to `bytes` as UTF-8.
    mutating func append(_ frame: InputFrame, to bytes: inout [UInt8])
}

extension FrameTextWriter {
    /// Appends `frame`'s text to `text`: the same text, through a String.
    public mutating func append(_ frame: InputFrame, to text: inout String) {
        var bytes: [UInt8] = []
        append(frame, to: &bytes)
        text += String(decoding: bytes, as: UTF8.self)
    }
}
