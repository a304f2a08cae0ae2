@testable import GestureAssist
import GesturePlayback
import Testing

/// Saved gestures for the menu, in memory.
struct FakeMenuLibrary: MenuLibrary {
    var names: [String] = ["three-finger-swipe-up", "pinch"]
    func gestureNames() throws -> [String] { names }
}

extension [ActionMenuEffect] {
    /// The last menu shown.
    var menu: MenuScreen? {
        for effect in reversed() { if case .showMenu(let screen) = effect { return screen } }
        return nil
    }
    var lines: [String] { compactMap { if case .say(let line) = $0 { line.text } else { nil } } }
}

extension MenuScreen {
    /// The id of the item labelled `label`.
    func id(_ label: String) -> String { items.first { $0.label == label }!.id }
    var labels: [String] { items.map(\.label) }
}

@Suite("The menu of actions as a state machine")
struct ActionMenuTests {
    @Test("The default top level: buttons, the sub-menus, Create New Gesture, Gestures (live fingertips), and Close the menu last")
    func defaults() {
        var menu = ActionMenu(configuration: .defaults, library: FakeMenuLibrary())
        let screen = menu.start().menu!
        #expect(
            screen.labels == [
                "Home", "Back key", "Volume up", "Volume down", "Buttons menu", "Saved gestures menu", "Create New Gesture", "Gestures menu",
                "Close the menu",
            ])
        #expect(screen.defaultIndex == 0)
    }

    @Test("A press says what it does, stays open on the same level afterwards, highlighting what was used")
    func pressStaysOpen() {
        var menu = ActionMenu(configuration: .defaults, library: FakeMenuLibrary())
        let screen = menu.start().menu!
        let effects = menu.handle(.choose(screen.id("Volume up")))
        #expect(effects.contains(.press(VirtualKeyboard.buttons[0])))
        #expect(effects.lines == ["Pressing volume up."])
        #expect(menu.phase == .acting)
        // Stray choices while it runs change nothing.
        #expect(menu.handle(.choose("0")).isEmpty)
        let after = menu.handle(.actionEnded(problem: nil))
        #expect(after.lines == ["Pressed volume up."])
        #expect(after.menu?.items[after.menu!.defaultIndex].label == "Volume up")
        #expect(menu.phase == .browsing)
        // A failed press says why, and the menu is back.
        _ = menu.handle(.choose(screen.id("Home")))
        let failed = menu.handle(.actionEnded(problem: "no uinput"))
        #expect(failed.lines == ["Pressing home did not work: no uinput"])
        #expect(failed.menu != nil)
        // Back while an action runs stops it.
        _ = menu.handle(.choose(screen.id("Home")))
        #expect(menu.handle(.back) == [.cancelAction])
        #expect(menu.handle(.actionStopped).lines == ["Pressing home was stopped."])
    }

    @Test("Sub-menus: Buttons and Gestures open, end with Back, and Back (or a long press) returns to the parent")
    func subMenus() {
        var menu = ActionMenu(configuration: .defaults, library: FakeMenuLibrary())
        let top = menu.start().menu!
        let buttons = menu.handle(.choose(top.id("Buttons menu"))).menu!
        #expect(menu.depth == 2)
        #expect(buttons.labels.first == "Volume up")
        #expect(buttons.labels.suffix(2) == ["Power", "Back to the main menu"])
        #expect(menu.handle(.choose(buttons.id("Back to the main menu"))).menu?.labels == top.labels)
        #expect(menu.depth == 1)
        let gestures = menu.handle(.choose(top.id("Saved gestures menu"))).menu!
        #expect(gestures.labels == ["three-finger-swipe-up", "pinch", "Back to the main menu"])
        let played = menu.handle(.choose(gestures.id("pinch")))
        #expect(played.contains(.play("pinch")))
        #expect(menu.handle(.actionEnded(problem: nil)).lines == ["Played pinch."])
        #expect(menu.depth == 2)
        #expect(menu.handle(.back).menu?.labels == top.labels)
        // A long press on the top level does not close it (holding for the
        // emergency stop passes it first); Escape there does.
        let stays = menu.handle(.back)
        #expect(stays.lines == ["This is the main menu. Choose Close the menu to leave it."])
        #expect(stays.menu?.labels == top.labels)
        _ = menu.handle(.choose(top.id("Buttons menu")))
        #expect(menu.handle(.escape).menu?.labels == top.labels)
        let closed = menu.handle(.escape)
        #expect(closed.last == .finish(.closed))
        #expect(menu.phase == .finished)
    }

    @Test("Nested menus of one's own go back one level at a time; an empty library says so and stays")
    func nested() {
        let media = MenuEntry(.menu(title: "Media", items: [MenuEntry(.menu(title: "More", items: [MenuEntry(.create)]))]))
        var menu = ActionMenu(configuration: MenuConfiguration(items: [media, MenuEntry(.gestures)]), library: FakeMenuLibrary(names: []))
        let top = menu.start().menu!
        #expect(top.labels == ["Media menu", "Saved gestures menu", "Close the menu"])
        let first = menu.handle(.choose(top.id("Media menu"))).menu!
        let second = menu.handle(.choose(first.id("More menu"))).menu!
        #expect(second.labels == ["Create New Gesture", "Back to Media"])
        #expect(menu.handle(.back).menu?.labels == first.labels)
        _ = menu.handle(.back)
        let empty = menu.handle(.choose(top.id("Saved gestures menu")))
        #expect(empty.lines == ["There are no saved gestures yet. Choose Create New Gesture to make one."])
        #expect(menu.depth == 1)
    }

    @Test("Every key the virtual keyboard has is named in words, not by its kernel name")
    func keyLabels() {
        for key in VirtualKeyboard.keys {
            #expect(!MenuEntry(.press(key)).shownLabel.hasPrefix("KEY_"), "\(key.kernelName)")
        }
    }

    @Test("Power asks first: its default is not to press, and only the confirmation presses it")
    func powerConfirmation() {
        var menu = ActionMenu(configuration: MenuConfiguration(items: [.button("power")]), library: FakeMenuLibrary())
        let top = menu.start().menu!
        let ask = menu.handle(.choose(top.id("Power")))
        #expect(!ask.contains { if case .press = $0 { true } else { false } })
        let confirm = ask.menu!
        #expect(confirm.title.text == "Press power? It can switch the machine off.")
        #expect(confirm.items[confirm.defaultIndex].label == "Do not press it")
        #expect(confirm.items.contains { $0.isDestructive && $0.label == "Press power" })
        #expect(menu.handle(.back).lines == ["Power was not pressed."])
        _ = menu.handle(.choose(top.id("Power")))
        #expect(menu.handle(.choose(ActionMenu.Choice.keep)).lines == ["Power was not pressed."])
        _ = menu.handle(.choose(top.id("Power")))
        let pressed = menu.handle(.choose(ActionMenu.Choice.confirm))
        #expect(pressed.contains(.press(VirtualKeyboard.buttons.first { $0.name == "power" }!)))
    }

    @Test("Create New Gesture runs the flow and comes back; its emergency stop ends the menu")
    func create() {
        var menu = ActionMenu(configuration: .defaults, library: FakeMenuLibrary())
        let top = menu.start().menu!
        #expect(menu.handle(.choose(top.id("Create New Gesture"))) == [.create])
        let back = menu.handle(.created(.success(.saved(name: "x", path: "/x"))))
        #expect(back.lines == ["Back in the menu."])
        #expect(back.menu?.labels == top.labels)
        _ = menu.handle(.choose(top.id("Create New Gesture")))
        #expect(menu.handle(.created(.success(.emergencyStopped))) == [.finish(.emergencyStopped)])
    }

    @Test("Keys that ended during Create New Gesture: the flow's end closes the menu, without \"Back in the menu.\"")
    func keysEndedDuringCreate() {
        var menu = ActionMenu(configuration: .defaults, library: FakeMenuLibrary())
        let top = menu.start().menu!
        #expect(menu.handle(.choose(top.id("Create New Gesture"))) == [.create])
        #expect(menu.handle(.inputEnded) == [])
        let end = menu.handle(.created(.success(.discarded)))
        #expect(end.lines == ["The keys ended and there is no switch, so nothing can operate the menu.", "Menu closed."])
        #expect(end.last == .finish(.closed))
    }

    @Test("The emergency stop cancels everything in every state; the end of the keys closes once an action ends")
    func stops() {
        var menu = ActionMenu(configuration: .defaults, library: FakeMenuLibrary())
        let top = menu.start().menu!
        _ = menu.handle(.choose(top.id("Home")))
        let stop = menu.handle(.emergencyStop)
        #expect(stop.first == .cancelEverything && stop.last == .finish(.emergencyStopped))
        #expect(menu.handle(.emergencyStop).isEmpty)

        var other = ActionMenu(configuration: .defaults, library: FakeMenuLibrary())
        _ = other.start()
        _ = other.handle(.choose(top.id("Home")))
        #expect(other.handle(.inputEnded).isEmpty)
        let ended = other.handle(.actionEnded(problem: nil))
        #expect(ended.lines.first == "Pressed home.")
        #expect(ended.last == .finish(.closed))
    }
}
