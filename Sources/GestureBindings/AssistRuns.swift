import GestureAssist
import GestureEngine
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import OperatingSystem
import GestureFormat
import GestureProtocol
import Synchronization

/// Where the daemon sends the presses of the trigger that operates a run:
/// to the watch the run holds now. A run may stop its watch and start a new
/// one (the menu hands the switch to Create New Gesture and takes it back),
/// so each ``watch(_:)`` is on a new handle, and presses go to the latest.
package final class SwitchRelay: Sendable {
    private let current = Mutex<TriggerHandle?>(nil)

    /// A new "watch" on `handle`: it gets the presses from now on and ends when cancelled.
    package func watch(_ handle: TriggerHandle) throws {
        let cancelled = try handle.cancellation.fileDescriptor
        // Nothing reads a device for this watch: a thread ends it once cancelled.
        try DedicatedThread.start(ThreadOptions(name: "gesturectl-cfwd")) {
            // A signal (false) waits on.
            // Harmless: poll on one eventfd fails only for lack of memory; the watch then ends as a cancelled one does, and the run's next watch() starts anew.
            while (try? Poll.waitReadable(cancelled, timeoutMilliseconds: nil)) == false {}
            handle.finish(nil)
        }
        current.withLock { $0 = handle }
    }

    /// Reports a press to the current watch, unless it was cancelled.
    package func report(_ press: TriggerPress) {
        guard let handle = current.withLock({ $0 }), !handle.isCancelled else { return }
        handle.report(.press(press, time: Microseconds(MonotonicClock.nowMicroseconds())))
    }
}

/// A create flow or a menu started by a binding, while it runs: the
/// trigger that operates it, whose presses go to it instead of the bindings.
package struct AssistRun: Sendable {
    /// Tells runs apart (a finished run clears only itself).
    package let id: Int
    /// What it is, for the log: "create flow" or "menu".
    package let what: String
    package let switchKey: WatchedKey
    /// The run's switch: the daemon reports the trigger's presses through it.
    package let switchPresses: SwitchRelay
    /// The emergency stop of the run (it lifts and releases what it started).
    package let cancel: @Sendable () -> Void
    /// Blocks until the run has ended.
    package let wait: @Sendable () -> Void
}

/// A create flow's or a menu's lines as the daemon's `create` or `menu` events (and its log).
package final class DaemonAssistDisplay: AssistDisplay {
    private let publish: @Sendable (Announcement) -> Void

    package init(publish: @escaping @Sendable (Announcement) -> Void) { self.publish = publish }

    package func say(_ line: Announcement) { publish(line) }
    package func menu(_ presenter: MenuPresenter, isNew: Bool) { for line in presenter.plainLines(isNew: isNew) { publish(line) } }
    package func namePrompt(suggestion: String, typed: String) {
        if typed.isEmpty { publish(Announcement("Name to save as: \(suggestion)")) }
    }
    package func reviewFrame(_ gesture: Gesture, fraction: Double) {}
    package func finish() {}
}

/// The create flows and menus bindings start: one at a time, operated by
/// the trigger that started it (its presses are forwarded here), its lines
/// published as `create` or `menu` events. Its one slot is behind its own
/// lock.
package final class AssistRuns: Sendable {
    /// What a run needs of the rest of the daemon when it starts.
    package struct Context: Sendable {
        /// The library it saves in and plays from.
        package var library: GestureLibrary
        /// The daemon's press timings (the switch's long press and emergency stop).
        package var timings: PressTimings
        /// The ready touchscreen's profile (its queue's, the one rule of a
        /// ready device's profile), when the daemon keeps one.
        package var readyTouchscreen: VirtualDeviceProfile?

        package init(library: GestureLibrary, timings: PressTimings, readyTouchscreen: VirtualDeviceProfile?) {
            self.library = library
            self.timings = timings
            self.readyTouchscreen = readyTouchscreen
        }
    }

    private struct Slot: Sendable {
        package var running: AssistRun?
        package var nextID = 0
        package var stopped = false
    }

    /// How long a create flow started by a binding waits after the last
    /// lift before its recording ends (as `record --sequential`).
    package static let createIdleTimeout = RecordingSessionOptions.defaultIdleTimeout

    private let engine: Engine
    private let version: String
    private let log: DaemonLog
    private let context: @Sendable () -> Context
    private let publish: @Sendable (AssistLineEvent) -> Void
    private let slot = Mutex(Slot())

    /// Runs on `engine`; `context` is asked when a run starts, `publish`
    /// pushes its lines.
    package init(
        engine: Engine, version: String, log: DaemonLog, context: @escaping @Sendable () -> Context,
        publish: @escaping @Sendable (AssistLineEvent) -> Void
    ) {
        self.engine = engine
        self.version = version
        self.log = log
        self.context = context
        self.publish = publish
    }

    /// Starts the guided create flow drawing on `device`, operated by the
    /// trigger `key` (its presses go to the flow until it ends); one at a time.
    package func startCreate(_ action: CreateAction, operatedBy key: WatchedKey) throws {
        try startAssistRun(
            what: "create flow", key: key, scanInterval: action.scanInterval, firstItemHold: action.firstItemHold,
            stopsRecording: action.stopsRecording
        ) { context, switchPresses, switchSetup, handle in
            _ = try CreateSession.start(
                flow: CreateFlow(library: LibraryNames(context.library)),
                setup: createSetup(drawingOn: action.device, context: context, switchPresses: switchPresses),
                display: assistDisplay(event: .create), keyboard: nil, switchSetup: switchSetup, handle: handle)
        }
    }

    /// Starts the menu of actions (`gesturectl menu`'s), operated by the
    /// trigger `key`; its lines go to `menu` subscribers. One run (a menu or
    /// a create flow) at a time.
    package func startMenu(_ action: MenuAction, operatedBy key: WatchedKey) throws {
        let configuration: MenuConfiguration
        if let path = action.configuration {
            do {
                guard let loaded = try MenuConfigurationFile.load(path: path) else {
                    throw DaemonError(.notFound, "the menu's configuration \(DaemonLog.oneLine(path)) does not exist")
                }
                configuration = loaded
            } catch let error as DaemonError {
                throw error
            } catch {
                throw DaemonError(.badArgument, "the menu's configuration: \(error)")
            }
        } else {
            configuration = MenuConfiguration.defaults
        }
        try startAssistRun(
            what: "menu", key: key, scanInterval: action.scanInterval, firstItemHold: action.firstItemHold
        ) { context, switchPresses, switchSetup, handle in
            // Presses and plays on the daemon's own ready keyboard and
            // touchscreen, through their queues in the engine: an action
            // queues behind the plays a rig queued on the same device
            // (docs/PROTOCOL.md, "Bindings"), and is never refused as busy.
            // They are the daemon's ready devices: they stay when the menu closes.
            let readyTouchscreen = context.readyTouchscreen
            let setup = MenuSetup(
                engine: engine, library: context.library,
                play: { gesture in
                    // As the create flow's review: the ready touchscreen when
                    // the daemon keeps one, else one of its own for the play.
                    if let readyTouchscreen {
                        PlayRequest(gesture: gesture, target: .profile(readyTouchscreen), leadIn: .zero, keepDevice: true)
                    } else {
                        PlayRequest(gesture: gesture, target: .kind(.touchscreen))
                    }
                },
                pressLeadIn: .zero,
                create: createSetup(drawingOn: action.drawingDevice, context: context, switchPresses: switchPresses),
                playLabel: "Play on a virtual touchscreen (acts on the desktop)", closesKeptDevices: false)
            _ = try MenuSession.start(
                ActionMenu(configuration: configuration, library: LibraryNames(context.library)), setup: setup,
                display: assistDisplay(event: .menu), keyboard: nil, switchSetup: switchSetup, handle: handle)
        }
    }

    /// What a create flow and a menu share: the one slot taken (or `busy`),
    /// the trigger as the run's switch with the daemon's press timings and
    /// the action's scanning, the end logged and the slot freed, and a run
    /// that cannot start finished with its error.
    /// - Parameter start: starts the run on `handle` (from the context, the
    ///   relay of the trigger's presses and the switch's setup).
    private func startAssistRun<Outcome: Sendable>(
        what: String, key: WatchedKey, scanInterval: Microseconds, firstItemHold: Microseconds, stopsRecording: Bool = false,
        start: (Context, SwitchRelay, SwitchSetup, JobHandle<Result<Outcome, CreateFailure>, Never>) throws -> Void
    ) throws {
        let handle = JobHandle<Result<Outcome, CreateFailure>, Never>()
        let switchPresses = SwitchRelay()
        let (id, context) = try reserveAssistRun(
            what: what, key: key, switchPresses: switchPresses, cancel: { handle.cancel() }, wait: { _ = handle.wait() })
        handle.onCompletion { [self] result in
            endAssistRun(id)
            switch result {
            case .success(let outcome): log.info("\(what) ended: \(outcome)")
            case .failure(let failure): log.error("\(what) failed: \(failure.message)")
            }
        }
        do {
            let switchSetup = SwitchSetup(
                trigger: try TriggerRequest(device: key.device, key: key.key),
                scanning: ScanSettings(
                    interval: scanInterval, firstItemHold: firstItemHold, longPress: context.timings.longPress,
                    emergencyStop: context.timings.emergencyStop),
                stopsRecording: stopsRecording)
            try start(context, switchPresses, switchSetup, handle)
        } catch {
            handle.finish(.failure(CreateFailure("\(error)")))
            throw error
        }
    }

    /// Takes the one slot for a create flow or a menu; its id and the context.
    private func reserveAssistRun(
        what: String, key: WatchedKey, switchPresses: SwitchRelay, cancel: @escaping @Sendable () -> Void,
        wait: @escaping @Sendable () -> Void
    ) throws(DaemonError) -> (Int, Context) {
        let context = context()
        let id = try slot.withLock { current throws(DaemonError) -> Int in
            if current.stopped { throw DaemonError(.busy, "the daemon is stopping") }
            if let running = current.running { throw DaemonError(.busy, "a \(running.what) is running already") }
            current.nextID += 1
            current.running = AssistRun(
                id: current.nextID, what: what, switchKey: key, switchPresses: switchPresses, cancel: cancel, wait: wait)
            return current.nextID
        }
        return (id, context)
    }

    private func endAssistRun(_ id: Int) {
        slot.withLock { current in
            if current.running?.id == id { current.running = nil }
        }
    }

    /// A create flow's setup drawing on `device` (a flow of its own, or
    /// Create New Gesture in the menu): recordings through the engine (its
    /// inputs the system's, or a test's doubles), saves in the daemon's
    /// library, no picture, and the switch's presses forwarded from the
    /// binding's watch (a second watch of the same device could not grab it).
    private func createSetup(drawingOn device: String?, context: Context, switchPresses: SwitchRelay) -> CreateSetup {
        let readyTouchscreen = context.readyTouchscreen
        return CreateSetup(
            engine: engine,
            record: RecordRequest(
                device: device, grab: true, sessionOptions: RecordingSessionOptions(idleTimeout: Self.createIdleTimeout),
                details: RecordingDetails(name: "created", recordedAt: WallClock.iso8601(), tool: "gesturectl \(version) daemon")),
            play: { gesture in
                // On the ready touchscreen, through its queue, when the daemon
                // keeps one; else on a touchscreen of its own that goes after the play.
                if let readyTouchscreen {
                    PlayRequest(gesture: gesture, target: .profile(readyTouchscreen), leadIn: .zero, keepDevice: true)
                } else {
                    PlayRequest(gesture: gesture, target: .kind(.touchscreen))
                }
            },
            library: context.library, switchWatch: .forwarded { try switchPresses.watch($0) })
    }

    /// A display whose lines are logged and pushed as `event` events.
    private func assistDisplay(event: DaemonEvent) -> DaemonAssistDisplay {
        let log = self.log
        let publish = self.publish
        return DaemonAssistDisplay { line in
            log.info("\(event.rawValue): \(DaemonLog.oneLine(line.text))")
            publish(AssistLineEvent(event: event, line: line.text, spoken: line.spoken))
        }
    }

    /// Hands a press of `key` to the running create flow or menu when that
    /// key operates it; whether it did.
    package func forward(_ press: TriggerPress, on key: WatchedKey) -> Bool {
        guard let run = slot.withLock({ $0.running }), run.switchKey == key else { return false }
        run.switchPresses.report(press)
        return true
    }

    /// Whether `key` is the switch of the running create flow or menu.
    package func isOperated(by key: WatchedKey) -> Bool { slot.withLock { $0.running?.switchKey == key } }

    /// The emergency stop of a running create flow or menu: it lifts what
    /// it played and ends its recording itself.
    package func cancelRunning() {
        slot.withLock { $0.running }?.cancel()
    }

    /// Starts no run any more, cancels a running one and waits for it
    /// (everything it recorded, played or pressed is released): the daemon stops.
    package func stop() {
        guard let run = slot.withLock({ current -> AssistRun? in
            current.stopped = true
            return current.running
        }) else { return }
        run.cancel()
        run.wait()
    }
}
