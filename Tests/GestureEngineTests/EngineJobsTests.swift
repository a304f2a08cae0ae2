@testable import GestureEngine
import GestureModel
import GesturePlayback
import GestureSynth
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// The engine's job table (issue 37): every play and press started through
/// the engine is listed by id from its start to its end, and any front end
/// may cancel one by that id.
@Suite("The engine's jobs")
struct EngineJobsTests {
    @Test("A play is listed while it waits and runs, cancelled by its id, and gone once it ends")
    func listedCancelledGone() async throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let (gate, opener) = try FileDescriptor.pipe()
        defer {
            gate.close()
            opener.close()
        }
        let gesture = try GestureSynthesizer.swipe(direction: .up, fingers: 2)
        // Held at its start gate: listed, not yet running.
        let first = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true, startGate: gate))
        let second = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true))
        #expect(first.id > 0 && second.id > first.id)
        let listed = engine.jobs.list()
        #expect(listed.map(\.id) == [first.id, second.id])
        #expect(listed.allSatisfy { $0.kind == .play && $0.device == .touchscreen && $0.owner == .nobody })
        #expect(listed.last?.state == .queued)
        // The second is cancelled by its id; it never plays.
        #expect(engine.jobs.cancel(second.id))
        try opener.writeAll([1])
        guard case .completed = await first.finished().outcome else {
            Issue.record("the first did not complete")
            return
        }
        guard case .cancelled = await second.finished().outcome else {
            Issue.record("the second was not cancelled")
            return
        }
        #expect(waitUntil { engine.jobs.list().isEmpty })
        #expect(!engine.jobs.cancel(first.id), "a job that ended is no longer there")
    }

    @Test("Ids never repeat, grow in the order asked, and end in 20 random bits")
    func ids() {
        let jobs = EngineJobs()
        let ids = (0..<1_000).map { _ in jobs.nextID() }
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        #expect(ids.allSatisfy { $0 < 1 << 53 })
        #expect(Set(ids.map { $0 & ((1 << 20) - 1) }).count > 900)
    }

    @Test("A job is its owner's: listed with it, told queued, running and ended, and cancelled when its client leaves")
    func ownedJobs() async throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let (gate, opener) = try FileDescriptor.pipe()
        defer {
            gate.close()
            opener.close()
        }
        let gesture = try GestureSynthesizer.swipe(direction: .up, fingers: 2)
        let told = Mutex<[String]>([])
        let owner = JobOwner(client: 7, user: 1_000)
        let options = JobOptions(
            owner: owner, endsWithClient: true,
            queued: { _ in told.withLock { $0.append("queued") } },
            started: { _, devnode in told.withLock { $0.append("running on \(devnode ?? "-")") } },
            ended: { entry, _ in
                // Still listed while its front end is told: a reply is queued before the job goes.
                told.withLock { $0.append("ended \(entry.owner.client) listed \(engine.jobs.entry(entry.id) != nil)") }
            })
        let first = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true, startGate: gate), job: options)
        // Another client's, which stays when client 7 leaves.
        let other = try engine.startPlay(
            PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true), job: JobOptions(owner: JobOwner(client: 8, user: 1_001), endsWithClient: true))
        #expect(engine.jobs.entry(first.id)?.owner == owner)
        #expect(waitUntil { engine.jobs.entry(first.id)?.state == .running })
        #expect(engine.jobs.entry(first.id)?.devnode == "/dev/input/test0")
        #expect(engine.jobs.clientLeft(7) == 1)
        guard case .cancelled = await first.finished().outcome else {
            Issue.record("client 7's play was not cancelled when it left")
            return
        }
        guard case .completed = await other.finished().outcome else {
            Issue.record("client 8's play did not complete")
            return
        }
        engine.jobs.waitUntilEmpty()
        #expect(told.withLock { $0 } == ["queued", "running on /dev/input/test0", "ended 7 listed true"])
    }

    @Test("A queue limit refuses a job past it (unlisted), and none refuses a release")
    func queueLimit() throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        let (gate, opener) = try FileDescriptor.pipe()
        defer {
            gate.close()
            opener.close()
        }
        let gesture = try GestureSynthesizer.swipe(direction: .up, fingers: 2)
        let limited = JobOptions(queueLimit: 1)
        let running = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true, startGate: gate), job: limited)
        #expect(waitUntil { engine.jobs.entry(running.id)?.state == .running })
        _ = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true), job: limited)
        #expect(throws: PlayQueueError.self) {
            _ = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true), job: limited)
        }
        #expect(engine.jobs.list().count == 2, "a refused job is not listed")
        _ = try engine.startPlay(PlayRequest(gesture: gesture, leadIn: .zero, keepDevice: true))
        #expect(engine.jobs.list().count == 3)
        #expect(engine.jobs.cancelAll() == 3)
        engine.jobs.waitUntilEmpty()
    }

    @Test("The emergency stop cancels every job and releases held keys on the kept keyboard, making none")
    func emergencyStop() throws {
        let devices = MadeDevices()
        let engine = devices.engine()
        // No keyboard yet: nothing is made to release keys on.
        #expect(engine.emergencyStop() == 0)
        #expect(devices.all.isEmpty)
        let down = try engine.startPress(PressRequest(press: KeyPress(key: .keyVolumeUp, action: .down), leadIn: .zero, keepDevice: true))
        _ = down.wait()
        let keyboard = try #require(devices.all.first?.session)
        #expect(keyboard.state.pressedKeys == [.keyVolumeUp])
        engine.emergencyStop()
        engine.jobs.waitUntilEmpty()
        #expect(keyboard.state.pressedKeys.isEmpty)
        #expect(devices.all.count == 1)
    }
}
