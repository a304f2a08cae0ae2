import GestureMenu
import GestureModel

/// What a person did to a menu.
public enum MenuAnswer: Hashable, Sendable {
    /// Picked the item with this id.
    case choose(String)
    /// Went back.
    case back
}

/// One menu on screen, driven by keys or by a scanning switch: which item
/// is highlighted, how keys move it, how scanning moves it, what a press
/// means. Pure logic; the runner shows the changes it reports.
///
/// Keys: Up/Left/Shift-Tab and Down/Right/Tab move the highlight, Return
/// (or Space) picks it, a digit 1–9 picks that item, Escape goes back.
/// A switch: a short press picks the highlighted item (or starts scanning
/// again after it paused), a long press goes back.
public struct MenuPresenter: Sendable {
    /// The menu.
    public let screen: MenuScreen
    /// The highlighted item; `nil` while scanning is paused.
    public private(set) var highlighted: Int?
    private var scanner: Scanner?

    /// Presents `screen`: with scanning (a switch) from its first item,
    /// else with its default item highlighted.
    public init(_ screen: MenuScreen, scanning: ScanSettings?, at time: Microseconds) {
        self.screen = screen
        if let scanning {
            var scanner = Scanner(settings: scanning)
            _ = scanner.start(items: screen.items.count, at: time)
            self.scanner = scanner
            highlighted = scanner.highlighted
        } else {
            highlighted = screen.items.isEmpty ? nil : screen.defaultIndex
        }
    }

    /// The menu as plain lines, each making sense alone: the menu itself
    /// when it is new (`What next? Review · Save · …`), then what is
    /// highlighted (`Highlighted: Save (2 of 7)`) or that scanning paused.
    public func plainLines(isNew: Bool) -> [Announcement] {
        var lines: [Announcement] = []
        if isNew { lines.append(screen.summaryLine(highlighted: nil)) }
        if let highlighted {
            let line = screen.highlightLine(highlighted)
            lines.append(Announcement("Highlighted: " + line.text, spoken: line.spoken))
        } else {
            lines.append(Announcement("Scanning paused; press the switch to start again.", spoken: "Scanning paused. Press the switch to start again."))
        }
        return lines
    }

    /// When ``advance(to:)`` must next be called.
    public var nextDeadline: Microseconds? { scanner?.nextDeadline }

    /// Whether scanning paused after its loops.
    public var isPaused: Bool { scanner?.isPaused ?? false }

    /// Moves the scan on; whether the highlight changed.
    public mutating func advance(to now: Microseconds) -> Bool {
        guard var scanner else { return false }
        let events = scanner.advance(to: now)
        self.scanner = scanner
        highlighted = scanner.highlighted
        return !events.isEmpty
    }

    /// A key: the answer, if it was one; else whether the highlight moved.
    public mutating func key(_ key: Key) -> (answer: MenuAnswer?, moved: Bool) {
        let count = screen.items.count
        guard count > 0 else { return (key == .escape ? .back : nil, false) }
        switch key {
        case .up, .left, .backTab:
            highlighted = ((highlighted ?? 0) - 1 + count) % count
            return (nil, true)
        case .down, .right, .tab:
            highlighted = ((highlighted ?? -1) + 1) % count
            return (nil, true)
        case .enter, .space:
            guard let highlighted else { return (nil, false) }
            return (.choose(screen.items[highlighted].id), false)
        case .escape:
            return (.back, false)
        case .character(let character):
            if let digit = character.wholeNumberValue, digit >= 1, digit <= min(9, count) {
                return (.choose(screen.items[digit - 1].id), false)
            }
            return (nil, false)
        default:
            return (nil, false)
        }
    }

    /// A switch action (not the emergency stop, which the runner handles):
    /// the answer, if it was one; else whether the highlight moved (a
    /// paused scan starting again).
    public mutating func switchAction(_ action: SwitchAction, at time: Microseconds) -> (answer: MenuAnswer?, moved: Bool) {
        switch action {
        case .select:
            if var scanner, scanner.isPaused {
                _ = scanner.resume(at: time)
                self.scanner = scanner
                highlighted = scanner.highlighted
                return (nil, true)
            }
            guard let highlighted, screen.items.indices.contains(highlighted) else { return (nil, false) }
            return (.choose(screen.items[highlighted].id), false)
        case .back:
            return (.back, false)
        case .emergencyStop:
            return (nil, false)
        }
    }
}
