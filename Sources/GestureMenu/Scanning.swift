import GestureModel

/// How automatic scanning moves its highlight: the same for every front
/// end that scans with one switch (`gesturectl menu --switch`, the daemon's
/// menu and create flow, the on-screen button's menu). The defaults follow
/// Android Switch Access: 1 s per item, the first item held 0.7 s longer,
/// two loops and then a pause until the next press.
public struct ScanTimings: Hashable, Sendable {
    /// The shortest interval between items.
    public static let minimumInterval = Microseconds(300_000)
    /// The longest interval between items.
    public static let maximumInterval = Microseconds(10_000_000)
    /// The default interval: 1 s.
    public static let defaultInterval = Microseconds(1_000_000)
    /// The default extra hold of the first item: 0.7 s.
    public static let defaultFirstItemHold = Microseconds(700_000)
    /// The default number of loops before scanning pauses: 2.
    public static let defaultLoops = 2

    /// How long each item stays highlighted.
    public var interval: Microseconds
    /// How much longer the first item stays highlighted.
    public var firstItemHold: Microseconds
    /// How many times scanning goes through the items before it pauses.
    public var loops: Int

    /// Creates timings; see each property for the defaults.
    public init(interval: Microseconds = defaultInterval, firstItemHold: Microseconds = defaultFirstItemHold, loops: Int = defaultLoops) {
        self.interval = interval
        self.firstItemHold = firstItemHold
        self.loops = loops
    }
}

/// What scanning did at a moment.
public enum ScanEvent: Hashable, Sendable {
    /// This item is now highlighted.
    case highlight(Int)
    /// Scanning went through its loops and waits for a press.
    case paused
}

/// Automatic scanning over a list of items: one item highlighted at a
/// time, moving on by itself. Pure logic driven by the caller's clock
/// (``advance(to:)`` at ``nextDeadline``), like the engine's press recognizer.
///
/// The rules, with `I` the interval and `F` the first item's extra hold:
/// item 0 is highlighted for `I + F`, every other item for `I`; after the
/// last item scanning starts again at item 0, and after the configured
/// number of loops it pauses (nothing highlighted) until ``resume(at:)``.
public struct Scanner: Sendable {
    /// How the highlight moves.
    public let timings: ScanTimings
    /// How many items there are.
    public private(set) var itemCount = 0
    /// The highlighted item; `nil` while paused or before ``start(items:at:)``.
    public private(set) var highlighted: Int?
    private var moveAt: Microseconds?
    private var loopsDone = 0

    /// Creates a scanner with nothing to scan.
    public init(timings: ScanTimings = ScanTimings()) { self.timings = timings }

    /// Whether scanning has paused after its loops.
    public var isPaused: Bool { itemCount > 0 && highlighted == nil }

    /// When ``advance(to:)`` must next be called; `nil` while paused.
    public var nextDeadline: Microseconds? { moveAt }

    /// Starts scanning `items` items at `time`, highlighting the first.
    public mutating func start(items: Int, at time: Microseconds) -> [ScanEvent] {
        itemCount = max(0, items)
        loopsDone = 0
        guard itemCount > 0 else {
            highlighted = nil
            moveAt = nil
            return []
        }
        return highlight(0, at: time)
    }

    /// Starts again at the first item after a pause (or at any time).
    public mutating func resume(at time: Microseconds) -> [ScanEvent] { start(items: itemCount, at: time) }

    /// Tells the scanner the time; returns what moved, in order.
    public mutating func advance(to now: Microseconds) -> [ScanEvent] {
        var events: [ScanEvent] = []
        while let due = moveAt, now >= due, let current = highlighted {
            let next = current + 1
            if next < itemCount {
                events += highlight(next, at: due)
                continue
            }
            loopsDone += 1
            if loopsDone >= timings.loops {
                highlighted = nil
                moveAt = nil
                events.append(.paused)
            } else {
                events += highlight(0, at: due)
            }
        }
        return events
    }

    private mutating func highlight(_ index: Int, at time: Microseconds) -> [ScanEvent] {
        highlighted = index
        moveAt = time + timings.interval + (index == 0 ? timings.firstItemHold : .zero)
        return [.highlight(index)]
    }
}
