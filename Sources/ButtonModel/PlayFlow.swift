/// A saved gesture's way from the menu to the screen, as the button sees
/// it: chosen, then placed with a click, then played by the daemon as a job
/// until it ends. Pure: the window asks it what a tap on the button means
/// and tells it what the daemon answered.
public struct PlayFlow: Hashable, Sendable {
    /// Where the flow is.
    public enum State: Hashable, Sendable {
        /// Nothing chosen: a tap on the button opens the menu.
        case idle
        /// Chosen, waiting for the click that places it.
        case placing(gesture: String)
        /// Placed and asked for: the daemon has not given its job yet.
        /// `cancelWanted`: the button was tapped meanwhile, so the job is
        /// cancelled as soon as it is known.
        case starting(gesture: String, cancelWanted: Bool)
        /// Playing as the daemon's job `job`.
        case playing(gesture: String, job: Int)
        /// A `cancel` of `job` is on its way.
        case stopping(gesture: String, job: Int)
    }

    /// What a tap on the button does now.
    public enum Tap: Hashable, Sendable {
        /// Opens the menu (nothing is being placed or played).
        case openMenu
        /// Cancels placing: nothing plays.
        case cancelPlacement
        /// Sends `cancel` for this job.
        case cancel(job: Int)
        /// Nothing more to do: a cancel is already asked for.
        case nothing
    }

    /// Where the flow is.
    public private(set) var state = State.idle

    /// Creates an idle flow.
    public init() {}

    /// Whether the button shows that it is busy (a play asked for, under
    /// way, or being stopped).
    public var isBusy: Bool {
        switch state {
        case .idle, .placing: false
        case .starting, .playing, .stopping: true
        }
    }

    /// Whether a click on the screen is awaited.
    public var isPlacing: Bool { if case .placing = state { true } else { false } }

    /// The gesture chosen, placed or playing.
    public var gesture: String? {
        switch state {
        case .idle: nil
        case .placing(let name), .starting(let name, _), .playing(let name, _), .stopping(let name, _): name
        }
    }

    /// A gesture was chosen in the menu: placing starts (whether it did: not
    /// while another is played).
    public mutating func choose(_ gesture: String) -> Bool {
        switch state {
        case .idle, .placing:
            state = .placing(gesture: gesture)
            return true
        case .starting, .playing, .stopping:
            return false
        }
    }

    /// The click that places it came: the gesture to ask the daemon to play,
    /// or `nil` when nothing was being placed.
    public mutating func placed() -> String? {
        guard case .placing(let name) = state else { return nil }
        state = .starting(gesture: name, cancelWanted: false)
        return name
    }

    /// Escape, or a click on the button, while placing: back to idle
    /// (whether anything was being placed).
    public mutating func cancelPlacement() -> Bool {
        guard isPlacing else { return false }
        state = .idle
        return true
    }

    /// The button was tapped: what that means now.
    public mutating func tap() -> Tap {
        switch state {
        case .idle: return .openMenu
        case .placing:
            state = .idle
            return .cancelPlacement
        case .starting(let name, _):
            state = .starting(gesture: name, cancelWanted: true)
            return .nothing
        case .playing(let name, let job):
            state = .stopping(gesture: name, job: job)
            return .cancel(job: job)
        case .stopping:
            return .nothing
        }
    }

    /// The daemon queued the play as `job`: whether to cancel it at once
    /// (the button was tapped while it was being asked for).
    public mutating func started(job: Int) -> Bool {
        guard case .starting(let name, let cancelWanted) = state else { return false }
        state = cancelWanted ? .stopping(gesture: name, job: job) : .playing(gesture: name, job: job)
        return cancelWanted
    }

    /// The play ended (done, cancelled, failed or refused): idle again.
    public mutating func ended() { state = .idle }
}
