import CSystemShim
import Glibc

/// A program started by gesturectl (`posix_spawn`), and how it ended.
///
/// The child gets an empty signal mask and the default actions of SIGPIPE,
/// SIGINT, SIGTERM and SIGHUP back: gesturectl blocks or ignores those,
/// and both would otherwise pass through exec to the child.
public struct ChildProcess: Hashable, Sendable {
    /// How a child ended.
    public enum Termination: Hashable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
    }

    /// The child's process id.
    public let processID: Int32

    /// Starts `path` with `arguments` (without the program name, which is
    /// `path`) and `environment` (`NAME=value` entries; `nil`: ours), its
    /// standard streams from the given descriptors (`nil`: ours).
    /// - Throws: ``SystemError`` from `posix_spawn` (ENOENT, EACCES, …).
    public static func spawn(
        path: String, arguments: [String], environment: [String]? = nil, standardInput: FileDescriptor? = nil,
        standardOutput: FileDescriptor? = nil, standardError: FileDescriptor? = nil
    ) throws(SystemError) -> ChildProcess {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environmentEntries: [UnsafeMutablePointer<CChar>?] = environment.map { $0.map { strdup($0) } + [nil] } ?? []
        defer { for pointer in environmentEntries { free(pointer) } }
        var pid: pid_t = 0
        let result: Int32 = argv.withUnsafeBufferPointer { arguments in
            environmentEntries.withUnsafeMutableBufferPointer { entries in
                gesturectl_spawn(
                    path, arguments.baseAddress, environment == nil ? environ : entries.baseAddress,
                    standardInput?.rawValue ?? -1, standardOutput?.rawValue ?? -1, standardError?.rawValue ?? -1, &pid)
            }
        }
        try Syscall.errnoValue(result, call: "posix_spawn", path: path)
        return ChildProcess(processID: pid)
    }

    /// Waits for the child to end (`waitpid`, retried on EINTR).
    public func wait() throws(SystemError) -> Termination {
        var status: Int32 = 0
        try Syscall.minusOne("waitpid", path: "pid \(processID)") { waitpid(processID, &status, 0) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
