import GestureFormat

/// Writing JSON for `--json` output: small, exact, no Foundation.
enum JSONText {
    /// A JSON string literal.
    static func string(_ value: String) -> String { GestureFileFormat.jsonStringLiteral(value) }

    /// A JSON number for a double (integers without a fraction).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A JSON object, keys in the given order, on one line.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    /// A JSON array, one element per line.
    static func array(_ elements: [String]) -> String {
        elements.isEmpty ? "[]" : "[\n  " + elements.joined(separator: ",\n  ") + "\n]"
    }
}
