@testable import GestureEngine
import GestureModel
import GesturePlayback
import GestureSynth
import OperatingSystem
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
        #expect(listed.allSatisfy { $0.kind == .play && $0.device == .touchscreen && !$0.running })
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
}
