import GestureEngine
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem

/// What a menu session presses, plays and creates with: the engine (the
/// system's, or one over test doubles) and the front end's choices. Its
/// presses and plays go to the engine's kept devices, through their
/// queues (an action waits behind a rig's play there, never "busy").
public struct MenuSetup: Sendable {
    /// The engine: presses, plays, Create New Gesture and the switch's watch go through it.
    public var engine: Engine
    /// The library the gestures come from.
    public var library: GestureLibrary
    /// The play of a saved gesture (on a kept device: `keepDevice`).
    public var play: @Sendable (Gesture) -> PlayRequest
    /// Time between a new keyboard being ready and a press (the keyboard is
    /// made when the menu starts, so that the desktop has it open).
    public var pressLeadIn: Microseconds
    /// Create New Gesture's setup; its ``CreateSetup/switchWatch`` is the menu's too.
    public var create: CreateSetup
    /// The label of the create flow's "play for real" item.
    public var playLabel: String
    /// Whether closing the menu closes the engine's kept devices: the
    /// CLI's menu made them; the daemon's ready devices stay.
    public var closesKeptDevices: Bool
    /// How long live fingertips wait without input before they go away
    /// (`nil`: never); AssistiveTouch's "a few moments", 5 s by default.
    public var fingertipsIdle: Microseconds?

    /// Creates a setup.
    public init(
        engine: Engine, library: GestureLibrary, play: @escaping @Sendable (Gesture) -> PlayRequest,
        pressLeadIn: Microseconds = PlayRequest.defaultLeadIn, create: CreateSetup, playLabel: String, closesKeptDevices: Bool,
        fingertipsIdle: Microseconds? = FingertipsOptions.defaultIdle
    ) {
        self.fingertipsIdle = fingertipsIdle
        self.engine = engine
        self.library = library
        self.play = play
        self.pressLeadIn = pressLeadIn
        self.create = create
        self.playLabel = playLabel
        self.closesKeptDevices = closesKeptDevices
    }

    /// Makes the virtual keyboard before the first press, so the desktop
    /// has it open when a press comes (a new device's first key can be lost).
    func prepare() throws { _ = try engine.readyDevice(.keyboard()) }

    /// Starts pressing `key` on the kept virtual keyboard (a tap).
    func startPress(_ key: VirtualKeyboard.Key) throws -> PlayJob {
        try engine.startPress(PressRequest(press: KeyPress(key: key.code, action: .tap), leadIn: pressLeadIn, keepDevice: true))
    }

    /// Starts playing the saved gesture `name`.
    func startPlay(named name: String) throws -> PlayJob { try engine.startPlay(play(try library.load(named: name))) }

    /// Starts watching the switch, reporting on `handle`.
    func watchSwitch(_ request: TriggerRequest, handle: TriggerHandle) throws {
        try create.switchWatch.start(request, on: engine, handle: handle)
    }

    /// Starts `count` live fingertips on the menu's pointing device: the
    /// drawing device (`--device`), else the only touch or pointer device.
    func startFingertips(count: Int, events: @escaping @Sendable (FingertipsEvent) -> Void) throws -> FingertipsJob {
        try engine.startFingertips(
            FingertipsRequest(device: create.record.device, options: FingertipsOptions(count: count, idle: fingertipsIdle)), events: events)
    }

    /// A new create flow, for Create New Gesture.
    func createFlow() -> CreateFlow { CreateFlow(library: LibraryNames(library), playLabel: playLabel) }

    /// Lets go of the devices kept between actions when they are the menu's (the menu is over).
    func close() { if closesKeptDevices { engine.closeKeptDevices() } }
}

/// Runs an ``ActionMenu``: carries out its effects on the engine of its ``MenuSetup``,
/// feeds it what the keys, the switch and the jobs say, and shows
/// everything on an ``AssistDisplay``, on an ``AssistLoop`` (one poll on
/// one dedicated thread, `gesturectl-ui`). Create New Gesture runs a
/// ``CreateSession`` on the same thread, with the same display, keys,
/// switch and cancellation, and comes back to the menu afterwards.
public final class MenuSession: AssistLoopClient {
    enum Message: Sendable {
        case actionEnded(ActionMenuInput)
        /// What live fingertips said; `ended`: they are over.
        case fingertips(ActionMenuInput, ended: Bool)
    }

    private enum Presentation {
        case none
        case menu(MenuPresenter)
    }

    private var menu: ActionMenu
    private let setup: MenuSetup
    private let display: any AssistDisplay
    private let loop: AssistLoop<Message>
    private var presentation = Presentation.none
    private var job: PlayJob?
    private var fingertips: FingertipsJob?
    private var pending: [ActionMenuInput] = []
    private var outcome: ActionMenuOutcome?
    private var failure: CreateFailure?

    /// Creates a session; ``run()`` runs it on the calling thread, ``start(_:setup:display:keyboard:switchSetup:handle:)`` on its own.
    public init(
        menu: ActionMenu, setup: MenuSetup, display: any AssistDisplay, keyboard: KeyboardInput?,
        switchSetup: SwitchSetup?, clock: any RecordingClock = SystemClock(), cancellation: CancellationSignal
    ) throws(SystemError) {
        self.menu = menu
        self.setup = setup
        self.display = display
        loop = try AssistLoop(
            keyboard: keyboard, switchSetup: switchSetup, clock: clock, cancellation: cancellation, display: display)
    }

    /// Starts a session on its own thread; the handle's result is how it
    /// ended (cancelling the handle is the emergency stop). A front end
    /// that must be able to cancel it before it starts gives `handle`.
    public static func start(
        _ menu: ActionMenu, setup: MenuSetup, display: sending any AssistDisplay, keyboard: KeyboardInput?,
        switchSetup: SwitchSetup?, handle: JobHandle<Result<ActionMenuOutcome, CreateFailure>, Never> = JobHandle()
    ) throws -> JobHandle<Result<ActionMenuOutcome, CreateFailure>, Never> {
        let session = try MenuSession(
            menu: menu, setup: setup, display: display, keyboard: keyboard, switchSetup: switchSetup,
            cancellation: handle.cancellation)
        try DedicatedThread.start(CreateSession.thread) { handle.finish(session.run()) }
        return handle
    }

    /// Runs the menu until it is closed, on the calling thread.
    public func run() -> Result<ActionMenuOutcome, CreateFailure> {
        defer {
            stopEverything()
            setup.close()
            display.finish()
        }
        do {
            try loop.watchSwitch(setup.watchSwitch(_:handle:))
        } catch {
            return .failure(CreateFailure("the switch cannot be watched: \(error)"))
        }
        do {
            try setup.prepare()
        } catch {
            // Said, not fatal: saved gestures and Create New Gesture may still work.
            display.say(Announcement("The virtual keyboard cannot be made, so buttons will not work: \(error)"))
        }
        perform(menu.start())
        drain()
        do throws(SystemError) {
            try loop.run(self)
        } catch {
            return .failure(CreateFailure("the menu's loop failed: \(error)"))
        }
        if let failure { return .failure(failure) }
        return .success(outcome ?? .closed)
    }

    // MARK: - AssistLoopClient

    var isFinished: Bool { outcome != nil }

    func cancelled() { feed(.emergencyStop) }

    func receive(_ message: Message) {
        switch message {
        case .actionEnded(let input):
            if let job {
                // Already ended: this only lets go of a device that is not kept.
                _ = job.wait()
            }
            job = nil
            feed(input)
        case .fingertips(let input, let ended):
            if ended {
                // Over: the source is given back and the device gone.
                _ = fingertips?.handle.wait()
                fingertips = nil
            }
            feed(input)
        }
    }

    func key(_ key: Key) {
        switch presentation {
        case .menu(var presenter):
            let (answer, moved) = presenter.key(key)
            presentation = .menu(presenter)
            if moved { display.menu(presenter, isNew: false) }
            if let answer { answered(answer, back: .escape) }
        case .none:
            // While a press or play runs, Escape stops it.
            if key == .escape { feed(.escape) }
        }
    }

    func switchAction(_ action: SwitchAction, at time: Microseconds) {
        if action == .emergencyStop {
            feed(.emergencyStop)
            return
        }
        switch presentation {
        case .menu(var presenter):
            let (answer, moved) = presenter.switchAction(action, at: loop.clock.now())
            presentation = .menu(presenter)
            if moved { display.menu(presenter, isNew: false) }
            if let answer { answered(answer, back: .back) }
        case .none:
            if action == .back { feed(.back) }
            if action == .select { feed(.press) }
        }
    }

    func keysEnded() {
        if loop.switchSetup == nil { feed(.inputEnded) }
    }

    func nextDeadline() -> Microseconds? {
        if case .menu(let presenter) = presentation { return presenter.nextDeadline }
        return nil
    }

    func tick(at now: Microseconds) {
        guard case .menu(var presenter) = presentation, presenter.advance(to: now) else { return }
        presentation = .menu(presenter)
        display.menu(presenter, isNew: false)
    }

    // MARK: - Inputs and effects

    /// A menu's answer; going back is `back`: ``ActionMenuInput/escape``
    /// from the Escape key (it closes the top level, a long press does not).
    private func answered(_ answer: MenuAnswer, back: ActionMenuInput) {
        presentation = .none
        switch answer {
        case .choose(let id): feed(.choose(id))
        case .back: feed(back)
        }
    }

    private func feed(_ input: ActionMenuInput) {
        pending.append(input)
        drain()
    }

    /// Feeds the inputs that effects produced (a failed start, the create flow's end).
    private func drain() {
        while !pending.isEmpty && outcome == nil {
            perform(menu.handle(pending.removeFirst()))
        }
    }

    private func perform(_ effects: [ActionMenuEffect]) {
        for effect in effects { perform(effect) }
    }

    private func perform(_ effect: ActionMenuEffect) {
        switch effect {
        case .say(let line):
            display.say(line)
        case .showMenu(let screen):
            let presenter = MenuPresenter(screen, scanning: loop.switchSetup?.scanning, at: loop.clock.now())
            presentation = .menu(presenter)
            display.menu(presenter, isNew: true)
        case .press(let key):
            start { try setup.startPress(key) }
        case .play(let name):
            start { try setup.startPlay(named: name) }
        case .cancelAction:
            job?.cancel()
            fingertips?.cancel()
        case .startFingertips(let count):
            startFingertips(count)
        case .create:
            let (result, keysEnded) = create()
            if let failure {
                display.say(Announcement("The menu cannot go on: \(failure.message)"))
                outcome = .closed
                return
            }
            // Keys that ended during the flow (and no switch) end the menu
            // too: told before the flow's end, it closes instead of coming back.
            if keysEnded && loop.switchSetup == nil { pending.append(.inputEnded) }
            pending.append(.created(result))
        case .cancelEverything:
            stopEverything()
        case .finish(let result):
            outcome = result
        }
    }

    private func start(_ body: () throws -> PlayJob) {
        presentation = .none
        do {
            let job = try body()
            self.job = job
            let post = loop.post
            job.handle.onCompletion { result in
                switch result.outcome {
                case .completed: post(.actionEnded(.actionEnded(problem: nil)))
                case .cancelled: post(.actionEnded(.actionStopped))
                case .failed(let error, _): post(.actionEnded(.actionEnded(problem: "\(error)")))
                }
            }
        } catch {
            pending.append(.actionEnded(problem: "\(error)"))
        }
    }

    /// Live fingertips: what they say and their end come to the loop as messages.
    private func startFingertips(_ count: Int) {
        presentation = .none
        let post = loop.post
        do {
            let job = try setup.startFingertips(count: count) { event in
                switch event {
                case .ready(let line): post(.fingertips(.fingertipsReady(line), ended: false))
                case .touching(let down): post(.fingertips(.fingertipsTouching(down), ended: false))
                case .notice: break
                }
            }
            fingertips = job
            job.handle.onCompletion { outcome in
                let end: FingertipsMenuEnd
                switch outcome.reason {
                case .idle: end = .idle
                case .cancelled: end = .stopped
                case .sourceVanished: end = .sourceGone
                case .failed(let error): end = .failed("\(error)")
                }
                post(.fingertips(.fingertipsEnded(end), ended: true))
            }
        } catch {
            pending.append(.fingertipsEnded(.failed("\(error)")))
        }
    }

    /// Create New Gesture: the create flow on this thread, with the switch
    /// handed over to it (one watch of the device at a time) and taken back after.
    private func create() -> (Result<CreateOutcome, CreateFailure>, keysEnded: Bool) {
        presentation = .none
        loop.stopSwitch()
        let result: Result<CreateOutcome, CreateFailure>
        var keysEnded = false
        do {
            let session = try CreateSession(
                flow: setup.createFlow(), setup: setup.create, display: display, keyboard: loop.keyboard,
                switchSetup: loop.switchSetup, clock: loop.clock, cancellation: loop.cancellation)
            result = session.run()
            keysEnded = session.keysHaveEnded
        } catch {
            result = .failure(CreateFailure("\(error)"))
        }
        if case .success(.emergencyStopped) = result { return (result, keysEnded) }
        do {
            try loop.watchSwitch(setup.watchSwitch(_:handle:))
        } catch {
            // Without its switch a switch user cannot use the menu: end it.
            failure = CreateFailure("the switch cannot be watched again: \(error)")
        }
        return (result, keysEnded)
    }

    /// Cancels what runs and waits for it: a play lifts every finger, a
    /// press releases its key; the switch's watch lets the device go.
    private func stopEverything() {
        job?.cancel()
        fingertips?.cancel()
        _ = job?.wait()
        job = nil
        _ = fingertips?.handle.wait()
        fingertips = nil
        loop.stopSwitch()
    }
}
