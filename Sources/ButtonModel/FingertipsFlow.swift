import GestureModel

/// Live fingertips from the button's menu (Gestures 2–5, issue 38): the
/// daemon starts them from the touch or pointer device the person uses
/// (`fingertips`, the button's `--device` or the daemon's only touch or
/// pointer device), and they end as they do from `gesturectl fingertips`:
/// after a pause without input, on a `cancel` of their job (a tap on the
/// button, or Return on it), on the emergency stop, when their source is
/// unplugged, or when the button goes away (its connection closes). Pure:
/// the window asks it what a tap means and what to say.
public struct FingertipsFlow: Hashable, Sendable {
    /// Where the flow is.
    public enum State: Hashable, Sendable {
        /// None running.
        case idle
        /// `count` fingertips asked for; `cancelWanted`: the button was
        /// tapped meanwhile, so they are cancelled as soon as they run.
        case starting(count: Int, cancelWanted: Bool)
        /// Running as the daemon's job `job`.
        case running(count: Int, job: Int)
        /// A `cancel` of `job` is on its way.
        case stopping(count: Int, job: Int)
    }

    /// What a tap on the button does now.
    public enum Tap: Hashable, Sendable {
        /// Nothing runs: the tap is the button's own.
        case notRunning
        /// Cancel this job.
        case cancel(job: Int)
        /// Nothing more to do (asked already, or asked for and not started).
        case nothing
    }

    /// How long without input before they go away: the daemon's default,
    /// sent with the request so that what the button says is true.
    public static let idleMilliseconds = 5_000

    /// Where the flow is.
    public private(set) var state = State.idle

    /// No fingertips.
    public init() {}

    /// Whether fingertips are asked for, running or being stopped (the
    /// button shows it is busy, and a tap stops them).
    public var isActive: Bool { state != .idle }

    /// How many.
    public var count: Int? {
        switch state {
        case .idle: nil
        case .starting(let count, _), .running(let count, _), .stopping(let count, _): count
        }
    }

    /// `count` fingertips were chosen: whether to ask the daemon (not while
    /// some are already asked for or running).
    public mutating func start(count: Int) -> Bool {
        guard state == .idle else { return false }
        state = .starting(count: count, cancelWanted: false)
        return true
    }

    /// The daemon started them as `job`: whether to cancel them at once.
    public mutating func started(job: Int) -> Bool {
        guard case .starting(let count, let cancelWanted) = state else { return true }
        state = cancelWanted ? .stopping(count: count, job: job) : .running(count: count, job: job)
        return cancelWanted
    }

    /// The button was tapped.
    public mutating func tap() -> Tap {
        switch state {
        case .idle: return .notRunning
        case .starting(let count, _):
            state = .starting(count: count, cancelWanted: true)
            return .nothing
        case .running(let count, let job):
            state = .stopping(count: count, job: job)
            return .cancel(job: job)
        case .stopping: return .nothing
        }
    }

    /// They ended, or were refused: idle again.
    public mutating func ended() { state = .idle }

    /// What the button says once they run: the daemon's own line (how the
    /// source drives them), then how they end.
    public static func runningText(count: Int, sourceName: String, kind: String, line: String?) -> String {
        let idle = DecimalText.shortest(Double(idleMilliseconds) / 1000)
        let how = line.map { DisplayText.escaped($0) }
            ?? "\(count) fingertips from \(DisplayText.escaped(sourceName)) (\(DisplayText.escaped(kind)))."
        return "\(how) They end after \(idle) s without input, or when you tap this button (or press Return on it)."
    }

    /// What the button says when they end: why (the daemon's reason word,
    /// when it gave one) and its words.
    public static func endedText(count: Int, reason: String?, message: String) -> String {
        let shownMessage = DisplayText.escaped(message)
        switch reason {
        case "idle": return "The \(count) fingertips went away: no input for \(idleMilliseconds / 1000) s"
        case "cancelled": return "The \(count) fingertips stopped"
        case "source-vanished": return "The \(count) fingertips went away: their device was unplugged"
        case "failed": return "The \(count) fingertips failed: \(shownMessage)"
        default: return shownMessage.isEmpty ? "The \(count) fingertips ended" : "The \(count) fingertips ended: \(shownMessage)"
        }
    }

    /// The button's name for screen readers while they run.
    public static func stopName(count: Int) -> String { "Stop the \(count) fingertips" }
}
