/// Why an editing operation refused to produce a gesture.
///
/// The message is one line, in plain words, and names no file: the caller
/// knows which files it read and adds them.
public struct EditError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The one-line message, e.g. `fingers must be 2 to 10, not 11`.
    public var message: String

    /// Creates an error with a one-line message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
