import CLibsystemd

/// Talking to systemd as a service (sd-daemon(3)): readiness and status
/// through `sd_notify`, sockets handed over by socket activation through
/// `sd_listen_fds`. Outside systemd every call does nothing.
public enum ServiceManager {
    /// Tells the service manager something (`sd_notify`, e.g. `READY=1`,
    /// `STATUS=…`, `STOPPING=1`). Returns whether a manager was told:
    /// false when none listens (NOTIFY_SOCKET unset).
    /// - Throws: ``SystemError`` when NOTIFY_SOCKET is set but cannot be reached.
    @discardableResult
    public static func notify(_ state: String) throws(SystemError) -> Bool {
        let result = try Syscall.checkNegativeErrno(sd_notify(0, state), call: "sd_notify", path: nil, detail: state)
        return result > 0
    }

    /// The descriptors passed by socket activation (`sd_listen_fds`, from
    /// SD_LISTEN_FDS_START on), close-on-exec; empty when started otherwise.
    public static func listeningDescriptors() throws(SystemError) -> [FileDescriptor] {
        let count = try Syscall.checkNegativeErrno(sd_listen_fds(1), call: "sd_listen_fds", path: nil)
        return (0..<count).map { FileDescriptor(rawValue: SD_LISTEN_FDS_START + $0) }
    }

    /// Whether standard error goes to the journal (JOURNAL_STREAM is set,
    /// as systemd does for a service): log lines then carry a `<N>`
    /// priority prefix (sd-daemon(3)).
    public static func logsToJournal(environment: [String: String]) -> Bool {
        environment["JOURNAL_STREAM"] != nil
    }
}
