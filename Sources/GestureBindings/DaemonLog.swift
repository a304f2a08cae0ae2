import GestureModel
import GestureProtocol
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

        package var word: String {
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

    /// What a client's requests may still write: a bucket of lines that
    /// refills with time, and the lines left out since it ran dry.
    private struct ClientBudget {
        package var lines: Double
        package var refilled: Int64
        package var suppressed: Int
    }
    private let clients = Mutex<[Int: ClientBudget]>([:])

    /// The most characters of a message written on one line (issue 36: a
    /// flood of binds naming 4 KiB devices wrote 30.5 MB of log in 10 s);
    /// what is cut is counted on the line.
    public static let maximumMessageBytes = 512
    /// How many lines one client's requests may write at once, and how many
    /// more each second (repeated errors, binds, saves: a client that
    /// floods the daemon does not flood its log).
    public static let clientBurstLines = 20
    public static let clientLinesPerSecond = 5.0

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
        let text = Self.bounded(Self.oneLine(message))
        let line = journal ? "<\(level.rawValue)>\(text)\n" : "gesturectl daemon: \(level.word): \(text)\n"
        lock.withLock { _ in write(line) }
    }

    /// Writes a line that a client's request caused, within that client's
    /// budget (``clientBurstLines``, then ``clientLinesPerSecond``): lines
    /// over it are left out and counted, and the next line written for the
    /// client says how many were.
    public func client(_ id: Int, _ level: Level, _ message: String) {
        guard level <= minimum else { return }
        let now = MonotonicClock.nowMicroseconds()
        let suppressedBefore: Int? = clients.withLock { budgets in
            var budget = budgets[id] ?? ClientBudget(lines: Double(Self.clientBurstLines), refilled: now, suppressed: 0)
            let seconds = Double(now - budget.refilled) / 1_000_000
            budget.lines = min(Double(Self.clientBurstLines), budget.lines + seconds * Self.clientLinesPerSecond)
            budget.refilled = now
            defer { budgets[id] = budget }
            guard budget.lines >= 1 else {
                budget.suppressed += 1
                return nil
            }
            budget.lines -= 1
            defer { budget.suppressed = 0 }
            return budget.suppressed
        }
        guard let suppressedBefore else { return }
        log(level, suppressedBefore == 0 ? message : "\(message) (and \(suppressedBefore) earlier lines of client \(id) left out)")
    }

    /// Forgets a client's budget (it disconnected), saying how many of its
    /// lines were left out since the last one written.
    public func forgetClient(_ id: Int) {
        let suppressed = clients.withLock { $0.removeValue(forKey: id)?.suppressed ?? 0 }
        if suppressed > 0 { log(.notice, "client \(id): \(suppressed) lines left out of the log (over its budget)") }
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func notice(_ message: String) { log(.notice, message) }
    public func info(_ message: String) { log(.info, message) }
    public func debug(_ message: String) { log(.debug, message) }

    /// `message` on one line, with control and invisible characters shown
    /// escaped by the rule every human-readable output follows
    /// (GestureModel's `DisplayText`: `\n`, `\t`, `<U+001B>`, `<U+FEFF>`).
    package static func oneLine(_ message: String) -> String { ProtocolText.oneLine(message) }

    /// `text` cut to ``maximumMessageBytes`` (at a character), with the
    /// count of bytes cut.
    package static func bounded(_ text: String) -> String {
        guard text.utf8.count > maximumMessageBytes else { return text }
        let (kept, bytes) = DisplayText.prefix(text, utf8Bytes: maximumMessageBytes)
        return kept + "…(\(text.utf8.count - bytes) bytes cut)"
    }

    /// A name from a request for a message, on one line and cut to about
    /// `limit` characters (a client may send a key a megabyte long; the
    /// reply and the log need only its start).
    package static func excerpt(_ text: String, limit: Int = 64) -> String { ProtocolText.excerpt(text, limit: limit) }
}
