import GestureFormat

/// Writing JSON for `--json` output: small, exact, no Foundation.
enum JSONText {
    /// A JSON string literal.
    static func string(_ value: String) -> String { GestureFileFormat.jsonStringLiteral(value) }

    /// JSON's `null`.
    static let null = "null"

    /// A JSON string literal, or `null` when there is no value (a field
    /// the output always has, whether or not it is known).
    static func stringOrNull(_ value: String?) -> String { value.map(string) ?? null }

    /// JSON text as it came (a number the daemon wrote), or `null` when
    /// there is none.
    static func valueOrNull(_ text: String?) -> String { text ?? null }

    /// A JSON number for a double (integers without a fraction; `null`
    /// when not finite), written as ``JSONValue/decimal(_:)`` writes it.
    static func number(_ value: Double) -> String { JSONValue.decimal(value).jsonText }

    /// A JSON object, keys in the given order, on one line.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    /// A JSON array, one element per line.
    static func array(_ elements: [String]) -> String {
        elements.isEmpty ? "[]" : "[\n  " + elements.joined(separator: ",\n  ") + "\n]"
    }
}
