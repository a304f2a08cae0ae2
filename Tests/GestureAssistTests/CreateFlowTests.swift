#if canImport(Glibc)
import Glibc
#endif
@testable import GestureAssist
import GestureModel
import GestureRecording
import Testing

/// A library that knows some names.
struct FakeLibrary: CreateLibrary {
    var names: Set<String> = []
    func problem(with name: String) -> String? { name.contains("/") ? "a name cannot contain '/'" : nil }
    func contains(_ name: String) -> Bool { names.contains(name) }
}

/// A straight stroke from (x, y) moving by (dx, dy) mm over 300 ms, starting at `start` ms.
func line(_ x: Double, _ y: Double, dx: Double, dy: Double, start: Int64) -> Stroke {
    Stroke(
        samples: (0...10).map { step in
            let t = Double(step) / 10
            // synthDefault: 100 units per millimetre.
            return Sample(
                time: Microseconds((start + Int64(step) * 30) * 1_000), x: Int((x + dx * t) * 100), y: Int((y + dy * t) * 100))
        })
}

func recorded(_ strokes: [Stroke]) -> CreateInput {
    .recordingEnded(.success(RecordedGesture(gesture: Gesture(name: "r", device: .synthDefault, strokes: strokes), stopReason: .idleTimeout)))
}

extension [CreateEffect] {
    var lines: [String] { compactMap { if case .say(let line) = $0 { line.text } else { nil } } }
    var menu: MenuScreen? { compactMap { if case .showMenu(let menu) = $0 { menu } else { nil } }.last }
}

@Suite("The create flow's state machine")
struct CreateFlowTests {
    private func recordTwoStrokes(_ flow: inout CreateFlow) -> [CreateEffect] {
        let first = line(20, 20, dx: 0, dy: 40, start: 0)
        let second = line(40, 20, dx: 0, dy: 40, start: 1_000)
        var effects = flow.handle(.strokeLanded(first))
        effects += flow.handle(.strokeLanded(second))
        effects += flow.handle(.stop)
        effects += flow.handle(recorded([first, second]))
        return effects
    }

    @Test("Start records, and says what to do once the recording listens; each lifted stroke is announced as it lands; stop leads to the menu")
    func recordAndAnnounce() {
        var flow = CreateFlow(library: FakeLibrary())
        // Nothing invites a touch before the device is read (issue 24).
        #expect(flow.start() == [.startRecording])
        let listening = flow.handle(.recordingStarted(.synthDefault))
        #expect(listening.lines.first?.hasPrefix("Draw the first stroke. Each stroke you lift becomes a finger") == true)
        #expect(listening.count == 1)
        let first = flow.handle(.strokeLanded(line(20, 20, dx: 0, dy: 40, start: 0)))
        #expect(first.lines == ["Stroke 1: swipe down · 0.30 s · 40 mm"])
        #expect(flow.handle(.stop) == [.stopRecording])
        #expect(flow.phase == .stopping)
        // The second contact was still down at the stop: announced when the recording ends.
        let ended = flow.handle(recorded([line(20, 20, dx: 0, dy: 40, start: 0), line(40, 20, dx: 40, dy: 0, start: 500)]))
        #expect(ended.lines.first == "Stroke 2: swipe right · 0.30 s · 40 mm")
        #expect(ended.lines.contains { $0.hasPrefix("Recording stopped: 2 strokes, 2 fingers") })
        #expect(flow.phase == .menu)
        #expect(ended.menu?.items.map(\.id) == ["review", "save", "add", "undo", "again", "play", "discard"])
        #expect(ended.menu?.defaultIndex == 0)
        #expect(flow.merged?.maximumSimultaneousContacts == 2)
    }

    @Test("A half circle drawn as a stroke is announced as one, not as a swipe (issue 24)")
    func halfCircleStrokeLine() {
        // AssistiveTouch's example: its last stroke, a half circle over the top, left to right.
        let halfCircle = Stroke(
            samples: (0...70).map { step in
                let angle = Double.pi * (1 + Double(step) / 70)
                return Sample(
                    time: Microseconds(Int64(step) * 10_000), x: Int(((100 + 49 * cos(angle)) * 100).rounded()),
                    y: Int(((70 + 49 * sin(angle)) * 100).rounded()))
            })
        let line = CreateFlow.strokeLine(number: 3, stroke: halfCircle, geometry: nil)
        #expect(line.text == "Stroke 3: half circle clockwise · 0.70 s · 98 mm")
        #expect(line.spoken == "Stroke 3. half circle clockwise, 0.7 seconds, 98 millimetres.")
    }

    @Test("Strokes are measured in the recording device's millimetres as they land")
    func measuredInTheDevice() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        // 50 units per millimetre instead of synthDefault's 100: the same stroke is twice as long.
        var device = DeviceGeometry.synthDefault
        device.x.resolution = 50
        device.y.resolution = 50
        device.widthMM = 432
        device.heightMM = 270
        _ = flow.handle(.recordingStarted(device))
        #expect(flow.handle(.strokeLanded(line(20, 20, dx: 0, dy: 40, start: 0))).lines == ["Stroke 1: swipe down · 0.30 s · 80 mm"])
    }

    @Test("Review and play show the merged gesture and come back to the menu; Escape cancels a play")
    func reviewAndPlay() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = recordTwoStrokes(&flow)
        let review = flow.handle(.choose("review"))
        guard case .review(let gesture)? = review.last else { Issue.record("no review: \(review)"); return }
        #expect(gesture.strokes.count == 2 && gesture.strokes.allSatisfy { $0.startTime == gesture.startTime })
        #expect(flow.handle(.shown(problem: nil)).menu != nil)
        let play = flow.handle(.choose("play"))
        guard case .play? = play.last else { Issue.record("no play"); return }
        #expect(flow.handle(.back) == [.cancelShowing])
        let back = flow.handle(.shown(problem: "no uinput"))
        #expect(back.lines == ["That did not work: no uinput"])
        #expect(flow.phase == .menu)
    }

    @Test("Undo removes the last stroke drawn; Add a stroke records more that play together with the rest")
    func undoAndAdd() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = recordTwoStrokes(&flow)
        let undone = flow.handle(.choose("undo"))
        #expect(undone.lines == ["Removed the last stroke; 1 stroke left."])
        #expect(flow.strokes.count == 1 && flow.strokes[0].samples[0].x == 2_000)
        let add = flow.handle(.choose("add"))
        #expect(add == [.startRecording])
        #expect(flow.phase == .recording)
        #expect(flow.handle(.recordingStarted(.synthDefault)).lines == ["Draw another stroke. It will play together with the 1 stroke you have."])
        let third = line(60, 20, dx: 0, dy: 40, start: 0)
        let landed = flow.handle(.strokeLanded(third))
        #expect(landed.lines == ["Stroke 2: swipe down · 0.30 s · 40 mm"])
        _ = flow.handle(recorded([third]))
        #expect(flow.strokes.count == 2)
        #expect(flow.merged?.maximumSimultaneousContacts == 2)
        // Undo twice more leaves nothing: the menu only offers to record again or leave.
        _ = flow.handle(.choose("undo"))
        let empty = flow.handle(.choose("undo"))
        #expect(empty.menu?.items.map(\.id) == ["again", "discard"])
        #expect(flow.handle(.choose("save")).isEmpty)
    }

    @Test("Discard asks first, with keeping as the default; Escape keeps; confirming ends with nothing saved")
    func discardConfirmed() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = recordTwoStrokes(&flow)
        let ask = flow.handle(.choose("discard"))
        #expect(ask.menu?.title.text == "Discard 2 strokes? They cannot be recovered.")
        #expect(ask.menu.map { $0.items[$0.defaultIndex].id } == "keep")
        #expect(flow.handle(.back).menu?.items.first?.id == "review")
        _ = flow.handle(.choose("discard"))
        let done = flow.handle(.choose("discard"))
        #expect(done.last == .finish(.discarded))
        #expect(flow.phase == .finished)
        #expect(flow.handle(.choose("save")).isEmpty)
    }

    @Test("Save asks for a name with a free suggestion; a bad name is explained; an existing one is confirmed, never by default")
    func saveAndName() {
        var flow = CreateFlow(library: FakeLibrary(names: ["2-fingers-swipe-down", "taken"]))
        _ = flow.start()
        _ = recordTwoStrokes(&flow)
        #expect(flow.handle(.choose("save")) == [.askName(suggestion: "2-fingers-swipe-down-2")])
        let bad = flow.handle(.name("a/b"))
        #expect(bad.lines == ["That name cannot be used: a name cannot contain '/'"])
        #expect(bad.last == .askName(suggestion: "2-fingers-swipe-down-2"))
        let exists = flow.handle(.name("taken"))
        #expect(exists.menu?.title.text == "A gesture named taken exists. Replace it?")
        #expect(exists.menu.map { $0.items[$0.defaultIndex].id } == "other-name")
        #expect(flow.handle(.back).last == .askName(suggestion: "2-fingers-swipe-down-2"))
        _ = flow.handle(.name("taken"))
        let replace = flow.handle(.choose("replace"))
        guard case .save(let gesture, "taken", true)? = replace.last else { Issue.record("no save: \(replace)"); return }
        #expect(gesture.name == "taken")
        #expect(gesture.description == "2 fingers · swipe down · 0.30 s · 40 mm")
        let saved = flow.handle(.saved(.success("/lib/taken.gesture.json")))
        #expect(saved.lines == ["Saved as taken: 2 fingers · swipe down · 0.30 s · 40 mm."])
        #expect(saved.last == .finish(.saved(name: "taken", path: "/lib/taken.gesture.json")))
    }

    @Test("An empty name takes the suggestion; a failed save is said and the menu comes back")
    func saveSuggestionAndFailure() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = recordTwoStrokes(&flow)
        _ = flow.handle(.choose("save"))
        guard case .save(_, "2-fingers-swipe-down", false)? = flow.handle(.name("")).last else {
            Issue.record("the suggestion was not used")
            return
        }
        let failed = flow.handle(.saved(.failure(CreateFailure("disk full"))))
        #expect(failed.lines == ["Could not save: disk full"])
        #expect(flow.phase == .menu)
    }

    @Test("The emergency stop cancels everything from any state, once")
    func emergencyStop() {
        for steps in 0..<4 {
            var flow = CreateFlow(library: FakeLibrary())
            _ = flow.start()
            if steps >= 1 { _ = recordTwoStrokes(&flow) }
            if steps >= 2 { _ = flow.handle(.choose("save")) }
            if steps >= 3 { _ = flow.handle(.back) }
            let stop = flow.handle(.emergencyStop)
            #expect(stop.first == .cancelEverything)
            #expect(stop.last == .finish(.emergencyStopped))
            #expect(flow.handle(.emergencyStop).isEmpty)
        }
    }

    @Test("Record again with strokes asks first; Keep, Back or anything but Record again leaves the strokes as they were")
    func recordAgainConfirmed() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        _ = recordTwoStrokes(&flow)
        #expect(flow.menu().items.first { $0.id == "again" }?.isDestructive == true)
        let asked = flow.handle(.choose("again"))
        #expect(flow.phase == .confirmingAgain)
        #expect(asked.menu?.items.map(\.id) == ["keep", "again"])
        #expect(asked.menu?.title.text.contains("2 strokes drawn so far will be discarded") == true)
        #expect(!asked.contains(.startRecording))
        // Keep, and Back, return to the menu with both strokes.
        #expect(flow.handle(.choose("keep")).menu?.items.map(\.id).contains("save") == true)
        #expect(flow.phase == .menu && flow.strokes.count == 2)
        _ = flow.handle(.choose("again"))
        _ = flow.handle(.back)
        #expect(flow.phase == .menu && flow.strokes.count == 2)
        // Confirmed: the strokes go and a new recording starts.
        _ = flow.handle(.choose("again"))
        let again = flow.handle(.choose("again"))
        #expect(again == [.startRecording])
        #expect(flow.phase == .recording && flow.strokes.isEmpty)
        #expect(flow.handle(.recordingStarted(.synthDefault)).lines == ["Recording again. Draw the first stroke."])
    }

    @Test("Nothing drawn: the menu offers to record again; stray inputs change nothing")
    func nothingDrawn() {
        var flow = CreateFlow(library: FakeLibrary())
        _ = flow.start()
        #expect(flow.handle(.choose("save")).isEmpty)
        #expect(flow.handle(.name("x")).isEmpty)
        _ = flow.handle(.stop)
        let ended = flow.handle(recorded([]))
        #expect(ended.lines.contains("Recording stopped. Nothing was drawn."))
        #expect(ended.menu?.items.first?.id == "again")
        #expect(flow.handle(.choose("again")) == [.startRecording])
        // A recording that fails before it listens asks nobody to draw.
        let failed = flow.handle(.recordingEnded(.failure(CreateFailure("the device vanished"))))
        #expect(failed.lines.first == "Recording failed: the device vanished")
        #expect(!failed.lines.contains { $0.contains("Draw") })
        #expect(flow.handle(.choose("discard")).last == .finish(.discarded))
    }
}
