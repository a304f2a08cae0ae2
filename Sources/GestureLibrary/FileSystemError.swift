import OperatingSystem
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// The reason, e.g. strerror's text.
    public var reason: String

    /// Creates an error.
    public init(kind: Kind, path: String, operation: String, reason: String) {
        self.kind = kind
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    /// Creates an error from an errno value.
    public init(errno code: Int32, path: String, operation: String) {
        let kind: Kind
        switch code {
        case ENOENT, ENOTDIR: kind = .notFound
        case EACCES, EPERM, EROFS: kind = .permissionDenied
        case EEXIST: kind = .alreadyExists
        case EFBIG: kind = .tooLarge
        default: kind = .other
        }
        self.init(kind: kind, path: path, operation: operation, reason: String(cString: strerror(code)))
    }

    /// `<operation> <path>: <reason>`, e.g. `cannot read x.json: No such file or directory`.
    public var description: String { "\(operation) \(path): \(reason)" }
}
