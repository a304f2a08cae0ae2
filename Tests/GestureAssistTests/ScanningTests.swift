@testable import GestureAssist
import GestureEngine
import GestureMenu
import GestureModel
import Testing

@Suite("Scanning and one switch")
struct ScanningTests {
    private func ms(_ value: Int64) -> Microseconds { Microseconds(value * 1_000) }

    @Test("The first item is held 0.7 s longer, each other 1 s; two loops, then a pause")
    func defaultTimings() {
        var scanner = Scanner()
        #expect(scanner.start(items: 3, at: ms(0)) == [.highlight(0)])
        #expect(scanner.nextDeadline == ms(1_700))
        #expect(scanner.advance(to: ms(1_699)).isEmpty)
        #expect(scanner.advance(to: ms(1_700)) == [.highlight(1)])
        #expect(scanner.advance(to: ms(2_700)) == [.highlight(2)])
        #expect(scanner.advance(to: ms(3_700)) == [.highlight(0)])
        #expect(scanner.nextDeadline == ms(5_400))
        #expect(scanner.advance(to: ms(7_399)) == [.highlight(1), .highlight(2)])
        #expect(scanner.advance(to: ms(7_400)) == [.paused])
        #expect(scanner.isPaused && scanner.highlighted == nil && scanner.nextDeadline == nil)
        #expect(scanner.advance(to: ms(60_000)).isEmpty)
        #expect(scanner.resume(at: ms(60_000)) == [.highlight(0)])
        #expect(scanner.nextDeadline == ms(61_700))
    }

    @Test("A late clock catches up in order, at the times the items were due")
    func catchUp() {
        var scanner = Scanner(settings: ScanSettings(interval: ms(300), firstItemHold: .zero, loops: 1))
        _ = scanner.start(items: 2, at: ms(0))
        #expect(scanner.advance(to: ms(10_000)) == [.highlight(1), .paused])
    }

    @Test("Settings outside their ranges are named")
    func settingsProblems() {
        #expect(ScanSettings().problem == nil)
        #expect(ScanSettings(interval: ms(299)).problem != nil)
        #expect(ScanSettings(interval: ms(10_001)).problem != nil)
        #expect(ScanSettings(loops: 0).problem != nil)
        #expect(ScanSettings(debounce: ms(-1)).problem != nil)
        #expect(ScanSettings(longPress: ms(3_000)).problem != nil)
    }

    @Test("A switch: a short press picks at its release, a long press goes back, 3 s is the emergency stop")
    func switchActions() {
        var recognizer = PressRecognizer(timings: ScanSettings().press)
        #expect(recognizer.feed(value: 1, at: ms(0)).isEmpty)
        #expect(recognizer.feed(value: 0, at: ms(100)).compactMap(SwitchAction.init) == [.select])
        #expect(recognizer.feed(value: 1, at: ms(200)).isEmpty)
        #expect(recognizer.advance(to: ms(1_000)).compactMap(SwitchAction.init) == [.back])
        #expect(recognizer.advance(to: ms(3_200)).compactMap(SwitchAction.init) == [.emergencyStop])
    }

    @Test("Presses within the debounce time after a release are ignored with their release")
    func debounce() {
        var recognizer = PressRecognizer(timings: ScanSettings(debounce: ms(250)).press)
        #expect(recognizer.feed(value: 1, at: ms(0)).isEmpty)
        #expect(recognizer.feed(value: 0, at: ms(100)) == [.single])
        // A bounce 50 ms later: nothing, and its release neither.
        #expect(recognizer.feed(value: 1, at: ms(150)).isEmpty)
        #expect(recognizer.feed(value: 0, at: ms(170)).isEmpty)
        // A press after the debounce time counts.
        #expect(recognizer.feed(value: 1, at: ms(400)).isEmpty)
        #expect(recognizer.feed(value: 0, at: ms(450)) == [.single])
    }

    @Test("A bounce keeps a pending single of a recogniser with double presses")
    func debounceKeepsPendingSingle() {
        var recognizer = PressRecognizer(timings: PressTimings(debounce: ms(100)))
        _ = recognizer.feed(value: 1, at: ms(0))
        _ = recognizer.feed(value: 0, at: ms(50))
        #expect(recognizer.feed(value: 1, at: ms(80)).isEmpty)
        #expect(recognizer.nextDeadline == ms(350))
        #expect(recognizer.advance(to: ms(350)) == [.single])
        #expect(recognizer.feed(value: 0, at: ms(400)).isEmpty)
        #expect(recognizer.nextDeadline == nil)
    }
}

@Suite("Menus by keys and by switch")
struct MenuPresenterTests {
    private func ms(_ value: Int64) -> Microseconds { Microseconds(value * 1_000) }

    private let screen = MenuScreen(
        title: Announcement("What next?"),
        items: [
            MenuItem(id: "discard", label: "Discard", isDestructive: true), MenuItem(id: "review", label: "Review"),
            MenuItem(id: "save", label: "Save"),
        ])

    @Test("The default is never destructive")
    func defaultNotDestructive() {
        #expect(screen.defaultIndex == 1)
        let allDestructive = MenuScreen(title: Announcement("?"), items: [MenuItem(id: "a", label: "A", isDestructive: true)])
        #expect(allDestructive.defaultIndex == 0)
    }

    @Test("Keys move the highlight around, Return picks it, digits pick directly, Escape goes back")
    func keys() {
        var presenter = MenuPresenter(screen, scanning: nil, at: .zero)
        #expect(presenter.highlighted == 1)
        #expect(presenter.key(.enter).answer == .choose("review"))
        #expect(presenter.key(.down).moved)
        #expect(presenter.key(.down).moved)
        #expect(presenter.highlighted == 0)
        #expect(presenter.key(.up).moved)
        #expect(presenter.highlighted == 2)
        #expect(presenter.key(.character("3")).answer == .choose("save"))
        #expect(presenter.key(.character("9")).answer == nil)
        #expect(presenter.key(.escape).answer == .back)
    }

    @Test("A switch picks what scanning highlights; after the loops a press restarts scanning, it does not pick")
    func switchScanning() {
        let settings = ScanSettings(interval: ms(300), firstItemHold: ms(200), loops: 1)
        var presenter = MenuPresenter(screen, scanning: settings, at: ms(0))
        #expect(presenter.highlighted == 0)
        let moved = presenter.advance(to: ms(500))
        #expect(moved)
        #expect(presenter.highlighted == 1)
        #expect(presenter.switchAction(.select, at: ms(600)).answer == .choose("review"))
        let paused = presenter.advance(to: ms(10_000))
        #expect(paused && presenter.isPaused)
        let resumed = presenter.switchAction(.select, at: ms(10_000))
        #expect(resumed.answer == nil && resumed.moved && presenter.highlighted == 0)
        #expect(presenter.switchAction(.back, at: ms(10_100)).answer == .back)
    }

    @Test("Highlight lines say where the item is and that a destructive one cannot be undone, in words")
    func highlightLines() {
        #expect(screen.highlightLine(0).text == "Discard (1 of 3, cannot be undone)")
        #expect(screen.highlightLine(2).spoken == "Save. 3 of 3.")
        #expect(screen.summaryLine(highlighted: 1).text == "What next? Discard · [Review] · Save")
    }
}

@Suite("Keys from a terminal")
struct KeyDecoderTests {
    @Test("Arrows, Return, Escape, Backspace, Tab and text; an arrow split across reads")
    func decoding() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D\u{1B}[Z".utf8)) == [.up, .down, .right, .left, .backTab])
        #expect(decoder.decode([0x0D, 0x7F, 0x09, 0x20, 0x15]) == [.enter, .backspace, .tab, .space, .clearLine])
        #expect(decoder.decode(Array("ab-1".utf8)) == [.character("a"), .character("b"), .character("-"), .character("1")])
        #expect(decoder.decode([0x1B]) == [.escape])
        #expect(decoder.decode([0x1B, 0x5B]).isEmpty)
        #expect(decoder.decode([0x41]) == [.up])
        #expect(decoder.decode(Array("é".utf8)) == [.character("é")])
        // Control characters and unknown sequences are dropped.
        #expect(decoder.decode([0x01, 0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x07]).isEmpty)
    }
}
