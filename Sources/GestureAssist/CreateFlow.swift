import GestureEngine
import GestureModel
import GestureRecording

/// What the create flow is told: by the recording, by the person (keys or
/// a switch, already turned into choices), and by the effects it asked for.
public enum CreateInput: Sendable, Equatable {
    /// The recording listens (its device is open, and read), in this
    /// geometry (the device's axes and size: the strokes' millimetres are
    /// measured in it). The flow says what to draw only now.
    case recordingStarted(DeviceGeometry)
    /// One contact lifted during the recording (as drawn, not merged).
    case strokeLanded(Stroke)
    /// The recording ended: what it recorded (as drawn), or why it failed.
    case recordingEnded(Result<RecordedGesture, CreateFailure>)
    /// The drawing device (named) went away while recording: unplugged
    /// or destroyed. Nothing more can be drawn in this flow; a
    /// ``recordingEnded(_:)`` follows with what was recorded.
    case drawingDeviceGone(String)
    /// The person asked to stop recording.
    case stop
    /// The person picked a menu item (by ``MenuItem/id``).
    case choose(String)
    /// The person went back (Escape, a long press).
    case back
    /// The person gave a name to save under.
    case name(String)
    /// A review or a play on a virtual device ended (with a problem, if any).
    case shown(problem: String?)
    /// The save ended: where it went, or why it failed.
    case saved(Result<String, CreateFailure>)
    /// The emergency stop: cancel and release everything, now.
    case emergencyStop
    /// Nothing can operate the flow any more (the keys ended and there is
    /// no switch): it ends, saying that nothing was saved and what was
    /// dropped, once a running recording or review has stopped.
    case inputEnded
}

/// Why something the flow asked for failed, for people.
public struct CreateFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// Creates a failure.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What the create flow asks its runner to do, in order.
public enum CreateEffect: Sendable, Equatable {
    /// Show (and speak) one line.
    case say(Announcement)
    /// Start recording (recording begins at the first touch or button-down);
    /// answered with ``CreateInput/recordingStarted(_:)`` once the device
    /// is read, or ``CreateInput/recordingEnded(_:)``.
    case startRecording
    /// Stop the recording; a ``CreateInput/recordingEnded(_:)`` follows.
    case stopRecording
    /// Present a menu; the runner answers with ``CreateInput/choose(_:)`` or ``CreateInput/back``.
    case showMenu(MenuScreen)
    /// Ask for a name, offering `suggestion`; answered with ``CreateInput/name(_:)`` or ``CreateInput/back``.
    case askName(suggestion: String)
    /// Show the gesture in the terminal (animated) and write its SVG;
    /// answered with ``CreateInput/shown(problem:)``.
    case review(Gesture)
    /// Play the gesture for real on a virtual device (it acts on the
    /// desktop); answered with ``CreateInput/shown(problem:)``.
    case play(Gesture)
    /// Stop a review or play in progress (a ``CreateInput/shown(problem:)`` still follows).
    case cancelShowing
    /// Save the gesture under `name`, replacing one that exists only when
    /// `replacing`; answered with ``CreateInput/saved(_:)``.
    case save(Gesture, name: String, replacing: Bool)
    /// Cancel everything running and release every contact and key.
    case cancelEverything
    /// The flow is over.
    case finish(CreateOutcome)
}

/// How a create flow ended.
public enum CreateOutcome: Hashable, Sendable {
    /// Saved under this name, at this path.
    case saved(name: String, path: String)
    /// Discarded on purpose: nothing saved.
    case discarded
    /// The emergency stop: everything cancelled, nothing saved.
    case emergencyStopped
}

/// What the flow needs to know about the library: which names are valid
/// and which exist (a test double in tests).
public protocol CreateLibrary: Sendable {
    /// Why `name` cannot name a gesture, or `nil`.
    func problem(with name: String) -> String?
    /// Whether a gesture of this name is in the library.
    func contains(_ name: String) -> Bool
}

/// AssistiveTouch's "Create New Gesture" as a state machine: recording
/// starts at the first touch, each lifted contact becomes a finger and is
/// announced as it lands, Stop leads to a menu (Review, Save, Add a stroke,
/// Undo last stroke, Record again, Play on a virtual device, Discard),
/// Save asks for a name. Pure logic: fed ``CreateInput``s, it returns
/// ``CreateEffect``s for a runner (``CreateSession``) to carry out, so
/// every transition is testable without a device or a terminal.
///
/// Destructive choices (Discard or Record again with strokes, Save over
/// an existing name) are confirmed, and the default of every menu is non-destructive. The
/// emergency stop works in every state. When the drawing device goes away,
/// the menu offers only what can still be done (Review, Save, Discard);
/// when nothing can operate the flow any more (``CreateInput/inputEnded``)
/// it ends and says what was dropped.
public struct CreateFlow: Sendable {
    /// Where the flow is.
    public enum Phase: Hashable, Sendable {
        /// Recording: waiting for strokes.
        case recording
        /// Stop was asked for; waiting for the recording to end.
        case stopping
        /// The menu after a recording.
        case menu
        /// Asking whether to discard.
        case confirmingDiscard
        /// Asking whether to record again (which drops the strokes drawn).
        case confirmingAgain
        /// Showing the gesture (in the terminal or on a virtual device).
        case showing
        /// Asking for a name.
        case naming
        /// Asking whether to replace the gesture of this name.
        case confirmingReplace(String)
        /// Saving under this name.
        case saving(String)
        /// Over.
        case finished
    }

    /// Menu item ids.
    public enum Choice {
        public static let review = "review"
        public static let save = "save"
        public static let add = "add"
        public static let undo = "undo"
        public static let again = "again"
        public static let play = "play"
        public static let discard = "discard"
        public static let keep = "keep"
        public static let otherName = "other-name"
        public static let replace = "replace"
    }

    /// Where the flow is now.
    public private(set) var phase = Phase.recording
    /// The strokes so far, as drawn, one after another.
    public private(set) var strokes: [Stroke] = []
    private var geometry: DeviceGeometry?
    private var liveGeometry: DeviceGeometry?
    private var metadata: RecordingMetadata?
    private var landedInTake = 0
    private var lastSuggestion = ""
    /// What to draw, said once the recording listens (never before: what
    /// is drawn before the device is read is lost; issue 24).
    private var instruction: Announcement?
    private let library: any CreateLibrary
    /// The label of the "play for real" item (says which device it acts on).
    private let playLabel: String
    /// The drawing device's name once it went away: nothing more can be drawn.
    public private(set) var drawingDeviceGone: String?
    /// Nothing can operate the flow: it ends at the next point it would ask.
    private var inputEnded = false

    /// Creates a flow; ``start()`` begins it.
    /// - Parameter playLabel: the menu's label for playing on a virtual device.
    public init(library: any CreateLibrary, playLabel: String = "Play on a virtual touchscreen (acts on the desktop)") {
        self.library = library
        self.playLabel = playLabel
    }

    /// The first effect: the recording. The instructions follow once it
    /// listens (``CreateInput/recordingStarted(_:)``).
    public mutating func start() -> [CreateEffect] {
        phase = .recording
        return startRecording(
            Announcement(
                "Draw the first stroke. Each stroke you lift becomes a finger; they will play together. Recording starts when you touch."))
    }

    /// Starts a recording whose `instruction` is said once it listens.
    private mutating func startRecording(_ instruction: Announcement) -> [CreateEffect] {
        self.instruction = instruction
        return [.startRecording]
    }

    /// The gesture as it would be saved: the strokes merged to start together.
    public var merged: Gesture? {
        guard !strokes.isEmpty, let geometry else { return nil }
        let gesture = Gesture(name: lastSuggestion.isEmpty ? "gesture" : lastSuggestion, device: geometry, strokes: strokes, metadata: metadata)
        return SequentialMerge.apply(to: RecordedGesture(gesture: gesture, stopReason: .cancelled)).gesture
    }

    /// Feeds one input; returns what to do, in order.
    public mutating func handle(_ input: CreateInput) -> [CreateEffect] {
        if case .emergencyStop = input {
            guard phase != .finished else { return [] }
            phase = .finished
            return [
                .cancelEverything,
                .say(Announcement("Emergency stop: everything was cancelled and released. Nothing was saved.")),
                .finish(.emergencyStopped),
            ]
        }
        if case .inputEnded = input { return endOfInput() }
        switch (phase, input) {
        case (.recording, .recordingStarted(let device)):
            liveGeometry = device
            defer { instruction = nil }
            return instruction.map { [.say($0)] } ?? []
        case (.recording, .strokeLanded(let stroke)), (.stopping, .strokeLanded(let stroke)):
            landedInTake += 1
            return [.say(Self.strokeLine(number: strokes.count + landedInTake, stroke: stroke, geometry: liveGeometry ?? geometry))]
        case (.recording, .stop):
            phase = .stopping
            return [.stopRecording]
        case (.recording, .recordingEnded(let result)), (.stopping, .recordingEnded(let result)):
            return recordingEnded(result)
        case (.recording, .drawingDeviceGone(let name)), (.stopping, .drawingDeviceGone(let name)):
            drawingDeviceGone = name
            return []
        case (.menu, .choose(let id)):
            return menuChoice(id)
        case (.menu, .back):
            return [.say(Announcement("This is the first menu. Choose Discard to leave without saving.")), .showMenu(menu())]
        case (.confirmingDiscard, .choose(Choice.discard)):
            phase = .finished
            return [.say(Announcement("Discarded. Nothing was saved.")), .finish(.discarded)]
        case (.confirmingDiscard, .choose), (.confirmingDiscard, .back):
            return backToMenu()
        case (.confirmingAgain, .choose(Choice.again)):
            return recordAgain()
        case (.confirmingAgain, .choose), (.confirmingAgain, .back):
            return backToMenu()
        case (.showing, .shown(let problem)):
            var effects: [CreateEffect] = []
            if let problem { effects.append(.say(Announcement("That did not work: \(problem)"))) }
            return effects + backToMenu()
        case (.showing, .back):
            return [.cancelShowing]
        case (.naming, .name(let name)):
            return named(name)
        case (.naming, .back):
            return backToMenu()
        case (.confirmingReplace(let name), .choose(Choice.replace)):
            return save(as: name, replacing: true)
        case (.confirmingReplace, .choose), (.confirmingReplace, .back):
            return askName()
        case (.saving(let name), .saved(let result)):
            switch result {
            case .success(let path):
                phase = .finished
                let line = merged.map { Describing.line(for: $0) } ?? Announcement("")
                return [
                    .say(Announcement("Saved as \(name): \(line.text).", spoken: "Saved as \(name). \(line.spoken).")),
                    .finish(.saved(name: name, path: path)),
                ]
            case .failure(let failure):
                return [.say(Announcement("Could not save: \(failure.message)"))] + backToMenu()
            }
        default:
            // Anything else is out of place here (a stray press, a late
            // stroke); nothing changes.
            return []
        }
    }

    private mutating func recordingEnded(_ result: Result<RecordedGesture, CreateFailure>) -> [CreateEffect] {
        phase = .menu
        // A recording that never listened: nobody is asked to draw.
        instruction = nil
        var effects: [CreateEffect] = []
        switch result {
        case .success(let recorded):
            let take = recorded.gesture.strokes.filter { !$0.samples.isEmpty }.sorted { $0.startTime < $1.startTime }
            // Strokes still down at the stop landed now: announce them too.
            for (index, stroke) in take.enumerated() where index >= landedInTake {
                effects.append(.say(Self.strokeLine(number: strokes.count + index + 1, stroke: stroke, geometry: recorded.gesture.device)))
            }
            if geometry == nil && !take.isEmpty {
                geometry = recorded.gesture.device
                metadata = recorded.gesture.metadata
            }
            // A later take is placed after the strokes before it, so that it
            // is its own group when they are merged to start together.
            let offset = (strokes.map(\.endTime).max().map { $0 + Microseconds(100_000) } ?? .zero)
                - (take.first?.startTime ?? .zero)
            strokes += strokes.isEmpty ? take : take.map { $0.shifted(by: offset) }
            for warning in recorded.warnings { effects.append(.say(Announcement("Note: \(warning)"))) }
        case .failure(let failure):
            effects.append(.say(Announcement("Recording failed: \(failure.message)")))
        }
        landedInTake = 0
        if let name = drawingDeviceGone {
            effects.append(.say(Announcement("The drawing device \(name) went away: nothing more can be drawn.")))
        }
        effects.append(.say(summary()))
        if drawingDeviceGone != nil && strokes.isEmpty && !inputEnded {
            // Nothing to keep and nothing more to draw: no menu to leave through.
            phase = .finished
            return effects + [.say(Announcement("Nothing was saved.")), .finish(.discarded)]
        }
        return effects + backToMenu()
    }

    /// The keys ended and there is no switch: a running recording or review
    /// is stopped first (it answers, and the flow ends then); anywhere the
    /// flow waits for a choice, it ends now. Nothing is saved: a name or a
    /// Save can no longer be chosen, and saving somewhere unasked is not
    /// the flow's to do; so it says what is dropped.
    private mutating func endOfInput() -> [CreateEffect] {
        guard !inputEnded, phase != .finished else { return [] }
        inputEnded = true
        switch phase {
        case .recording:
            phase = .stopping
            return [.stopRecording]
        case .showing:
            return [.cancelShowing]
        case .stopping, .saving:
            // Their answer comes, and the flow ends there (a save that
            // went through is kept, and said).
            return []
        case .menu, .confirmingDiscard, .confirmingAgain, .naming, .confirmingReplace:
            return endForLackOfInput()
        case .finished:
            return []
        }
    }

    private mutating func endForLackOfInput() -> [CreateEffect] {
        phase = .finished
        let dropped =
            strokes.isEmpty
            ? "Nothing was saved."
            : "Nothing was saved: the \(Self.count(strokes.count, "stroke")) drawn \(strokes.count == 1 ? "is" : "are") discarded."
        return [
            .say(Announcement("The keys ended and there is no switch, so nothing can operate the flow. \(dropped)")),
            .finish(.discarded),
        ]
    }

    private mutating func menuChoice(_ id: String) -> [CreateEffect] {
        // Only what the menu offers (after the drawing device went away,
        // nothing that records).
        guard menu().items.contains(where: { $0.id == id }) else { return [] }
        switch id {
        case Choice.review:
            guard let merged else { return [] }
            phase = .showing
            return [.say(Announcement("Review: \(Describing.line(for: merged).text)", spoken: "Review. \(Describing.line(for: merged).spoken).")), .review(merged)]
        case Choice.play:
            guard let merged else { return [] }
            phase = .showing
            return [.say(Announcement("Playing it on a virtual device; it acts on the desktop.")), .play(merged)]
        case Choice.save:
            guard !strokes.isEmpty else { return [] }
            return askName()
        case Choice.add:
            phase = .recording
            return startRecording(
                Announcement("Draw another stroke. It will play together with the \(Self.count(strokes.count, "stroke")) you have."))
        case Choice.undo:
            guard let last = strokes.indices.max(by: { strokes[$0].startTime < strokes[$1].startTime }) else { return [] }
            strokes.remove(at: last)
            return [.say(Announcement("Removed the last stroke; \(Self.count(strokes.count, "stroke")) left.")), .showMenu(menu())]
        case Choice.again:
            if strokes.isEmpty { return recordAgain() }
            return askBeforeDropping(
                .confirmingAgain,
                "Record again? The \(Self.count(strokes.count, "stroke")) drawn so far will be discarded; they cannot be recovered.",
                confirm: MenuItem(id: Choice.again, label: "Record again", isDestructive: true))
        case Choice.discard:
            if strokes.isEmpty {
                phase = .finished
                return [.say(Announcement("Nothing was saved.")), .finish(.discarded)]
            }
            return askBeforeDropping(
                .confirmingDiscard, "Discard \(Self.count(strokes.count, "stroke"))? They cannot be recovered.",
                confirm: MenuItem(id: Choice.discard, label: "Discard", isDestructive: true))
        default:
            return []
        }
    }

    /// Asks before a choice that drops the strokes: Keep them (the default)
    /// or `confirm`, in `phase`.
    private mutating func askBeforeDropping(_ phase: Phase, _ title: String, confirm: MenuItem) -> [CreateEffect] {
        self.phase = phase
        return [.showMenu(MenuScreen(title: Announcement(title), items: [MenuItem(id: Choice.keep, label: "Keep them"), confirm]))]
    }

    /// Drops the strokes and starts a new recording (Record again, confirmed
    /// when there were strokes).
    private mutating func recordAgain() -> [CreateEffect] {
        strokes = []
        geometry = nil
        metadata = nil
        phase = .recording
        return startRecording(Announcement("Recording again. Draw the first stroke."))
    }

    private mutating func askName() -> [CreateEffect] {
        phase = .naming
        lastSuggestion = suggestedName()
        return [.askName(suggestion: lastSuggestion)]
    }

    private mutating func named(_ raw: String) -> [CreateEffect] {
        let name = raw.isEmpty ? lastSuggestion : raw
        if let problem = library.problem(with: name) {
            return [.say(Announcement("That name cannot be used: \(problem)")), .askName(suggestion: lastSuggestion)]
        }
        if library.contains(name) {
            phase = .confirmingReplace(name)
            return [
                .showMenu(
                    MenuScreen(
                        title: Announcement("A gesture named \(name) exists. Replace it?"),
                        items: [
                            MenuItem(id: Choice.otherName, label: "Choose another name"),
                            MenuItem(id: Choice.replace, label: "Replace \(name)", isDestructive: true),
                        ]))
            ]
        }
        return save(as: name, replacing: false)
    }

    private mutating func save(as name: String, replacing: Bool) -> [CreateEffect] {
        guard var gesture = merged else { return backToMenu() }
        phase = .saving(name)
        gesture.name = name
        gesture.description = Describing.line(for: gesture).text
        return [.save(gesture, name: name, replacing: replacing)]
    }

    /// The menu again, or the end when nothing can operate it.
    private mutating func backToMenu() -> [CreateEffect] {
        if inputEnded { return endForLackOfInput() }
        phase = .menu
        return [.showMenu(menu())]
    }

    /// The menu after a recording, for the strokes there are.
    public func menu() -> MenuScreen {
        guard let merged else {
            return MenuScreen(
                title: Announcement("Nothing was drawn. What next?"),
                items: [MenuItem(id: Choice.again, label: "Record again"), MenuItem(id: Choice.discard, label: "Leave")])
        }
        let line = Describing.line(for: merged)
        let items = [
            MenuItem(id: Choice.review, label: "Review"),
            MenuItem(id: Choice.save, label: "Save"),
            MenuItem(id: Choice.add, label: "Add a stroke"),
            MenuItem(id: Choice.undo, label: "Undo last stroke"),
            MenuItem(id: Choice.again, label: "Record again", isDestructive: true),
            MenuItem(id: Choice.play, label: playLabel),
            MenuItem(id: Choice.discard, label: "Discard", isDestructive: true),
        ]
        guard drawingDeviceGone != nil else {
            return MenuScreen(title: Announcement("\(line.text). What next?", spoken: "\(line.spoken). What next?"), items: items)
        }
        // Nothing more can be recorded: only what needs no drawing device.
        let gone = "The drawing device is gone. What next?"
        return MenuScreen(
            title: Announcement("\(line.text). \(gone)", spoken: "\(line.spoken). \(gone)"),
            items: items.filter { [Choice.review, Choice.save, Choice.discard].contains($0.id) })
    }

    private func summary() -> Announcement {
        guard let merged else { return Announcement("Recording stopped. Nothing was drawn.") }
        let line = Describing.line(for: merged)
        let count = Self.count(strokes.count, "stroke")
        return Announcement("Recording stopped: \(count), \(line.text).", spoken: "Recording stopped. \(count). \(line.spoken).")
    }

    /// A free name from what the gesture is: `2-fingers-swipe-down`, then `-2`, `-3`…
    private func suggestedName() -> String {
        let base = merged.map { Describing.nameStem(for: $0) } ?? "gesture"
        if library.problem(with: base) == nil && !library.contains(base) { return base }
        for number in 2...10_000 {
            let name = "\(base)-\(number)"
            if library.problem(with: name) == nil && !library.contains(name) { return name }
        }
        return base
    }

    /// `Stroke 2: swipe down · 0.60 s · 40 mm`.
    static func strokeLine(number: Int, stroke: Stroke, geometry: DeviceGeometry?) -> Announcement {
        let alone = Gesture(name: "", device: geometry ?? .synthDefault, strokes: [stroke])
        let line = Describing.line(for: alone, withoutContacts: true)
        return Announcement("Stroke \(number): \(line.text)", spoken: "Stroke \(number). \(line.spoken).")
    }

    static func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }
}
