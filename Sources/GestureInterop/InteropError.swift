import GestureModel

/// Why an evemu, `libinput record`, Android `uinput` or WebDriver actions
/// file could not be read, and where.
///
/// ``description`` is what a person sees: `SOURCE:LINE: message` for a
/// problem on one line, `SOURCE: message` when no line applies (an empty
/// file, a file in no known format).
public struct InteropError: KindedError, Hashable {
    /// What went wrong, so that callers can react without parsing messages.
    public enum Kind: Hashable, Sendable {
        /// The text is not in the expected layout: a line that cannot be
        /// parsed, a YAML construct outside the understood subset, a missing
        /// or repeated part.
        case malformed
        /// A number is outside the range its field allows (a type above
        /// `EV_MAX`, a code above its type's largest, a value beyond 32 bits).
        case outOfRange
        /// A file format version this reader does not understand (e.g. a
        /// `libinput record` file with `version: 2`).
        case unsupportedVersion
        /// The text is in none of the formats read here.
        case unknownFormat
        /// A size limit was reached (nesting depth, line length).
        case tooLarge
    }

    /// What went wrong.
    public var kind: Kind
    /// The name of the file (or other source) as shown to the user.
    public var source: String
    /// The 1-based line of the problem, when it has one.
    public var line: Int?
    /// What is wrong, without the source and line. Whatever it quotes
    /// from the file is shown escaped (GestureModel's `DisplayText`): no
    /// control or invisible character of the input reaches a terminal.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, source: String, line: Int? = nil, message: String) {
        self.kind = kind
        self.source = source
        self.line = line
        self.message = DisplayText.escaped(message)
    }

    /// `SOURCE:LINE: message`, or `SOURCE: message` without a line.
    public var description: String {
        let source = DisplayText.escaped(source)
        if let line { return "\(source):\(line): \(message)" }
        return "\(source): \(message)"
    }
}
