import GestureEditing
import Glibc
import GestureEngine
import GestureModel
import GesturePlayback
import InputSystem
import Testing
import TestSupport

/// The built-in touchscreen's surface: 0…21600 × 0…13500 at 100 units/mm (216 × 135 mm).
private let screen = LiveTouchFrames.surface(of: VirtualDeviceProfile.touchscreen())

private func event(_ type: EventType, _ code: EventCode, _ value: Int32, at time: Int64 = 0) -> InputEvent {
    InputEvent(time: Microseconds(time), type: type, code: code, value: value)
}

/// Feeds one frame (the events, then SYN_REPORT) and returns the change it made.
@discardableResult
private func frame(
    _ model: inout FingertipsModel, _ events: [(EventType, EventCode, Int32)], at time: Int64 = 0
) -> FingertipsChange? {
    var change: FingertipsChange?
    for (type, code, value) in events {
        if let made = model.feed(event(type, code, value, at: time)) { change = made }
    }
    if let made = model.feed(.synchronizationReport(time: Microseconds(time))) { change = made }
    return change
}

private func xs(_ change: FingertipsChange?) -> [Int] { change?.positions.map(\.x) ?? [] }

@Suite("Live fingertips: the model")
struct FingertipsModelTests {
    private func model(
        _ source: InputDeviceDescription, count: Int = 3, layout: FingerLayout = .row, speed: Double = 1,
        absolute: Bool = false, idle: Microseconds? = FingertipsOptions.defaultIdle
    ) throws -> FingertipsModel {
        try FingertipsModel(
            options: FingertipsOptions(count: count, layout: layout, speed: speed, absolute: absolute, idle: idle),
            source: source, target: screen, start: .zero)
    }

    @Test("A row puts the fingertips --spacing mm apart around the centre; an arc is the fingers command's arc")
    func layouts() throws {
        let row = try model(TestDevices.mouse, count: 3).current
        #expect(!row.isDown)
        #expect(row.positions.map(\.x) == [10_800 - 1_800, 10_800, 10_800 + 1_800])
        #expect(row.positions.map(\.y) == [6_750, 6_750, 6_750])
        let arc = try model(TestDevices.mouse, count: 4, layout: .arc).current
        let offsets = FingerLayout.arc.offsetsMM(count: 4, spacingMM: GestureEditor.defaultFingerSpacingMM)
        #expect(arc.positions.map(\.x) == offsets.map { 10_800 + Int(($0.x * 100).rounded()) })
        #expect(arc.positions.map(\.y) == offsets.map { 6_750 + Int(($0.y * 100).rounded()) })
        #expect(arc.positions[1].y < arc.positions[0].y)  // the middle fingers are highest
    }

    @Test("A pointer's motion moves the fingertips, scaled by --speed; its button held puts them down")
    func pointer() throws {
        var tips = try model(TestDevices.mouse)
        // 192 counts are a tenth of 1920: a tenth of the 216 mm width.
        let moved = frame(&tips, [(.relative, .relativeX, 192), (.relative, .relativeY, -96)], at: 1_000)
        #expect(moved?.isDown == false)
        #expect(xs(moved) == [11_160, 12_960, 14_760])
        #expect(moved?.positions[0].y == 6_750 - 1_080)
        #expect(moved?.contacts.isEmpty == true)
        let down = frame(&tips, [(.key, .buttonLeft, 1)], at: 2_000)
        #expect(down?.isDown == true)
        #expect(down?.contacts.count == 3)
        #expect(frame(&tips, [(.key, .buttonLeft, 2)], at: 2_500) == nil)  // autorepeat: still held, nothing new
        let dragged = frame(&tips, [(.relative, .relativeX, -192)], at: 3_000)
        #expect(dragged?.isDown == true)
        #expect(xs(dragged) == [9_000, 10_800, 12_600])
        #expect(frame(&tips, [(.key, .buttonLeft, 0)], at: 4_000)?.isDown == false)

        var fast = try model(TestDevices.mouse, speed: 2)
        #expect(xs(frame(&fast, [(.relative, .relativeX, 192)])) == [13_320, 15_120, 16_920])  // 43.2 mm
    }

    @Test("A click is an N-finger tap: down in one frame, up in the next, where the pointer is")
    func click() throws {
        var tips = try model(TestDevices.mouse, count: 4)
        let down = frame(&tips, [(.key, .buttonLeft, 1)], at: 1_000)
        let up = frame(&tips, [(.key, .buttonLeft, 0)], at: 80_000)
        #expect(down?.contacts.count == 4)
        #expect(up?.isDown == false)
        #expect(up?.contacts.isEmpty == true)
    }

    @Test("Fingertips stay on the surface: the centre and each fingertip clamp to the edge")
    func clamping() throws {
        var tips = try model(TestDevices.mouse)
        let far = frame(&tips, [(.relative, .relativeX, -100_000), (.relative, .relativeY, 100_000)])
        #expect(xs(far) == [0, 0, 1_800])
        #expect(far?.positions.map(\.y) == [13_500, 13_500, 13_500])
        // Coming back starts from the edge, not from far beyond it.
        #expect(xs(frame(&tips, [(.relative, .relativeX, 192)])) == [360, 2_160, 3_960])
    }

    @Test("On a touchscreen the first contact drives every fingertip; a tap is an N-finger tap")
    func touchscreen() throws {
        var tips = try model(TestDevices.touchscreen)
        let down = frame(
            &tips,
            [(.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, 7), (.absolute, .multitouchPositionX, 5_000),
             (.absolute, .multitouchPositionY, 4_000), (.key, .buttonTouch, 1)], at: 1_000)
        #expect(down?.isDown == true)
        #expect(xs(down) == [3_200, 5_000, 6_800])
        #expect(down?.positions[1].y == 4_000)
        let moved = frame(&tips, [(.absolute, .multitouchPositionX, 6_000)], at: 2_000)
        #expect(xs(moved) == [4_200, 6_000, 7_800])
        let up = frame(&tips, [(.absolute, .multitouchTrackingID, -1), (.key, .buttonTouch, 0)], at: 3_000)
        #expect(up?.isDown == false)
        #expect(tips.takeNotices().isEmpty)
    }

    @Test("Further contacts on a touchscreen are ignored, and said so once")
    func extraContacts() throws {
        var tips = try model(TestDevices.touchscreen)
        frame(&tips, [(.absolute, .multitouchTrackingID, 1), (.absolute, .multitouchPositionX, 5_000), (.absolute, .multitouchPositionY, 4_000)])
        let second = frame(
            &tips, [(.absolute, .multitouchSlot, 1), (.absolute, .multitouchTrackingID, 2), (.absolute, .multitouchPositionX, 15_000),
                    (.absolute, .multitouchPositionY, 9_000)])
        #expect(second == nil)  // the fingertips did not move
        #expect(tips.takeNotices() == [.extraContactsIgnored])
        // The ignored contact moving moves nothing; the driver lifting lifts all,
        // though the other still touches; and it never takes over.
        #expect(frame(&tips, [(.absolute, .multitouchPositionX, 16_000)]) == nil)
        let lifted = frame(&tips, [(.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, -1)])
        #expect(lifted?.isDown == false)
        #expect(frame(&tips, [(.absolute, .multitouchSlot, 1), (.absolute, .multitouchPositionX, 17_000)]) == nil)
        // A third contact, and a second extra one, tell nothing more.
        frame(&tips, [(.absolute, .multitouchSlot, 2), (.absolute, .multitouchTrackingID, 3), (.absolute, .multitouchPositionX, 1_000),
                      (.absolute, .multitouchPositionY, 1_000)])
        frame(&tips, [(.absolute, .multitouchSlot, 3), (.absolute, .multitouchTrackingID, 4), (.absolute, .multitouchPositionX, 2_000),
                      (.absolute, .multitouchPositionY, 1_000)])
        #expect(tips.current.isDown)
        #expect(tips.current.positions[1].x == 1_000)
        #expect(tips.takeNotices().isEmpty)
    }

    @Test("A touchpad is relative by default (its motion moves, its button touches); --absolute maps its surface")
    func touchpad() throws {
        var relative = try model(TestDevices.touchpad)
        let landed = frame(
            &relative, [(.absolute, .multitouchTrackingID, 1), (.absolute, .multitouchPositionX, 100),
                        (.absolute, .multitouchPositionY, 100), (.key, .buttonTouch, 1)])
        #expect(landed == nil)  // landing moves nothing and touches nothing
        // 120 units are 10 mm of a 100 mm pad: 21.6 mm of the 216 mm target.
        let moved = frame(&relative, [(.absolute, .multitouchPositionX, 220)])
        #expect(xs(moved) == [11_160, 12_960, 14_760])
        #expect(moved?.isDown == false)
        #expect(frame(&relative, [(.key, .buttonLeft, 1)])?.isDown == true)

        var absolute = try model(TestDevices.touchpad, absolute: true)
        let touched = frame(
            &absolute, [(.absolute, .multitouchTrackingID, 1), (.absolute, .multitouchPositionX, 600),
                        (.absolute, .multitouchPositionY, 200), (.key, .buttonTouch, 1)])
        #expect(touched?.isDown == true)
        #expect(touched?.positions[1].x == 10_800)
        #expect(touched?.positions[1].y == 3_375)
    }

    @Test("A pen moves the fingertips and its tip touches; --absolute puts them where it points")
    func tablet() throws {
        var relative = try model(TestDevices.pen)
        frame(&relative, [(.key, .buttonToolPen, 1), (.absolute, .absoluteX, 1_000), (.absolute, .absoluteY, 1_000)])
        // 1520 units are a tenth of the 152 mm tablet: a tenth of the target.
        let moved = frame(&relative, [(.absolute, .absoluteX, 2_520)])
        #expect(xs(moved)[1] == 12_960)
        #expect(frame(&relative, [(.key, .buttonTouch, 1)])?.isDown == true)
        #expect(frame(&relative, [(.key, .buttonTouch, 0)])?.isDown == false)
        // Out of proximity and back elsewhere: no jump.
        frame(&relative, [(.key, .buttonToolPen, 0)])
        frame(&relative, [(.key, .buttonToolPen, 1), (.absolute, .absoluteX, 9_000)])
        #expect(relative.current.positions[1].x == 12_960)

        var absolute = try model(TestDevices.pen, absolute: true)
        let pointed = frame(&absolute, [(.key, .buttonToolPen, 1), (.absolute, .absoluteX, 7_600), (.absolute, .absoluteY, 9_500)])
        #expect(pointed?.isDown == false)
        #expect(pointed?.positions[1].x == 10_800)
        #expect(pointed?.positions[1].y == 13_500)
    }

    @Test("The idle time counts from the last input while the fingertips are up; 0 (nil) is never")
    func idle() throws {
        var tips = try model(TestDevices.mouse, idle: Microseconds(5_000_000))
        #expect(tips.idleDeadline == Microseconds(5_000_000))
        frame(&tips, [(.relative, .relativeX, 1)], at: 1_000_000)
        #expect(tips.idleDeadline == Microseconds(6_000_000))
        frame(&tips, [(.key, .buttonLeft, 1)], at: 2_000_000)
        #expect(tips.idleDeadline == nil)  // never while they touch
        frame(&tips, [(.key, .buttonLeft, 0)], at: 9_000_000)
        #expect(tips.idleDeadline == Microseconds(14_000_000))
        #expect(try model(TestDevices.mouse, idle: nil).idleDeadline == nil)
    }

    @Test("Refused: a keyboard source, a count outside 2…10, a bad speed, a target with too few slots")
    func refusals() throws {
        #expect(throws: FingertipsError.self) { try model(TestDevices.keyboard) }
        do {
            _ = try model(TestDevices.keyboard)
        } catch {
            #expect("\(error)".contains("fingertips follow a touchscreen, touchpad, tablet or mouse"))
        }
        #expect(throws: FingertipsError.self) { try model(TestDevices.mouse, count: 1) }
        #expect(throws: FingertipsError.self) { try model(TestDevices.mouse, count: 11) }
        #expect(throws: FingertipsError.self) { try model(TestDevices.mouse, speed: 0) }
        var small = screen
        small.slots = 2
        #expect(throws: FingertipsError.self) {
            try FingertipsModel(options: FingertipsOptions(count: 3), source: TestDevices.mouse, target: small, start: .zero)
        }
    }

    /// The positions of a 3-fingertip row (spacing 18 mm) around the
    /// screen's middle, turned clockwise (on the surface) by `degrees` and
    /// spread by `scale`, in the screen's units (100 a mm).
    private func turnedRow(degrees: Double, scale: Double = 1, centre: (x: Double, y: Double) = (108, 67.5)) -> [(x: Int, y: Int)] {
        let angle = degrees * Double.pi / 180
        return [-18.0, 0, 18].map { offset in
            (Int(((centre.x + scale * offset * cos(angle)) * 100).rounded()),
             Int(((centre.y + scale * offset * sin(angle)) * 100).rounded()))
        }
    }

    private func near(_ change: FingertipsChange?, _ expected: [(x: Int, y: Int)], within: Int = 2) -> Bool {
        guard let positions = change?.positions, positions.count == expected.count else { return false }
        return zip(positions, expected).allSatisfy { abs($0.x - $1.x) <= within && abs($0.y - $1.y) <= within }
    }

    @Test("Turn mode: the secondary button holds the centre still; a drag along an arc around it turns every fingertip by the handle's angle")
    func turnAlongAnArc() throws {
        var tips = try model(TestDevices.mouse)
        let down = frame(&tips, [(.key, .buttonRight, 1)], at: 1_000)
        #expect(down?.isDown == true)
        #expect(tips.isTurning)
        #expect(xs(down) == [9_000, 10_800, 12_600])  // touches where the layout is
        // The handle starts 18 mm right of the centre (the rightmost
        // fingertip; 160 counts are 18 mm). A quarter of an arc clockwise on
        // the screen, in three frames: 45° after the first, 90° at the end.
        let half = frame(&tips, [(.relative, .relativeX, -47), (.relative, .relativeY, 113)], at: 2_000)
        #expect(near(half, turnedRow(degrees: 45, scale: hypot(18 - 47 * 0.1125, 113 * 0.1125) / 18)))
        frame(&tips, [(.relative, .relativeX, -60), (.relative, .relativeY, 40)], at: 3_000)
        let quarter = frame(&tips, [(.relative, .relativeX, -53), (.relative, .relativeY, 7)], at: 4_000)
        #expect(near(quarter, turnedRow(degrees: 90)))
        #expect(quarter?.positions[2].y == 6_750 + 1_800)  // the rightmost went down to below the centre
        #expect(quarter?.centre.x == 10_800 && quarter?.centre.y == 6_750)  // the centre stayed
        // Back the other way, past the start: anticlockwise.
        let back = frame(&tips, [(.relative, .relativeX, 160 + 113), (.relative, .relativeY, -160 - 113)], at: 5_000)
        let angle = atan2(-113 * 0.1125, 18 + 113 * 0.1125) * 180 / Double.pi
        #expect(near(back, turnedRow(degrees: angle, scale: hypot(18 + 113 * 0.1125, 113 * 0.1125) / 18)))
        // Lifting ends turn mode; the layout comes back, where the centre is.
        let up = frame(&tips, [(.key, .buttonRight, 0)], at: 6_000)
        #expect(up?.isDown == false)
        #expect(!tips.isTurning)
        #expect(xs(up) == [9_000, 10_800, 12_600])
        #expect(up?.positions.map(\.y) == [6_750, 6_750, 6_750])
    }

    @Test("Turn mode: dragging the handle away from or towards the centre spreads or gathers the fingertips")
    func turnSpreads() throws {
        var tips = try model(TestDevices.mouse)
        frame(&tips, [(.key, .buttonMiddle, 1)])  // the middle button turns too
        #expect(tips.isTurning)
        let out = frame(&tips, [(.relative, .relativeX, 160)])
        #expect(xs(out) == [10_800 - 3_600, 10_800, 10_800 + 3_600])  // twice the spread
        let gathered = frame(&tips, [(.relative, .relativeX, -240)])
        #expect(xs(gathered) == [10_800 - 900, 10_800, 10_800 + 900])  // half
        #expect(gathered?.positions.map(\.y) == [6_750, 6_750, 6_750])
    }

    @Test("Turn mode's limits: never closer than 8 mm, at most 4×, never off the surface; the handle never crosses the centre")
    func turnLimits() throws {
        var tips = try model(TestDevices.mouse)
        frame(&tips, [(.key, .buttonRight, 1)])
        // Towards the centre, nearly onto it: neighbours stay 8 mm apart.
        let gathered = frame(&tips, [(.relative, .relativeX, -150)])
        #expect(xs(gathered) == [10_800 - 800, 10_800, 10_800 + 800])
        // Further: still 8 mm, no flip to the other side.
        #expect(frame(&tips, [(.relative, .relativeX, -100)]) == nil)
        // Back out acts at once (the handle waited at the limit).
        #expect(xs(frame(&tips, [(.relative, .relativeX, 160)])) == [10_800 - 2_600, 10_800, 10_800 + 2_600])
        // Far out: four times the layout at most.
        #expect(xs(frame(&tips, [(.relative, .relativeX, 5_000)])) == [10_800 - 7_200, 10_800, 10_800 + 7_200])
        frame(&tips, [(.key, .buttonRight, 0)])

        // Near the right edge (200 of 216 mm): spreading stops at the edge.
        frame(&tips, [(.relative, .relativeX, 818)])  // 92.025 mm right: the centre at 200.025 mm
        frame(&tips, [(.key, .buttonRight, 1)])
        let spread = frame(&tips, [(.relative, .relativeX, 160)])
        #expect(spread?.positions[2].x == 21_600)
        #expect(abs((spread?.positions[0].x ?? 0) - 18_405) <= 2)  // as far left as the right one went right
        // Turning there shrinks the spread to stay on the surface.
        let turned = frame(&tips, [(.relative, .relativeX, -200), (.relative, .relativeY, 160)])
        #expect(turned.map { $0.positions.allSatisfy { $0.x <= 21_600 } } == true)
        #expect(abs(tips.current.centre.x - 20_002) <= 1)
    }

    @Test("Turn mode leaves the primary button alone, and a click of the secondary is an N-finger tap")
    func turnPrimaryAndClick() throws {
        var tips = try model(TestDevices.mouse, count: 4)
        let pressed = frame(&tips, [(.key, .buttonLeft, 1)])
        #expect(!tips.isTurning)
        // The right button while the left holds them down changes nothing: they move.
        frame(&tips, [(.key, .buttonRight, 1)])
        let dragged = frame(&tips, [(.relative, .relativeX, 192)])
        #expect(!tips.isTurning)
        #expect(xs(dragged) == xs(pressed).map { $0 + 2_160 })
        frame(&tips, [(.key, .buttonLeft, 0), (.key, .buttonRight, 0)])

        let down = frame(&tips, [(.key, .buttonRight, 1)], at: 1_000)
        let up = frame(&tips, [(.key, .buttonRight, 0)], at: 80_000)
        #expect(down?.contacts.count == 4)
        #expect(xs(down) == xs(dragged))
        #expect(up?.isDown == false)
        #expect(up?.contacts.isEmpty == true)
    }

    @Test("Turn mode from a touchpad (its right button, or a click with two fingers) and a pen (its tip with a side button)")
    func turnOtherSources() throws {
        var pad = try model(TestDevices.touchpad)
        frame(&pad, [(.absolute, .multitouchTrackingID, 1), (.absolute, .multitouchPositionX, 100), (.absolute, .multitouchPositionY, 100)])
        frame(&pad, [(.absolute, .multitouchSlot, 1), (.absolute, .multitouchTrackingID, 2), (.absolute, .multitouchPositionX, 900),
                     (.absolute, .multitouchPositionY, 100)])
        #expect(pad.takeNotices().isEmpty)  // a second finger is expected here
        let clicked = frame(&pad, [(.key, .buttonLeft, 1)])
        #expect(clicked?.isDown == true)
        #expect(pad.isTurning)
        // The first finger's motion drags the handle: 90 units are 7.5 mm
        // of the pad, 16.2 mm of the screen, right from 18 mm: 34.2 mm.
        let spread = frame(&pad, [(.absolute, .multitouchSlot, 0), (.absolute, .multitouchPositionX, 190)])
        #expect(xs(spread) == [10_800 - 3_420, 10_800, 10_800 + 3_420])
        frame(&pad, [(.key, .buttonLeft, 0)])
        #expect(!pad.isTurning)
        frame(&pad, [(.absolute, .multitouchSlot, 1), (.absolute, .multitouchTrackingID, -1)])
        frame(&pad, [(.key, .buttonLeft, 1)])
        #expect(!pad.isTurning)  // one finger: the click moves
        frame(&pad, [(.key, .buttonLeft, 0)])
        frame(&pad, [(.key, .buttonRight, 1)])
        #expect(pad.isTurning)

        var pen = try model(TestDevices.pen)
        frame(&pen, [(.key, .buttonToolPen, 1), (.absolute, .absoluteX, 1_000), (.absolute, .absoluteY, 1_000)])
        frame(&pen, [(.key, .buttonTouch, 1)])
        #expect(pen.current.isDown && !pen.isTurning)
        frame(&pen, [(.key, .buttonTouch, 0)])
        frame(&pen, [(.key, .buttonStylus, 1)])
        frame(&pen, [(.key, .buttonTouch, 1)])
        #expect(pen.isTurning)

        var absolute = try model(TestDevices.touchpad, absolute: true)
        frame(&absolute, [(.key, .buttonRight, 1), (.absolute, .multitouchTrackingID, 1), (.absolute, .multitouchPositionX, 100),
                          (.absolute, .multitouchPositionY, 100)])
        #expect(absolute.current.isDown && !absolute.isTurning)  // --absolute: no turn
    }

    @Test("Each source kind says what to do in its ready line")
    func readyLines() {
        #expect(FingertipsSourceKind.pointer.readyLine(count: 3, absolute: false)
            == "3 fingertips ready: move the pointer, hold the button to touch.")
        #expect(FingertipsSourceKind.touchscreen.readyLine(count: 2, absolute: false).hasPrefix("2 fingertips ready: touch the screen"))
    }
}
