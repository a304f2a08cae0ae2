@testable import GestureEngine
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Testing
import TestSupport

@Suite("Presses through the engine")
struct EnginePressTests {
    private func keyEvents(_ code: EventCode, _ value: Int32) -> [InputEvent] {
        [InputEvent(type: .key, code: code, value: value), .synchronizationReport()]
    }

    @Test("A press is a play on the keyboard's session: a tap after the lead-in, a kept down, an up")
    func pressesOnASession() throws {
        let sink = RecordingSink()
        let session = PlaybackSession(
            profile: .keyboard(), sink: sink, devnode: "/dev/input/test", linger: .zero, clock: ManualClock())
        let engine = Engine()
        let tap = try engine.startPress(KeyPress(key: .keyMute), on: session, leadIn: Microseconds(100_000), closesSession: false)
        #expect(tap.frameCount == 2)
        #expect(tap.wait().isCompleted)
        #expect(sink.frames.map(\.time) == [Microseconds(100_000), Microseconds(150_000)])
        let down = try engine.startPress(KeyPress(key: .keyBack, action: .down), on: session, closesSession: false)
        #expect(down.wait().finalState.pressedKeys == [.keyBack])
        #expect(session.state.pressedKeys == [.keyBack])
        // A tap of another key leaves it down.
        _ = try engine.startPress(KeyPress(key: .keyMenu), on: session, closesSession: false).wait()
        #expect(session.state.pressedKeys == [.keyBack])
        _ = try engine.startPress(KeyPress(key: .keyBack, action: .up), on: session, closesSession: false).wait()
        #expect(session.state.isReleased)
        #expect(sink.frames.map(\.events).suffix(4) == [
            keyEvents(.keyBack, 1), keyEvents(.keyMenu, 1), keyEvents(.keyMenu, 0), keyEvents(.keyBack, 0),
        ])
        #expect(!session.isClosed)
    }

    @Test("On a session closed after the press, even a down ends released")
    func closingSessionReleases() throws {
        let sink = RecordingSink()
        let session = PlaybackSession(profile: .keyboard(), sink: sink, devnode: nil, linger: .zero, clock: ManualClock())
        let job = try Engine().startPress(KeyPress(key: .keyVolumeUp, action: .down), on: session, closesSession: true)
        #expect(job.wait().finalState.isReleased)
        #expect(session.isClosed)
        #expect(sink.frames.map(\.events) == [keyEvents(.keyVolumeUp, 1), keyEvents(.keyVolumeUp, 0)])
    }

    @Test("Without uinput, a press fails with the system's error before anything is played")
    func noUinput() {
        let engine = Engine(uinputPath: "/nonexistent/uinput", udevTimeout: Microseconds(1_000))
        #expect(throws: SystemError.self) { try engine.startPress(PressRequest(press: KeyPress(key: .keyMute))) }
    }
}
