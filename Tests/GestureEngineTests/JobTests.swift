import Dispatch
@testable import GestureEngine
import GestureModel
import GesturePlayback
import GestureRecording
import GestureSynth
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// Values collected from whatever thread reports them.
final class Collected<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    func add(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}

@Suite("Job handles")
struct JobHandleTests {
    @Test("Progress reaches observers, completion handlers run once, waiters of every kind get the result")
    func progressCompletionAndWaits() async throws {
        let handle = JobHandle<String, Int>()
        let progress = Collected<Int>()
        let completions = Collected<String>()
        handle.observeProgress { progress.add($0) }
        handle.onCompletion { completions.add($0) }
        #expect(handle.result == nil)
        try DedicatedThread.start(ThreadOptions(name: "test-worker")) {
            for step in 1...3 { handle.report(step) }
            handle.finish("done")
            handle.finish("ignored: a job ends once")
        }
        let blocking = Collected<String>()
        let waited = DispatchSemaphore(value: 0)
        try DedicatedThread.start(ThreadOptions(name: "test-waiter")) {
            blocking.add(handle.wait())
            waited.signal()
        }
        #expect(await handle.finished() == "done")
        waited.wait()
        #expect(blocking.values == ["done"])
        #expect(progress.values == [1, 2, 3])
        #expect(handle.latestProgress == 3)
        #expect(completions.values == ["done"])
        // A handler added after the end runs at once.
        handle.onCompletion { completions.add("late: " + $0) }
        #expect(completions.values == ["done", "late: done"])
    }

    @Test("Cancelling a handle fires its signal, which a worker waiting in poll sees at once")
    func cancelWakesTheWorker() async throws {
        let handle = JobHandle<Bool, Never>()
        let descriptor = try handle.cancellation.fileDescriptor
        try DedicatedThread.start(ThreadOptions(name: "test-worker")) {
            // No timeout: only the cancel can end this wait.
            let woken = (try? Poll.waitReadable(descriptor, timeoutMilliseconds: nil)) ?? false
            handle.finish(woken && handle.isCancelled)
        }
        handle.cancel()
        #expect(await handle.finished())
    }
}

@Suite("Engine plays")
struct EnginePlayTests {
    private let profile = VirtualDeviceProfile.touchscreen()

    private func frames(leadIn: Microseconds = .zero) throws -> [InputFrame] {
        let gesture = try GestureSynthesizer.swipe(direction: .up, fingers: 2)
        return try FrameBuilder(target: profile, options: PlaybackOptions()).frames(for: gesture)
            .map { InputFrame(time: $0.time + leadIn, events: $0.events) }
    }

    @Test("A play job writes every frame, reports progress per frame, and closes its device after")
    func completes() async throws {
        let sink = RecordingSink()
        let session = PlaybackSession(profile: profile, sink: sink, devnode: "/dev/input/event99", clock: ManualClock())
        let frames = try frames()
        let progress = Collected<PlaybackProgress>()
        let handle = PlaybackHandle()
        handle.observeProgress { progress.add($0) }
        let job = try Engine().startPlay(frames, on: session, handle: handle, closesSession: true)
        let result = await job.finished()
        #expect(result.isCompleted)
        #expect(sink.frames == frames)
        #expect(progress.values.map(\.framesWritten) == Array(1...frames.count))
        #expect(job.devnode == "/dev/input/event99")
        #expect(session.isClosed)
        #expect(!session.isBusy)
    }

    @Test("A cancelled play job lifts every finger, and a kept device serves the next play")
    func cancelledThenReused() async throws {
        let sink = RecordingSink()
        let clock = ManualClock(mode: .waitsForAdvance)
        let session = PlaybackSession(profile: profile, sink: sink, devnode: nil, linger: .zero, clock: clock)
        let frames = try frames(leadIn: Microseconds(100_000))
        let job = try Engine().startPlay(frames, on: session, closesSession: false)
        // The play waits for its lead-in; cancel it there.
        #expect(clock.nextWaitingDeadline() == Microseconds(100_000))
        job.cancel()
        let result = await job.finished()
        guard case .cancelled(let written) = result.outcome else {
            Issue.record("expected cancelled, got \(result.outcome)")
            return
        }
        #expect(written == 0)
        #expect(sink.frames.isEmpty)  // nothing was down, so nothing to lift
        #expect(!session.isClosed)
        // The same device plays again, and a busy device refuses a second play.
        let again = try Engine().startPlay(try self.frames(), on: session, closesSession: false)
        #expect(throws: PlaybackError.sessionBusy) { _ = try session.start(frames) }
        try DedicatedThread.start(ThreadOptions(name: "test-driver")) {
            while let deadline = clock.nextWaitingDeadline(cancellation: again.handle.cancellation) {
                clock.advance(to: deadline)
            }
        }
        let second = await again.finished()
        again.handle.cancellation.cancel()  // releases the driver
        #expect(second.isCompleted)
        #expect(session.state.isReleased)
        session.close()
        session.close()  // closing twice is harmless
        #expect(session.isClosed)
        #expect(throws: PlaybackError.sessionClosed) { _ = try session.start(frames) }
    }

    @Test("Closing from several threads at once destroys the device once and every caller returns after")
    func concurrentClose() throws {
        let session = PlaybackSession(profile: profile, sink: RecordingSink(), devnode: nil, linger: .zero, clock: ManualClock())
        let done = DispatchSemaphore(value: 0)
        for index in 0..<4 {
            try DedicatedThread.start(ThreadOptions(name: "test-close-\(index)")) {
                session.close()
                done.signal()
            }
        }
        for _ in 0..<4 { done.wait() }
        #expect(session.isClosed)
    }

    @Test("Frames for --print and export come from the same request, without a lead-in")
    func framesForPrinting() throws {
        let gesture = try GestureSynthesizer.tap()
        let (built, frames) = try Engine().frames(for: PlayRequest(gesture: gesture, target: .kind(.touchpad)))
        #expect(built.kind == .touchpad)
        #expect(frames.first?.time == .zero)
    }
}

@Suite("Engine signals")
struct SignalRouterTests {
    @Test("A routed signal goes to the subscribers; with none, to the unhandled action")
    func routing() {
        let unhandled = Collected<Int32>()
        let router = SignalRouter(unhandled: { unhandled.add($0) })
        router.deliver(2)
        #expect(unhandled.values == [2])
        let seen = Collected<Int32>()
        let subscription = router.subscribe { seen.add($0) }
        router.deliver(15)
        #expect(seen.values == [15])
        #expect(unhandled.values == [2])
        subscription.cancel()
        router.deliver(1)
        #expect(seen.values == [15])
        #expect(unhandled.values == [2, 1])
    }

    @Test("The CLI's mapping: a signal cancels the job being waited for")
    func cancelling() {
        let router = SignalRouter(unhandled: { _ in Issue.record("no subscriber") })
        let handle = JobHandle<Int, Never>()
        let subscription = router.cancelling(handle)
        router.deliver(2)
        #expect(handle.isCancelled)
        subscription.cancel()
    }
}

@Suite("Thread names")
struct ThreadNameTests {
    @Test("Every thread the engine starts has a name the kernel keeps whole (at most 15 bytes), and no two share one")
    func namesFit() throws {
        let options = [
            Player.threadOptions, RecordingSession.threadOptions, Engine.watchThread, Engine.importThread,
            PlayJob.closeThread, SignalWatcher.threadOptions,
        ]
        for option in options {
            #expect(option.name.utf8.count <= DedicatedThread.maximumNameLength, "\(option.name)")
            #expect(option.name.hasPrefix("gesturectl-"))
        }
        #expect(Set(options.map(\.name)).count == options.count)
        // A name that is too long is refused before any thread starts.
        #expect(throws: SystemError.self) {
            try DedicatedThread.start(ThreadOptions(name: "gesturectl-toolong")) {}
        }
    }
}
