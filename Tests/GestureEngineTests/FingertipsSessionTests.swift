import DeviceDiscovery
import GestureEngine
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// A source whose release the test can see: the engine holds the only
/// reference, so its going means the source (and a real device's grab) was let go.
private final class ReleasedSource: EventSource, Sendable {
    let inner: PipeSource
    private let onRelease: @Sendable () -> Void

    init(_ inner: PipeSource, onRelease: @escaping @Sendable () -> Void) {
        self.inner = inner
        self.onRelease = onRelease
    }

    deinit { onRelease() }

    var fileDescriptor: FileDescriptor { inner.fileDescriptor }
    func nextEvent() throws(SystemError) -> ReadOutcome { try inner.nextEvent() }
}

/// A source whose frames come as one batch, as a kernel read brings the
/// frames that queued up while the reader was not running: it says it has
/// events buffered until they are all read.
private final class BatchedSource: EventSource, Sendable {
    let fileDescriptor: FileDescriptor
    private let writeEnd: FileDescriptor
    private let queue = Mutex<[ReadOutcome]>([])

    init() throws {
        // Non-blocking, as an evdev node is: a read when nothing waits
        // says so, it does not wait (a stop's drain reads until then).
        let ends = try FileDescriptor.pipe(nonBlocking: true)
        fileDescriptor = ends.read
        writeEnd = ends.write
    }

    deinit {
        fileDescriptor.close()
        writeEnd.close()
    }

    /// Queues `frames` (each its events and a SYN_REPORT) at once, then makes the descriptor readable.
    func batch(_ frames: [[(EventType, EventCode, Int32)]]) {
        let time = SystemClock().now()
        queue.withLock { queued in
            for frame in frames {
                queued += frame.map { .event(InputEvent(time: time, type: $0.0, code: $0.1, value: $0.2)) }
                queued.append(.event(.synchronizationReport(time: time)))
            }
        }
        writeEnd.writeAllIgnoringErrors([1])
    }

    var hasBufferedEvents: Bool { queue.withLock { !$0.isEmpty } }

    func nextEvent() throws(SystemError) -> ReadOutcome {
        let next: ReadOutcome? = queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let next { return next }
        _ = try? fileDescriptor.read(upTo: 1)
        return .wouldBlock
    }
}

/// An engine whose fingertips read `source` (as a device of `description`
/// named `name`) and whose devices write to recording sinks.
private final class FingertipsRig: Sendable {
    let source: PipeSource
    private let store = Store()
    let ready: TestEvent
    let engine: Engine

    private final class Store: Sendable {
        let made = Mutex<[(session: PlaybackSession, sink: RecordingSink)]>([])
        let outputs = Mutex<[PlayOutput]>([])
        let events = Mutex<[FingertipsEvent]>([])
        let released = Atomic(false)
        /// Every frame written to any device, in order, with the device's index.
        let writes = Mutex<[(device: Int, frame: InputFrame)]>([])
    }

    init(
        _ description: InputDeviceDescription, name: String? = nil,
        open: (@Sendable (String?) throws -> OpenedInput)? = nil
    ) throws {
        let source = try PipeSource()
        self.source = source
        ready = try TestEvent()
        let store = store
        let sourceName = name ?? description.name
        let inputs = InputFactory(
            openRecording: { _ in throw FingertipsError("not a recording test") },
            openLiveSource: open ?? { _ in
                OpenedInput(
                    source: ReleasedSource(source, onRelease: { store.released.store(true, ordering: .releasing) }),
                    description: description,
                    info: DeviceInfo(node: "/dev/input/test-source", name: sourceName, kind: DeviceClassifier.kind(of: description)),
                    stableID: nil)
            })
        engine = Engine(
            devices: DeviceFactory(make: { profile, output, _ in
                store.outputs.withLock { $0.append(output) }
                let index = store.made.withLock { $0.count }
                let sink = RecordingSink(afterWrite: { _, frame in store.writes.withLock { $0.append((index, frame)) } })
                let session = PlaybackSession(
                    profile: profile, sink: sink, devnode: "/dev/input/test-fingertips", linger: .zero, clock: ManualClock())
                store.made.withLock { $0.append((session, sink)) }
                return session
            }), inputs: inputs)
    }

    /// A rig whose source is `batched`, a mouse.
    convenience init(mouseReading batched: BatchedSource) throws {
        try self.init(
            TestDevices.mouse,
            open: { _ in
                OpenedInput(
                    source: batched, description: TestDevices.mouse,
                    info: DeviceInfo(node: "/dev/input/test-source", name: "mouse", kind: .mouse), stableID: nil)
            })
    }

    /// Whether the engine let the source go.
    var isSourceReleased: Bool { store.released.load(ordering: .acquiring) }

    var devices: [(session: PlaybackSession, sink: RecordingSink)] { store.made.withLock { $0 } }
    var frames: [InputFrame] { devices.first?.sink.frames ?? [] }
    /// The output each device was made through.
    var outputs: [PlayOutput] { store.outputs.withLock { $0 } }
    var seen: [FingertipsEvent] { store.events.withLock { $0 } }
    /// Every frame written to any device, in order (0 the fingertips', 1 the hover pen's).
    var writes: [(device: Int, frame: InputFrame)] { store.writes.withLock { $0 } }

    func start(
        count: Int = 3, target: FingertipsTarget = .automatic, idle: Microseconds? = FingertipsOptions.defaultIdle,
        output: PlayOutput = .uinput, hover: Bool = false
    ) throws -> FingertipsJob {
        let store = store
        let ready = ready
        return try engine.startFingertips(
            FingertipsRequest(
                device: "test", options: FingertipsOptions(count: count, idle: idle), target: target, output: output,
                hover: hover),
            events: { event in
                store.events.withLock { $0.append(event) }
                if case .ready = event { ready.signal() }
            })
    }
}

/// The contacts down on a device, frame by frame, as a reader of its
/// events keeps them (a frame carries only what changed).
private struct ContactState {
    private var slot = 0
    private var positions: [Int: (x: Int, y: Int)] = [:]
    private var down: Set<Int> = []

    /// Applies `frame`; the contacts down after it, by slot.
    mutating func apply(_ frame: InputFrame) -> [Int: (x: Int, y: Int)] {
        for event in frame.events where event.type == .absolute {
            switch event.code {
            case .multitouchSlot: slot = Int(event.value)
            case .multitouchTrackingID:
                if event.value < 0 { down.remove(slot) } else { down.insert(slot) }
            case .multitouchPositionX: positions[slot, default: (0, 0)].x = Int(event.value)
            case .multitouchPositionY: positions[slot, default: (0, 0)].y = Int(event.value)
            default: break
            }
        }
        return positions.filter { down.contains($0.key) }
    }
}

private func trackingIDs(_ frame: InputFrame) -> [Int32] {
    frame.events.filter { $0.type == .absolute && $0.code == .multitouchTrackingID }.map(\.value)
}

@Suite("Live fingertips: the engine's session")
struct FingertipsSessionTests {
    @Test("A touchscreen tap becomes a 3-finger tap on a copy of the source, once the ready line is out")
    func touchscreenTap() async throws {
        let rig = try FingertipsRig(TestDevices.touchscreen)
        let job = try rig.start()
        #expect(try rig.ready.wait())
        #expect(job.sourceKind == .touchscreen)
        #expect(job.profile.description.name == "gesturectl clone of gesturectl test touchscreen")
        #expect(job.profile.description.absoluteAxes[.multitouchPositionX] == TestDevices.touchscreen.absoluteAxes[.multitouchPositionX])
        guard case .ready(let line)? = rig.seen.first else {
            Issue.record("the first event is not the ready line")
            return
        }
        #expect(line.hasPrefix("3 fingertips ready: "))
        rig.source.frame([(.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, 1), (.absolute, .multitouchPositionX, 5_000),
                          (.absolute, .multitouchPositionY, 4_000), (.key, .buttonTouch, 1)])
        rig.source.frame([(.absolute, .multitouchTrackingID, -1), (.key, .buttonTouch, 0)])
        try waitUntil("two frames") { rig.frames.count == 2 }
        #expect(trackingIDs(rig.frames[0]).count == 3)
        #expect(trackingIDs(rig.frames[0]).allSatisfy { $0 >= 0 })
        #expect(trackingIDs(rig.frames[1]) == [-1, -1, -1])
        job.cancel()
        let outcome = await job.finished()
        guard case .cancelled = outcome.reason else {
            Issue.record("ended as \(outcome.reason)")
            return
        }
        #expect(rig.devices.first?.session.isClosed == true)
        #expect(rig.isSourceReleased)
        #expect(rig.frames.count == 2)  // nothing was down: no lift needed
    }

    @Test("Unplugging the source mid-drag lifts every fingertip, lets the source go and destroys the device")
    func vanishedMidDrag() async throws {
        let rig = try FingertipsRig(TestDevices.mouse)
        let job = try rig.start(count: 4)
        #expect(try rig.ready.wait())
        #expect(job.profile.description.name == "gesturectl virtual touchscreen")
        rig.source.frame([(.key, .buttonLeft, 1)])
        rig.source.frame([(.relative, .relativeX, 50)])
        try waitUntil("the drag") { rig.frames.count == 2 }
        rig.source.vanish()
        let outcome = await job.finished()
        guard case .sourceVanished = outcome.reason else {
            Issue.record("ended as \(outcome.reason)")
            return
        }
        #expect(outcome.reason.isFailure)
        #expect(rig.frames.count == 3)
        #expect(trackingIDs(rig.frames.last!) == [-1, -1, -1, -1])
        #expect(rig.devices.first?.session.state.isReleased == true)
        #expect(rig.devices.first?.session.isClosed == true)
        #expect(rig.isSourceReleased)
        #expect(rig.seen.contains { if case .touching(true) = $0 { true } else { false } })
    }

    @Test("Cancelling (Ctrl-C) while the fingertips touch lifts them all in one frame")
    func cancelWhileDown() async throws {
        let rig = try FingertipsRig(TestDevices.mouse)
        let job = try rig.start(count: 2, target: .kind(.touchpad))
        #expect(try rig.ready.wait())
        rig.source.frame([(.key, .buttonLeft, 1)])
        try waitUntil("the touch") { rig.frames.count == 1 }
        #expect(rig.frames[0].events.contains { $0.code == .buttonToolDoubleTap && $0.value == 1 })
        job.cancel()
        let outcome = await job.finished()
        guard case .cancelled = outcome.reason else {
            Issue.record("ended as \(outcome.reason)")
            return
        }
        #expect(trackingIDs(rig.frames.last!) == [-1, -1])
        #expect(rig.devices.first?.session.state.isReleased == true)
        #expect(outcome.liftAllError == nil)
    }

    @Test("Frames read in one batch: each touch where it touched, the moves after it as one frame to where the source left them, each lift")
    func batchCoalesced() async throws {
        let batched = try BatchedSource()
        let rig = try FingertipsRig(mouseReading: batched)
        let job = try rig.start(count: 3, idle: nil)
        #expect(try rig.ready.wait())
        // Pressed and dragged 30 counts, released, pressed again and dragged 5.
        batched.batch([
            [(.key, .buttonLeft, 1), (.relative, .relativeX, 10)], [(.relative, .relativeX, 10)], [(.relative, .relativeX, 10)],
            [(.key, .buttonLeft, 0)], [(.key, .buttonLeft, 1)], [(.relative, .relativeX, 5)],
        ])
        try waitUntil("five frames") { rig.frames.count == 5 }
        job.cancel()
        _ = await job.finished()
        let frames = rig.frames
        #expect(frames.count == 6)  // and the lift on cancel
        #expect(trackingIDs(frames[0]).count == 3 && trackingIDs(frames[0]).allSatisfy { $0 >= 0 })
        #expect(trackingIDs(frames[2]) == [-1, -1, -1])
        #expect(trackingIDs(frames[3]).count == 3 && trackingIDs(frames[3]).allSatisfy { $0 >= 0 })
        // The first touch lands where it was pressed (10 counts right of the
        // middle), not where the drag after it ended; the moves after it are
        // one frame to where the whole drag left the fingertips (no motion
        // lost): 30 counts; the second touch lands there (its positions
        // unchanged, so not written again), then 5 more.
        let width = Double(VirtualDeviceProfile.defaultTouchscreenAxes.x.maximum)
        let unitsPerCount = width / FingertipsOptions.pointerCountsAcross
        func mean(_ frame: InputFrame) -> Double {
            let xs = frame.events.filter { $0.type == .absolute && $0.code == .multitouchPositionX }.map(\.value)
            return Double(xs.reduce(0, +)) / Double(max(xs.count, 1))
        }
        #expect(abs(mean(frames[0]) - (width / 2 + 10 * unitsPerCount)) <= 2)
        #expect(abs(mean(frames[1]) - (width / 2 + 30 * unitsPerCount)) <= 2)
        #expect(abs(mean(frames[4]) - (width / 2 + 35 * unitsPerCount)) <= 2)
        let touching = rig.seen.compactMap { event -> Bool? in
            if case .touching(let down) = event { return down }
            return nil
        }
        #expect(touching == [true, false, true])
    }

    @Test("--to uhid and --to gadget make the fingertips' device through that output; uinput unless told")
    func outputs() async throws {
        for output in [PlayOutput.uinput, .uhid, .gadget(name: "g1")] {
            let rig = try FingertipsRig(TestDevices.mouse)
            let job = try rig.start(output: output)
            #expect(try rig.ready.wait())
            rig.source.frame([(.key, .buttonLeft, 1)])
            rig.source.frame([(.key, .buttonLeft, 0)])
            try waitUntil("a 3-finger tap") { rig.frames.count == 2 }
            job.cancel()
            _ = await job.finished()
            #expect(rig.outputs == [output])
            #expect(trackingIDs(rig.frames[0]).count == 3)
            #expect(trackingIDs(rig.frames[1]) == [-1, -1, -1])
        }
    }

    @Test("On a touchpad, moves come at most every 8 ms (merged meanwhile); touches at once, lifts once the moves before them are")
    func touchpadPacing() async throws {
        let clock = ManualClock(start: Microseconds(1_000_000))
        let rig = try FingertipsRig(TestDevices.mouse)
        let job = try rig.engine.startFingertips(
            FingertipsRequest(device: "test", options: FingertipsOptions(count: 3, idle: nil), target: .kind(.touchpad)),
            clock: clock, events: { if case .ready = $0 { rig.ready.signal() } })
        #expect(try rig.ready.wait())
        func meanX(_ frame: InputFrame) -> Double {
            let xs = frame.events.filter { $0.type == .absolute && $0.code == .multitouchPositionX }.map { Double($0.value) }
            return xs.reduce(0, +) / Double(max(1, xs.count))
        }
        rig.source.frame([(.key, .buttonLeft, 1)])
        try waitUntil("the touch, at once") { rig.frames.count == 1 }
        // Two moves within the 8 ms (the clock stands still): held back.
        rig.source.frame([(.relative, .relativeX, 20)])
        rig.source.frame([(.relative, .relativeX, 20)])
        try waitUntil("both moves read") { rig.source.isDrained }
        #expect(rig.frames.count == 1)
        clock.advance(by: Microseconds(8_000))  // the pacing
        try waitUntil("the merged move") { rig.frames.count == 2 }
        let width = Double(VirtualDeviceProfile.defaultTouchpadAxes.x.maximum)
        #expect(abs(meanX(rig.frames[1]) - meanX(rig.frames[0]) - 40 * width / FingertipsOptions.pointerCountsAcross) <= 2)
        // A lift waits for the move before it, paced, then goes with it.
        rig.source.frame([(.relative, .relativeX, 10)])
        rig.source.frame([(.key, .buttonLeft, 0)])
        try waitUntil("the move and the lift read") { rig.source.isDrained }
        #expect(rig.frames.count == 2)
        clock.advance(by: Microseconds(8_000))
        try waitUntil("the move and the lift") { rig.frames.count == 4 }
        #expect(trackingIDs(rig.frames[3]) == [-1, -1, -1])
        // A touch goes at once, though the last write was just now.
        rig.source.frame([(.key, .buttonLeft, 1)])
        try waitUntil("the touch, at once") { rig.frames.count == 5 }
        job.cancel()
        _ = await job.finished()
    }

    @Test("On a touchpad, a backlog read in one batch is caught up in steps libinput accepts, and nothing of it is lost")
    func touchpadBacklog() async throws {
        let clock = ManualClock(start: Microseconds(1_000_000))
        let batched = try BatchedSource()
        let rig = try FingertipsRig(mouseReading: batched)
        let job = try rig.engine.startFingertips(
            FingertipsRequest(device: "test", options: FingertipsOptions(count: 2, idle: nil), target: .kind(.touchpad)),
            clock: clock, events: { if case .ready = $0 { rig.ready.signal() } })
        #expect(try rig.ready.wait())
        let resolution = Double(VirtualDeviceProfile.defaultTouchpadAxes.x.resolution)
        var libinput = LibinputJumpRule(unitsPerMM: resolution)
        var state = ContactState()
        var seen: [[Int: (x: Int, y: Int)]] = []
        // Each frame stamped with the (test) clock's time it was written at.
        func judge(upTo count: Int) {
            for index in seen.count..<count {
                seen.append(state.apply(rig.frames[index]))
                libinput.frame(at: clock.now().rawValue, seen[index])
            }
        }
        batched.batch([[(.key, .buttonLeft, 1)]])
        try waitUntil("the touch") { rig.frames.count == 1 }
        judge(upTo: 1)
        // What queued up while the reader was not running: 600 counts right
        // (about 34 mm on the touchpad) in 30 frames, then the lift.
        batched.batch(Array(repeating: [(.relative, .relativeX, 20)], count: 30) + [[(.key, .buttonLeft, 0)]])
        var rounds = 0
        while trackingIDs(rig.frames.last!) != [-1, -1] && rounds < 100 {
            clock.advance(by: Microseconds(8_000))
            let written = rig.frames.count
            // The session reads the clock once more after each write (its
            // end): an advance seen before that reading counts as the write's
            // own time, and the next step is due 8 ms later than this round
            // moved to. So while no step comes, time moves on every 100 ms
            // (it hung a loaded run). Only then can the judge stamp a write
            // one advance late.
            var polls = 0
            try waitUntil("the next step") {
                if rig.frames.count > written { return true }
                polls += 1
                if polls % 50 == 0 { clock.advance(by: Microseconds(8_000)) }
                return false
            }
            judge(upTo: rig.frames.count)
            rounds += 1
        }
        #expect(libinput.jumps.isEmpty, "\(libinput.jumps)")
        let moves = rig.frames.count - 2
        #expect(moves > 2, "the backlog was written in \(moves) steps")
        // Nothing lost: the last step is where the source left the fingertips.
        let width = Double(VirtualDeviceProfile.defaultTouchpadAxes.x.maximum)
        let first = seen[0]
        let last = seen[seen.count - 2]
        #expect(abs(Double(last[0]!.x - first[0]!.x) - 600 * width / FingertipsOptions.pointerCountsAcross) <= 2)
        #expect(last[1]!.x - last[0]!.x == first[1]!.x - first[0]!.x)
        job.cancel()
        _ = await job.finished()
    }

    @Test("On a touchpad, a source that taps faster than the pacing drains cannot grow the queue without end: past 64 changes waiting, moves go at once")
    func touchpadQueueBounded() async throws {
        let clock = ManualClock(start: Microseconds(1_000_000))
        let batched = try BatchedSource()
        let rig = try FingertipsRig(mouseReading: batched)
        let job = try rig.engine.startFingertips(
            FingertipsRequest(device: "test", options: FingertipsOptions(count: 2, idle: nil), target: .kind(.touchpad)),
            clock: clock, events: { if case .ready = $0 { rig.ready.signal() } })
        #expect(try rig.ready.wait())
        // 100 taps, each with a move while down, in one batch: 300 changes
        // (a touch, a move, a lift each). The clock stands still, so the
        // pacing alone would hold every move back.
        let tap: [[(EventType, EventCode, Int32)]] = [[(.key, .buttonLeft, 1)], [(.relative, .relativeX, 4)], [(.key, .buttonLeft, 0)]]
        batched.batch(Array(repeating: tap, count: 100).flatMap { $0 })
        try waitUntil("all but the last 64 changes, at once") { rig.frames.count >= 300 - 64 }
        #expect(rig.frames.count < 300)
        // The rest as paced: each move one interval on.
        var advances = 0
        while rig.frames.count < 300 && advances < 100 {
            let written = rig.frames.count
            clock.advance(by: Microseconds(8_000))
            advances += 1
            _ = waitUntil(within: 1) { rig.frames.count > written }
        }
        #expect(rig.frames.count == 300)
        #expect(trackingIDs(rig.frames.last!) == [-1, -1])
        job.cancel()
        _ = await job.finished()
    }

    @Test("With no input for the idle time the session ends by itself")
    func idle() async throws {
        let clock = ManualClock()
        let rig = try FingertipsRig(
            TestDevices.mouse,
            open: { _ in
                OpenedInput(
                    source: FakeSource(clock: clock, steps: []), description: TestDevices.mouse,
                    info: DeviceInfo(node: "/dev/input/test-source", name: "mouse", kind: .mouse), stableID: nil)
            })
        let job = try rig.engine.startFingertips(
            FingertipsRequest(options: FingertipsOptions(count: 3, idle: Microseconds(5_000_000))), clock: clock)
        let outcome = await job.finished()
        guard case .idle = outcome.reason else {
            Issue.record("ended as \(outcome.reason)")
            return
        }
        #expect(clock.now() >= Microseconds(5_000_000))
        #expect(rig.frames.isEmpty)
        #expect(rig.devices.first?.session.isClosed == true)
    }

    @Test("The hover pen: in proximity at the centre from the ready line while up, out before a touch, back after the lift, out before it goes")
    func hoverPen() async throws {
        func value(_ frame: InputFrame, _ code: EventCode) -> Int32? {
            let type: EventType = code == .buttonToolPen ? .key : .absolute
            return frame.events.last { $0.type == type && $0.code == code }?.value
        }
        let rig = try FingertipsRig(TestDevices.mouse)
        let job = try rig.start(count: 3, idle: nil, hover: true)
        #expect(try rig.ready.wait())
        #expect(rig.devices.count == 2)
        let pen = try #require(rig.devices.last)
        #expect(pen.session.profile.description.name == "gesturectl virtual touchscreen pen")
        #expect(pen.session.profile.description.properties.contains(.direct))
        #expect(pen.session.profile.description.absoluteAxes[.absoluteX] == VirtualDeviceProfile.defaultTouchscreenAxes.x)
        #expect(job.hoverDevnode == "/dev/input/test-fingertips")
        // In proximity at the centre before the ready line, out and in again
        // (a real proximity out turns libinput's forced one off).
        #expect(rig.writes.count == 3)
        #expect(rig.writes.map(\.device) == [1, 1, 1])
        #expect(rig.writes.map { value($0.frame, .buttonToolPen) } == [1, 0, 1])
        #expect(value(rig.writes[0].frame, .absoluteX) == 10_800 && value(rig.writes[0].frame, .absoluteY) == 6_750)
        // Moving while up moves the pen only; the first motion goes out and in once more.
        rig.source.frame([(.relative, .relativeX, 192)])
        try waitUntil("the pen's move") { rig.writes.count == 5 }
        #expect(rig.writes[3].device == 1 && value(rig.writes[3].frame, .buttonToolPen) == 0)
        #expect(rig.writes[4].device == 1 && value(rig.writes[4].frame, .absoluteX) == 12_960)
        #expect(value(rig.writes[4].frame, .buttonToolPen) == 1)
        // Touching: the pen leaves first; moves while down write no pen frame.
        rig.source.frame([(.key, .buttonLeft, 1)])
        rig.source.frame([(.relative, .relativeX, 10)])
        rig.source.frame([(.key, .buttonLeft, 0)])
        try waitUntil("the touch, the drag, the lift and the pen back") { rig.writes.count == 10 }
        let order = rig.writes.dropFirst(5).map(\.device)
        #expect(order == [1, 0, 0, 0, 1])
        #expect(value(rig.writes[5].frame, .buttonToolPen) == 0)
        #expect(trackingIDs(rig.writes[8].frame) == [-1, -1, -1])
        #expect(value(rig.writes[9].frame, .buttonToolPen) == 1)
        #expect(abs(Int(value(rig.writes[9].frame, .absoluteX) ?? 0) - (12_960 + 113)) <= 1)  // where the drag left them
        // Later moves are moves alone.
        rig.source.frame([(.relative, .relativeY, 96)])
        try waitUntil("a move") { rig.writes.count == 11 }
        #expect(value(rig.writes[10].frame, .buttonToolPen) == nil && value(rig.writes[10].frame, .absoluteY) == 6_750 + 1_080)
        job.cancel()
        _ = await job.finished()
        // Out of proximity before it was destroyed.
        #expect(rig.writes.last?.device == 1)
        #expect(rig.writes.last.map { value($0.frame, .buttonToolPen) } == 0)
        #expect(pen.session.state.isReleased)
        #expect(pen.session.isClosed)
    }

    @Test("No hover pen with --no-hover, from a touchscreen source, or through uhid or the gadget")
    func noHoverPen() async throws {
        for (description, output, hover) in [
            (TestDevices.mouse, PlayOutput.uinput, false), (TestDevices.touchscreen, .uinput, true), (TestDevices.mouse, .uhid, true),
            (TestDevices.mouse, .gadget(name: "g1"), true),
        ] {
            let rig = try FingertipsRig(description)
            let job = try rig.start(output: output, hover: hover)
            #expect(try rig.ready.wait())
            #expect(rig.devices.count == 1)
            #expect(job.hoverDevnode == nil)
            job.cancel()
            _ = await job.finished()
        }
    }

    @Test("A hover pen that cannot be made is told once; the fingertips work without it")
    func hoverPenUnavailable() async throws {
        let source = try PipeSource()
        let made = Mutex(0)
        let engine = Engine(
            devices: DeviceFactory(make: { profile, _, _ in
                let count = made.withLock { count in
                    count += 1
                    return count
                }
                if count == 2 { throw FingertipsError("no second device") }
                return PlaybackSession(profile: profile, sink: RecordingSink(), devnode: "/dev/input/x", linger: .zero, clock: ManualClock())
            }),
            inputs: InputFactory(
                openRecording: { _ in throw FingertipsError("not a recording test") },
                openLiveSource: { _ in
                    OpenedInput(
                        source: source, description: TestDevices.mouse,
                        info: DeviceInfo(node: "/dev/input/test-source", name: "mouse", kind: .mouse), stableID: nil)
                }))
        let seen = Mutex<[FingertipsEvent]>([])
        let ready = try TestEvent()
        let job = try engine.startFingertips(
            FingertipsRequest(options: FingertipsOptions(count: 2, idle: nil)),
            events: { event in
                seen.withLock { $0.append(event) }
                if case .ready = event { ready.signal() }
            })
        #expect(try ready.wait())
        #expect(job.hoverDevnode == nil)
        let notices = seen.withLock { $0 }.compactMap { event -> String? in
            if case .notice(let notice) = event { return "\(notice)" }
            return nil
        }
        #expect(notices == ["no hover cursor (no second device); the fingertips work without it"])
        job.cancel()
        _ = await job.finished()
    }

    @Test("One of gesturectl's own devices is refused as a source, before any device is made")
    func ownDeviceRefused() throws {
        let rig = try FingertipsRig(TestDevices.touchscreen, name: "gesturectl virtual touchscreen")
        do {
            _ = try rig.start()
            Issue.record("started")
        } catch {
            #expect("\(error)".contains("is one of gesturectl's own virtual devices"))
        }
        #expect(rig.devices.isEmpty)
    }

    @Test("A source another program grabbed is refused, naming it; other grab errors are passed on")
    func grabbedRefused() throws {
        let busy = SystemError(call: "libevdev_grab", errorNumber: ErrorNumber.busy)
        let rig = try FingertipsRig(
            TestDevices.mouse, open: { _ in throw FingertipsError.grabFailed(busy, name: "Head Mouse", node: "/dev/input/event5") })
        do {
            _ = try rig.start()
            Issue.record("started")
        } catch {
            #expect("\(error)".contains("Head Mouse (/dev/input/event5) is grabbed by another program"))
        }
        #expect(rig.devices.isEmpty)
        let other = SystemError(call: "libevdev_grab", errorNumber: ErrorNumber.noSuchDevice)
        #expect(FingertipsError.grabFailed(other, name: "x", node: "y") is SystemError)
    }

    @Test("A target that is not a touchscreen or touchpad is refused")
    func targetRefused() throws {
        let rig = try FingertipsRig(TestDevices.mouse)
        #expect(throws: FingertipsError.self) { try rig.start(target: .kind(.mouse)) }
        #expect(rig.devices.isEmpty)
    }
}
