@testable import GestureEngine
import GestureModel
import GesturePlayback
import GestureSynth
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// The devices an engine under test made, in order, each with its sink and clock.
final class MadeDevices: Sendable {
    struct Made: Sendable {
        let session: PlaybackSession
        let sink: RecordingSink
        let clock: ManualClock
    }

    private let made = Mutex<[Made]>([])
    private let clockMode: ManualClock.Mode
    /// Write attempts of the first device that fail as if it had been unplugged.
    private let firstDeviceVanishesAt: Set<Int>

    init(clockMode: ManualClock.Mode = .advancesOnWait, firstDeviceVanishesAt: Set<Int> = []) {
        self.clockMode = clockMode
        self.firstDeviceVanishesAt = firstDeviceVanishesAt
    }

    var all: [Made] { made.withLock { $0 } }

    /// An engine whose devices are recorded here.
    func engine() -> Engine {
        Engine(
            devices: DeviceFactory(make: { [self] profile, _, _ in
                let isFirst = made.withLock { $0.isEmpty }
                let vanishing = isFirst && !firstDeviceVanishesAt.isEmpty ? VanishingSink(at: firstDeviceVanishesAt) : nil
                let recording = vanishing?.recording ?? RecordingSink()
                let sink: any FrameSink & Sendable = vanishing ?? recording
                let clock = ManualClock(mode: clockMode)
                let session = PlaybackSession(
                    profile: profile, sink: sink, devnode: "/dev/input/test\(made.withLock { $0.count })", linger: .zero,
                    clock: clock)
                made.withLock { $0.append(Made(session: session, sink: recording, clock: clock)) }
                return session
            }))
    }
}

/// A sink whose chosen write attempts fail with ENODEV, as a device that
/// was unplugged (SystemError.Kind.deviceVanished).
final class VanishingSink: FrameSink, Sendable {
    let recording = RecordingSink()
    private let attempts = Atomic(0)
    private let failing: Set<Int>

    init(at failing: Set<Int>) { self.failing = failing }

    func write(_ frame: InputFrame) throws {
        let attempt = attempts.add(1, ordering: .relaxed).oldValue
        if failing.contains(attempt) {
            throw SystemError(call: "write", path: "/dev/uinput", errorNumber: 19, kind: .deviceVanished)
        }
        try recording.write(frame)
    }
}

@Suite("The engine's play queues")
struct PlayQueueTests {
    private let touchscreen = VirtualDeviceProfile.touchscreen()

    private func swipe(_ fingers: Int = 2) throws -> Gesture { try GestureSynthesizer.swipe(direction: .up, fingers: fingers) }

    private func expectedFrames(_ gesture: Gesture) throws -> [InputFrame] {
        try FrameBuilder(target: touchscreen, options: PlaybackOptions()).frames(for: gesture)
    }

    @Test("Plays on a kept device run one after another in the order queued, on one device, none refused busy")
    func order() async throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        // The first play is held at its start gate, so the second must wait.
        let (gate, opener) = try FileDescriptor.pipe()
        defer {
            gate.close()
            opener.close()
        }
        let first = try engine.startPlay(PlayRequest(gesture: try swipe(), leadIn: .zero, keepDevice: true, startGate: gate))
        let second = try engine.startPlay(PlayRequest(gesture: try swipe(3), leadIn: .zero, keepDevice: true))
        #expect(second.handle.result == nil)
        #expect(engine.queue(for: touchscreen).isBusy)
        // The path is warmed before the gate is waited on, not after it opens.
        #expect(try devices.all[0].sink.warmedUp.wait())
        #expect(devices.all[0].sink.frames.isEmpty)
        try opener.writeAll([1])
        let results = (await first.finished(), await second.finished())
        guard case .completed = results.0.outcome, case .completed = results.1.outcome else {
            Issue.record("not both completed: \(results.0.outcome), \(results.1.outcome)")
            return
        }
        #expect(devices.all.count == 1)
        let written = try #require(devices.all.first?.sink.frames)
        #expect(written.count == first.frameCount + second.frameCount)
        // Every frame of the first play, its lift included, before the second's.
        #expect(first.frameCount > 0)
        #expect(written.prefix(first.frameCount).map(\.events) == (try expectedFrames(try swipe())).map(\.events))
        // The queue's thread warmed the device's path once, not before each play.
        let third = try engine.startPlay(PlayRequest(gesture: try swipe(), leadIn: .zero, keepDevice: true))
        _ = await third.finished()
        #expect(devices.all.count == 1)
        #expect(devices.all[0].sink.warmUps == 1)
        engine.closeKeptDevices()
    }

    @Test("The lead-in delays the first frame, on a kept device and on a one-shot one, without a second copy of the frames")
    func leadIn() async throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let leadIn = Microseconds(50_000)
        let kept = try engine.startPlay(PlayRequest(gesture: try swipe(), leadIn: leadIn, keepDevice: true))
        _ = await kept.finished()
        let oneShot = try engine.startPlay(PlayRequest(gesture: try swipe(), leadIn: leadIn))
        _ = await oneShot.finished()
        let expected = try expectedFrames(try swipe()).map(\.time)
        for made in devices.all {
            #expect(made.sink.frames.map(\.time) == expected.map { $0 + leadIn })
        }
        #expect(devices.all.count == 2)
        // The one-shot device was closed after its play, the kept one stays.
        #expect(devices.all[1].session.isClosed)
        #expect(!devices.all[0].session.isClosed)
        engine.closeKeptDevices()
        #expect(devices.all[0].session.isClosed)
    }

    @Test("A gesture the device cannot play is refused when queued, before anything is queued or made")
    func refusedWhenQueued() throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let mouse = try Engine.builtinReadyProfile(kind: .mouse)
        let queue = engine.queue(for: mouse)
        let handle = PlaybackHandle()
        #expect(throws: PlayQueueError.self) {
            try queue.enqueue(QueuedPlay(.gesture(try swipe(3), options: PlaybackOptions(), leadIn: .zero), handle: handle))
        }
        #expect(handle.result == nil)
        #expect(queue.waiting == 0)
        #expect(devices.all.isEmpty)
    }

    @Test("A waiting job taken out ends cancelled with nothing written; a full queue refuses; a retired one ends its waiting jobs")
    func cancelLimitAndRetire() async throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let queue = engine.queue(for: touchscreen)
        let running = PlaybackHandle()
        let work = QueuedWork.gesture(try swipe(), options: PlaybackOptions(), leadIn: .zero)
        let (gate, opener) = try FileDescriptor.pipe()
        defer {
            gate.close()
            opener.close()
        }
        let started = Semaphore(value: 0)
        try queue.enqueue(QueuedPlay(work, handle: running, startGate: gate, started: { _ in started.signal() }))
        started.wait()
        let waiting = PlaybackHandle()
        try queue.enqueue(QueuedPlay(work, handle: waiting), limit: 1)
        #expect(throws: PlayQueueError.self) { try queue.enqueue(QueuedPlay(work), limit: 1) }
        #expect(queue.remove(waiting))
        guard case .cancelled(0)? = waiting.result?.outcome else {
            Issue.record("a removed job ends cancelled before it started: \(String(describing: waiting.result?.outcome))")
            return
        }
        let third = PlaybackHandle()
        try queue.enqueue(QueuedPlay(work, handle: third))
        let idle = Mutex(false)
        queue.retire { idle.withLock { $0 = true } }
        guard case .cancelled(0)? = third.result?.outcome else {
            Issue.record("retiring ends the waiting jobs")
            return
        }
        #expect(!idle.withLock { $0 })
        #expect(throws: PlayQueueError.self) { try queue.enqueue(QueuedPlay(work)) }
        // The running one plays on; once it ends, the queue is idle.
        try opener.writeAll([1])
        guard case .completed = await running.finished().outcome else {
            Issue.record("the running job completes")
            return
        }
        #expect(idle.withLock { $0 })
        #expect(!queue.remove(running))
        engine.closeKeptDevices()
    }

    @Test("A kept device that vanishes is made again and the job plays whole on the new one, once")
    func remade() async throws {
        let devices = MadeDevices(firstDeviceVanishesAt: [0])
        let engine = devices.engine()
        let queue = engine.queue(for: touchscreen)
        let remade = Mutex<[String?]>([])
        queue.observeRemade { session, _ in remade.withLock { $0.append(session?.devnode) } }
        let job = try engine.startPlay(PlayRequest(gesture: try swipe(), leadIn: .zero, keepDevice: true))
        let result = await job.finished()
        guard case .completed = result.outcome else {
            Issue.record("the play completes on the new device: \(result.outcome)")
            return
        }
        #expect(devices.all.count == 2)
        #expect(remade.withLock { $0 } == ["/dev/input/test1"])
        #expect(devices.all[1].sink.frames.map(\.events) == (try expectedFrames(try swipe())).map(\.events))
        // The new device's path is warmed before its first play.
        #expect(devices.all[1].sink.warmUps == 1)
        engine.closeKeptDevices()
    }

    @Test("A press queued behind a play on the kept keyboard waits for it; a down stays down on the kept keyboard")
    func pressesQueue() async throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let down = try engine.startPress(PressRequest(press: KeyPress(key: .keyVolumeUp, action: .down), leadIn: .zero, keepDevice: true))
        _ = await down.finished()
        let keyboard = try #require(devices.all.first?.session)
        #expect(keyboard.state.pressedKeys == [.keyVolumeUp])
        let up = try engine.startPress(PressRequest(press: KeyPress(key: .keyVolumeUp, action: .up), leadIn: .zero, keepDevice: true))
        _ = await up.finished()
        #expect(keyboard.state.pressedKeys.isEmpty)
        #expect(devices.all.count == 1)
        engine.closeKeptDevices()
    }
}
