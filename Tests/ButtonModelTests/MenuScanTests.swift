import ButtonModel
import GestureMenu
import GestureModel
import Testing

@Suite("The on-screen menu scanned with one switch")
struct MenuScanTests {
    private func ms(_ value: Int64) -> Microseconds { Microseconds(value * 1_000) }
    private let timings = ScanTimings(interval: Microseconds(1_000_000), firstItemHold: Microseconds(700_000), loops: 2)

    @Test("A press opens the menu; the highlight moves by itself with the binding's timings, then pauses until a press")
    func opensAndScans() {
        var scan = MenuScan()
        #expect(!scan.isActive && scan.nextDeadline == nil)
        #expect(scan.press(.select, timings: timings, at: ms(0)) == [.open])
        // A second press before the menu is drawn does not open it twice.
        #expect(scan.press(.select, timings: timings, at: ms(10)).isEmpty)
        #expect(scan.opened(items: 3, at: ms(50)) == [.highlight(0)])
        #expect(scan.nextDeadline == ms(1_750))
        #expect(scan.advance(to: ms(1_750)) == [.highlight(1)])
        #expect(scan.advance(to: ms(7_450)) == [.highlight(2), .highlight(0), .highlight(1), .highlight(2), .pause])
        #expect(scan.nextDeadline == nil, "paused: no timer")
        // Paused, a press starts again at the first item (it picks nothing).
        #expect(scan.press(.select, timings: timings, at: ms(9_000)) == [.highlight(0)])
    }

    @Test("A press picks the highlighted item; a sub-menu is scanned from its first item; a long press goes back, then closes")
    func picksEntersAndGoesBack() {
        var scan = MenuScan()
        _ = scan.press(.select, timings: timings, at: ms(0))
        _ = scan.opened(items: 4, at: ms(0))
        _ = scan.advance(to: ms(1_700))
        #expect(scan.press(.select, timings: timings, at: ms(2_000)) == [.pick(1)])
        #expect(scan.entered(items: 2, at: ms(2_050)) == [.highlight(0)])
        #expect(scan.depth == 2)
        #expect(scan.advance(to: ms(3_750)) == [.highlight(1)])
        #expect(scan.press(.back, timings: timings, at: ms(4_000)) == [.up, .highlight(0)])
        #expect(scan.depth == 1 && scan.nextDeadline == ms(5_700))
        #expect(scan.press(.back, timings: timings, at: ms(4_500)) == [.close])
        #expect(!scan.isActive && scan.nextDeadline == nil)
        // Closed, a long press means nothing.
        #expect(scan.press(.back, timings: timings, at: ms(5_000)).isEmpty)
    }

    @Test("The emergency stop closes an open menu (and nothing when none is open); a menu closed by other means stops scanning")
    func stopAndClosed() {
        var scan = MenuScan()
        #expect(scan.press(.stop, timings: timings, at: ms(0)).isEmpty)
        _ = scan.press(.select, timings: timings, at: ms(0))
        _ = scan.opened(items: 2, at: ms(0))
        _ = scan.entered(items: 2, at: ms(0))
        #expect(scan.press(.stop, timings: timings, at: ms(100)) == [.close])
        #expect(!scan.isActive)
        _ = scan.press(.select, timings: timings, at: ms(200))
        _ = scan.opened(items: 2, at: ms(200))
        scan.closed()
        #expect(!scan.isActive && scan.nextDeadline == nil && scan.advance(to: ms(10_000)).isEmpty)
    }

    @Test("A level whose items change (the saved gestures arrive) is scanned again from its first item, over the new count")
    func itemsChange() {
        var scan = MenuScan()
        #expect(scan.itemsChanged(to: 3, at: ms(0)).isEmpty, "closed: nothing to rescan")
        _ = scan.press(.select, timings: timings, at: ms(0))
        _ = scan.opened(items: 5, at: ms(0))
        _ = scan.entered(items: 1, at: ms(100))
        _ = scan.advance(to: ms(1_800))
        #expect(scan.itemsChanged(to: 3, at: ms(2_000)) == [.highlight(0)])
        #expect(scan.depth == 2)
        #expect(scan.advance(to: ms(3_700)) == [.highlight(1)])
        #expect(scan.advance(to: ms(4_700)) == [.highlight(2)])
    }

    @Test("The timings are the binding's at the press that opened the menu")
    func timingsFromTheEvent() {
        var scan = MenuScan()
        let fast = ScanTimings(interval: Microseconds(300_000), firstItemHold: .zero, loops: 2)
        _ = scan.press(.select, timings: fast, at: ms(0))
        _ = scan.opened(items: 2, at: ms(0))
        #expect(scan.nextDeadline == ms(300))
        #expect(scan.timings == fast)
        #expect(MenuScan.timings(intervalMilliseconds: 300, firstItemHoldMilliseconds: 0) == fast)
        // Out of bounds (a daemon that should not say so): kept within them.
        #expect(MenuScan.timings(intervalMilliseconds: 1, firstItemHoldMilliseconds: -5) == fast)
        #expect(MenuScan.timings(intervalMilliseconds: 1 << 40, firstItemHoldMilliseconds: 1 << 40).interval == Microseconds(10_000_000))
    }

    @Test("The event's words: single and double pick, long goes back, emergency-stop stops; others are not known")
    func eventWords() {
        #expect(MenuScan.Press(event: "single") == .select)
        #expect(MenuScan.Press(event: "double") == .select)
        #expect(MenuScan.Press(event: "long") == .back)
        #expect(MenuScan.Press(event: "emergency-stop") == .stop)
        #expect(MenuScan.Press(event: "triple") == nil)
    }
}
