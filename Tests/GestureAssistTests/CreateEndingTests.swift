@testable import GestureAssist
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import TestSupport
import Testing

/// A recording that ended because its device went away (after the flow was told so).
private func vanished(_ strokes: [Stroke]) -> CreateInput {
    .recordingEnded(
        .success(
            RecordedGesture(
                gesture: Gesture(name: "r", device: .synthDefault, strokes: strokes),
                stopReason: .deviceVanished(SystemError(call: "read", errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished)))))
}

private let keysEndedLine = "The keys ended and there is no switch, so nothing can operate the flow."

/// How the session ended, once it ended on its own (waited for, bounded);
/// one that goes on is cancelled (the emergency stop) and gives `nil`, so
/// that a session that waits forever fails the test instead of hanging it.
private func endedByItself(
    _ handle: JobHandle<Result<CreateOutcome, CreateFailure>, Never>, _ display: TranscriptDisplay
) -> Result<CreateOutcome, CreateFailure>? {
    guard display.eventually({ display.all.last == "END" }) else {
        handle.cancel()
        _ = handle.wait()
        return nil
    }
    return handle.wait()
}

@Suite("The create flow when its keys end or its drawing device goes away (issue 24)")
struct CreateEndingFlowTests {
    @Test("Keys end at the menu after one stroke: the flow ends at once, says that nothing was saved and the stroke is discarded")
    func keysEndAtTheMenu() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = flow.handle(.strokeLanded(line(20, 20, dx: 0, dy: 40, start: 0)))
        _ = flow.handle(.stop)
        #expect(flow.handle(recorded([line(20, 20, dx: 0, dy: 40, start: 0)])).menu != nil)
        let ended = flow.handle(.inputEnded)
        #expect(ended.lines == ["\(keysEndedLine) Nothing was saved: the 1 stroke drawn is discarded."])
        #expect(ended.last == .finish(.discarded))
        #expect(flow.phase == .finished)
        #expect(flow.handle(.inputEnded).isEmpty)
    }

    @Test("Keys end while recording: the recording stops, its strokes are announced, then the flow ends without a menu")
    func keysEndWhileRecording() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = flow.handle(.recordingStarted(.synthDefault))
        let first = line(20, 20, dx: 0, dy: 40, start: 0)
        let second = line(40, 20, dx: 40, dy: 0, start: 500)
        _ = flow.handle(.strokeLanded(first))
        #expect(flow.handle(.inputEnded) == [.stopRecording])
        #expect(flow.phase == .stopping)
        let ended = flow.handle(recorded([first, second]))
        #expect(ended.lines.contains("Stroke 2: swipe right · 0.30 s · 40 mm"))
        #expect(ended.lines.contains { $0.hasPrefix("Recording stopped: 2 strokes") })
        #expect(ended.lines.last == "\(keysEndedLine) Nothing was saved: the 2 strokes drawn are discarded.")
        #expect(ended.menu == nil)
        #expect(ended.last == .finish(.discarded))
    }

    @Test("Keys end before any stroke: the recording stops and the flow ends, with nothing to discard")
    func keysEndBeforeAnyStroke() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        #expect(flow.handle(.inputEnded) == [.stopRecording])
        let ended = flow.handle(recorded([]))
        #expect(ended.lines == ["Recording stopped. Nothing was drawn.", "\(keysEndedLine) Nothing was saved."])
        #expect(ended.last == .finish(.discarded))
        // A recording that could not start leads to the menu, which nothing can operate: the same end.
        var failed = CreateFlow(library: FakeLibrary())
        _ = failed.start()
        #expect(failed.handle(.recordingEnded(.failure(CreateFailure("no such device")))).menu != nil)
        #expect(failed.handle(.inputEnded).last == .finish(.discarded))
    }

    @Test("Keys end while a review shows, while naming or confirming: the review is stopped, then the flow ends; a save under way is kept")
    func keysEndElsewhere() {
        let stroke = line(20, 20, dx: 0, dy: 40, start: 0)
        var reviewing = CreateFlow(library: FakeLibrary())
        _ = reviewing.start()
        _ = reviewing.handle(recorded([stroke]))
        _ = reviewing.handle(.choose("review"))
        #expect(reviewing.handle(.inputEnded) == [.cancelShowing])
        #expect(reviewing.handle(.shown(problem: nil)).last == .finish(.discarded))

        for steps in [["save"], ["discard"]] {
            var flow = CreateFlow(library: FakeLibrary())
            _ = flow.start()
            _ = flow.handle(recorded([stroke]))
            for id in steps { _ = flow.handle(.choose(id)) }
            let ended = flow.handle(.inputEnded)
            #expect(ended.lines.first?.hasPrefix(keysEndedLine) == true, "\(steps)")
            #expect(ended.last == .finish(.discarded), "\(steps)")
        }

        // A save asked for before the keys ended is carried out and said.
        var saving = CreateFlow(library: FakeLibrary())
        _ = saving.start()
        _ = saving.handle(recorded([stroke]))
        _ = saving.handle(.choose("save"))
        _ = saving.handle(.name("kept"))
        #expect(saving.handle(.inputEnded).isEmpty)
        #expect(saving.handle(.saved(.success("/lib/kept.gesture.json"))).last == .finish(.saved(name: "kept", path: "/lib/kept.gesture.json")))
    }

    @Test("The drawing device goes away: it is named, the menu offers only Review, Save and Discard, and Save still saves the strokes")
    func deviceGone() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = flow.handle(.recordingStarted(.synthDefault))
        let stroke = line(20, 20, dx: 0, dy: 40, start: 0)
        _ = flow.handle(.strokeLanded(stroke))
        #expect(flow.handle(.drawingDeviceGone("ELAN Touchscreen")).isEmpty)
        let ended = flow.handle(vanished([stroke]))
        #expect(ended.lines.contains("The drawing device ELAN Touchscreen went away: nothing more can be drawn."))
        #expect(ended.lines.contains { $0.hasPrefix("Recording stopped: 1 stroke") })
        #expect(ended.menu?.items.map(\.id) == ["review", "save", "discard"])
        #expect(ended.menu?.title.text.contains("The drawing device is gone.") == true)
        #expect(flow.drawingDeviceGone == "ELAN Touchscreen")
        // What records is not offered, and not done when asked anyway.
        for id in ["add", "again", "undo", "play"] { #expect(flow.handle(.choose(id)).isEmpty, "\(id)") }
        #expect(flow.handle(.back).menu?.items.map(\.id) == ["review", "save", "discard"])
        _ = flow.handle(.choose("review"))
        #expect(flow.handle(.shown(problem: nil)).menu?.items.map(\.id) == ["review", "save", "discard"])
        // A failed save comes back to the same menu.
        _ = flow.handle(.choose("save"))
        _ = flow.handle(.name("one"))
        #expect(flow.handle(.saved(.failure(CreateFailure("disk full")))).menu?.items.map(\.id) == ["review", "save", "discard"])
        guard case .askName? = flow.handle(.choose("save")).last else {
            Issue.record("no name asked")
            return
        }
        guard case .save(let gesture, "one", false)? = flow.handle(.name("one")).last else {
            Issue.record("no save")
            return
        }
        #expect(gesture.strokes.count == 1)
    }

    @Test("The drawing device goes away before anything was drawn: the flow ends, nothing to save")
    func deviceGoneBeforeAnyStroke() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = flow.handle(.drawingDeviceGone("ELAN Touchscreen"))
        let ended = flow.handle(vanished([]))
        #expect(
            ended.lines == [
                "The drawing device ELAN Touchscreen went away: nothing more can be drawn.", "Recording stopped. Nothing was drawn.",
                "Nothing was saved.",
            ])
        #expect(ended.last == .finish(.discarded))
    }
}

@Suite("A create session when its keys end or its drawing device goes away (the engine over test doubles; issue 24)", .serialized)
struct CreateEndingSessionTests {
    @Test("Keys from a pipe that ends after one stroke: the session ends, says so, saves nothing and lets the device go")
    func keysEndAfterOneStroke() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.read.close() }
        let handle = try CreateSession.start(
            flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("Recording from test touchscreen") })
        rig.drawing.stroke(id: 1, x: 1_000, y: 1_000)
        #expect(display.eventually { display.has("Stroke 1: ") })
        keys.write.close()
        #expect(endedByItself(handle, display) == .success(.discarded))
        #expect(display.has("\(keysEndedLine) Nothing was saved: the 1 stroke drawn is discarded."))
        #expect(!display.has("MENU "))
        #expect(try rig.library.list().isEmpty)
        #expect(waitUntil { rig.drawing.openReaders == 0 })
    }

    @Test("Keys that end before any stroke: the session ends at once, nothing saved")
    func keysEndBeforeAnyStroke() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.read.close() }
        keys.write.close()
        let handle = try CreateSession.start(
            flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(endedByItself(handle, display) == .success(.discarded))
        #expect(display.has("\(keysEndedLine) Nothing was saved."))
        #expect(display.all.last == "END")
    }

    @Test("With a switch, the keys' end changes nothing: the switch goes on")
    func keysEndWithASwitch() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.read.close() }
        keys.write.close()
        let handle = try CreateSession.start(
            flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: try rig.switchSetup(stopsRecording: true))
        #expect(display.eventually { display.has("The switch is ready") })
        rig.drawing.stroke(id: 1, x: 1_000, y: 1_000)
        #expect(display.eventually { display.has("Stroke 1: ") })
        #expect(!display.has(keysEndedLine))
        handle.cancel()
        #expect(handle.wait() == .success(.emergencyStopped))
    }

    @Test("The drawing device unplugged mid-stroke: named; the menu offers Review, Save, Discard; Save writes the stroke")
    func deviceGoneMidStroke() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.write.close(); keys.read.close() }
        let handle = try CreateSession.start(
            flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("Recording from test touchscreen") })
        // A finger down and moving, never lifted: the device goes away under it.
        let start = SystemClock().now()
        rig.drawing.frame(
            [
                (.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, 1), (.absolute, .multitouchPositionX, 1_000),
                (.absolute, .multitouchPositionY, 1_000),
            ], at: start)
        rig.drawing.frame([(.absolute, .multitouchPositionY, 3_000)], at: start + Microseconds(100_000))
        rig.drawing.vanish()
        guard display.eventually({ display.has("MENU ") }) else {
            Issue.record("no menu after the device went away: \(display.all)")
            handle.cancel()
            _ = handle.wait()
            return
        }
        #expect(display.has("The drawing device test touchscreen went away: nothing more can be drawn."))
        #expect(display.has("Recording stopped: 1 stroke"))
        let menu = display.all.first { $0.hasPrefix("MENU ") } ?? ""
        #expect(menu.hasSuffix("Review · Save · Discard"), "\(menu)")
        #expect(!display.all.contains { $0.contains("Add a stroke") || $0.contains("Record again") })
        try keys.write.writeAll(Array("2".utf8))
        #expect(display.eventually { display.has("NAME? ") })
        try keys.write.writeAll(Array("unplugged\r".utf8))
        #expect(endedByItself(handle, display) == .success(.saved(name: "unplugged", path: rig.folder.file("unplugged.gesture.json"))))
        let saved = try rig.library.load(named: "unplugged")
        #expect(saved.strokes.count == 1)
        #expect((saved.strokes.first?.samples.count ?? 0) >= 2)
    }

    @Test("The drawing device unplugged between strokes, with one switch: scanning goes over Review, Save, Discard; Save saves")
    func deviceGoneBetweenStrokesBySwitch() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let handle = try CreateSession.start(
            flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display, keyboard: nil,
            switchSetup: try rig.switchSetup())
        #expect(display.eventually { display.has("Recording from") })
        #expect(display.eventually { display.has("The switch is ready: test switch.") })
        let first = SystemClock().now()
        rig.drawing.stroke(id: 1, x: 1_000, y: 1_000, at: first)
        rig.drawing.stroke(id: 2, x: 3_000, y: 1_000, at: first + Microseconds(20_000))
        #expect(display.eventually { display.has("Stroke 2: ") })
        rig.drawing.vanish()
        #expect(display.eventually { display.has("MENU ") })
        #expect(display.has("The drawing device test touchscreen went away: nothing more can be drawn."))
        #expect(display.has("Recording stopped: 2 strokes"))
        // The scanning runs over the three items only, in order.
        #expect(display.eventually { display.all.filter { $0.hasPrefix("HIGHLIGHT ") }.count >= 4 })
        let highlights = display.all.filter { $0.hasPrefix("HIGHLIGHT ") }.prefix(4).map { String($0.dropFirst(10)) }
        #expect(highlights == ["Review", "Save", "Discard", "Review"])
        #expect(display.eventually { display.all.last == "HIGHLIGHT Save" })
        rig.press(.single)
        #expect(display.eventually { display.has("MENU Save the gesture as 2-fingers") })
        rig.press(.single)
        let result = endedByItself(handle, display)
        guard case .success(.saved(let name, _))? = result else {
            Issue.record("not saved: \(result) \(display.all)")
            return
        }
        #expect(try rig.library.load(named: name).strokes.count == 2)
    }
}
