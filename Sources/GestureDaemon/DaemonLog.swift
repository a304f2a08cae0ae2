import GestureModel
import OperatingSystem
import Synchronization

/// The daemon's log: one line per event on standard error, with a level.
/// Under systemd (standard error goes to the journal) each line starts with
/// its syslog priority as sd-daemon(3) describes (`<3>` error, `<4>`
/// warning, `<5>` notice, `<6>` info, `<7>` debug), and the journal adds
/// the time; otherwise lines read `gesturectl daemon: LEVEL: message`.
public final class DaemonLog: Sendable {
    /// How important a line is.
    public enum Level: Int, Comparable, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        var word: String {
            switch self {
            case .error: "error"
            case .warning: "warning"
            case .notice: "notice"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    private let journal: Bool
    private let minimum: Level
    private let write: @Sendable (String) -> Void
    private let lock = Mutex(())

    /// Creates a log writing to `write` (standard error by default).
    public init(
        journal: Bool, minimum: Level = .info,
        write: @escaping @Sendable (String) -> Void = { FileDescriptor.standardError.writeAllIgnoringErrors(Array($0.utf8)) }
    ) {
        self.journal = journal
        self.minimum = minimum
        self.write = write
    }

    /// Writes one line (newlines and control characters in `message` are
    /// escaped, so one event is always one line).
    public func log(_ level: Level, _ message: String) {
        guard level <= minimum else { return }
        let text = Self.oneLine(message)
        let line = journal ? "<\(level.rawValue)>\(text)\n" : "gesturectl daemon: \(level.word): \(text)\n"
        lock.withLock { _ in write(line) }
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func notice(_ message: String) { log(.notice, message) }
    public func info(_ message: String) { log(.info, message) }
    public func debug(_ message: String) { log(.debug, message) }

    /// `message` on one line, with control and invisible characters shown
    /// escaped by the rule every human-readable output follows
    /// (GestureModel's `DisplayText`: `\n`, `\t`, `<U+001B>`, `<U+FEFF>`).
    static func oneLine(_ message: String) -> String {
        DisplayText.escaped(message)
    }

    /// A name from a request for a message, on one line and cut to about
    /// `limit` characters (a client may send a key a megabyte long; the
    /// reply and the log need only its start).
    static func excerpt(_ text: String, limit: Int = 64) -> String {
        let count = text.count
        guard count > limit else { return oneLine(text) }
        return oneLine(String(text.prefix(limit))) + "…(\(text.utf8.count) bytes)"
    }
}
