import GestureEngine
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem

/// Where an assist flow's switch presses come from.
public enum SwitchWatch: Sendable {
    /// The engine watches the switch's device (``SwitchSetup/trigger``)
    /// through its inputs.
    case engine
    /// Another watch of the device hands its presses on: each call is
    /// given a new handle, which gets them until it is cancelled, and then
    /// ends (the daemon, whose binding watches, and may grab, the device
    /// already).
    case forwarded(@Sendable (TriggerHandle) throws -> Void)

    /// Starts watching `request`'s switch on `engine`, or takes the
    /// forwarded presses, reporting on `handle`.
    func start(_ request: TriggerRequest, on engine: Engine, handle: TriggerHandle) throws {
        switch self {
        case .engine: _ = try engine.startWatchingTrigger(request, handle: handle)
        case .forwarded(let watch): try watch(handle)
        }
    }
}

/// What a create session records, plays and saves with: the engine (the
/// system's, or one over test doubles) and the front end's choices.
public struct CreateSetup: Sendable {
    /// The engine: recordings, plays and the switch's watch go through it.
    public var engine: Engine
    /// The recording: device, grab, idle timeout, screen for pointers.
    public var record: RecordRequest
    /// The play of "Play on a virtual device" for a gesture.
    public var play: @Sendable (Gesture) -> PlayRequest
    /// The library to save into.
    public var library: GestureLibrary
    /// Writes the review picture of a gesture and says where it went
    /// (`nil`: none is wanted). The front end's, so that its output rules
    /// apply (the CLI's `-o` rules: a device or FIFO is written into, never
    /// replaced by a file).
    public var picture: (@Sendable (Gesture) throws -> String?)?
    /// Where the switch's presses come from.
    public var switchWatch: SwitchWatch

    /// Creates a setup.
    public init(
        engine: Engine, record: RecordRequest, play: @escaping @Sendable (Gesture) -> PlayRequest, library: GestureLibrary,
        picture: (@Sendable (Gesture) throws -> String?)? = nil, switchWatch: SwitchWatch = .engine
    ) {
        self.engine = engine
        self.record = record
        self.play = play
        self.library = library
        self.picture = picture
        self.switchWatch = switchWatch
    }

    /// How long without a contact ends a recording, if it does.
    var idleTimeout: Microseconds? { record.sessionOptions.idleTimeout }
}

/// The library as the create flow (which names exist) and the menu (its
/// gestures) see it.
public struct LibraryNames: CreateLibrary {
    /// The library.
    public var library: GestureLibrary
    /// Creates the view.
    public init(_ library: GestureLibrary) { self.library = library }
    public func problem(with name: String) -> String? { GestureName.problem(with: name) }
    public func contains(_ name: String) -> Bool {
        // Harmless: a name that cannot be looked up counts as free; saving under it never replaces a file
        // (link(2) refuses one) and the flow says why the save failed.
        (try? library.entry(named: name)) != nil
    }
}

extension LibraryNames: MenuLibrary {
    public func gestureNames() throws -> [String] { try library.list().map(\.name) }
}

/// Runs a ``CreateFlow``: carries out its effects on the engine of its ``CreateSetup``,
/// feeds it what the recording, the keys and the switch say, and shows
/// everything on an ``AssistDisplay``. One ``AssistLoop`` on one dedicated
/// thread (`gesturectl-ui`): a poll on the keys, the switch's and jobs'
/// messages and the cancellation, with the scanning's and the review's
/// deadlines as its timeout.
public final class CreateSession: AssistLoopClient {
    /// How the loop's thread is set up.
    public static let thread = ThreadOptions(name: "gesturectl-ui")
    /// How long the review's animation lasts at most, and its steps.
    static let reviewSteps = 12
    static let reviewStepTime = Microseconds(120_000)

    enum Message: Sendable {
        case stroke(Stroke)
        case status(RecordingStatus)
        case recorded(RecordingOutcome)
        case played(String?)
    }

    private enum Presentation {
        case none
        case recording
        case menu(MenuPresenter)
        case naming(suggestion: String, typed: String)
        case reviewing(Gesture, step: Int, next: Microseconds)
        case playing
    }

    private var flow: CreateFlow
    private let setup: CreateSetup
    private let display: any AssistDisplay
    private let loop: AssistLoop<Message>
    private var presentation = Presentation.none
    private var recordJob: RecordJob?
    private var playJob: PlayJob?
    private var pending: [CreateInput] = []
    /// The strokes of the recording in progress, as they landed (for the pointer's canvas).
    private var takeStrokes: [Stroke] = []
    private var takeGeometry: DeviceGeometry?
    /// The name of the device the recording in progress reads (shown, escaped).
    private var recordingDevice = ""
    private var lastPointer: PointerPosition?
    private var outcome: CreateOutcome?

    /// Creates a session; ``run()`` runs it on the calling thread, ``start(_:)`` on its own.
    public init(
        flow: CreateFlow, setup: CreateSetup, display: any AssistDisplay, keyboard: KeyboardInput?,
        switchSetup: SwitchSetup?, clock: any RecordingClock = SystemClock(), cancellation: CancellationSignal
    ) throws(SystemError) {
        self.flow = flow
        self.setup = setup
        self.display = display
        loop = try AssistLoop(
            keyboard: keyboard, switchSetup: switchSetup, clock: clock, cancellation: cancellation, display: display)
    }

    private var switchSetup: SwitchSetup? { loop.switchSetup }
    private var clock: any RecordingClock { loop.clock }

    /// Starts a session on its own thread; the handle's result is how it
    /// ended (cancelling the handle is the emergency stop).
    public static func start(
        flow: CreateFlow, setup: CreateSetup, display: sending any AssistDisplay, keyboard: KeyboardInput?,
        switchSetup: SwitchSetup?, handle: JobHandle<Result<CreateOutcome, CreateFailure>, Never> = JobHandle()
    ) throws -> JobHandle<Result<CreateOutcome, CreateFailure>, Never> {
        let session = try CreateSession(
            flow: flow, setup: setup, display: display, keyboard: keyboard, switchSetup: switchSetup,
            cancellation: handle.cancellation)
        try DedicatedThread.start(thread) { handle.finish(session.run()) }
        return handle
    }

    /// Runs the flow to its end on the calling thread.
    public func run() -> Result<CreateOutcome, CreateFailure> {
        defer {
            stopEverything()
            display.finish()
        }
        do {
            let setup = self.setup
            try loop.watchSwitch { try setup.switchWatch.start($0, on: setup.engine, handle: $1) }
        } catch {
            return .failure(CreateFailure("the switch cannot be watched: \(error)"))
        }
        perform(flow.start())
        drain()
        do throws(SystemError) {
            try loop.run(self)
        } catch {
            return .failure(CreateFailure("the flow's loop failed: \(error)"))
        }
        return .success(outcome ?? .discarded)
    }

    // MARK: - Inputs

    var isFinished: Bool { outcome != nil }

    func cancelled() { feed(.emergencyStop) }

    /// The end of the keys ends the flow when there is no switch: nothing
    /// else can choose Save (the flow says what is dropped). With a switch
    /// the flow goes on.
    func keysEnded() {
        keysHaveEnded = true
        if switchSetup == nil { feed(.inputEnded) }
    }

    /// Whether the keys ended while the session ran (the menu that ran it
    /// then closes at once, instead of showing itself to no one).
    private(set) var keysHaveEnded = false

    private func feed(_ input: CreateInput) {
        pending.append(input)
        drain()
    }

    /// Feeds the inputs that effects produced (a failed start, a save's result).
    private func drain() {
        while !pending.isEmpty && outcome == nil {
            perform(flow.handle(pending.removeFirst()))
        }
    }

    func receive(_ message: Message) {
        switch message {
        case .stroke(let stroke):
            takeStrokes.append(stroke)
            feed(.strokeLanded(stroke))
        case .status(let status):
            // Drawn only when the pointer moved: a still pointer costs nothing.
            guard case .recording = presentation, let pointer = status.pointer, pointer != lastPointer, let takeGeometry else { return }
            lastPointer = pointer
            display.canvas(Gesture(name: "", device: takeGeometry, strokes: flow.strokes + takeStrokes), pointer: pointer)
        case .recorded(let recorded):
            recordJob = nil
            if case .recording = presentation { presentation = .none }
            if case .deviceVanished = recorded.stopReason { feed(.drawingDeviceGone(recordingDevice)) }
            switch recorded.gesture {
            case .success(let gesture): feed(.recordingEnded(.success(gesture)))
            case .failure(.noContact): feed(.recordingEnded(.success(RecordedGesture(gesture: Gesture(name: "", device: .synthDefault, strokes: []), stopReason: recorded.stopReason))))
            case .failure(let error): feed(.recordingEnded(.failure(CreateFailure("\(error)"))))
            }
        case .played(let problem):
            playJob = nil
            presentation = .none
            feed(.shown(problem: problem))
        }
    }

    func switchAction(_ action: SwitchAction, at time: Microseconds) {
        if action == .emergencyStop {
            feed(.emergencyStop)
            return
        }
        switch presentation {
        case .recording:
            if action == .select, switchSetup?.stopsRecording == true { feed(.stop) }
        case .menu(var presenter):
            let (answer, moved) = presenter.switchAction(action, at: clock.now())
            presentation = .menu(presenter)
            if moved { display.menu(presenter, isNew: false) }
            if let answer { answered(answer) }
        case .reviewing, .playing:
            if action == .back { feed(.back) }
        case .naming, .none:
            break
        }
    }

    func key(_ key: Key) {
        switch presentation {
        case .recording:
            if [.enter, .space, .escape, .character("s")].contains(key) { feed(.stop) }
        case .menu(var presenter):
            let (answer, moved) = presenter.key(key)
            presentation = .menu(presenter)
            if moved { display.menu(presenter, isNew: false) }
            if let answer { answered(answer) }
        case .naming(let suggestion, var typed):
            switch key {
            case .enter:
                presentation = .none
                feed(.name(typed))
                return
            case .escape:
                presentation = .none
                feed(.back)
                return
            case .backspace: if !typed.isEmpty { typed.removeLast() }
            case .clearLine: typed = ""
            case .space: typed.append("-")
            case .character(let character): if typed.count < 200 { typed.append(character) }
            default: return
            }
            presentation = .naming(suggestion: suggestion, typed: typed)
            display.namePrompt(suggestion: suggestion, typed: typed)
        case .reviewing, .playing:
            if key == .escape || key == .enter { feed(.back) }
        case .none:
            break
        }
    }

    private func answered(_ answer: MenuAnswer) {
        presentation = .none
        switch answer {
        case .choose(let id) where id.hasPrefix(Self.nameChoice):
            feed(.name(String(id.dropFirst(Self.nameChoice.count))))
        case .choose(let id): feed(.choose(id))
        case .back: feed(.back)
        }
    }

    /// The naming menu's item for a name (a switch cannot type).
    private static let nameChoice = "name:"

    func nextDeadline() -> Microseconds? {
        switch presentation {
        case .menu(let presenter): presenter.nextDeadline
        case .reviewing(_, _, let next): next
        default: nil
        }
    }

    func tick(at now: Microseconds) {
        switch presentation {
        case .menu(var presenter):
            if presenter.advance(to: now) {
                presentation = .menu(presenter)
                display.menu(presenter, isNew: false)
            }
        case .reviewing(let gesture, let step, let next) where now >= next:
            let following = step + 1
            display.reviewFrame(gesture, fraction: Double(following) / Double(Self.reviewSteps))
            if following >= Self.reviewSteps {
                presentation = .none
                feed(.shown(problem: nil))
            } else {
                presentation = .reviewing(gesture, step: following, next: next + Self.reviewStepTime)
            }
        default:
            break
        }
    }

    // MARK: - Effects

    private func perform(_ effects: [CreateEffect]) {
        for effect in effects { perform(effect) }
    }

    private func perform(_ effect: CreateEffect) {
        switch effect {
        case .say(let line):
            display.say(line)
        case .startRecording:
            let post = loop.post
            do {
                let job = try setup.engine.startRecording(setup.record, strokes: { post(.stroke($0)) })
                job.handle.onCompletion { post(.recorded($0)) }
                // Only a pointer's status draws anything (the canvas): a touch
                // device's ten reports a second need not wake this thread.
                job.handle.observeProgress { if $0.pointer != nil { post(.status($0)) } }
                takeStrokes = []
                takeGeometry = job.geometry
                recordingDevice = DisplayText.escaped(job.device.name)
                lastPointer = nil
                recordJob = job
                presentation = .recording
                // The job reads the device now (the engine returns once it
                // does): only now is the person told to draw (issue 24).
                perform(flow.handle(.recordingStarted(job.geometry)))
                display.say(Announcement("Recording from \(recordingDevice). \(stopHint())"))
            } catch {
                pending.append(.recordingEnded(.failure(CreateFailure("\(error)"))))
            }
        case .stopRecording:
            recordJob?.cancel()
        case .showMenu(let screen):
            let presenter = MenuPresenter(screen, scanning: switchSetup?.scanning, at: clock.now())
            presentation = .menu(presenter)
            display.menu(presenter, isNew: true)
        case .askName(let suggestion):
            if switchSetup != nil {
                // One switch cannot type: offer the suggested name (it can be renamed later).
                let screen = MenuScreen(
                    title: Announcement("Save the gesture as \(suggestion)? It can be renamed later."),
                    items: [MenuItem(id: Self.nameChoice + suggestion, label: "Save as \(suggestion)"), MenuItem(id: "back", label: "Back")])
                let presenter = MenuPresenter(screen, scanning: switchSetup?.scanning, at: clock.now())
                presentation = .menu(presenter)
                display.menu(presenter, isNew: true)
            } else {
                presentation = .naming(suggestion: suggestion, typed: "")
                display.namePrompt(suggestion: suggestion, typed: "")
            }
        case .review(let gesture):
            do {
                if let picture = setup.picture, let path = try picture(gesture) {
                    display.say(Announcement("The picture is in \(DisplayText.escaped(path))"))
                }
            } catch {
                display.say(Announcement("The picture could not be written: \(error)"))
            }
            display.reviewFrame(gesture, fraction: 0)
            presentation = .reviewing(gesture, step: 0, next: clock.now() + Self.reviewStepTime)
        case .play(let gesture):
            let post = loop.post
            do {
                let job = try setup.engine.startPlay(setup.play(gesture))
                playJob = job
                presentation = .playing
                job.handle.onCompletion { result in
                    // The job's device is destroyed after its linger; `finished` waits for that too.
                    let problem: String? =
                        switch result.outcome {
                        case .completed, .cancelled: nil
                        case .failed(let error, _): "\(error)"
                        }
                    post(.played(problem))
                }
            } catch {
                pending.append(.shown(problem: "\(error)"))
            }
        case .cancelShowing:
            if case .reviewing = presentation {
                presentation = .none
                pending.append(.shown(problem: nil))
            }
            playJob?.cancel()
        case .save(let gesture, let name, let replacing):
            do {
                pending.append(.saved(.success(try setup.library.save(gesture, as: name, overwrite: replacing).path)))
            } catch {
                pending.append(.saved(.failure(CreateFailure("\(error)"))))
            }
        case .cancelEverything:
            stopEverything()
        case .finish(let result):
            outcome = result
        }
    }

    private func stopHint() -> String {
        var ways: [String] = []
        if loop.keyboard != nil { ways.append("press Return to stop") }
        if switchSetup?.stopsRecording == true { ways.append("press the switch to stop") }
        if let idle = setup.idleTimeout { ways.append("it stops after \(Self.seconds(idle)) without a touch") }
        return ways.isEmpty ? "" : ways.joined(separator: "; ").capitalizedFirst + "."
    }

    private static func seconds(_ value: Microseconds) -> String {
        let tenths = (value.rawValue + 50_000) / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }

    /// Cancels what runs and waits for it: a play lifts every finger, a
    /// recording releases its grab.
    private func stopEverything() {
        recordJob?.cancel()
        playJob?.cancel()
        _ = recordJob?.handle.wait()
        _ = playJob?.wait()
        recordJob = nil
        playJob = nil
        loop.stopSwitch()
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
