import GestureModel

/// What a trigger's presses were recognised as.
public enum TriggerPress: String, Hashable, Sendable, CaseIterable {
    /// One short press, with no second press within the double interval.
    case single
    /// Two presses, the second starting within the double interval after
    /// the first ended.
    case double
    /// One press held for the long time (reported while still held).
    case long
    /// One press held for the emergency-stop time: cancel every job and
    /// release everything.
    case emergencyStop = "emergency-stop"
}

/// The timings of a ``PressRecognizer``.
public struct PressTimings: Hashable, Sendable {
    /// The longest gap between the end of a first press and the start of a
    /// second one that makes a double press (default 300 ms).
    public var doubleInterval: Microseconds
    /// How long a press is held to be a long press (default 800 ms).
    public var longPress: Microseconds
    /// How long a press is held to be the emergency stop (default 3 s).
    public var emergencyStop: Microseconds
    /// Whether two presses make a double press (default). Without, a short
    /// press is a single at its release, with no wait for a second one:
    /// for a flow that uses no double press (the create flow's switch).
    public var recognizesDoublePress: Bool
    /// A down less than this after the previous press's release is
    /// ignored, with its release (default 0: none is): for switches that
    /// bounce or hands that tremble.
    public var debounce: Microseconds

    /// Creates timings; see each property for the defaults.
    public init(
        doubleInterval: Microseconds = Microseconds(300_000), longPress: Microseconds = Microseconds(800_000),
        emergencyStop: Microseconds = Microseconds(3_000_000), recognizesDoublePress: Bool = true,
        debounce: Microseconds = .zero
    ) {
        self.doubleInterval = doubleInterval
        self.longPress = longPress
        self.emergencyStop = emergencyStop
        self.recognizesDoublePress = recognizesDoublePress
        self.debounce = debounce
    }

    /// The reason these timings cannot work, or `nil`: every one above
    /// zero, and the emergency stop longer than the long press.
    public var problem: String? {
        if doubleInterval <= .zero { return "the double interval must be above 0" }
        if longPress <= .zero { return "the long press time must be above 0" }
        if emergencyStop <= longPress { return "the emergency stop time must be longer than the long press time" }
        if debounce < .zero { return "the debounce time cannot be negative" }
        return nil
    }
}

/// Recognises single, double and long presses and the emergency stop from
/// one trigger's key events and the clock. Pure logic: it is fed key downs
/// and ups with their times and told the time (``advance(to:)``), and it
/// returns what it recognised; ``nextDeadline`` says when it next needs
/// to be told the time.
///
/// The rules, with `D` the double interval, `L` the long-press time and
/// `E` the emergency-stop time (``PressTimings``):
///
/// - A deadline at time `T` is reached by anything at a time `≥ T`: the
///   clock, or an event at exactly `T` (the deadline is handled first).
/// - **long**: a press held `L` is reported at `L` after its down, while
///   still held; its release then reports nothing. Released before `L`, it
///   is a short press.
/// - **single**: a short press followed by no down for `D` after its
///   release is reported at exactly `D` after the release. A down at `D`
///   or later reports the single first and starts a new press.
/// - **double**: a down less than `D` after a short press's release is
///   reported as a double at once, at that down (no wait for its release).
///   That second press is then used up: how long it is held changes
///   nothing (no long press), except for the emergency stop.
/// - **emergency-stop**: any press held `E` (a first press, after its
///   long press was reported; or a double's second press) reports the
///   emergency stop at `E` after its down. The long press reported at `L`
///   came first; the emergency stop is what cancels whatever it started.
///   Its release reports nothing.
/// - **debounce**: a down less than the debounce time after the previous
///   release is ignored, and so is its release.
/// - Without double presses (``PressTimings/recognizesDoublePress`` off),
///   a short press is a single at its release.
/// - A triple press is a double then a new first press (a single, unless
///   a fourth down makes a second double); presses never chain further.
/// - Repeats (value 2), a down while down and an up while up are ignored;
///   an event earlier than one already seen counts as at the latest time.
public struct PressRecognizer: Sendable {
    private enum State: Hashable, Sendable {
        /// Nothing held, nothing pending.
        case idle
        /// A first press held since `down`; a long press at `down + L`.
        case firstDown(down: Microseconds)
        /// A short press ended at `released`; a single at `released + D`.
        case awaitingSecond(released: Microseconds)
        /// A press held since `down` that has been reported (long or double):
        /// only the emergency stop at `down + E` can follow.
        case usedDown(down: Microseconds)
        /// A press held past the emergency stop: its release reports nothing.
        case stoppedDown
        /// A press that came within the debounce time: ignored until
        /// released. A single still pending from the press before (released
        /// at `pendingRelease`) is reported on time all the same.
        case ignoredDown(pendingRelease: Microseconds?)
    }

    /// The timings.
    public let timings: PressTimings
    private var state = State.idle
    private var latest = Microseconds(Int64.min)
    private var lastRelease: Microseconds?

    /// Creates a recogniser with nothing held.
    public init(timings: PressTimings = PressTimings()) { self.timings = timings }

    /// Whether the trigger is held down as far as the recogniser knows.
    public var isDown: Bool {
        switch state {
        case .firstDown, .usedDown, .stoppedDown, .ignoredDown: true
        case .idle, .awaitingSecond: false
        }
    }

    /// When ``advance(to:)`` must next be called for a press to be
    /// reported on time; `nil` while nothing is pending.
    public var nextDeadline: Microseconds? {
        switch state {
        case .idle, .stoppedDown, .ignoredDown(pendingRelease: nil): nil
        case .ignoredDown(pendingRelease: let released?): released + timings.doubleInterval
        case .firstDown(let down): down + timings.longPress
        case .awaitingSecond(let released): released + timings.doubleInterval
        case .usedDown(let down): down + timings.emergencyStop
        }
    }

    /// Feeds one key event of the trigger: `value` 1 is a down, 0 an up,
    /// anything else (2: the kernel's auto-repeat) is ignored. Returns what
    /// the deadlines up to `time` and then the event recognised, in order.
    public mutating func feed(value: Int32, at time: Microseconds) -> [TriggerPress] {
        let time = max(time, latest)
        var reported = advance(to: time)
        let bounced = lastRelease.map { time - $0 < timings.debounce } ?? false
        switch (value, state) {
        case (1, .idle) where bounced:
            state = .ignoredDown(pendingRelease: nil)
        case (1, .awaitingSecond(let released)) where bounced:
            state = .ignoredDown(pendingRelease: released)
        case (0, .ignoredDown(let pending)):
            state = pending.map { .awaitingSecond(released: $0) } ?? .idle
        case (1, .idle):
            state = .firstDown(down: time)
        case (1, .awaitingSecond):
            // Less than D after the release: `advance` would have ended it otherwise.
            state = .usedDown(down: time)
            reported.append(.double)
        case (0, .firstDown):
            lastRelease = time
            // Released before L: `advance` would have reported a long press otherwise.
            if timings.recognizesDoublePress {
                state = .awaitingSecond(released: time)
            } else {
                state = .idle
                reported.append(.single)
            }
        case (0, .usedDown), (0, .stoppedDown):
            lastRelease = time
            state = .idle
        default:
            break
        }
        return reported
    }

    /// Tells the recogniser the time; returns what reached its deadline.
    public mutating func advance(to now: Microseconds) -> [TriggerPress] {
        latest = max(latest, now)
        var reported: [TriggerPress] = []
        // At most two steps (a long press, then the emergency stop).
        while let deadline = nextDeadline, latest >= deadline {
            switch state {
            case .firstDown(let down):
                state = .usedDown(down: down)
                reported.append(.long)
            case .awaitingSecond:
                state = .idle
                reported.append(.single)
            case .ignoredDown:
                state = .ignoredDown(pendingRelease: nil)
                reported.append(.single)
            case .usedDown:
                state = .stoppedDown
                reported.append(.emergencyStop)
            case .idle, .stoppedDown:
                return reported
            }
        }
        return reported
    }

    /// Forgets everything in progress, reporting nothing (the device went
    /// away: a press pending or held there will never end normally).
    public mutating func reset() { state = .idle }
}
