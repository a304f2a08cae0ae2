import CSystemShim
import Glibc

/// Talking to systemd as a service (sd-daemon(3)): readiness and status
/// through the notify protocol, sockets handed over by socket activation.
/// Outside systemd every call does nothing.
///
/// Both protocols are small and documented as stable (sd_notify(3),
/// sd_listen_fds(3)), so they are spoken here rather than through
/// libsystemd: linking libsystemd loaded seven libraries (libsystemd,
/// libcap, libgcrypt, libgpg-error, liblzma, libzstd, liblz4) and bound
/// ~900 of their symbols at every start of every command, for two calls
/// only the daemon makes (issue 9: start-up under emulation).
public enum ServiceManager {
    /// The first descriptor socket activation passes (SD_LISTEN_FDS_START).
    public static let firstListeningDescriptor: Int32 = 3

    /// Tells the service manager something (sd_notify(3), e.g. `READY=1`,
    /// `STATUS=…`, `STOPPING=1`): one datagram to `$NOTIFY_SOCKET` (a path,
    /// or `@name` in the abstract namespace). Returns whether a manager was
    /// told: false when none listens (NOTIFY_SOCKET unset or empty).
    /// - Throws: ``SystemError`` when NOTIFY_SOCKET is set but is not a
    ///   path or an abstract name (EINVAL), or cannot be reached.
    @discardableResult
    public static func notify(_ state: String) throws(SystemError) -> Bool {
        try notify(state, environment: .process)
    }

    /// ``notify(_:)`` with the variables of `environment`.
    static func notify(_ state: String, environment: Environment) throws(SystemError) -> Bool {
        guard let address = environment.value("NOTIFY_SOCKET"), !address.isEmpty else { return false }
        var message = Array(state.utf8)
        try Syscall.minusOne("sendto", path: address, detail: "NOTIFY_SOCKET") {
            message.withUnsafeMutableBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { gesturectl_notify_send(address, $0.baseAddress, $0.count) }
            }
        }
        return true
    }

    /// The descriptors passed by socket activation (sd_listen_fds(3), from
    /// ``firstListeningDescriptor`` on), made close-on-exec; empty when
    /// started otherwise or for another process (`LISTEN_PID` is not ours).
    /// `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` are removed from the
    /// environment, so that a child does not take the sockets for its own.
    /// - Throws: ``SystemError`` (EINVAL) when `LISTEN_PID` or `LISTEN_FDS`
    ///   is not a number; EBADF when a passed descriptor is not open.
    public static func listeningDescriptors() throws(SystemError) -> [FileDescriptor] {
        try listeningDescriptors(environment: .process)
    }

    /// ``listeningDescriptors()`` with the variables of `environment`,
    /// removed from it.
    static func listeningDescriptors(environment: Environment) throws(SystemError) -> [FileDescriptor] {
        defer {
            for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { environment.remove(name) }
        }
        guard let pidText = environment.value("LISTEN_PID") else { return [] }
        guard let pid = Int32(pidText), pid > 0 else {
            throw SystemError(call: "sd_listen_fds", errorNumber: EINVAL, detail: "LISTEN_PID=\(pidText) is not a process id")
        }
        guard pid == getpid() else { return [] }
        let countText = environment.value("LISTEN_FDS") ?? ""
        guard let count = Int32(countText), count >= 0, count <= Int32.max - firstListeningDescriptor else {
            throw SystemError(call: "sd_listen_fds", errorNumber: EINVAL, detail: "LISTEN_FDS=\(countText) is not a count")
        }
        let descriptors = (0..<count).map { FileDescriptor(rawValue: firstListeningDescriptor + $0) }
        for descriptor in descriptors {
            let flags = try Syscall.minusOne("fcntl(F_GETFD)", detail: "socket-activated descriptor \(descriptor.rawValue)") {
                fcntl(descriptor.rawValue, F_GETFD)
            }
            _ = try Syscall.minusOne("fcntl(F_SETFD)", detail: "socket-activated descriptor \(descriptor.rawValue)") {
                fcntl(descriptor.rawValue, F_SETFD, flags | FD_CLOEXEC)
            }
        }
        return descriptors
    }

    /// Whether standard error goes to the journal (JOURNAL_STREAM is set,
    /// as systemd does for a service): log lines then carry a `<N>`
    /// priority prefix (sd-daemon(3)).
    public static func logsToJournal(environment: [String: String]) -> Bool {
        environment["JOURNAL_STREAM"] != nil
    }

    /// Where the protocols' variables are read (and socket activation's
    /// removed): the process's environment, or a test's own, which other
    /// threads do not share (a `setenv` beside another thread's `getenv`
    /// is a data race in glibc, and the daemon tests read these variables
    /// in the same process).
    struct Environment: Sendable {
        /// The variable's value, `nil` when unset.
        let value: @Sendable (String) -> String?
        /// Removes the variable.
        let remove: @Sendable (String) -> Void

        /// The process's environment.
        static let process = Environment(
            value: { name in getenv(name).map { String(cString: $0) } }, remove: { name in unsetenv(name) })
    }
}
