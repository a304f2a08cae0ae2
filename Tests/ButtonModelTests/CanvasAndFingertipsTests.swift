import ButtonModel
import GestureFormat
import GestureModel
import Testing

/// A recorded gesture: one finger swiping up on a 100 × 60 mm touchscreen.
private func swipeUp() -> Gesture {
    let device = DeviceGeometry(
        kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 9999, resolution: 100),
        y: AxisRange(minimum: 0, maximum: 5999, resolution: 100), slots: 10)
    let samples = (0...10).map { step in
        Sample(time: Microseconds(Int64(step) * 16_000), x: 5000, y: 5000 - step * 400)
    }
    return Gesture(name: "recording", device: device, strokes: [Stroke(samples: samples)])
}

@Suite struct CreateNewGestureCanvas {
    /// A flow that has recorded `swipeUp()` as job 7.
    private func recorded(library: [String] = []) -> CanvasFlow {
        var flow = CanvasFlow()
        #expect(flow.open(library: library) == [.startRecording])
        #expect(flow.recordingStarted(job: 7, device: "ELAN Touchscreen") == [])
        let answer1 = flow.stroke(CanvasStroke(swipeUp().strokes[0]))
        #expect(answer1)
        #expect(flow.press(.stop) == [.cancelRecording(job: 7)])
        flow.recordingEnded(.recorded(swipeUp(), stopped: "stopped", failure: false, warnings: []))
        return flow
    }

    @Test("open → recording → Stop → recorded, with the controls each state shows")
    func theWayThrough() {
        var flow = CanvasFlow()
        #expect(!flow.isOpen)
        #expect(flow.open(library: []) == [.startRecording])
        #expect(flow.state == .starting && flow.buttons.isEmpty)
        #expect(flow.recordingStarted(job: 7, device: "ELAN Touchscreen") == [])
        #expect(flow.buttons.map(\.label) == ["Stop", "Discard"])
        #expect(flow.buttons.first { $0.isDefault }?.control == .stop)
        #expect(flow.status.contains("from ELAN Touchscreen") && flow.status.contains("0 strokes so far"))
        let answer2 = flow.stroke(CanvasStroke(points: [CanvasPoint(time: 0, x: 1, y: 1)]))
        #expect(answer2)
        #expect(flow.status.contains("1 stroke so far"))
        #expect(flow.press(.stop) == [.cancelRecording(job: 7)])
        #expect(flow.state == .stopping(job: 7))
        flow.recordingEnded(.recorded(swipeUp(), stopped: "stopped", failure: false, warnings: []))
        #expect(flow.state == .recorded)
        #expect(flow.showsNameEntry)
        #expect(flow.buttons.map(\.label) == ["Review", "Redo", "Save", "Discard"])
        #expect(flow.strokes.count == 1 && flow.strokes[0].points.count == 11)
        #expect(flow.status.hasPrefix("Recorded: 1 stroke, "))
        #expect(flow.press(.review) == [.review])
    }

    @Test("The primary button is never destructive; Save is the default once recorded, Keep it in the question")
    func rolesFollowTheSeeds() {
        var flow = recorded()
        for button in flow.buttons where button.isDefault { #expect(!button.isDestructive) }
        #expect(flow.buttons.first { $0.isDefault }?.control == .save)
        #expect(flow.buttons.first { $0.control == .discard }?.isDestructive == true)
        #expect(flow.press(.discard) == [])
        #expect(flow.buttons.map(\.label) == ["Keep it", "Discard it"])
        #expect(flow.buttons.first { $0.isDefault }?.control == .keep)
        #expect(flow.status.contains("cannot be recovered"))
        for button in flow.buttons where button.isDefault { #expect(!button.isDestructive) }
    }

    @Test("Discard asks first: Keep it (or Escape) goes back; Discard it closes and keeps nothing")
    func discardAsksFirst() {
        var flow = recorded()
        _ = flow.press(.discard)
        #expect(flow.press(.keep) == [])
        #expect(flow.state == .recorded && flow.gesture != nil)
        _ = flow.press(.discard)
        #expect(flow.escape() == [])
        #expect(flow.state == .recorded)
        #expect(flow.escape() == [])  // Escape on the gesture is Discard: it asks
        #expect(flow.state == .confirmingDiscard(job: nil))
        #expect(flow.press(.discardConfirmed) == [.close])
        #expect(!flow.isOpen && flow.gesture == nil && flow.strokes.isEmpty)
    }

    @Test("Discard while recording asks when something was drawn, and then cancels the recording")
    func discardWhileRecording() {
        var flow = CanvasFlow()
        _ = flow.open(library: [])
        _ = flow.recordingStarted(job: 3, device: "pad")
        // Nothing drawn: nothing to lose, it closes at once.
        #expect(flow.press(.discard) == [.cancelRecording(job: 3), .close])
        _ = flow.open(library: [])
        _ = flow.recordingStarted(job: 4, device: "pad")
        _ = flow.stroke(CanvasStroke(points: [CanvasPoint(time: 0, x: 1, y: 1)]))
        #expect(flow.press(.discard) == [])
        #expect(flow.state == .confirmingDiscard(job: 4))
        #expect(flow.takesStrokes)  // the recording goes on while it asks
        #expect(flow.press(.keep) == [])
        #expect(flow.state == .recording(job: 4))
        _ = flow.press(.discard)
        #expect(flow.press(.discardConfirmed) == [.cancelRecording(job: 4), .close])
        // Its end, arriving afterwards, keeps nothing.
        flow.recordingEnded(.recorded(swipeUp(), stopped: "stopped", failure: false, warnings: []))
        #expect(!flow.isOpen && flow.gesture == nil)
    }

    @Test("The daemon's refusal is shown plainly; Try again asks again, Close and Escape close")
    func refusalShown() {
        var flow = CanvasFlow()
        _ = flow.open(library: [])
        flow.recordingEnded(.failed("record-start: \"device\": no touch or pointer device"))
        #expect(flow.status == "The daemon could not record: record-start: \"device\": no touch or pointer device")
        #expect(flow.buttons.map(\.label) == ["Try again", "Close"])
        #expect(flow.press(.tryAgain) == [.startRecording])
        flow.recordingEnded(.nothing("no contact was recorded"))
        #expect(flow.status.hasPrefix("Nothing was drawn (no contact was recorded)"))
        #expect(flow.escape() == [.close])
        #expect(!flow.isOpen)
    }

    @Test("Redo asks first (Keep it is the default), then records again from the start; a started job after a close is cancelled")
    func redoAndLateStart() {
        var flow = recorded()
        #expect(flow.press(.redo) == [])
        #expect(flow.state == .confirmingRedo)
        #expect(flow.buttons.map(\.label) == ["Keep it", "Record again"])
        #expect(flow.buttons.first { $0.isDefault }?.control == .keep)
        #expect(flow.buttons.first { $0.control == .redoConfirmed }?.isDestructive == true)
        #expect(flow.status.hasPrefix("Record again? The 1 stroke drawn so far will be discarded"))
        #expect(flow.escape() == [])
        #expect(flow.state == .recorded && flow.gesture != nil)
        _ = flow.press(.redo)
        #expect(flow.press(.redoConfirmed) == [.startRecording])
        #expect(flow.strokes.isEmpty && flow.gesture == nil && flow.state == .starting)
        #expect(flow.escape() == [.close])
        #expect(flow.recordingStarted(job: 9, device: "x") == [.cancelRecording(job: 9)])
    }

    @Test("The suggested name says what it is and collides with no saved gesture")
    func suggestedName() {
        #expect(recorded().name == "swipe-up-1")
        let flow = recorded(library: ["swipe-up-1", "swipe-up-1-2"])
        #expect(flow.name == "swipe-up-1-3")
        #expect(flow.problem == nil)
    }

    @Test("Save checks the name as the library does, and against the library; then asks the daemon")
    func save() {
        var flow = recorded(library: ["taken"])
        flow.nameChanged("a/b")
        #expect(flow.problem?.contains("contains \"/\"") == true)
        #expect(flow.press(.save) == [])
        flow.nameChanged("")
        #expect(flow.problem == "a gesture name cannot be empty")
        flow.nameChanged("taken")
        #expect(flow.problem == "a saved gesture is already called taken: choose another name")
        #expect(flow.press(.save) == [])
        flow.nameChanged(".hidden")
        #expect(flow.problem != nil)
        flow.nameChanged("my swipe")
        #expect(flow.problem == nil)
        #expect(flow.press(.save) == [.save(name: "my swipe")])
        #expect(flow.state == .saving(name: "my swipe") && flow.buttons.isEmpty)
        flow.saveFailed("the library folder is read-only")
        #expect(flow.state == .recorded && flow.problem == "Not saved: the library folder is read-only")
        _ = flow.press(.save)
        flow.saved("my swipe")
        #expect(flow.state == .saved(name: "my swipe"))
        #expect(flow.status == "Saved as my swipe: it is in Saved gestures.")
        #expect(flow.buttons.map(\.label) == ["Done"])
        #expect(flow.press(.done) == [.close])
    }

    @Test("Every control has a label and a description (its accessible name and description)")
    func namedControls() {
        var flow = recorded()
        var seen: Set<CanvasFlow.Control> = []
        func look() {
            for button in flow.buttons {
                #expect(!button.label.isEmpty && !button.description.isEmpty)
                seen.insert(button.control)
            }
        }
        look()
        _ = flow.press(.discard)
        look()
        #expect(seen.isSuperset(of: [.review, .redo, .save, .discard, .keep, .discardConfirmed]))
    }
}

@Suite struct CanvasDrawing {
    @Test("A record event's stroke: its samples' time, x and y; extra columns ignored")
    func strokeFromJSON() throws {
        let json = try JSONValue.parse(Array(#"{"kind": "finger", "samples": [[0, 1040, 2210], [16000, 1100, 2190, 30, 4]]}"#.utf8))
        let stroke = try #require(CanvasStroke(json: json))
        #expect(stroke.points == [CanvasPoint(time: 0, x: 1040, y: 2210), CanvasPoint(time: 16000, x: 1100, y: 2190)])
        #expect(CanvasStroke(json: try JSONValue.parse(Array(#"{"samples": []}"#.utf8))) == nil)
    }

    @Test("A touchscreen fills the canvas: a stroke is drawn under the finger")
    func touchscreenFills() {
        let area = CanvasArea.device(
            kind: "touchscreen", x: AxisRange(minimum: 0, maximum: 4000), y: AxisRange(minimum: 0, maximum: 2000))
        let point = area.point(x: 1000, y: 1000, width: 1280, height: 720)
        #expect(point.x == 320 && point.y == 360)
    }

    @Test("A touchpad keeps its proportions, centred with a margin; a relative pointer uses the recorder's 1920 × 1080")
    func touchpadFitted() {
        // 100 × 50 mm at 10 units/mm on a 1000 × 1000 canvas: 800 wide, 400 high.
        let area = CanvasArea.device(
            kind: "touchpad", x: AxisRange(minimum: 0, maximum: 1000, resolution: 10),
            y: AxisRange(minimum: 0, maximum: 500, resolution: 10))
        let box = area.fitted(width: 1000, height: 1000)
        #expect(box.width == 800 && box.height == 400 && box.x == 100 && box.y == 300)
        let corner = area.point(x: 0, y: 0, width: 1000, height: 1000)
        #expect(corner.x == 100 && corner.y == 300)
        #expect(CanvasArea.device(kind: "mouse/pointer", x: nil, y: nil) == .relativePointer)
    }

    @Test("Review shows each stroke's samples as their time comes")
    func reviewTimeline() {
        let strokes = [
            CanvasStroke(points: [CanvasPoint(time: 0, x: 0, y: 0), CanvasPoint(time: 100_000, x: 1, y: 1)]),
            CanvasStroke(points: [CanvasPoint(time: 200_000, x: 0, y: 0), CanvasPoint(time: 300_000, x: 1, y: 1)]),
        ]
        #expect(CanvasReview.visiblePoints(of: strokes, at: 0) == [1, 0])
        #expect(CanvasReview.visiblePoints(of: strokes, at: 250_000) == [2, 1])
        #expect(CanvasReview.duration(of: strokes) == 800_000)
    }
}

@Suite struct LiveFingertips {
    @Test("Start, run as a job, a tap cancels it, the end says why")
    func theWayThrough() {
        var flow = FingertipsFlow()
        #expect(flow.tap() == .notRunning)
        let answer3 = flow.start(count: 3)
        #expect(answer3)
        let again = flow.start(count: 4)
        #expect(!again)  // one at a time
        #expect(flow.isActive && flow.count == 3)
        let answer4 = flow.started(job: 24)
        #expect(!answer4)
        #expect(flow.state == .running(count: 3, job: 24))
        #expect(flow.tap() == .cancel(job: 24))
        #expect(flow.tap() == .nothing)
        flow.ended()
        #expect(!flow.isActive)
    }

    @Test("A tap while they are asked for cancels them as soon as they run")
    func tapWhileStarting() {
        var flow = FingertipsFlow()
        _ = flow.start(count: 2)
        #expect(flow.tap() == .nothing)
        let answer5 = flow.started(job: 5)
        #expect(answer5)
        #expect(flow.state == .stopping(count: 2, job: 5))
    }

    @Test("The button says how they are moved (the daemon's line) and how they end")
    func texts() {
        let running = FingertipsFlow.runningText(
            count: 3, sourceName: "Mouse", kind: "pointer", line: "3 fingertips ready: move the pointer, hold the button to touch.")
        #expect(running.hasPrefix("3 fingertips ready: move the pointer"))
        #expect(running.contains("They end after 5 s without input, or when you tap this button"))
        #expect(FingertipsFlow.runningText(count: 2, sourceName: "Pad", kind: "touchpad", line: nil).hasPrefix("2 fingertips from Pad (touchpad)."))
        #expect(FingertipsFlow.endedText(count: 3, reason: "idle", message: "idle") == "The 3 fingertips went away: no input for 5 s")
        #expect(FingertipsFlow.endedText(count: 3, reason: "source-vanished", message: "") == "The 3 fingertips went away: their device was unplugged")
        #expect(FingertipsFlow.endedText(count: 4, reason: nil, message: "odd\u{1B}") == "The 4 fingertips ended: odd<U+001B>")
        #expect(FingertipsFlow.stopName(count: 5) == "Stop the 5 fingertips")
    }
}

@Suite struct DeviceOption {
    @Test("--device names the drawing device and the fingertips' source; empty is refused")
    func device() throws {
        guard case .run(let settings) = try ButtonCommandLine.parse(["--device", "ELAN Touchscreen"]) else {
            Issue.record("not a run")
            return
        }
        #expect(settings.device == "ELAN Touchscreen")
        #expect(ButtonSettings().device == nil)
        #expect(throws: ButtonUsageError.self) { try ButtonCommandLine.parse(["--device="]) }
        #expect(ButtonManualPage.roff(date: "2026-12-06").contains(".B \\-\\-device DEVICE"))
    }
}
