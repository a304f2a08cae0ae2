import ButtonModel
import Testing

private let screen = ScreenSize(width: 1280, height: 720)
private let ms: Int64 = 1000

private func machine(_ configure: (inout ButtonSettings) -> Void = { _ in }) -> ButtonMachine {
    var settings = ButtonSettings()
    configure(&settings)
    return ButtonMachine(settings: settings, screen: screen, position: .initial, now: 0)
}

/// The centre of the button where `machine` has it.
private func centre(_ machine: ButtonMachine) -> ScreenPoint {
    let half = Double(machine.settings.size) / 2
    return ScreenPoint(x: machine.origin.x + half, y: machine.origin.y + half)
}

private func performed(_ outputs: [ButtonOutput]) -> [ButtonOutput] {
    outputs.filter { if case .perform = $0 { true } else { false } }
}

@Suite struct Placement {
    @Test func startsOnTheRightEdgeHalfWayDown() {
        let button = machine()
        #expect(button.origin == ScreenPoint(x: 1280 - 60 - 4, y: 330))
        #expect(button.position == EdgePosition(edge: .right, fraction: 0.5))
    }

    @Test func originOnEveryEdge() {
        let size = 60
        #expect(EdgePosition(edge: .left, fraction: 0).origin(size: size, screen: screen, gap: 4) == ScreenPoint(x: 4, y: 0))
        #expect(EdgePosition(edge: .bottom, fraction: 1).origin(size: size, screen: screen, gap: 4) == ScreenPoint(x: 1220, y: 656))
        #expect(EdgePosition(edge: .top, fraction: 0.5).origin(size: size, screen: screen, gap: 4) == ScreenPoint(x: 610, y: 4))
    }

    @Test func nearestEdgeOfTheCentre() {
        #expect(EdgePosition.nearest(toOrigin: ScreenPoint(x: 100, y: 330), size: 60, screen: screen).edge == .left)
        #expect(EdgePosition.nearest(toOrigin: ScreenPoint(x: 600, y: 20), size: 60, screen: screen).edge == .top)
        #expect(EdgePosition.nearest(toOrigin: ScreenPoint(x: 600, y: 640), size: 60, screen: screen).edge == .bottom)
        #expect(EdgePosition.nearest(toOrigin: ScreenPoint(x: 1100, y: 300), size: 60, screen: screen).edge == .right)
    }

    @Test func fractionSurvivesAnotherMonitorSize() {
        let position = EdgePosition.nearest(toOrigin: ScreenPoint(x: 1216, y: 165), size: 60, screen: screen)
        #expect(position.edge == .right)
        #expect(abs(position.fraction - 0.25) < 0.001)
        let bigger = position.origin(size: 60, screen: ScreenSize(width: 1920, height: 1080), gap: 4)
        #expect(bigger == ScreenPoint(x: 1856, y: 255))
    }

    @Test func fractionIsClampedAndNaNIsTheMiddle() {
        #expect(EdgePosition(edge: .top, fraction: 7).fraction == 1)
        #expect(EdgePosition(edge: .top, fraction: -1).fraction == 0)
        #expect(EdgePosition(edge: .top, fraction: .nan).fraction == 0.5)
    }

    @Test func screenSmallerThanTheButtonDoesNotTrap() {
        let tiny = ScreenSize(width: 30, height: 20)
        for edge in ScreenEdge.allCases {
            let origin = EdgePosition(edge: edge, fraction: 0.5).origin(size: 60, screen: tiny, gap: 4)
            #expect(origin.x >= 0 && origin.y >= 0)
        }
        _ = EdgePosition.nearest(toOrigin: ScreenPoint(x: 0, y: 0), size: 60, screen: tiny)
    }
}

@Suite struct Dragging {
    @Test func smallMovesAreStillATap() {
        var button = machine()
        let start = centre(button)
        _ = button.handle(.pointerDown(start, at: 0))
        #expect(button.handle(.pointerMove(ScreenPoint(x: start.x - 5, y: start.y + 3), at: 50 * ms)).isEmpty)
        let outputs = button.handle(.pointerUp(ScreenPoint(x: start.x - 5, y: start.y + 3), at: 100 * ms))
        #expect(performed(outputs) == [.perform(.menu, .singleTap)])
    }

    @Test func dragFollowsThePointerAndSnapsToTheNearestEdge() {
        var button = machine()
        let start = centre(button)
        _ = button.handle(.pointerDown(start, at: 0))
        let moved = button.handle(.pointerMove(ScreenPoint(x: 200, y: 500), at: 100 * ms))
        #expect(moved.contains(.move(origin: ScreenPoint(x: 170, y: 470))))
        #expect(button.isDragging)
        let released = button.handle(.pointerUp(ScreenPoint(x: 200, y: 500), at: 200 * ms))
        let position = EdgePosition(edge: .left, fraction: 470.0 / 660.0)
        #expect(released.contains(.place(position, origin: ScreenPoint(x: 4, y: 470))))
        #expect(released.contains(.save(position)))
        #expect(performed(released).isEmpty)
        #expect(button.position == position)
    }

    @Test func dragIsKeptOnTheScreen() {
        var button = machine()
        let start = centre(button)
        _ = button.handle(.pointerDown(start, at: 0))
        let moved = button.handle(.pointerMove(ScreenPoint(x: 5000, y: -300), at: 100 * ms))
        #expect(moved.contains(.move(origin: ScreenPoint(x: 1220, y: 0))))
    }

    @Test func cancelledDragStillSnaps() {
        var button = machine()
        _ = button.handle(.pointerDown(centre(button), at: 0))
        _ = button.handle(.pointerMove(ScreenPoint(x: 640, y: 40), at: 50 * ms))
        let outputs = button.handle(.pointerCancel(at: 60 * ms))
        #expect(outputs.contains { if case .save(let p) = $0 { p.edge == .top } else { false } })
    }

    @Test func screenChangeKeepsTheEdgeAndFraction() {
        var button = machine()
        let outputs = button.handle(.screenChanged(ScreenSize(width: 800, height: 600), at: 0))
        #expect(outputs == [.place(.initial, origin: ScreenPoint(x: 736, y: 270))])
    }
}

@Suite struct Taps {
    @Test func tapOpensTheMenuAtOnceWhenDoubleTapDoesNothing() {
        var button = machine()
        _ = button.handle(.pointerDown(centre(button), at: 0))
        let outputs = button.handle(.pointerUp(centre(button), at: 120 * ms))
        #expect(performed(outputs) == [.perform(.menu, .singleTap)])
        #expect(button.menuIsOpen)
    }

    @Test func withADoubleTapActionATapWaitsForTheTimeout() {
        var button = machine { $0.doubleTapAction = .menu; $0.singleTapAction = .menu }
        _ = button.handle(.pointerDown(centre(button), at: 0))
        #expect(performed(button.handle(.pointerUp(centre(button), at: 100 * ms))).isEmpty)
        let wake = button.nextWake(after: 100 * ms)
        #expect(wake == 100 * ms + 300 * ms + 1)
        #expect(performed(button.handle(.tick(at: 399 * ms))).isEmpty)
        #expect(performed(button.handle(.tick(at: 401 * ms))) == [.perform(.menu, .singleTap)])
    }

    @Test func doubleTapWithinTheTimeout() {
        var button = machine { $0.doubleTapAction = .menu; $0.singleTapAction = .none }
        let point = centre(button)
        _ = button.handle(.pointerDown(point, at: 0))
        _ = button.handle(.pointerUp(point, at: 80 * ms))
        _ = button.handle(.pointerDown(point, at: 300 * ms))
        let outputs = button.handle(.pointerUp(point, at: 380 * ms))
        #expect(performed(outputs) == [.perform(.menu, .doubleTap)])
        #expect(performed(button.handle(.tick(at: 1000 * ms))).isEmpty)
    }

    @Test func secondTapTooLateIsTwoSingleTaps() {
        var button = machine { $0.doubleTapAction = .menu; $0.singleTapAction = .menu }
        let point = centre(button)
        _ = button.handle(.pointerDown(point, at: 0))
        _ = button.handle(.pointerUp(point, at: 80 * ms))
        // No tick came (a busy main loop): the late press settles the first tap.
        let outputs = button.handle(.pointerDown(point, at: 500 * ms))
        #expect(performed(outputs) == [.perform(.menu, .singleTap)])
    }

    @Test func longPressActsWhileHeld() {
        var button = machine { $0.longPressAction = .menu }
        let point = centre(button)
        _ = button.handle(.pointerDown(point, at: 0))
        #expect(button.nextWake(after: 10 * ms) == 800 * ms)
        #expect(performed(button.handle(.tick(at: 799 * ms))).isEmpty)
        #expect(performed(button.handle(.tick(at: 800 * ms))) == [.perform(.menu, .longPress)])
        // Releasing after it is not a tap too, and moving after it is not a drag.
        #expect(button.handle(.pointerMove(ScreenPoint(x: point.x - 40, y: point.y), at: 900 * ms)).isEmpty)
        #expect(performed(button.handle(.pointerUp(point, at: 1000 * ms))).isEmpty)
    }

    @Test func longHoldWithoutAnActionIsNotATap() {
        var button = machine()
        _ = button.handle(.pointerDown(centre(button), at: 0))
        #expect(performed(button.handle(.pointerUp(centre(button), at: 900 * ms))).isEmpty)
    }

    @Test func keyboardActivationIsASingleTap() {
        var button = machine()
        #expect(performed(button.handle(.activate(at: 0))) == [.perform(.menu, .singleTap)])
    }

    @Test("Custom Actions: each way of pressing does its own action")
    func eachGestureItsOwnAction() {
        var button = machine {
            $0.singleTapAction = .press("screenshot")
            $0.doubleTapAction = .play("swipe")
            $0.longPressAction = .press("KEY_PLAYPAUSE")
        }
        let point = centre(button)
        _ = button.handle(.pointerDown(point, at: 0))
        _ = button.handle(.pointerUp(point, at: 50 * ms))
        #expect(performed(button.handle(.tick(at: 351 * ms))) == [.perform(.press("screenshot"), .singleTap)])
        #expect(!button.menuIsOpen, "only the menu action opens the menu")
        _ = button.handle(.pointerDown(point, at: 1000 * ms))
        _ = button.handle(.pointerUp(point, at: 1050 * ms))
        _ = button.handle(.pointerDown(point, at: 1200 * ms))
        #expect(performed(button.handle(.pointerUp(point, at: 1250 * ms))) == [.perform(.play("swipe"), .doubleTap)])
        _ = button.handle(.pointerDown(point, at: 3000 * ms))
        #expect(performed(button.handle(.tick(at: 3800 * ms))) == [.perform(.press("KEY_PLAYPAUSE"), .longPress)])
    }

    @Test("Busy, a tap or Return stops the play whatever the actions: at once, with no long press")
    func busyTapStops() {
        var button = machine { $0.singleTapAction = .none; $0.doubleTapAction = .press("mute"); $0.longPressAction = .menu }
        let point = centre(button)
        _ = button.handle(.busy(true, at: 0))
        #expect(button.isBusy)
        _ = button.handle(.pointerDown(point, at: 10 * ms))
        #expect(button.nextWake(after: 20 * ms) == nil || button.nextWake(after: 20 * ms)! > 810 * ms, "no long press while busy")
        #expect(performed(button.handle(.tick(at: 900 * ms))).isEmpty)
        #expect(button.handle(.pointerUp(point, at: 950 * ms)).contains(.stop))
        #expect(button.handle(.activate(at: 1000 * ms)).contains(.stop))
        // A drag still moves it.
        _ = button.handle(.pointerDown(point, at: 1100 * ms))
        _ = button.handle(.pointerMove(ScreenPoint(x: 300, y: 300), at: 1150 * ms))
        #expect(!button.handle(.pointerUp(ScreenPoint(x: 300, y: 300), at: 1200 * ms)).contains(.stop))
        _ = button.handle(.busy(false, at: 2000 * ms))
        _ = button.handle(.pointerDown(centre(button), at: 3000 * ms))
        #expect(!button.handle(.pointerUp(centre(button), at: 3050 * ms)).contains(.stop))
    }
}

@Suite struct Fading {
    @Test func fadesAfterIdleSecondsAndThenSleeps() {
        var button = machine()
        #expect(button.opacity == 1)
        #expect(button.nextWake(after: 0) == 3_000_000)
        _ = button.handle(.tick(at: 3_000_000))
        #expect(button.nextWake(after: 3_000_000) == 3_033_000)
        let half = button.handle(.tick(at: 3_150_000))
        #expect(half == [.opacity(0.7)])
        let done = button.handle(.tick(at: 3_300_000))
        #expect(done == [.opacity(0.4)])
        // Faded: no more wake-ups until something happens.
        #expect(button.nextWake(after: 3_300_000) == nil)
    }

    @Test func hoverBringsItBackAndHoldsIt() {
        var button = machine()
        _ = button.handle(.tick(at: 4_000_000))
        #expect(button.opacity == 0.4)
        #expect(button.handle(.hover(true, at: 5_000_000)) == [.opacity(1)])
        #expect(button.nextWake(after: 5_000_000) == nil)
        #expect(button.handle(.tick(at: 20_000_000)).isEmpty)
        _ = button.handle(.hover(false, at: 20_000_000))
        #expect(button.nextWake(after: 20_000_000) == 23_000_000)
    }

    @Test func openMenuKeepsItFullUntilClosed() {
        var button = machine()
        _ = button.handle(.activate(at: 0))
        #expect(button.nextWake(after: 0) == nil)
        _ = button.handle(.menuClosed(at: 1_000_000))
        #expect(button.nextWake(after: 1_000_000) == 4_000_000)
    }

    @Test func idleOpacitySetting() {
        var button = machine { $0.idleOpacity = 0.7; $0.idleMicroseconds = 1_000_000 }
        _ = button.handle(.tick(at: 2_000_000))
        #expect(button.opacity == 0.7)
    }
}
