import ButtonModel
import GestureMenu
import GestureModel
import Glibc
import Testing

@Suite struct MenuModelToItems {
    @Test func defaultsBecomeItemsWithNamesAndWhatTheyDo() {
        let items = ButtonMenu.items(for: .defaults)
        #expect(items.map(\.label) == [
            "Home", "Back key", "Volume up", "Volume down", "Buttons menu", "Saved gestures", "Create New Gesture",
            "Gestures menu", "Customize Top Level Menu", "Hide the button",
        ])
        #expect(items[2].action == .press(key: "volume-up", force: false))
        #expect(items[5].action == .savedGestures)
        #expect(items.last?.action == .hide)
        #expect(items[items.count - 2].action == .customize)
        for item in items {
            #expect(!item.label.isEmpty)
            #expect(!item.description.isEmpty, "\(item.label) has a description for its tooltip")
        }
    }

    @Test func createAndFingertipsAreActions() {
        let items = ButtonMenu.items(for: .defaults)
        #expect(items[6].action == .create)
        #expect(items[6].description.contains("canvas"))
        guard case .submenu(let fingertips) = items[7].action else {
            Issue.record("Gestures: \(items[7].action)")
            return
        }
        #expect(fingertips.map(\.label) == ["2 fingertips", "3 fingertips", "4 fingertips", "5 fingertips"])
        #expect(fingertips.map(\.action) == [.fingertips(2), .fingertips(3), .fingertips(4), .fingertips(5)])
        for item in fingertips { #expect(item.description.contains("end after a pause")) }
    }

    @Test func powerAsksFirst() {
        guard case .submenu(let buttons) = ButtonMenu.items(for: .defaults)[4].action else {
            Issue.record("the Buttons item has no sub-menu")
            return
        }
        #expect(buttons.map(\.label).contains("Mute"))
        let power = buttons.first { $0.label == "Power" }
        guard let power, case .submenu(let asked) = power.action else {
            Issue.record("power does not ask: \(String(describing: power))")
            return
        }
        #expect(asked.map(\.action) == [.press(key: "power", force: true), .close])
        // Every other button presses at once, without force.
        for item in buttons where item.label != "Power" {
            guard case .press(_, let force) = item.action else {
                Issue.record("\(item.label): \(item.action)")
                continue
            }
            #expect(!force)
        }
    }

    @Test func ownItemsLabelsAndSubMenusFromMenuJSON() throws {
        let text = """
            {"items": [{"press": "volume-up", "label": "Louder"}, {"play": "tap"},
              {"menu": "gestures", "label": "My gestures"},
              {"menu": "Media", "items": [{"press": "KEY_PLAYPAUSE"}]}]}
            """
        let configuration = try MenuConfigurationFile.parse(Array(text.utf8), path: "menu.json")
        let items = ButtonMenu.items(for: configuration)
        #expect(items.map(\.label) == ["Louder", "tap", "My gestures", "Media menu", "Customize Top Level Menu", "Hide the button"])
        #expect(items[1].action == .place(gesture: "tap"))
        #expect(items[2].action == .savedGestures)
        guard case .submenu(let media) = items[3].action else {
            Issue.record("Media: \(items[3].action)")
            return
        }
        #expect(media.map(\.action) == [.press(key: "KEY_PLAYPAUSE", force: false)])
    }

    @Test func aBadMenuJSONIsShownAndTheDefaultsUsed() throws {
        let folder = "/tmp/button-menu-test-\(UInt32.random(in: 0...UInt32.max))"
        let environment = ["XDG_CONFIG_HOME": folder]
        // No file: the defaults, no problem.
        let (items, problem) = ButtonMenu.load(environment: environment)
        #expect(problem == nil)
        #expect(items == ButtonMenu.items(for: .defaults))
        #expect(ButtonMenu.load(environment: [:]).items == ButtonMenu.items(for: .defaults))
        // A file with a mistake: the defaults, after an item that shows the problem.
        mkdir(folder, 0o700)
        mkdir(folder + "/gesturectl", 0o700)
        let path = folder + "/gesturectl/menu.json"
        defer {
            unlink(path)
            rmdir(folder + "/gesturectl")
            rmdir(folder)
        }
        let file = try #require(fopen(path, "w"))
        fputs("{\"items\": [{\"press\": \"volum-up\"}]}", file)
        fclose(file)
        let (shown, why) = ButtonMenu.load(environment: environment)
        let message = try #require(why)
        #expect(message.contains("items[0].press: unknown button \"volum-up\""))
        #expect(shown.first?.label == "menu.json has a problem")
        #expect(Array(shown.dropFirst()) == ButtonMenu.items(for: .defaults))
    }

    @Test func savedGesturesByNameWithTheirSpokenDescription() {
        let items = ButtonMenu.savedGestureItems([
            .init(name: "three-finger-swipe-up", summary: "3 fingers · swipe up · 0.30 s"),
            .init(name: "odd\u{1B}name", summary: ""),
        ])
        #expect(items.map(\.label) == ["three-finger-swipe-up", "odd<U+001B>name"])
        #expect(items[0].description == "3 fingers · swipe up · 0.30 s")
        #expect(items[0].action == .place(gesture: "three-finger-swipe-up"))
        #expect(items[1].action == .place(gesture: "odd\u{1B}name"), "the daemon's name, not the escaped one")
        let none = ButtonMenu.savedGestureItems([])
        #expect(none.count == 1)
        #expect(none[0].label == "No saved gestures yet")
    }

    @Test func withoutADaemonTheMenuSaysWhatToStart() {
        let items = ButtonMenu.daemonMissingItems(reason: "the daemon is unreachable at /run/x.sock: No such file or directory")
        #expect(items[0].label == "The gesturectl daemon is not running")
        #expect(items.map(\.label).joined().contains("systemctl --user start gesturectl.socket"))
        #expect(items.map(\.label).joined().contains("sudo systemctl enable --now gesturectl.socket"))
        #expect(items[0].description.contains("/run/x.sock"))
    }
}

@Suite struct PlacementPercents {
    let monitors = [
        MonitorFrame(x: 0, y: 0, width: 1280, height: 720),
        MonitorFrame(x: 1280, y: -200, width: 1920, height: 1080),
    ]

    @Test func aClickIsPercentsOfTheMonitorItIsOn() {
        #expect(PlayPlacement.locate(ScreenPoint(x: 640, y: 360), on: monitors) == PlayPlacement(monitor: 0, xPercent: 50, yPercent: 50))
        #expect(PlayPlacement.locate(ScreenPoint(x: 0, y: 0), on: monitors) == PlayPlacement(monitor: 0, xPercent: 0, yPercent: 0))
        // The second monitor: its own origin, its own size.
        #expect(
            PlayPlacement.locate(ScreenPoint(x: 1280 + 480, y: -200 + 270), on: monitors)
                == PlayPlacement(monitor: 1, xPercent: 25, yPercent: 25))
        #expect(PlayPlacement.locate(ScreenPoint(x: 1280, y: 0), on: monitors)?.monitor == 1, "the right edge is the next monitor's")
        #expect(PlayPlacement.locate(ScreenPoint(x: 100, y: 800), on: monitors) == nil, "below the first monitor: on none")
        #expect(PlayPlacement.locate(ScreenPoint(x: .nan, y: 1), on: monitors) == nil)
    }

    @Test func percentsAreRoundedAndKeptOnTheMonitor() {
        let frame = MonitorFrame(x: 0, y: 0, width: 1280, height: 720)
        #expect(PlayPlacement.onMonitor(0, frame, local: ScreenPoint(x: 1, y: 719)) == PlayPlacement(monitor: 0, xPercent: 0.08, yPercent: 99.86))
        #expect(PlayPlacement.onMonitor(0, frame, local: ScreenPoint(x: 1300, y: -5)) == PlayPlacement(monitor: 0, xPercent: 100, yPercent: 0))
        #expect(PlayPlacement.onMonitor(0, MonitorFrame(x: 0, y: 0, width: 0, height: 720), local: ScreenPoint(x: 1, y: 1)) == nil)
    }
}

@Suite struct PlayFlowStates {
    @Test func chosenPlacedPlayedEnded() {
        var flow = PlayFlow()
        let result1 = flow.tap()
        #expect(result1 == .openMenu)
        let result2 = flow.choose("tap")
        #expect(result2)
        #expect(flow.isPlacing && !flow.isBusy)
        let result3 = flow.placed()
        #expect(result3 == "tap")
        #expect(flow.isBusy)
        let result4 = flow.placed()
        #expect(result4 == nil, "one click places it once")
        let result5 = flow.started(job: 42)
        #expect(!result5)
        #expect(flow.state == .playing(gesture: "tap", job: 42))
        let result6 = flow.choose("other")
        #expect(!result6, "not while one plays")
        flow.ended()
        #expect(flow.state == .idle && !flow.isBusy)
    }

    @Test func aTapWhilePlayingCancelsThatJobOnce() {
        var flow = PlayFlow()
        _ = flow.choose("swipe")
        _ = flow.placed()
        _ = flow.started(job: 7)
        let result7 = flow.tap()
        #expect(result7 == .cancel(job: 7))
        #expect(flow.isBusy, "busy until the daemon says it ended")
        let result8 = flow.tap()
        #expect(result8 == .nothing)
        flow.ended()
        let result9 = flow.tap()
        #expect(result9 == .openMenu)
    }

    @Test func aTapBeforeTheJobIsKnownCancelsItWhenItIs() {
        var flow = PlayFlow()
        _ = flow.choose("swipe")
        _ = flow.placed()
        let result10 = flow.tap()
        #expect(result10 == .nothing)
        let result11 = flow.started(job: 9)
        #expect(result11, "cancel it at once")
        #expect(flow.state == .stopping(gesture: "swipe", job: 9))
    }

    @Test func placingIsCancelledByEscapeOrATapOnTheButton() {
        var flow = PlayFlow()
        _ = flow.choose("swipe")
        let result12 = flow.tap()
        #expect(result12 == .cancelPlacement)
        #expect(flow.state == .idle)
        _ = flow.choose("swipe")
        let result13 = flow.cancelPlacement()
        #expect(result13)
        let result14 = flow.cancelPlacement()
        #expect(!result14)
        let result15 = flow.placed()
        #expect(result15 == nil)
    }
}
