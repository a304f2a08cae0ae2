import GestureModel

/// Why a gesture file could not be read, and where.
///
/// ``description`` is what a person sees: `SOURCE:LINE:COLUMN: message` for
/// a problem at one spot of the text (bad JSON, an unknown key, a wrong
/// type), `SOURCE:LINE: message` for a gesture that is well formed but not
/// valid (the line is where the offending value starts), and
/// `SOURCE: message` when no line applies (the file is too large, or it is
/// not a gesture at all).
public struct GestureFormatError: KindedError, Hashable {
    /// What went wrong, so that callers can react without parsing messages.
    public enum Kind: Hashable, Sendable {
        /// The text is not well-formed JSON (including invalid UTF-8 and a
        /// truncated file).
        case syntax
        /// A size limit was reached: the file, the nesting depth, the number
        /// of strokes or of samples.
        case tooLarge
        /// Well-formed JSON, but not a gesturectl gesture: not an object, or
        /// no usable `"format"` key.
        case notAGesture
        /// A gesture in a newer format version than this reader understands.
        case newerVersion(Int)
        /// A gesture whose content is wrong: unknown, duplicate or missing
        /// keys, values of the wrong type, or a failed validation.
        case invalid
        /// The file changed while it was read (a mapped file cut short by
        /// another program): what was read is not what it held.
        case changed
    }

    /// What went wrong.
    public var kind: Kind
    /// The name of the file (or other source) as shown to the user.
    public var source: String
    /// The 1-based line of the problem, when it has one.
    public var line: Int?
    /// The 1-based column (in Unicode scalars) of the problem, when it has one.
    public var column: Int?
    /// What is wrong, without the source and position. Whatever it quotes
    /// from the file is shown escaped (GestureModel's `DisplayText`): no
    /// control or invisible character of the input reaches a terminal.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, source: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.kind = kind
        self.source = source
        self.line = line
        self.column = column
        self.message = DisplayText.escaped(message)
    }

    /// `SOURCE:LINE:COLUMN: message`, `SOURCE:LINE: message` or `SOURCE: message`.
    public var description: String {
        let source = DisplayText.escaped(source)
        return switch (line, column) {
        case let (line?, column?): "\(source):\(line):\(column): \(message)"
        case let (line?, nil): "\(source):\(line): \(message)"
        default: "\(source): \(message)"
        }
    }
}
