/// One value read from the command line, already checked against its
/// ``ValueType``.
public enum ParsedValue: Sendable, Hashable {
    /// A string, or a choice.
    case string(String)
    /// An integer.
    case integer(Int)
    /// A finite number.
    case double(Double)
    /// A duration in microseconds.
    case duration(Int64)
    /// A list (from a comma-separated value).
    case list([ParsedValue])
}

/// Why a value's text was rejected; the parser adds the option or argument
/// name in front of ``message``.
struct ValueError: Error, Sendable, Hashable {
    /// E.g. `"fast" is not a number`.
    var message: String
}

extension ValueType.Kind {
    /// Reads and checks `text`.
    func parse(_ text: String) throws(ValueError) -> ParsedValue {
        switch self {
        case .string:
            return .string(text)
        case .integer(let minimum, let maximum):
            guard let value = Int(text) else { throw ValueError(message: "\(quoted(text)) is not an integer") }
            try checkRange(value, minimum: minimum, maximum: maximum, text: text) { String($0) }
            return .integer(value)
        case .double(let minimum, let maximum):
            // Only plain decimal notation: Double(_:) would also take
            // "inf", "nan" and hexadecimal.
            let allowed = text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ".eE+-".unicodeScalars.contains($0) }
            guard allowed, let value = Double(text) else { throw ValueError(message: "\(quoted(text)) is not a number") }
            guard value.isFinite else { throw ValueError(message: "\(quoted(text)) is too large") }
            try checkRange(value, minimum: minimum, maximum: maximum, text: text) { formatNumber($0) }
            return .double(value)
        case .choice(let values):
            guard values.contains(text) else {
                var message = "\(quoted(text)) is not one of \(values.joined(separator: ", "))"
                if let suggestion = Suggestion.closest(to: text, among: values) { message += "; did you mean '\(suggestion)'?" }
                throw ValueError(message: message)
            }
            return .string(text)
        case .duration(let minimum, let maximum):
            switch DurationText.parse(text) {
            case .invalid:
                throw ValueError(message: "\(quoted(text)) is not a duration (e.g. 0.25, 250ms, 2s, 100us)")
            case .tooLarge:
                throw ValueError(message: "\(quoted(text)) is too large")
            case .microseconds(let value):
                try checkRange(value, minimum: minimum, maximum: maximum, text: text) {
                    DurationText.format(microseconds: $0)
                }
                return .duration(value)
            }
        case .list(let element):
            var values: [ParsedValue] = []
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                values.append(try element.parse(String(item)))
            }
            return .list(values)
        }
    }

    /// What the help text shows after an option's description, e.g.
    /// `values: start, end` for a choice; `nil` when nothing is worth adding.
    var helpDetail: String? {
        switch self {
        case .choice(let values): "values: " + values.joined(separator: ", ")
        case .list(let element): element.helpDetail.map { $0 + ", comma-separated" }
        default: nil
        }
    }
}

private func checkRange<Value: Comparable>(
    _ value: Value, minimum: Value?, maximum: Value?, text: String, format: (Value) -> String
) throws(ValueError) {
    switch (minimum, maximum) {
    case (let minimum?, let maximum?) where value < minimum || value > maximum:
        throw ValueError(message: "\(text) must be between \(format(minimum)) and \(format(maximum))")
    case (let minimum?, nil) where value < minimum:
        throw ValueError(message: "\(text) must be at least \(format(minimum))")
    case (nil, let maximum?) where value > maximum:
        throw ValueError(message: "\(text) must be at most \(format(maximum))")
    default:
        return
    }
}

/// `text` in double quotes, as error messages show what the user typed.
func quoted(_ text: String) -> String { "\"" + text + "\"" }

/// A number as people write it: `100` rather than `100.0`.
func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
