import GestureModel
import InputSystem
import Synchronization
import Testing

@testable import GesturePlayback
import TestSupport

@Suite("A play on a touchpad that falls behind catches up without a touch jump")
struct TouchpadPacingTests {
    /// One write as the test saw it: when it began and ended, and the
    /// contacts down after it.
    struct Write: Sendable {
        var began: Int64
        var ended: Int64
        var contacts: [Int: (x: Int, y: Int)]
    }

    /// Two fingers 20 mm apart swiping across the default virtual touchpad:
    /// from rest to 6.4 mm every 8 ms (800 mm/s, a quick swipe, 9.6 mm per
    /// 12 ms) in three frames, as a finger speeds up (a faster start is a
    /// jump to libinput however it is played).
    func fastSwipe() throws -> [InputFrame] {
        let steps = [0, 20, 40] + Array(repeating: 64, count: 14)
        var x = 50
        let xs = steps.map { step in
            x += step
            return x
        }
        let times = xs.indices.map { Int64($0) * 8_000 }
        let upper = finger(xs.indices.map { (times[$0], xs[$0], 200) })
        let lower = finger(xs.indices.map { (times[$0], xs[$0], 400) })
        return try build(Gesture(name: "swipe", device: touchpadGeometry, strokes: [upper, lower]), on: .touchpad())
    }

    /// Plays `frames` on the default touchpad with a test clock; `stall`
    /// says how long the write of each frame takes.
    func play(
        _ frames: [InputFrame], paced: Bool = true, stall: @escaping @Sendable (Int) -> Int64
    ) -> (result: PlaybackResult, writes: [Write]) {
        let clock = ManualClock(start: Microseconds(1_000_000))
        let profile = VirtualDeviceProfile.touchpad()
        let writes = Mutex<(state: DeviceState, list: [Write])>((DeviceState(description: profile.description), []))
        let sink = RecordingSink { index, frame in
            let began = clock.now().rawValue - 1_000_000
            clock.advance(by: Microseconds(stall(index)))
            let ended = clock.now().rawValue - 1_000_000
            writes.withLock { current in
                current.state.apply(frame)
                var contacts: [Int: (x: Int, y: Int)] = [:]
                for slot in current.state.activeSlots {
                    contacts[slot] = (
                        Int(current.state.slotValue(slot: slot, code: .multitouchPositionX) ?? 0),
                        Int(current.state.slotValue(slot: slot, code: .multitouchPositionY) ?? 0)
                    )
                }
                current.list.append(Write(began: began, ended: ended, contacts: contacts))
            }
        }
        let player = Player(clock: clock, touchpad: paced ? LiveTouchFrames.surface(of: profile) : nil)
        let result = player.play(frames, on: sink, state: DeviceState(description: profile.description))
        #expect(sink.frames == frames, "every frame is written, in order")
        return (result, writes.withLock { $0.list })
    }

    /// What libinput calls a jump among `writes`, with the kernel's stamp
    /// taken at each write's start, at its end, and alternately: the stamp
    /// falls somewhere inside the write.
    func jumps(in writes: [Write]) -> [String] {
        var found: [String] = []
        for choice in ["began", "ended", "alternating"] {
            var libinput = LibinputJumpRule(unitsPerMM: 10)
            for (index, write) in writes.enumerated() {
                let stamp =
                    switch choice {
                    case "began": write.began
                    case "ended": write.ended
                    default: index % 2 == 0 ? write.began : write.ended
                    }
                libinput.frame(at: stamp, write.contacts)
            }
            found += libinput.jumps.map { "stamped at the write's \(choice): \($0)" }
        }
        return found
    }

    @Test(
        "A fast swipe whose write stalls mid-stroke catches up with no step libinput takes for a jump",
        arguments: [Int64(20_000), 12_000, 29_000, 45_000, 100_000])
    func stalledMidStroke(stall: Int64) throws {
        let frames = try fastSwipe()
        let (result, writes) = play(frames) { index in index == 4 ? stall : 50 }
        #expect(result.isCompleted)
        #expect(jumps(in: writes).isEmpty, "\(jumps(in: writes))")
        // It does catch up: the last frame goes out less late than the stall.
        #expect(writes.last!.began - frames.last!.time.rawValue < stall)
    }

    @Test(
        "A play that starts late (its touch's or first move's write stalls) catches up its first steps with no jump",
        arguments: [0, 1], [Int64(6_000), 12_000, 20_000, 29_000])
    func lateStart(stalledWrite: Int, stall: Int64) throws {
        // libinput resets every contact in the frame that changes the number
        // of fingers and again in the next, so the one after is judged against
        // a previous step of 0: caught up at twice the speed, the swipe's
        // 4 mm in 4 ms (12 mm per 12 ms) was a jump there (issue 23, case 32
        // on a loaded host).
        let frames = try fastSwipe()
        let (result, writes) = play(frames) { index in index == stalledWrite ? stall : 50 }
        #expect(result.isCompleted)
        if stall > 8_000 { #expect(result.lateness.maximum > .zero, "the stall made the play late") }
        #expect(jumps(in: writes).isEmpty, "\(jumps(in: writes))")
    }

    @Test("Without the pacing, the same 20 ms stall makes libinput see a jump (what the test is for)")
    func unpacedStallJumps() throws {
        let frames = try fastSwipe()
        // On its deadlines the swipe is no jump, paced or not.
        #expect(jumps(in: play(frames, paced: false) { _ in 50 }.writes).isEmpty)
        #expect(jumps(in: play(frames) { _ in 50 }.writes).isEmpty)
        // Stalled, twice the speed after it is one.
        let (_, writes) = play(frames, paced: false) { index in index == 4 ? 20_000 : 50 }
        #expect(!jumps(in: writes).isEmpty)
    }

    @Test("Writes held up again and again, as a preempted thread's, never make a jump")
    func repeatedPreemption() throws {
        let frames = try fastSwipe()
        let (result, writes) = play(frames) { index in index % 3 == 1 ? 6_000 + Int64(index % 5) * 2_000 : 50 }
        #expect(result.isCompleted)
        #expect(jumps(in: writes).isEmpty, "\(jumps(in: writes))")
    }

    @Test("A play on its deadlines is not held back; where its own steps grow fast, by less than a millisecond")
    func onTimeNotHeld() throws {
        // A flick that starts fast: 2, 4, 12, 20 mm per 8 ms. Its own growth
        // is the gesture's; the pacing holds back only a catch-up's.
        let xs = [50, 70, 110, 230, 430, 630]
        let stroke = finger(xs.enumerated().map { (Int64($0) * 8_000, $1, 300) })
        let frames = try build(Gesture(name: "flick", device: touchpadGeometry, strokes: [stroke]), on: .touchpad())
        let (result, _) = play(frames) { _ in 0 }
        #expect(result.isCompleted)
        #expect(result.lateness.maximum == .zero)
        // Writes that take 50 µs: the previous step is known only within
        // them, so where the gesture's own steps grow by over 6 mm a frame
        // waits about that long (a few hundred µs over this flick); where
        // they grow by less, as a quick swipe's, not at all: only its second
        // move after the touch, 6 mm per 12 ms from the 0 libinput restarts
        // it at, waits as long as one write (50 µs).
        let (slowWrites, _) = play(frames) { _ in 50 }
        #expect(slowWrites.lateness.maximum < Microseconds(1_000), "\(slowWrites.lateness)")
        let swipe = try play(fastSwipe()) { _ in 50 }.result.lateness
        #expect(swipe.maximum <= Microseconds(60), "\(swipe)")
    }

    @Test("No frame waits longer than libinput checks: 30 ms after the previous write")
    func waitIsBounded() throws {
        var pacing = TouchpadPacing(
            surface: LiveTouchFrames.surface(of: .touchpad()),
            state: DeviceState(description: VirtualDeviceProfile.touchpad().description))
        let frames = try build(
            Gesture(
                name: "leap", device: touchpadGeometry,
                strokes: [finger([(0, 50, 300), (8_000, 55, 300), (1_000_000, 1_050, 300)])]),
            on: .touchpad())
        var clock: Int64 = 0
        var spacings: [Int64] = []
        for frame in frames {
            spacings.append(pacing.prepare(frame).rawValue)
            clock += 8_000
            pacing.wrote(began: Microseconds(clock), ended: Microseconds(clock + 10))
        }
        #expect(spacings.max()! == 30_001)
        #expect(spacings.first == 0, "the touch goes at once")
    }
}
