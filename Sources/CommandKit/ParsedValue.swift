import GestureModel

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
            guard let value = Int(text) else {
                // Digits that do not fit: say so, with the range that applies.
                let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
                if !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
                    let negative = text.first == "-"
                    let range = rangeDetail(minimum, maximum) { String($0) }
                    throw ValueError(
                        message: "\(quoted(text)) is too \(negative ? "small" : "large")"
                            + (range.map { " (allowed: \($0))" } ?? " for an integer (\(Int.min) to \(Int.max))"))
                }
                throw ValueError(message: "\(quoted(text)) is not an integer")
            }
            try checkRange(value, minimum: minimum, maximum: maximum, text: text) { String($0) }
            return .integer(value)
        case .double(let minimum, let maximum, let minimumIncluded):
            // Only plain decimal notation: Double(_:) would also take
            // "inf", "nan" and hexadecimal.
            let allowed = text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ".eE+-".unicodeScalars.contains($0) }
            guard allowed, let value = Double(text) else { throw ValueError(message: "\(quoted(text)) is not a number") }
            guard value.isFinite else { throw ValueError(message: "\(quoted(text)) is too large") }
            if !minimumIncluded, let minimum, value <= minimum {
                throw ValueError(
                    message: maximum.map { "\(quoted(text)) must be more than \(formatNumber(minimum)) and at most \(formatNumber($0))" }
                        ?? "\(quoted(text)) must be more than \(formatNumber(minimum))")
            }
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
                // The usual minimum of 0 goes without saying unless it is broken:
                // "must be at most 60s", not "must be between 0s and 60s".
                let impliedMinimum = minimum == 0 && value >= 0 ? nil : minimum
                try checkRange(value, minimum: impliedMinimum, maximum: maximum, text: text) {
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

    /// What the help text shows after an option's description: the allowed
    /// values of a choice, the bounds of a number or duration (a duration's
    /// usual minimum of 0 goes without saying), and whether it is a list;
    /// `nil` when there is nothing to add.
    var helpDetail: String? {
        switch self {
        case .string: nil
        case .choice(let values): "values: " + values.joined(separator: ", ")
        case .integer(let minimum, let maximum): rangeDetail(minimum, maximum) { String($0) }
        case .double(let minimum, let maximum, true): rangeDetail(minimum, maximum) { formatNumber($0) }
        case .double(let minimum?, let maximum, false):
            "more than \(formatNumber(minimum))" + (maximum.map { ", at most \(formatNumber($0))" } ?? "")
        case .double(nil, let maximum, false): rangeDetail(nil, maximum) { formatNumber($0) }
        case .duration(let minimum, let maximum):
            rangeDetail(minimum == 0 ? nil : minimum, maximum) {
                DurationText.format(microseconds: $0)
            }
        case .list(let element): "comma-separated" + (element.helpDetail.map { "; " + $0 } ?? "")
        }
    }
}

/// `2 to 10`, `at least 2`, `at most 10`, or `nil` without bounds.
private func rangeDetail<Value>(_ minimum: Value?, _ maximum: Value?, format: (Value) -> String) -> String? {
    switch (minimum, maximum) {
    case (let minimum?, let maximum?): "\(format(minimum)) to \(format(maximum))"
    case (let minimum?, nil): "at least \(format(minimum))"
    case (nil, let maximum?): "at most \(format(maximum))"
    case (nil, nil): nil
    }
}

private func checkRange<Value: Comparable>(
    _ value: Value, minimum: Value?, maximum: Value?, text: String, format: (Value) -> String
) throws(ValueError) {
    switch (minimum, maximum) {
    case (let minimum?, let maximum?) where value < minimum || value > maximum:
        throw ValueError(message: "\(DisplayText.escaped(text)) must be between \(format(minimum)) and \(format(maximum))")
    case (let minimum?, nil) where value < minimum:
        throw ValueError(message: "\(DisplayText.escaped(text)) must be at least \(format(minimum))")
    case (nil, let maximum?) where value > maximum:
        throw ValueError(message: "\(DisplayText.escaped(text)) must be at most \(format(maximum))")
    default:
        return
    }
}

/// `text` in double quotes, as error messages show what the user typed,
/// control and invisible characters escaped (GestureModel's `DisplayText`).
func quoted(_ text: String) -> String { "\"" + DisplayText.escaped(text) + "\"" }

/// A number as people write it: `100` rather than `100.0` (GestureModel's
/// `DecimalText.shortest`, as every message and JSON output writes numbers).
func formatNumber(_ value: Double) -> String { DecimalText.shortest(value) }
