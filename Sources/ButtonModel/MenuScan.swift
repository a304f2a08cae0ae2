import GestureMenu
import GestureModel

/// The on-screen menu scanned with one switch (a daemon binding's
/// `{"screen-menu": {}}`, whose presses reach the button as `screen-menu`
/// events): the same rules and timings as `gesturectl menu --switch`. A
/// press opens the menu; then one item at a time is highlighted, moving by
/// itself (GestureMenu's ``GestureMenu/Scanner``); a press picks the
/// highlighted item (a sub-menu is entered and scanned from its first
/// item), a long press goes back (out of a sub-menu, or the menu closes),
/// and the emergency stop closes everything. Pure logic on the caller's
/// clock: the window calls ``advance(to:)`` at ``nextDeadline`` and does
/// what each ``Step`` says to its widgets.
public struct MenuScan: Sendable {
    /// A switch press, from a `screen-menu` event's `press`.
    public enum Press: Hashable, Sendable {
        /// `single` or `double`: open the menu, or pick.
        case select
        /// `long`: go back.
        case back
        /// `emergency-stop`: close everything.
        case stop

        /// The press a `screen-menu` event's word means; `nil` for a word
        /// this button does not know (a newer daemon's).
        public init?(event word: String) {
            switch word {
            case "single", "double": self = .select
            case "long": self = .back
            case "emergency-stop": self = .stop
            default: return nil
            }
        }
    }

    /// What the window does.
    public enum Step: Hashable, Sendable {
        /// Open the menu (then call ``opened(items:at:)``).
        case open
        /// Highlight this item of the current menu level.
        case highlight(Int)
        /// Highlight nothing: scanning paused until the next press.
        case pause
        /// Pick this item of the current level: a sub-menu is entered (then
        /// call ``entered(items:at:)``), anything else is done and the menu
        /// closes (then call ``closed()``).
        case pick(Int)
        /// Leave the current sub-menu for its parent.
        case up
        /// Close the menu.
        case close
    }

    /// How the highlight moves (the binding's, from its last event).
    public private(set) var timings: ScanTimings
    /// One scanner per open level: the top level first.
    private var levels: [Scanner] = []
    /// A press asked for the menu, which is not scanned yet.
    private var opening = false

    /// The timings a `screen-menu` event carries, kept within scanning's
    /// bounds (0.3 s to 10 s per item, an extra hold of 0 to 10 s) whatever
    /// the event says; two loops, as `gesturectl menu --switch`.
    public static func timings(intervalMilliseconds: Int, firstItemHoldMilliseconds: Int) -> ScanTimings {
        let interval = Microseconds(Int64(min(max(intervalMilliseconds, 300), 10_000)) * 1_000)
        let hold = Microseconds(Int64(min(max(firstItemHoldMilliseconds, 0), 10_000)) * 1_000)
        return ScanTimings(interval: interval, firstItemHold: hold)
    }

    /// Nothing open.
    public init(timings: ScanTimings = ScanTimings()) { self.timings = timings }

    /// Whether the menu is open for scanning (or opening).
    public var isActive: Bool { opening || !levels.isEmpty }

    /// How deep the scan is: 1 on the top level, 0 when closed.
    public var depth: Int { levels.count }

    /// The highlighted item of the current level.
    public var highlighted: Int? { levels.last?.highlighted }

    /// When ``advance(to:)`` must next be called; `nil`: no timer is needed.
    public var nextDeadline: Microseconds? { levels.last?.nextDeadline }

    /// A press of the switch, with the timings its event carried.
    public mutating func press(_ press: Press, timings: ScanTimings, at time: Microseconds) -> [Step] {
        if !isActive { self.timings = timings }
        switch press {
        case .stop:
            let wasActive = isActive
            reset()
            return wasActive ? [.close] : []
        case .back:
            guard !levels.isEmpty else {
                opening = false
                return []
            }
            if levels.count == 1 {
                reset()
                return [.close]
            }
            levels.removeLast()
            var steps: [Step] = [.up]
            steps += scanFromStart(at: time)
            return steps
        case .select:
            guard var current = levels.last else {
                if opening { return [] }
                opening = true
                return [.open]
            }
            if let item = current.highlighted { return [.pick(item)] }
            // Paused: a press starts the scan again at the first item.
            let events = current.resume(at: time)
            levels[levels.count - 1] = current
            return steps(events)
        }
    }

    /// The menu is open with `items` items on its top level.
    public mutating func opened(items: Int, at time: Microseconds) -> [Step] {
        opening = false
        levels = [Scanner(timings: timings)]
        return scanFromStart(items: items, at: time)
    }

    /// A picked sub-menu is open with `items` items.
    public mutating func entered(items: Int, at time: Microseconds) -> [Step] {
        levels.append(Scanner(timings: timings))
        return scanFromStart(items: items, at: time)
    }

    /// The current level's items changed (the daemon's saved gestures
    /// replaced "Loading…"): it is scanned again from its first item.
    public mutating func itemsChanged(to items: Int, at time: Microseconds) -> [Step] {
        guard !levels.isEmpty else { return [] }
        return scanFromStart(items: items, at: time)
    }

    /// The menu closed (an item was done, a click outside, Escape).
    public mutating func closed() { reset() }

    /// Tells the scan the time; the highlights that moved, in order.
    public mutating func advance(to now: Microseconds) -> [Step] {
        guard var current = levels.last else { return [] }
        let events = current.advance(to: now)
        levels[levels.count - 1] = current
        return steps(events)
    }

    private mutating func scanFromStart(items: Int? = nil, at time: Microseconds) -> [Step] {
        guard var current = levels.last else { return [] }
        let events = current.start(items: items ?? current.itemCount, at: time)
        levels[levels.count - 1] = current
        return steps(events)
    }

    private func steps(_ events: [ScanEvent]) -> [Step] {
        events.map { event in
            switch event {
            case .highlight(let item): .highlight(item)
            case .paused: .pause
            }
        }
    }

    private mutating func reset() {
        levels = []
        opening = false
    }
}
