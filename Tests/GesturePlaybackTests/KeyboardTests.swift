import Glibc
import GestureModel
import InputSystem
import OperatingSystem
import Testing
import TestSupport

@testable import GesturePlayback

@Suite("The virtual keyboard and key presses")
struct KeyboardTests {
    private let keyboard = VirtualDeviceProfile.keyboard()

    private func keyFrame(_ code: EventCode, _ value: Int32, at time: Int64) -> InputFrame {
        InputFrame(time: Microseconds(time), events: [InputEvent(type: .key, code: code, value: value), .synchronizationReport()])
    }

    @Test("The keyboard: its name and ids, EV_KEY with exactly the keys it may send, nothing else")
    func profile() {
        let description = keyboard.description
        #expect(keyboard.kind == .keyboard)
        #expect(description.name == "gesturectl virtual keyboard")
        #expect(description.bus == 0x06 && description.vendor == 0x4753 && description.product == 0x0005)
        #expect(description.version == 1)
        #expect(VirtualDeviceProfile.product(for: .keyboard) == 0x0005)
        #expect(description.sortedTypes == [.key])
        #expect(description.codes[.key] == Set(VirtualKeyboard.keys.map(\.code)))
        #expect(description.absoluteAxes.isEmpty && description.properties.isEmpty)
        // Every key's lift fits one frame of at most 64 events.
        #expect(VirtualKeyboard.keys.count + 1 <= 64)
        #expect(Set(VirtualKeyboard.keys.map(\.code)).count == VirtualKeyboard.keys.count)
    }

    @Test("udev's input_id calls it a key device (ID_INPUT_KEY), so gesturectl and libinput take it for keys/buttons")
    func classified() {
        #expect(DeviceClassifier.udevClasses(of: keyboard.description) == [.key])
        #expect(DeviceClassifier.kind(of: keyboard.description) == .keyboard)
    }

    @Test("Every key's number is the kernel's, as libevdev names it")
    func kernelNumbers() {
        for key in VirtualKeyboard.keys {
            // The kernel defines KEY_SCREENLOCK as KEY_COFFEE; libevdev
            // (and so libinput debug-events) knows only the latter name.
            let libevdevName = key.kernelName == "KEY_SCREENLOCK" ? "KEY_COFFEE" : key.kernelName
            #expect(EventCode(name: libevdevName, type: .key) == key.code, "\(key.kernelName)")
        }
        let named = Dictionary(uniqueKeysWithValues: VirtualKeyboard.buttons.map { ($0.name, $0.kernelName) })
        #expect(
            named == [
                "volume-up": "KEY_VOLUMEUP", "volume-down": "KEY_VOLUMEDOWN", "mute": "KEY_MUTE", "lock": "KEY_SCREENLOCK",
                "screenshot": "KEY_SYSRQ", "home": "KEY_HOMEPAGE", "back": "KEY_BACK", "menu": "KEY_MENU", "power": "KEY_POWER",
            ])
        #expect(VirtualKeyboard.needsForce == [EventCode.keyPower])
    }

    @Test("Names: buttons, KEY_* names it has (any case); others refused with the reason")
    func names() throws {
        #expect(try VirtualKeyboard.key(named: "volume-up").code == .keyVolumeUp)
        #expect(try VirtualKeyboard.key(named: "KEY_VOLUMEUP").name == "volume-up")
        #expect(try VirtualKeyboard.key(named: "key_enter").code == .keyEnter)
        #expect(try VirtualKeyboard.key(named: "Screenshot").code == .keySysRq)
        #expect(throws: KeyNameError.notOnKeyboard("KEY_A")) { try VirtualKeyboard.key(named: "KEY_A") }
        #expect(throws: KeyNameError.notOnKeyboard("KEY_SLEEP")) { try VirtualKeyboard.key(named: "KEY_SLEEP") }
        #expect(throws: KeyNameError.notOnKeyboard("KEY_LEFTCTRL")) { try VirtualKeyboard.key(named: "KEY_LEFTCTRL") }
        #expect(throws: KeyNameError.unknown("volume-sideways")) { try VirtualKeyboard.key(named: "volume-sideways") }
        #expect(KeyNameError.unknown("x").description.contains("volume-up, volume-down, mute, lock"))
        #expect(KeyNameError.notOnKeyboard("KEY_A").description.hasPrefix("KEY_A is not a key"))
        // Letters and modifiers are never on it.
        for name in ["KEY_A", "KEY_Q", "KEY_1", "KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_LEFTSHIFT", "KEY_LEFTMETA", "KEY_SUSPEND", "KEY_RESTART"] {
            let code = try #require(EventCode(name: name, type: .key))
            #expect(!keyboard.description.supports(.key, code), "\(name)")
        }
    }

    @Test("A tap is key down, then key up after the hold (50 ms by default), each its own frame")
    func tap() {
        let state = DeviceState(description: keyboard.description)
        #expect(KeyPress.defaultHold == Microseconds(50_000))
        #expect(
            KeyPress(key: .keyVolumeUp).frames(from: state)
                == [keyFrame(.keyVolumeUp, 1, at: 0), keyFrame(.keyVolumeUp, 0, at: 50_000)])
        #expect(
            KeyPress(key: .keyMute, hold: Microseconds(200_000)).frames(from: state, start: Microseconds(100_000))
                == [keyFrame(.keyMute, 1, at: 100_000), keyFrame(.keyMute, 0, at: 300_000)])
    }

    @Test("down and up write only what changes")
    func downAndUp() {
        var state = DeviceState(description: keyboard.description)
        let down = KeyPress(key: .keyBack, action: .down)
        let up = KeyPress(key: .keyBack, action: .up)
        #expect(up.frames(from: state) == [])
        let downFrames = down.frames(from: state)
        #expect(downFrames == [keyFrame(.keyBack, 1, at: 0)])
        state.apply(downFrames[0])
        #expect(state.pressedKeys == [.keyBack])
        #expect(down.frames(from: state) == [])
        // A tap of a key held down only releases it, after the hold.
        #expect(KeyPress(key: .keyBack).frames(from: state) == [keyFrame(.keyBack, 0, at: 50_000)])
        #expect(up.frames(from: state) == [keyFrame(.keyBack, 0, at: 0)])
    }

    @Test("The lift-all frame releases held keys, in code order, in one frame")
    func liftAllReleasesKeys() throws {
        var state = DeviceState(description: keyboard.description)
        #expect(state.liftAllFrame() == nil)
        state.apply(keyFrame(.keyVolumeUp, 1, at: 0))
        state.apply(keyFrame(.keyBack, 1, at: 0))
        state.apply(keyFrame(.keySysRq, 1, at: 0))
        let lift = try #require(state.liftAllFrame(time: Microseconds(7)))
        #expect(lift.time == Microseconds(7))
        #expect(
            lift.events == [
                InputEvent(type: .key, code: .keySysRq, value: 0), InputEvent(type: .key, code: .keyVolumeUp, value: 0),
                InputEvent(type: .key, code: .keyBack, value: 0), .synchronizationReport(),
            ])
        state.apply(lift)
        #expect(state.isReleased)
        // Every key at once still fits 64 events.
        var all = DeviceState(description: keyboard.description)
        for key in VirtualKeyboard.keys { all.apply(keyFrame(key.code, 1, at: 0)) }
        #expect(try #require(all.liftAllFrame()).events.count == VirtualKeyboard.keys.count + 1)
    }

    @Test("A tap cancelled mid-hold releases the key; a completed down stays down only when asked")
    func playerAndKeys() {
        let state = DeviceState(description: keyboard.description)
        let clock = ManualClock(start: Microseconds(1_000))
        let cancellation = CancellationSignal()
        let sink = RecordingSink { index, _ in if index == 0 { cancellation.cancel() } }
        let cancelled = Player(clock: clock).play(KeyPress(key: .keyMenu).frames(from: state), on: sink, state: state, cancellation: cancellation)
        #expect(!cancelled.isCompleted)
        #expect(sink.frames.map(\.events) == [keyFrame(.keyMenu, 1, at: 0).events, keyFrame(.keyMenu, 0, at: 0).events])
        #expect(cancelled.finalState.isReleased)

        let down = KeyPress(key: .keyMenu, action: .down).frames(from: state)
        let keeping = RecordingSink()
        let kept = Player(clock: clock).play(down, on: keeping, state: state, releasesAtEnd: false)
        #expect(kept.isCompleted && kept.liftAllFrame == nil)
        #expect(kept.finalState.pressedKeys == [.keyMenu])
        #expect(keeping.frames == down)
        // By default a play never ends with a key down.
        let releasing = RecordingSink()
        let released = Player(clock: clock).play(down, on: releasing, state: state)
        #expect(released.finalState.isReleased)
        #expect(releasing.frames.count == 2)
    }

    @Test("A linger whose wait cannot be set up is slept, not skipped: readers still get the last frames")
    func lingerSurvivesAFailedWait() {
        /// A clock whose waits fail as one without a descriptor for its timer does.
        struct NoTimerClock: PlaybackClock {
            func now() -> Microseconds { Microseconds(MonotonicClock.nowMicroseconds()) }
            func wait(until deadline: Microseconds, cancellation: CancellationSignal) throws(SystemError) -> WaitResult {
                throw SystemError(call: "timerfd_create", errorNumber: EMFILE)
            }
        }
        let session = PlaybackSession(
            profile: keyboard, sink: RecordingSink(), devnode: nil, linger: Microseconds(30_000), clock: NoTimerClock())
        let start = MonotonicClock.nowMicroseconds()
        session.close()
        #expect(MonotonicClock.nowMicroseconds() - start >= 30_000)
    }

    @Test("A session keeps a key held by down across plays, and close() releases it before the device goes")
    func sessionReleasesOnClose() throws {
        let sink = RecordingSink()
        let session = PlaybackSession(profile: keyboard, sink: sink, devnode: nil, linger: .zero, clock: ManualClock())
        _ = try session.start(KeyPress(key: .keyHomePage, action: .down).frames(from: session.state), releasesAtEnd: false).wait()
        #expect(session.state.pressedKeys == [.keyHomePage])
        #expect(sink.frames.count == 1)
        session.close()
        #expect(sink.frames.last?.events == [InputEvent(type: .key, code: .keyHomePage, value: 0), .synchronizationReport()])
        #expect(session.state.isReleased)
    }
}
