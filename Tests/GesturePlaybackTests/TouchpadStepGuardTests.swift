import GestureModel
import GesturePlayback
import Testing
import TestSupport

@Suite("A touchpad's steps stay clear of libinput's jump detection")
struct TouchpadStepGuardTests {
    /// 110 × 70 mm at 10 units/mm: the default virtual touchpad.
    let surface = DeviceGeometry(
        kind: .touchpad, x: AxisRange(minimum: 0, maximum: 1_100, resolution: 10),
        y: AxisRange(minimum: 0, maximum: 700, resolution: 10), slots: 5)

    @Test("A touch and a lift are never cut; a small step 8 ms after the last write is whole")
    func wholeSteps() {
        var guardian = TouchpadStepGuard(surface: surface)
        let touch = [0: (x: 100, y: 100), 1: (x: 300, y: 100)]
        #expect(guardian.step(toward: touch, sinceLastWrite: Microseconds(10)).reached)
        guardian.wrote(touch, longestInterval: nil)
        let moved = [0: (x: 120, y: 100), 1: (x: 320, y: 100)]  // 2 mm
        let step = guardian.step(toward: moved, sinceLastWrite: Microseconds(8_000))
        #expect(step.reached)
        #expect(step.contacts[0]! == (x: 120, y: 100))
        guardian.wrote(moved, longestInterval: Microseconds(8_100))
        #expect(guardian.step(toward: [:], sinceLastWrite: Microseconds(10)).reached)
    }

    @Test("A backlog of 60 mm is cut into steps libinput accepts, and every contact ends where the source left it")
    func backlogCaughtUp() {
        var guardian = TouchpadStepGuard(surface: surface)
        var libinput = LibinputJumpRule(unitsPerMM: 10)
        var time: Int64 = 1_000_000
        var down = [0: (x: 100, y: 300), 1: (x: 250, y: 300), 2: (x: 400, y: 300)]
        guardian.wrote(down, longestInterval: nil)
        libinput.frame(at: time, down)
        // A slow start (1 mm a frame), then the reader stalls for 20 ms
        // while the source moves on 60 mm: a backlog.
        for _ in 0..<3 {
            time += 8_000
            down = down.mapValues { (x: $0.x + 10, y: $0.y) }
            guardian.wrote(down, longestInterval: Microseconds(8_000))
            libinput.frame(at: time, down)
        }
        let target = down.mapValues { (x: $0.x + 600, y: $0.y + 40) }
        var writes = 0
        var last = down
        time += 20_000
        var since = Microseconds(20_000)
        while true {
            let step = guardian.step(toward: target, sinceLastWrite: since)
            // The fingers keep their spacing along the way.
            #expect(step.contacts[1]!.x - step.contacts[0]!.x == 150 && step.contacts[2]!.x - step.contacts[1]!.x == 150)
            guardian.wrote(step.contacts, longestInterval: since)
            libinput.frame(at: time, step.contacts)
            last = step.contacts
            writes += 1
            if step.reached { break }
            time += 8_000
            since = Microseconds(8_000)
            #expect(writes < 40, "no end to the catch-up")
            if writes >= 40 { return }
        }
        #expect(libinput.jumps.isEmpty, "\(libinput.jumps)")
        #expect(writes > 1 && writes < 12, "\(writes) writes")
        #expect(target.keys.allSatisfy { last[$0]! == target[$0]! })
    }

    @Test("After a touch, libinput starts the contacts afresh twice: the second step grows from 0, not from the first")
    func secondStepAfterATouch() {
        var guardian = TouchpadStepGuard(surface: surface)
        guardian.wrote([0: (x: 100, y: 100)], longestInterval: nil)
        // 2 mm in 8 ms: 3 mm scaled, but libinput resets the contact in this
        // frame too and keeps a previous step of 0.
        guardian.wrote([0: (x: 120, y: 100)], longestInterval: Microseconds(8_000))
        // So the next step, 8 ms on, may be at most 6 mm scaled: 4 mm
        // (not 3 + 6 = 9 mm scaled, 6 mm).
        let step = guardian.step(toward: [0: (x: 520, y: 100)], sinceLastWrite: Microseconds(8_000))
        #expect(!step.reached)
        let went = Double(step.contacts[0]!.x - 120) / 10
        #expect(went > 3 && went <= 4, "\(went) mm")
        // A frame that moves nothing (which the kernel does not pass on)
        // leaves the second reset to the next one that moves.
        var idle = TouchpadStepGuard(surface: surface)
        idle.wrote([0: (x: 100, y: 100)], longestInterval: nil)
        idle.wrote([0: (x: 100, y: 100)], longestInterval: Microseconds(8_000))
        idle.wrote([0: (x: 120, y: 100)], longestInterval: Microseconds(8_000))
        let after = idle.step(toward: [0: (x: 520, y: 100)], sinceLastWrite: Microseconds(8_000))
        #expect(Double(after.contacts[0]!.x - 120) / 10 <= 4)
    }

    @Test("Frames more than 30 ms apart are not checked by libinput: the whole step at once")
    func afterAStall() {
        var guardian = TouchpadStepGuard(surface: surface)
        let down = [0: (x: 100, y: 100)]
        guardian.wrote(down, longestInterval: nil)
        let step = guardian.step(toward: [0: (x: 900, y: 600)], sinceLastWrite: Microseconds(30_001))
        #expect(step.reached)
    }

    @Test("Growth is judged from the previous step at its least: a write that took long does not let the next step grow more")
    func growthFromTheLeastPreviousStep() {
        var guardian = TouchpadStepGuard(surface: surface)
        guardian.wrote([0: (x: 100, y: 100)], longestInterval: nil)
        guardian.wrote([0: (x: 110, y: 100)], longestInterval: Microseconds(8_000))  // 1 mm: at least 1.5 mm scaled
        // 8 mm in what could have been 24 ms (a write preempted): at least 4 mm scaled.
        guardian.wrote([0: (x: 190, y: 100)], longestInterval: Microseconds(24_000))
        // So the next step, 8 ms on, may be at most 4 + 6 = 10 mm scaled: 6.7 mm
        // (not 12 + 6, as the 8 mm over 8 ms it may have looked like).
        let step = guardian.step(toward: [0: (x: 590, y: 100)], sinceLastWrite: Microseconds(8_000))
        #expect(!step.reached)
        let went = Double(step.contacts[0]!.x - 190) / 10
        #expect(went > 6 && went <= 10.0 * 8 / 12, "\(went) mm")
    }
}
