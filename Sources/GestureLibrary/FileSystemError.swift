import OperatingSystem

/// A failed file operation: which operation, on which path, and why.
public struct FileSystemError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, in categories callers act on.
    public enum Kind: Sendable, Equatable {
        /// The file or folder does not exist.
        case notFound
        /// The operating system refused access.
        case permissionDenied
        /// The file is larger than the reader accepts.
        case tooLarge
        /// The target exists and overwriting was not allowed.
        case alreadyExists
        /// Anything else.
        case other
    }

    /// The category.
    public var kind: Kind
    /// The path concerned.
    public var path: String
    /// What was being done, e.g. "cannot read" or "cannot write".
    public var operation: String
    /// The reason, e.g. the C library's text for the failure ("No such file or directory").
    public var reason: String

    /// Creates an error.
    public init(kind: Kind, path: String, operation: String, reason: String) {
        self.kind = kind
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    /// Creates an error from a failed system call: `<operation> <path>:
    /// <the C library's text for the failure>`. `path` defaults to the
    /// call's; pass the path the user knows when the call worked on another
    /// (the temporary file of an atomic write).
    public init(_ error: SystemError, path: String? = nil, operation: String) {
        let kind: Kind
        switch error.errorNumber {
        case ErrorNumber.noSuchFile, ErrorNumber.notADirectory: kind = .notFound
        case ErrorNumber.accessDenied, ErrorNumber.notPermitted, ErrorNumber.readOnlyFileSystem: kind = .permissionDenied
        case ErrorNumber.alreadyExists: kind = .alreadyExists
        case ErrorNumber.fileTooLarge: kind = .tooLarge
        default: kind = .other
        }
        self.init(kind: kind, path: path ?? error.path ?? "", operation: operation, reason: error.errorMessage)
    }

    /// `<operation> <path>: <reason>`, e.g. `cannot read x.json: No such file or directory`.
    public var description: String { "\(operation) \(path): \(reason)" }
}
