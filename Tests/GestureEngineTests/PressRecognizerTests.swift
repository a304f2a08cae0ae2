@testable import GestureEngine
import GestureModel
import Testing

@Suite("The press recogniser")
struct PressRecognizerTests {
    private func ms(_ value: Int64) -> Microseconds { Microseconds(value * 1_000) }

    /// Feeds `steps` (a down, an up, or the clock) and collects every
    /// report with the time it came at.
    private enum Step {
        case down(Int64), up(Int64), tick(Int64), repeatEvent(Int64)
        var time: Int64 {
            switch self {
            case .down(let t), .up(let t), .tick(let t), .repeatEvent(let t): t
            }
        }
    }

    private func run(
        _ steps: [Step], timings: PressTimings = PressTimings(), microseconds: Bool = false
    ) -> [(TriggerPress, Int64)] {
        var recognizer = PressRecognizer(timings: timings)
        var reports: [(TriggerPress, Int64)] = []
        for step in steps {
            let time = microseconds ? Microseconds(step.time) : ms(step.time)
            let got: [TriggerPress]
            switch step {
            case .down: got = recognizer.feed(value: 1, at: time)
            case .up: got = recognizer.feed(value: 0, at: time)
            case .repeatEvent: got = recognizer.feed(value: 2, at: time)
            case .tick: got = recognizer.advance(to: time)
            }
            reports += got.map { ($0, step.time) }
        }
        return reports
    }

    private func kinds(_ reports: [(TriggerPress, Int64)]) -> [TriggerPress] { reports.map(\.0) }

    @Test("A short press is a single, reported exactly 300 ms after its release")
    func singleAtTheDoubleInterval() {
        var recognizer = PressRecognizer()
        #expect(recognizer.feed(value: 1, at: ms(1_000)).isEmpty)
        #expect(recognizer.nextDeadline == ms(1_800))
        #expect(recognizer.feed(value: 0, at: ms(1_100)).isEmpty)
        #expect(recognizer.nextDeadline == ms(1_400))
        #expect(recognizer.advance(to: ms(1_400) - Microseconds(1)).isEmpty)
        #expect(recognizer.advance(to: ms(1_400)) == [.single])
        #expect(recognizer.nextDeadline == nil)
        #expect(recognizer.advance(to: ms(10_000)).isEmpty)
    }

    @Test("A second down 1 µs before the double interval ends is a double, reported at that down")
    func doubleJustInside() {
        let reports = run([.down(0), .up(100_000), .down(399_999)], microseconds: true)
        #expect(kinds(reports) == [.double])
        #expect(reports.first?.1 == 399_999)
    }

    @Test("A second down exactly at 300 ms is a single and then a new press")
    func secondDownExactlyAtTheInterval() {
        let reports = run([.down(0), .up(100), .down(400), .up(450), .tick(750)])
        #expect(kinds(reports) == [.single, .single])
        #expect(reports.map(\.1) == [400, 750])
    }

    @Test("A press held exactly 800 ms is long, reported while held; its release reports nothing")
    func longExactlyAtTheLongTime() {
        var recognizer = PressRecognizer()
        #expect(recognizer.feed(value: 1, at: ms(0)).isEmpty)
        #expect(recognizer.advance(to: ms(800) - Microseconds(1)).isEmpty)
        #expect(recognizer.advance(to: ms(800)) == [.long])
        #expect(recognizer.isDown)
        #expect(recognizer.feed(value: 0, at: ms(900)).isEmpty)
        #expect(!recognizer.isDown)
        #expect(recognizer.advance(to: ms(5_000)).isEmpty)
    }

    @Test("A release at exactly 800 ms is long (the deadline comes first), 1 µs earlier is short")
    func releaseAtTheLongTime() {
        #expect(kinds(run([.down(0), .up(800), .tick(2_000)])) == [.long])
        #expect(kinds(run([.down(0), .up(799_999), .tick(2_000_000)], microseconds: true)) == [.single])
    }

    @Test("A release event arriving late still reports the long press first")
    func lateReleaseReportsLong() {
        // No tick between: the up at 1 s is the first the recogniser hears.
        let reports = run([.down(0), .up(1_000)])
        #expect(kinds(reports) == [.long])
    }

    @Test("Held 3 s: long at 800 ms, then the emergency stop at exactly 3 s; the release reports nothing")
    func emergencyStop() {
        var recognizer = PressRecognizer()
        _ = recognizer.feed(value: 1, at: ms(0))
        #expect(recognizer.advance(to: ms(800)) == [.long])
        #expect(recognizer.nextDeadline == ms(3_000))
        #expect(recognizer.advance(to: ms(3_000) - Microseconds(1)).isEmpty)
        #expect(recognizer.advance(to: ms(3_000)) == [.emergencyStop])
        #expect(recognizer.nextDeadline == nil)
        #expect(recognizer.advance(to: ms(60_000)).isEmpty)
        #expect(recognizer.feed(value: 0, at: ms(60_001)).isEmpty)
        #expect(!recognizer.isDown)
    }

    @Test("A clock that jumps past 3 s reports the long press and the emergency stop in order")
    func jumpReportsBoth() {
        #expect(kinds(run([.down(0), .tick(5_000)])) == [.long, .emergencyStop])
    }

    @Test("Double then held: the second press is used up (no long), but 3 s of it is the emergency stop")
    func doubleThenHeld() {
        let reports = run([.down(0), .up(100), .down(200), .tick(1_000), .tick(3_199), .tick(3_200), .up(4_000)])
        #expect(kinds(reports) == [.double, .emergencyStop])
        #expect(reports.map(\.1) == [200, 3_200])
    }

    @Test("A double, then a separate long press")
    func doubleThenLong() {
        let reports = run([.down(0), .up(100), .down(200), .up(300), .down(700), .tick(1_500), .up(1_600)])
        #expect(kinds(reports) == [.double, .long])
        #expect(reports.map(\.1) == [200, 1_500])
    }

    @Test("A second press right after the double's release is a new press")
    func doubleThenQuickPress() {
        // The third down comes 50 ms after the double's release: it starts anew.
        let reports = run([.down(0), .up(100), .down(200), .up(300), .down(350), .up(400), .tick(700)])
        #expect(kinds(reports) == [.double, .single])
        #expect(reports.map(\.1) == [200, 700])
    }

    @Test("A triple press is a double then a single; four presses are two doubles")
    func tripleAndQuadruple() {
        let triple: [Step] = [.down(0), .up(50), .down(150), .up(200), .down(300), .up(350), .tick(2_000)]
        #expect(kinds(run(triple)) == [.double, .single])
        let quadruple: [Step] = [.down(0), .up(50), .down(150), .up(200), .down(300), .up(350), .down(450), .up(500), .tick(2_000)]
        #expect(kinds(run(quadruple)) == [.double, .double])
    }

    @Test("A short press then a long one: the single first, then the long press")
    func singleThenLong() {
        let reports = run([.down(0), .up(100), .down(500), .tick(1_300), .up(1_400)])
        #expect(kinds(reports) == [.single, .long])
        #expect(reports.map(\.1) == [500, 1_300])
    }

    @Test("A long press, released, then a quick press: the long press's release does not start a double")
    func longThenQuickPress() {
        let reports = run([.down(0), .tick(800), .up(900), .down(950), .up(1_000), .tick(1_300)])
        #expect(kinds(reports) == [.long, .single])
    }

    @Test("Repeats (value 2), a down while down and an up while up are ignored")
    func ignoredEvents() {
        let steps: [Step] = [
            .up(0), .down(10), .repeatEvent(300), .down(400), .repeatEvent(500), .up(600), .up(650), .tick(2_000),
        ]
        // Held 590 ms with repeats in between: one short press.
        #expect(kinds(run(steps)) == [.single])
        // Repeats while long-held change nothing either.
        #expect(kinds(run([.down(0), .repeatEvent(500), .repeatEvent(900), .up(1_000), .tick(9_000)])) == [.long])
    }

    @Test("An event earlier than the clock counts at the clock's time")
    func eventFromThePast() {
        // The clock is at 1 s; an up stamped 0.5 s is taken as at 1 s: long.
        #expect(kinds(run([.down(0), .tick(1_000), .up(500)])) == [.long])
        // The single's deadline is then measured from a release at 1.2 s, not 0.1 s.
        var recognizer = PressRecognizer()
        _ = recognizer.feed(value: 1, at: ms(1_000))
        _ = recognizer.advance(to: ms(1_200))
        _ = recognizer.feed(value: 0, at: ms(1_100))
        #expect(recognizer.nextDeadline == ms(1_500))
    }

    @Test("Other timings are honoured, and a reset forgets a pending single and a held press")
    func customTimingsAndReset() {
        let timings = PressTimings(doubleInterval: ms(500), longPress: ms(200), emergencyStop: ms(1_000))
        #expect(kinds(run([.down(0), .up(100), .down(550)], timings: timings)) == [.double])
        #expect(kinds(run([.down(0), .tick(200), .tick(1_000)], timings: timings)) == [.long, .emergencyStop])
        var recognizer = PressRecognizer()
        _ = recognizer.feed(value: 1, at: ms(0))
        _ = recognizer.feed(value: 0, at: ms(50))
        recognizer.reset()
        #expect(recognizer.nextDeadline == nil)
        #expect(recognizer.advance(to: ms(5_000)).isEmpty)
        _ = recognizer.feed(value: 1, at: ms(6_000))
        recognizer.reset()
        #expect(!recognizer.isDown)
        #expect(recognizer.feed(value: 0, at: ms(6_100)).isEmpty)
        #expect(recognizer.advance(to: ms(9_000)).isEmpty)
    }

    @Test("Without double presses, a short press is a single at its release; long and emergency stop are unchanged")
    func singleAtReleaseWithoutDoubles() {
        let timings = PressTimings(recognizesDoublePress: false)
        let reports = run([.down(0), .up(120), .down(150), .up(200)], timings: timings)
        #expect(kinds(reports) == [.single, .single])
        #expect(reports.map(\.1) == [120, 200])
        #expect(kinds(run([.down(0), .tick(800), .tick(3_000), .up(3_100)], timings: timings)) == [.long, .emergencyStop])
        var recognizer = PressRecognizer(timings: timings)
        _ = recognizer.feed(value: 1, at: ms(0))
        #expect(recognizer.feed(value: 0, at: ms(10)) == [.single])
        #expect(recognizer.nextDeadline == nil)
    }

    @Test("Timings that cannot work are named")
    func badTimings() {
        #expect(PressTimings().problem == nil)
        #expect(PressTimings(doubleInterval: .zero).problem != nil)
        #expect(PressTimings(longPress: .zero).problem != nil)
        #expect(PressTimings(longPress: ms(3_000), emergencyStop: ms(3_000)).problem != nil)
    }
}
