@testable import GestureAssist
import GestureEngine
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import TestSupport
import Testing

@Suite("The menu's Gestures: AssistiveTouch's live 2–5 finger input")
struct ActionMenuFingertipsTests {
    @Test("The Gestures sub-menu (live fingertips) offers 2 to 5; choosing one starts them, a press stops them, and their end returns to it")
    func startAndStop() {
        var menu = ActionMenu(configuration: .defaults, library: FakeMenuLibrary())
        let top = menu.start().menu!
        let sub = menu.handle(.choose(top.id("Gestures menu"))).menu!
        #expect(sub.labels == ["2 fingertips", "3 fingertips", "4 fingertips", "5 fingertips", "Back to the main menu"])
        let started = menu.handle(.choose(sub.id("3 fingertips")))
        #expect(started.lines == ["Starting 3 fingertips."])
        #expect(started.last == .startFingertips(3))
        #expect(menu.phase == .fingertips)
        let ready = menu.handle(.fingertipsReady("3 fingertips ready: move the pointer, hold the button to touch."))
        #expect(ready.lines == ["3 fingertips ready: move the pointer, hold the button to touch. To stop them, press the switch or Escape."])
        #expect(menu.handle(.fingertipsTouching(true)).lines == ["3 fingertips down."])
        // A press of the switch (or a long one, or Escape) stops them.
        #expect(menu.handle(.press) == [.cancelAction])
        #expect(menu.handle(.back) == [.cancelAction])
        #expect(menu.handle(.escape) == [.cancelAction])
        let ended = menu.handle(.fingertipsEnded(.stopped))
        #expect(ended.lines == ["3 fingertips gone: stopped."])
        #expect(ended.menu?.labels.first == "2 fingertips")
        #expect(menu.phase == .browsing && menu.depth == 2)
    }

    @Test("Going away by themselves (idle, unplugged) or failing to start returns to the menu, saying why")
    func endsByThemselves() {
        var menu = ActionMenu(configuration: MenuConfiguration(items: [MenuEntry(.fingertips(4))]), library: FakeMenuLibrary())
        let top = menu.start().menu!
        for (end, line) in [
            (FingertipsMenuEnd.idle, "4 fingertips gone: no input for a while."),
            (.sourceGone, "4 fingertips gone: the pointing device was unplugged."),
            (.failed("no pointer"), "4 fingertips did not work: no pointer"),
        ] {
            #expect(menu.handle(.choose(top.id("4 fingertips"))).last == .startFingertips(4))
            let ended = menu.handle(.fingertipsEnded(end))
            #expect(ended.lines == [line])
            #expect(ended.menu?.labels == ["4 fingertips", "Close the menu"])
        }
        // A press while browsing is no stop of anything.
        #expect(menu.handle(.press) == [])
        // The emergency stop while they run cancels everything.
        _ = menu.handle(.choose(top.id("4 fingertips")))
        #expect(menu.handle(.emergencyStop).first == .cancelEverything)
    }

    @Test("menu.json: {\"menu\": \"fingertips\"} and {\"fingertips\": N}, N from 2 to 10")
    func configuration() throws {
        let parsed = try MenuConfigurationFile.parse(
            Array(#"{"items": [{"menu": "fingertips"}, {"fingertips": 3, "label": "Three fingers"}]}"#.utf8), path: "menu.json")
        #expect(parsed.items == [MenuEntry(.fingertipsMenu), MenuEntry(.fingertips(3), label: "Three fingers")])
        #expect(throws: MenuConfigurationError("menu.json: items[0].fingertips: must be how many fingertips, 2 to 10")) {
            try MenuConfigurationFile.parse(Array(#"{"items": [{"fingertips": 1}]}"#.utf8), path: "menu.json")
        }
        #expect(throws: MenuConfigurationError.self) {
            try MenuConfigurationFile.parse(Array(#"{"items": [{"menu": "fingertips", "items": [{"press": "home"}]}]}"#.utf8), path: "menu.json")
        }
    }
}

@Suite("The menu's Gestures (live fingertips) end to end (the engine over test doubles)", .serialized)
struct MenuFingertipsSessionTests {
    @Test("One switch only: Gestures menu, 3 fingertips: a touch is a 3-finger touch; a press stops them and the menu is back")
    func switchOnly() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let handle = try MenuSession.start(
            ActionMenu(configuration: .defaults, library: LibraryNames(rig.library)), setup: rig.menuSetup, display: display,
            keyboard: nil, switchSetup: try rig.switchSetup())
        #expect(display.eventually { display.has("The switch is ready") }, "\(display.all)")
        #expect(display.eventually { display.all.last == "HIGHLIGHT Gestures menu" })
        rig.press(.single)
        #expect(display.eventually { display.has("MENU Gestures. Choose one, or go back.") })
        #expect(display.eventually { display.all.last == "HIGHLIGHT 3 fingertips" })
        rig.press(.single)
        let ready = "3 fingertips ready: touch the screen with one finger; every fingertip follows it. To stop them, press the switch or Escape."
        #expect(display.eventually { display.has(ready) }, "\(display.all)")
        // The drawing device drives three fingertips on a copy of it.
        rig.drawing.frame([
            (.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, 7), (.absolute, .multitouchPositionX, 5_000),
            (.absolute, .multitouchPositionY, 4_000), (.key, .buttonTouch, 1),
        ])
        #expect(display.eventually { display.has("3 fingertips down.") })
        let touchscreen = rig.sinks.byKind.withLock { $0[.touchscreen] }
        let firstFrame = touchscreen?.frames.first?.events ?? []
        #expect(firstFrame.filter { $0.code == .multitouchTrackingID && $0.value >= 0 }.count == 3)
        rig.drawing.frame([(.absolute, .multitouchTrackingID, -1), (.key, .buttonTouch, 0)])
        #expect(display.eventually { display.has("3 fingertips up.") })
        // One press of the switch stops them: the source is given back and the menu is back.
        let menus = display.all.filter { $0.hasPrefix("MENU Gestures.") }.count
        rig.press(.single)
        #expect(display.eventually { display.has("3 fingertips gone: stopped.") }, "\(display.all)")
        #expect(display.eventually { display.all.filter { $0.hasPrefix("MENU Gestures.") }.count == menus + 1 })
        #expect(waitUntil { rig.drawing.openReaders == 0 })
        rig.press(.emergencyStop)
        #expect(handle.wait() == .success(.emergencyStopped))
    }

    @Test("The menu's fingertips idle time (--fingertips-idle) is the setup's: a short one ends them by themselves, the menu is back")
    func idleTimeFromTheSetup() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        var setup = rig.menuSetup
        setup.fingertipsIdle = Microseconds(50_000)
        let handle = try MenuSession.start(
            ActionMenu(configuration: MenuConfiguration(items: [MenuEntry(.fingertips(2))]), library: LibraryNames(rig.library)),
            setup: setup, display: display, keyboard: nil, switchSetup: try rig.switchSetup())
        #expect(display.eventually { display.has("The switch is ready") }, "\(display.all)")
        #expect(display.eventually { display.all.last == "HIGHLIGHT 2 fingertips" })
        rig.press(.single)
        #expect(display.eventually { display.has("2 fingertips gone: no input for a while.") }, "\(display.all)")
        #expect(waitUntil { rig.drawing.openReaders == 0 })
        rig.press(.emergencyStop)
        #expect(handle.wait() == .success(.emergencyStopped))
    }

    @Test("The emergency stop while fingertips run lifts them, gives the source back and closes the menu")
    func emergencyStop() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let handle = try MenuSession.start(
            ActionMenu(configuration: MenuConfiguration(items: [MenuEntry(.fingertips(2))]), library: LibraryNames(rig.library)),
            setup: rig.menuSetup, display: display, keyboard: nil, switchSetup: try rig.switchSetup())
        // A press before the switch's watch reads it is lost (as on the kernel): wait until it listens.
        #expect(display.eventually { display.has("The switch is ready") }, "\(display.all)")
        #expect(display.eventually { display.all.last == "HIGHLIGHT 2 fingertips" })
        rig.press(.single)
        #expect(display.eventually { display.has("2 fingertips ready: ") }, "\(display.all)")
        rig.drawing.frame([
            (.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, 7), (.absolute, .multitouchPositionX, 5_000),
            (.absolute, .multitouchPositionY, 4_000), (.key, .buttonTouch, 1),
        ])
        #expect(display.eventually { display.has("2 fingertips down.") })
        rig.press(.emergencyStop)
        #expect(handle.wait() == .success(.emergencyStopped))
        #expect(rig.drawing.openReaders == 0)
        let last = rig.sinks.byKind.withLock { $0[.touchscreen] }?.frames.last?.events ?? []
        #expect(last.filter { $0.code == .multitouchTrackingID }.map(\.value) == [-1, -1])
    }
}
