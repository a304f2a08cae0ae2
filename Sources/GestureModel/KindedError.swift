/// The one shape of gesturectl's errors that callers sort, across modules
/// (issue 37: each module declared its own struct of a kind and a message):
/// a kind that code decides on (an exit status, a protocol code, a retry),
/// and one complete line for people, naming the file, field or device.
///
/// Conforming types keep their own kinds and their own initialisers; the
/// description is the message unless a type says more (a file's errors
/// lead with the file and line).
public protocol KindedError: Error, CustomStringConvertible, Sendable {
    /// The categories of the error.
    associatedtype Kind: Hashable & Sendable
    /// Which category.
    var kind: Kind { get }
    /// What went wrong, in the user's terms, in one complete line.
    var message: String { get }
}

extension KindedError {
    /// The message.
    public var description: String { message }
}
