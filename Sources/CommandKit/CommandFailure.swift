/// An error a command throws to end with a given exit status.
///
/// The tool prints `TOOL: error: MESSAGE` on standard error (nothing when
/// `message` is `nil`) and exits with `status`. A failure with status
/// ``ExitStatus/usageError`` is also followed by the command's usage line
/// and a pointer to its help, like the errors the parser itself reports.
public struct CommandFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The exit status to end with.
    public var status: ExitStatus
    /// The one-line message, without the `TOOL: error: ` prefix; `nil` to
    /// exit silently (when the command has already said what went wrong).
    public var message: String?

    /// Creates a failure with a status and a message.
    public init(status: ExitStatus = .failure, message: String?) {
        self.status = status
        self.message = message
    }

    /// A general failure (status 1).
    public static func failure(_ message: String) -> CommandFailure {
        CommandFailure(status: .failure, message: message)
    }

    /// A usage error (status 2), for rules the declaration cannot express,
    /// e.g. two options that cannot be used together.
    public static func usage(_ message: String) -> CommandFailure {
        CommandFailure(status: .usageError, message: message)
    }

    /// A missing file, name or device (status 3).
    public static func notFound(_ message: String) -> CommandFailure {
        CommandFailure(status: .notFound, message: message)
    }

    /// Access denied by the system (status 4).
    public static func permissionDenied(_ message: String) -> CommandFailure {
        CommandFailure(status: .permissionDenied, message: message)
    }

    /// The daemon cannot be reached or is busy (status 5).
    public static func daemonUnavailable(_ message: String) -> CommandFailure {
        CommandFailure(status: .daemonUnavailable, message: message)
    }

    /// Ends with `status` without printing anything.
    public static func exit(_ status: ExitStatus) -> CommandFailure {
        CommandFailure(status: status, message: nil)
    }

    /// The message, or the status summary when there is none.
    public var description: String { message ?? status.summary }
}
