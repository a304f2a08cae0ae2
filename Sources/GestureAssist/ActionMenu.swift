import GestureModel
import GesturePlayback

/// What the menu of actions is told: the person's choices (keys or a
/// switch, already turned into item ids), and how the actions it asked for ended.
public enum ActionMenuInput: Sendable, Equatable {
    /// The person picked a menu item (by ``MenuItem/id``).
    case choose(String)
    /// The person went back (a long press of the switch): one level up; on
    /// the top level nothing closes (holding the switch for the emergency
    /// stop passes the long press first, and a slip must not close the
    /// menu on someone who cannot open it again alone).
    case back
    /// The Escape key: back, and on the top level it closes the menu.
    case escape
    /// The press or play ended (with a problem, if any).
    case actionEnded(problem: String?)
    /// The press or play was stopped before its end (Escape, a long press).
    case actionStopped
    /// The create flow ended.
    case created(Result<CreateOutcome, CreateFailure>)
    /// Nothing can operate the menu any more (the keys ended and there is
    /// no switch): it closes, once a running action has ended.
    case inputEnded
    /// The emergency stop: cancel and release everything, now.
    case emergencyStop
    /// A press of the switch while no menu is shown: it stops live fingertips.
    case press
    /// Live fingertips are ready: the line to say (``GestureEngine/FingertipsSourceKind/readyLine(count:absolute:)``).
    case fingertipsReady(String)
    /// Live fingertips touched (`true`) or lifted.
    case fingertipsTouching(Bool)
    /// Live fingertips went away (or could not start); answers ``ActionMenuEffect/startFingertips(_:)``.
    case fingertipsEnded(FingertipsMenuEnd)
}

/// Why live fingertips started from the menu went away.
public enum FingertipsMenuEnd: Hashable, Sendable {
    /// No input for the idle time.
    case idle
    /// Stopped (the switch, Escape).
    case stopped
    /// The pointing device was unplugged.
    case sourceGone
    /// They could not start, or failed (the reason).
    case failed(String)
}

/// What the menu of actions asks its runner to do, in order.
public enum ActionMenuEffect: Sendable, Equatable {
    /// Show (and speak) one line.
    case say(Announcement)
    /// Present a menu; answered with ``ActionMenuInput/choose(_:)`` or ``ActionMenuInput/back``.
    case showMenu(MenuScreen)
    /// Press this key of the virtual keyboard; answered with ``ActionMenuInput/actionEnded(problem:)``.
    case press(VirtualKeyboard.Key)
    /// Play the saved gesture of this name on a virtual device; answered
    /// with ``ActionMenuInput/actionEnded(problem:)``.
    case play(String)
    /// Stop the press or play in progress (an ``ActionMenuInput/actionEnded(problem:)`` still follows).
    case cancelAction
    /// Run the create flow; answered with ``ActionMenuInput/created(_:)``.
    case create
    /// Start this many live fingertips on the menu's pointing device;
    /// answered with ``ActionMenuInput/fingertipsReady(_:)`` and, at their
    /// end, ``ActionMenuInput/fingertipsEnded(_:)``. ``cancelAction`` stops them.
    case startFingertips(Int)
    /// Cancel everything running and release every contact and key.
    case cancelEverything
    /// The menu is over.
    case finish(ActionMenuOutcome)
}

/// How the menu of actions ended.
public enum ActionMenuOutcome: Hashable, Sendable {
    /// Closed on purpose (Escape, a long press on the top level, Close the menu).
    case closed
    /// The emergency stop: everything cancelled and released.
    case emergencyStopped
}

/// The saved gestures, as the menu lists them (a test double in tests).
public protocol MenuLibrary: Sendable {
    /// The names of the saved gestures, in the order to show them.
    func gestureNames() throws -> [String]
}

/// AssistiveTouch's menu of actions as a state machine: a top level of
/// items (``MenuConfiguration``), sub-menus (Buttons, Gestures, one's
/// own) that Back leaves for their parent, button presses, gesture plays,
/// and Create New Gesture. Pure logic: fed ``ActionMenuInput``s, it
/// returns ``ActionMenuEffect``s for a runner (``MenuSession``) to carry out.
///
/// The menu stays open after an action, on the same level, and says what
/// was done ("Pressed volume up."). Power asks first, and its default is
/// not to press. The top level's last item "Close the menu", or Escape
/// there, closes it (a long press there does not); every sub-menu ends
/// with "Back to …". The emergency stop works in every state.
public struct ActionMenu: Sendable {
    /// Where the menu is.
    public enum Phase: Hashable, Sendable {
        /// Showing a level, waiting for a choice.
        case browsing
        /// Asking whether to press power.
        case confirmingPower
        /// A press or play runs.
        case acting
        /// The create flow runs.
        case creating
        /// Live fingertips run: a press of the switch (or Escape, or a long
        /// press) stops them, and their end returns to the menu.
        case fingertips
        /// Over.
        case finished
    }

    /// Item ids besides the entries' positions.
    public enum Choice {
        public static let back = "back"
        public static let close = "close"
        public static let keep = "keep"
        public static let confirm = "confirm"
    }

    /// One level on screen: its title and its entries.
    private struct Level: Sendable {
        var title: String
        var entries: [MenuEntry]
        /// Which entry was last used, highlighted first for keys.
        var lastUsed = 0
    }

    /// Where the menu is now.
    public private(set) var phase = Phase.browsing
    private var levels: [Level]
    private var pendingPower: VirtualKeyboard.Key?
    private var acting: String?
    private var closesWhenIdle = false
    /// How many live fingertips run.
    private var fingertipsCount = 0
    private let library: any MenuLibrary

    /// Creates the menu; ``start()`` shows its top level.
    public init(configuration: MenuConfiguration, library: any MenuLibrary) {
        levels = [Level(title: "Main menu", entries: configuration.items)]
        self.library = library
    }

    /// How many levels deep the menu is (1: the top level).
    public var depth: Int { levels.count }

    /// The first effects: the instructions, and the top level.
    public mutating func start() -> [ActionMenuEffect] {
        [
            .say(Announcement("The menu of actions. Choose an action; the menu stays open until you close it.")),
            .showMenu(screen()),
        ]
    }

    /// Feeds one input; returns what to do, in order.
    public mutating func handle(_ input: ActionMenuInput) -> [ActionMenuEffect] {
        if case .emergencyStop = input {
            guard phase != .finished else { return [] }
            let wasCreating = phase == .creating
            phase = .finished
            return [.cancelEverything]
                + (wasCreating ? [] : [.say(Announcement("Emergency stop: everything was cancelled and released."))])
                + [.finish(.emergencyStopped)]
        }
        if case .inputEnded = input {
            switch phase {
            case .finished: return []
            case .acting, .creating, .fingertips:
                closesWhenIdle = true
                return []
            case .browsing, .confirmingPower:
                return [.say(Self.inputEndedLine)] + close()
            }
        }
        if case .escape = input {
            return phase == .browsing && levels.count == 1 ? close() : handle(.back)
        }
        switch (phase, input) {
        case (.browsing, .choose(let id)):
            return chosen(id)
        case (.browsing, .back):
            return back()
        case (.confirmingPower, .choose(Choice.confirm)):
            guard let key = pendingPower else { return reshow() }
            pendingPower = nil
            return act(.press(key), doing: "Pressing \(label(of: key))")
        case (.confirmingPower, .choose), (.confirmingPower, .back):
            pendingPower = nil
            return [.say(Announcement("Power was not pressed."))] + reshow()
        case (.acting, .actionEnded(let problem)):
            let done = acting ?? "That"
            acting = nil
            let line =
                problem.map { Announcement("\(done) did not work: \($0)") }
                ?? Announcement("\(Self.pastTense(done)).")
            return [.say(line)] + reshowOrClose()
        case (.acting, .actionStopped):
            let done = acting ?? "That"
            acting = nil
            return [.say(Announcement("\(done) was stopped."))] + reshowOrClose()
        case (.acting, .back):
            return [.cancelAction]
        case (.fingertips, .back), (.fingertips, .press):
            return [.cancelAction]
        case (.fingertips, .fingertipsReady(let line)):
            return [.say(Announcement("\(line) To stop them, press the switch or Escape."))]
        case (.fingertips, .fingertipsTouching(let down)):
            return [.say(Announcement("\(fingertipsCount) fingertips \(down ? "down" : "up")."))]
        case (.fingertips, .fingertipsEnded(let end)):
            let count = fingertipsCount
            let line: String
            switch end {
            case .idle: line = "\(count) fingertips gone: no input for a while."
            case .stopped: line = "\(count) fingertips gone: stopped."
            case .sourceGone: line = "\(count) fingertips gone: the pointing device was unplugged."
            case .failed(let problem): line = "\(count) fingertips did not work: \(problem)"
            }
            return [.say(Announcement(line))] + reshowOrClose()
        case (.creating, .created(let result)):
            switch result {
            case .success(.emergencyStopped):
                phase = .finished
                return [.finish(.emergencyStopped)]
            case .success:
                // Not "back" when nothing can operate the menu: it closes.
                return closesWhenIdle ? reshowOrClose() : [.say(Announcement("Back in the menu."))] + reshow()
            case .failure(let failure):
                return [.say(Announcement("Create New Gesture did not work: \(failure.message)"))] + reshowOrClose()
            }
        default:
            // Out of place here (a stray press while an action runs); nothing changes.
            return []
        }
    }

    private mutating func chosen(_ id: String) -> [ActionMenuEffect] {
        if id == Choice.close { return close() }
        if id == Choice.back { return back() }
        guard let index = Int(id), levels[levels.count - 1].entries.indices.contains(index) else { return [] }
        levels[levels.count - 1].lastUsed = index
        let entry = levels[levels.count - 1].entries[index]
        switch entry.action {
        case .press(let key):
            if VirtualKeyboard.needsForce.contains(key.code) {
                phase = .confirmingPower
                pendingPower = key
                return [
                    .showMenu(
                        MenuScreen(
                            title: Announcement("Press \(label(of: key))? It can switch the machine off."),
                            items: [
                                MenuItem(id: Choice.keep, label: "Do not press it"),
                                MenuItem(id: Choice.confirm, label: "Press \(label(of: key))", isDestructive: true),
                            ]))
                ]
            }
            return act(.press(key), doing: "Pressing \(label(of: key))")
        case .play(let name):
            return act(.play(name), doing: "Playing \(name)")
        case .buttons:
            return open(Level(title: entry.shownLabel.removingMenuSuffix, entries: MenuConfiguration.buttonItems))
        case .gestures:
            return openGestures(title: entry.shownLabel.removingMenuSuffix)
        case .create:
            phase = .creating
            return [.create]
        case .menu(let title, let items):
            return open(Level(title: title, entries: items))
        case .fingertipsMenu:
            return open(Level(title: entry.shownLabel.removingMenuSuffix, entries: MenuConfiguration.fingertipsItems))
        case .fingertips(let count):
            phase = .fingertips
            fingertipsCount = count
            return [.say(Announcement("Starting \(count) fingertips.")), .startFingertips(count)]
        }
    }

    private mutating func act(_ effect: ActionMenuEffect, doing: String) -> [ActionMenuEffect] {
        phase = .acting
        acting = doing
        return [.say(Announcement("\(doing).")), effect]
    }

    private mutating func open(_ level: Level) -> [ActionMenuEffect] {
        levels.append(level)
        return [.showMenu(screen())]
    }

    private mutating func openGestures(title: String) -> [ActionMenuEffect] {
        let names: [String]
        do {
            names = try library.gestureNames()
        } catch {
            return [.say(Announcement("The saved gestures cannot be listed: \(error)"))] + reshow()
        }
        guard !names.isEmpty else {
            return [.say(Announcement("There are no saved gestures yet. Choose Create New Gesture to make one."))] + reshow()
        }
        let shown = Array(names.prefix(MenuConfiguration.maximumItems))
        var effects: [ActionMenuEffect] = []
        if names.count > shown.count {
            effects.append(.say(Announcement("Showing the first \(shown.count) of \(names.count) saved gestures.")))
        }
        return effects + open(Level(title: title, entries: shown.map { MenuEntry(.play($0)) }))
    }

    private mutating func back() -> [ActionMenuEffect] {
        guard levels.count > 1 else {
            return [.say(Announcement("This is the main menu. Choose Close the menu to leave it."))] + reshow()
        }
        levels.removeLast()
        return reshow()
    }

    private mutating func close() -> [ActionMenuEffect] {
        phase = .finished
        return [.say(Announcement("Menu closed.")), .finish(.closed)]
    }

    private static let inputEndedLine = Announcement("The keys ended and there is no switch, so nothing can operate the menu.")

    /// After an action: the menu again, or closing it when nothing can operate it.
    private mutating func reshowOrClose() -> [ActionMenuEffect] {
        closesWhenIdle ? [.say(Self.inputEndedLine)] + close() : reshow()
    }

    private mutating func reshow() -> [ActionMenuEffect] {
        phase = .browsing
        return [.showMenu(screen())]
    }

    /// The current level as a menu: its entries by position, then Back
    /// (sub-menus) or Close the menu (the top level).
    public func screen() -> MenuScreen {
        let level = levels[levels.count - 1]
        var items = level.entries.enumerated().map { index, entry in
            MenuItem(id: String(index), label: entry.shownLabel)
        }
        if levels.count > 1 {
            let parent = levels.count == 2 ? "the main menu" : levels[levels.count - 2].title
            items.append(MenuItem(id: Choice.back, label: "Back to \(parent)"))
        } else {
            items.append(MenuItem(id: Choice.close, label: "Close the menu"))
        }
        let title = levels.count > 1 ? "\(level.title). Choose one, or go back." : "\(level.title). Choose an action."
        return MenuScreen(title: Announcement(title), items: items, defaultIndex: level.lastUsed)
    }

    private func label(of key: VirtualKeyboard.Key) -> String {
        (MenuEntry.buttonLabels[key.name] ?? key.kernelName).lowercasedFirst
    }

    /// `Pressing volume up` → `Pressed volume up`; `Playing x` → `Played x`.
    static func pastTense(_ doing: String) -> String {
        for (present, past) in [("Pressing ", "Pressed "), ("Playing ", "Played ")] where doing.hasPrefix(present) {
            return past + doing.dropFirst(present.count)
        }
        return doing
    }
}

extension String {
    fileprivate var lowercasedFirst: String {
        // Keep kernel names (KEY_PLAYPAUSE) as they are.
        hasPrefix("KEY_") ? self : prefix(1).lowercased() + dropFirst()
    }

    fileprivate var removingMenuSuffix: String { hasSuffix(" menu") ? String(dropLast(5)) : self }
}
