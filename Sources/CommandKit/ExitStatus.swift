/// What a run of the tool ended with, as the process exit status.
///
/// Scripts and test rigs rely on these values; the tool's generated help
/// lists them (see ``summary``).
public enum ExitStatus: Int32, Sendable, CaseIterable, Hashable {
    /// The command did what was asked.
    case success = 0
    /// The command failed for a reason not covered below.
    case failure = 1
    /// The command line was wrong: unknown command or option, missing or
    /// invalid value, too many arguments.
    case usageError = 2
    /// A file, a library name or a device does not exist.
    case notFound = 3
    /// The operating system denied access (a device, a file, uinput).
    case permissionDenied = 4
    /// The daemon cannot be reached or is busy.
    case daemonUnavailable = 5
    /// The run was interrupted (SIGINT), after everything was released.
    case interrupted = 130

    /// A few words on what the status means, as shown in the help text.
    public var summary: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .usageError: "usage error (unknown command or option, bad value)"
        case .notFound: "not found (file, name or device)"
        case .permissionDenied: "permission denied"
        case .daemonUnavailable: "daemon unreachable or busy"
        case .interrupted: "interrupted (after cleaning up)"
        }
    }
}
