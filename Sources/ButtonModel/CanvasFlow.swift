import GestureMenu
import GestureModel
import GestureRender

/// Create New Gesture on screen (issue 38): the flow of the button's
/// full-screen canvas. The daemon records from the drawing device
/// (`record-start`, each stroke pushed as it lifts); Stop ends the
/// recording (`cancel` of its job; the waiting `record-stop` brings the
/// result); then Review (the gesture played on the canvas, not on a
/// device), Redo, Save under a name the person may change (suggested from
/// what the gesture is, free in the library, checked as the library checks
/// names) and Discard, which asks first ("Keep it" is the default), as Redo
/// does once something was drawn (the seeds' create flow asks before
/// Record again). Pure:
/// the window shows ``buttons``, ``status`` and the name entry, and carries
/// out the ``CanvasEffect``s the flow returns.
public struct CanvasFlow: Sendable {
    /// Where the flow is.
    public enum State: Hashable, Sendable {
        /// No canvas.
        case closed
        /// `record-start` is asked for.
        case starting
        /// Recording, as the daemon's job `job`.
        case recording(job: Int)
        /// Stop was pressed: the recording's end is on its way.
        case stopping(job: Int)
        /// Recorded: the gesture is here until saved or discarded.
        case recorded
        /// Discard asked: Keep it (the default) or Discard it. `job`: the
        /// recording still runs meanwhile (Discard was pressed while recording).
        case confirmingDiscard(job: Int?)
        /// Redo asked: Keep it (the default) or Record again, which drops
        /// what was drawn (as the seeds' create flow asks before it).
        case confirmingRedo
        /// Save is asked for under `name`.
        case saving(name: String)
        /// Saved as `name`.
        case saved(name: String)
        /// Nothing to save: the daemon refused, the recording failed or
        /// nothing was drawn. The text says which, plainly.
        case failed(String)
    }

    /// A control of the canvas: a push button named by its label.
    public enum Control: String, Hashable, Sendable, CaseIterable {
        case stop, review, redo, save, discard, keep, discardConfirmed, redoConfirmed, tryAgain, close, done
    }

    /// A button as the canvas shows it.
    public struct Button: Hashable, Sendable {
        public var control: Control
        /// Its text, and the name a screen reader speaks.
        public var label: String
        /// Its tooltip and accessible description.
        public var description: String
        /// The default (Return's) and the one with the focus.
        public var isDefault: Bool
        /// It throws something away (never the default).
        public var isDestructive: Bool
    }

    /// Where the flow is.
    public private(set) var state = State.closed
    /// The strokes drawn so far (the daemon's `record` events), then the
    /// recorded gesture's, in the device's units.
    public private(set) var strokes: [CanvasStroke] = []
    /// The recorded gesture (after Stop).
    public private(set) var gesture: Gesture?
    /// The drawing device's name, as the daemon gave it.
    public private(set) var deviceName: String?
    /// What is in the name entry (the suggestion first).
    public private(set) var name = ""
    /// The library's names, when the canvas opened (a suggestion is none of them).
    public private(set) var library: Set<String> = []
    /// A problem to show under the name entry or in the status (a save refused).
    public private(set) var problem: String?
    /// The recording's warnings and how it stopped, when worth saying.
    public private(set) var note: String?

    /// A closed flow.
    public init() {}

    /// Whether the canvas is showing.
    public var isOpen: Bool { state != .closed }

    /// Whether the name entry is shown (a recorded gesture to save).
    public var showsNameEntry: Bool {
        switch state {
        case .recorded, .saving: true
        default: false
        }
    }

    /// Whether strokes arriving now are drawn (and kept).
    public var takesStrokes: Bool {
        switch state {
        case .recording, .stopping, .confirmingDiscard(job: .some): true
        default: false
        }
    }

    // MARK: what the person does

    /// Create New Gesture was chosen: the canvas opens and recording is
    /// asked for. `library`: the saved gestures' names.
    public mutating func open(library names: [String]) -> [CanvasEffect] {
        guard state == .closed else { return [] }
        library = Set(names)
        return begin()
    }

    /// A control was pressed.
    public mutating func press(_ control: Control) -> [CanvasEffect] {
        switch (state, control) {
        case (.recording(let job), .stop):
            state = .stopping(job: job)
            return [.cancelRecording(job: job)]
        case (.recording(let job), .discard):
            guard !strokes.isEmpty else { return close(cancelling: job) }
            state = .confirmingDiscard(job: job)
            return []
        case (.recorded, .review):
            return gesture == nil ? [] : [.review]
        case (.recorded, .redo):
            state = .confirmingRedo
            return []
        case (.confirmingRedo, .keep):
            state = .recorded
            return []
        case (.confirmingRedo, .redoConfirmed), (.failed, .tryAgain):
            return begin()
        case (.recorded, .save):
            return save()
        case (.recorded, .discard):
            state = .confirmingDiscard(job: nil)
            return []
        case (.confirmingDiscard(let job), .keep):
            state = job.map { .recording(job: $0) } ?? .recorded
            return []
        case (.confirmingDiscard(let job), .discardConfirmed):
            return close(cancelling: job)
        case (.failed, .close), (.saved, .done):
            return close(cancelling: nil)
        default:
            return []
        }
    }

    /// Escape: a question is answered with its default (Keep it); else as
    /// Discard (which asks first when something was drawn); a canvas with
    /// nothing to lose closes.
    public mutating func escape() -> [CanvasEffect] {
        switch state {
        case .closed: return []
        case .confirmingDiscard, .confirmingRedo: return press(.keep)
        case .recording: return press(.discard)
        case .recorded: return press(.discard)
        case .starting: return close(cancelling: nil)
        case .stopping(let job): return strokes.isEmpty ? close(cancelling: job) : []
        case .saving: return []
        case .failed, .saved: return close(cancelling: nil)
        }
    }

    /// The name entry's text changed.
    public mutating func nameChanged(_ text: String) {
        name = text
        problem = Self.problem(withName: text, library: library)
    }

    // MARK: what the daemon answers

    /// The daemon records from `device` as job `job`. Effects: a cancel
    /// when the canvas was closed meanwhile.
    public mutating func recordingStarted(job: Int, device: String) -> [CanvasEffect] {
        guard state == .starting else { return [.cancelRecording(job: job)] }
        deviceName = device
        state = .recording(job: job)
        return []
    }

    /// A stroke was drawn (a `record` event): whether it is drawn.
    public mutating func stroke(_ stroke: CanvasStroke) -> Bool {
        guard takesStrokes else { return false }
        strokes.append(stroke)
        return true
    }

    /// How a recording ended, as the waiting `record-stop` told.
    public enum Ending: Sendable {
        /// A gesture; `stopped`: how it stopped, for people;
        /// `failure`: the recording failed (the device vanished), what was
        /// drawn kept; `warnings`: the recording's.
        case recorded(Gesture, stopped: String, failure: Bool, warnings: [String])
        /// Nothing was drawn: the daemon's words.
        case nothing(String)
        /// The daemon refused, or could not be reached.
        case failed(String)
    }

    /// The recording ended (by Stop, or by itself), or `record-start` was refused.
    public mutating func recordingEnded(_ ending: Ending) {
        switch state {
        case .starting, .recording, .stopping, .confirmingDiscard(job: .some): break
        default: return  // closed or discarded meanwhile: nothing is kept
        }
        switch ending {
        case .recorded(let recorded, let stopped, let failure, let warnings):
            gesture = recorded
            strokes = recorded.strokes.map(CanvasStroke.init)
            var notes: [String] = []
            if failure { notes.append("The recording stopped early (\(stopped)); what was drawn is kept.") }
            notes += warnings.map { DisplayText.escaped($0) }
            note = notes.isEmpty ? nil : notes.joined(separator: " ")
            nameChanged(Self.suggestedName(for: recorded, library: library))
            state = .recorded
        case .nothing(let message):
            state = .failed("Nothing was drawn (\(DisplayText.escaped(message))). Try again, or Close.")
        case .failed(let message):
            state = .failed("The daemon could not record: \(DisplayText.escaped(message))")
        }
    }

    /// Saved as `name`.
    public mutating func saved(_ name: String) {
        guard case .saving = state else { return }
        library.insert(name)
        state = .saved(name: name)
    }

    /// The save was refused: the gesture stays, with the daemon's words.
    public mutating func saveFailed(_ message: String) {
        guard case .saving = state else { return }
        problem = "Not saved: \(DisplayText.escaped(message))"
        state = .recorded
    }

    // MARK: what the canvas shows

    /// The buttons, in order, for the state.
    public var buttons: [Button] {
        switch state {
        case .closed, .starting, .saving: return []
        case .recording:
            return [
                Button(control: .stop, label: "Stop", description: "Stops recording: then review, save or redo it", isDefault: true, isDestructive: false),
                discardButton,
            ]
        case .stopping: return []
        case .recorded:
            return [
                Button(control: .review, label: "Review", description: "Plays the gesture on this canvas (not on a device)", isDefault: false, isDestructive: false),
                Button(control: .redo, label: "Redo", description: "Records it again from the start (asks first)", isDefault: false, isDestructive: false),
                Button(control: .save, label: "Save", description: "Saves it in the library under the name above", isDefault: true, isDestructive: false),
                discardButton,
            ]
        case .confirmingDiscard:
            return [
                Button(control: .keep, label: "Keep it", description: "Goes back to the gesture", isDefault: true, isDestructive: false),
                Button(control: .discardConfirmed, label: "Discard it", description: "Throws the drawing away and closes the canvas", isDefault: false, isDestructive: true),
            ]
        case .confirmingRedo:
            return [
                Button(control: .keep, label: "Keep it", description: "Goes back to the gesture", isDefault: true, isDestructive: false),
                Button(control: .redoConfirmed, label: "Record again", description: "Throws the drawing away and records a new one", isDefault: false, isDestructive: true),
            ]
        case .saved:
            return [Button(control: .done, label: "Done", description: "Closes the canvas", isDefault: true, isDestructive: false)]
        case .failed:
            return [
                Button(control: .tryAgain, label: "Try again", description: "Asks the daemon to record again", isDefault: true, isDestructive: false),
                Button(control: .close, label: "Close", description: "Closes the canvas", isDefault: false, isDestructive: false),
            ]
        }
    }

    private var discardButton: Button {
        Button(
            control: .discard, label: "Discard", description: "Throws the drawing away (asks first)", isDefault: false, isDestructive: true)
    }

    /// The canvas's line of text: where it is, in words (never by colour alone).
    public var status: String {
        let drawn = Self.count(strokes.count, "stroke")
        switch state {
        case .closed: return ""
        case .starting: return "Create New Gesture: asking the daemon to record…"
        case .recording:
            let from = deviceName.map { " from \(DisplayText.escaped($0))" } ?? ""
            return "Recording\(from): draw the gesture here, then press Stop. \(drawn) so far."
        case .stopping: return "Stopping the recording…"
        case .recorded:
            let what = gesture.map { "\(drawn), \(describe($0))" } ?? drawn
            return "Recorded: \(what). Name it and Save, or Review, Redo or Discard."
        case .confirmingDiscard:
            return "Discard this drawing? The \(drawn) cannot be recovered."
        case .confirmingRedo:
            return "Record again? The \(drawn) drawn so far will be discarded; they cannot be recovered."
        case .saving(let name): return "Saving as \(DisplayText.escaped(name))…"
        case .saved(let name): return "Saved as \(DisplayText.escaped(name)): it is in Saved gestures."
        case .failed(let text): return text
        }
    }

    // MARK: names

    /// Why `name` cannot be saved: the library's own rule
    /// (GestureLibrary's `GestureName`, through GestureMenu), or a saved
    /// gesture of that name; `nil` when it can.
    public static func problem(withName name: String, library: Set<String>) -> String? {
        if let problem = MenuConfigurationFile.problem(withGestureName: name) { return DisplayText.escaped(problem) }
        if library.contains(name) { return "a saved gesture is already called \(DisplayText.escaped(name)): choose another name" }
        return nil
    }

    /// A free name from what the gesture is (GestureRender's
    /// `suggestedName`, as gesturectl names its results: `swipe-up-1`),
    /// then `-2`, `-3`… until none of the library has it.
    public static func suggestedName(for gesture: GestureModel.Gesture, library: Set<String>) -> String {
        let base = GestureRender.suggestedName(for: gesture)
        if problem(withName: base, library: library) == nil { return base }
        for number in 2...10_000 {
            let name = "\(base)-\(number)"
            if problem(withName: name, library: library) == nil { return name }
        }
        return base
    }

    // MARK: steps

    private mutating func begin() -> [CanvasEffect] {
        state = .starting
        strokes = []
        gesture = nil
        problem = nil
        note = nil
        name = ""
        return [.startRecording]
    }

    private mutating func save() -> [CanvasEffect] {
        guard gesture != nil else { return [] }
        if let problem = Self.problem(withName: name, library: library) {
            self.problem = problem
            return []
        }
        state = .saving(name: name)
        return [.save(name: name)]
    }

    private mutating func close(cancelling job: Int?) -> [CanvasEffect] {
        state = .closed
        strokes = []
        gesture = nil
        problem = nil
        note = nil
        return (job.map { [CanvasEffect.cancelRecording(job: $0)] } ?? []) + [.close]
    }

    static func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }
}

/// What the window does for the flow.
public enum CanvasEffect: Hashable, Sendable {
    /// `record-start` through the daemon (with the button's `--device`), its
    /// strokes followed and its end awaited.
    case startRecording
    /// `cancel` of the recording's job: it stops, and the waiting
    /// `record-stop` brings its result.
    case cancelRecording(job: Int)
    /// Save the recorded gesture in the daemon's library under `name`.
    case save(name: String)
    /// Play the recorded strokes on the canvas (an animation; no device).
    case review
    /// Take the canvas away.
    case close
}
