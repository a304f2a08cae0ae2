import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem

/// Where the daemon's trigger watches come from: the engine's (udev and
/// evdev), or (in tests) handles the test reports presses on.
public struct TriggerWatcher: Sendable {
    /// Starts watching a trigger, reporting on `handle`.
    public var start: @Sendable (TriggerRequest, TriggerHandle) throws -> Void

    /// Creates a watcher from its operation.
    public init(start: @escaping @Sendable (TriggerRequest, TriggerHandle) throws -> Void) { self.start = start }

    /// The engine's watches of real devices.
    public static func engine(_ engine: Engine) -> TriggerWatcher {
        TriggerWatcher { request, handle in _ = try engine.startWatchingTrigger(request, handle: handle) }
    }
}

/// The daemon's custom actions, behind the server's lock.
struct TriggerState: Sendable {
    /// One running watch.
    struct Watch: Sendable {
        let handle: TriggerHandle
        /// Waiting until the device is found, then connected or disconnected.
        var state = TriggerWatchState.waiting
        var node: String?
        var reason: String?
    }

    /// The bindings changed over the socket (from `bindings.json`); `nil`:
    /// the configuration's apply.
    var saved: [TriggerBinding]?
    /// The watches, one per device and key bound.
    var watches: [WatchedKey: Watch] = [:]
    /// The timings and grab the watches were started with.
    var timings = PressTimings()
    var grab = false
}

extension DaemonServer {
    /// The bindings in force: the saved ones, else the configuration's.
    func currentBindings(_ current: ServerState) -> [TriggerBinding] {
        current.triggers.saved ?? current.configuration.bindings
    }

    // MARK: Operations

    /// `bind` {trigger, action}: binds (or re-binds) a trigger, saves the
    /// bindings, and starts watching its key.
    func bind(_ arguments: Arguments, client: Int) throws -> JSONValue {
        guard let triggerValue = arguments.value(.trigger) else { throw DaemonError(.badArgument, "bind: \"trigger\" is missing") }
        guard let actionValue = arguments.value(.action) else { throw DaemonError(.badArgument, "bind: \"action\" is missing") }
        let binding = TriggerBinding(
            trigger: try TriggerBinding.Trigger.parse(triggerValue, what: "bind: \"trigger\""),
            action: try TriggerBinding.Action.parse(actionValue, what: "bind: \"action\""))
        if case .play(let name, _) = binding.action {
            // A gesture that does not exist now is refused now, not at the press.
            let library = state.withLock { $0.library }
            if (try? library.load(named: name)) == nil {
                throw DaemonError(.notFound, "bind: no gesture \"\(DaemonLog.oneLine(name))\" in the library")
            }
        }
        var replaced = false
        _ = try changeBindings { bindings in
            let index = bindings.firstIndex { $0.trigger == binding.trigger }
            if let index { bindings[index] = binding } else { bindings.append(binding) }
            replaced = index != nil
            return true
        }
        log.info("client \(client) bound \(Self.describeTrigger(binding.trigger)) to \(binding.action.json.jsonText)")
        return .object([("trigger", binding.trigger.json), ("action", binding.action.json), ("replaced", .bool(replaced))])
    }

    /// `unbind` {trigger}: removes a binding and saves the bindings.
    func unbind(_ arguments: Arguments, client: Int) throws -> JSONValue {
        guard let triggerValue = arguments.value(.trigger) else { throw DaemonError(.badArgument, "unbind: \"trigger\" is missing") }
        let trigger = try TriggerBinding.Trigger.parse(triggerValue, what: "unbind: \"trigger\"")
        let removed = try changeBindings { bindings in
            guard let index = bindings.firstIndex(where: { $0.trigger == trigger }) else { return false }
            bindings.remove(at: index)
            return true
        }
        guard removed else { throw DaemonError(.notFound, "unbind: \(Self.describeTrigger(trigger)) is not bound") }
        log.info("client \(client) unbound \(Self.describeTrigger(trigger))")
        return .object([("trigger", trigger.json)])
    }

    /// `bindings` {reset}: the bindings in force and the state of each
    /// watched trigger; `"reset": true` first deletes the saved bindings,
    /// so the configuration's apply again.
    func bindingsOperation(_ arguments: Arguments, client: Int) throws -> JSONValue {
        if try arguments.bool(.reset, default: false) {
            if let path = bindingsPath { try BindingsFile.remove(path) }
            state.withLock { $0.triggers.saved = nil }
            syncTriggerWatches()
            log.info("client \(client) reset the bindings to the configuration's")
        }
        return state.withLock { current in
            .object([
                ("bindings", .array(currentBindings(current).map(\.json))),
                ("source", .string(current.triggers.saved == nil ? "configuration" : "saved")),
                ("file", bindingsPath.map(JSONValue.string) ?? .null),
                ("triggers", .array(current.triggers.watches.keys.sorted().map { key in
                    let watch = current.triggers.watches[key]
                    return .object([
                        ("device", .string(key.device)), ("key", .string(key.key)), ("state", .string((watch?.state ?? .waiting).rawValue)),
                        ("node", watch?.node.map(JSONValue.string) ?? .null), ("reason", watch?.reason.map(JSONValue.string) ?? .null),
                    ])
                })),
            ])
        }
    }

    /// Applies `change` to the bindings in force; when it says it changed
    /// them, saves the result (the file first: nothing changes when it
    /// cannot be written), then watches what they bind.
    private func changeBindings(_ change: (inout [TriggerBinding]) -> Bool) throws(DaemonError) -> Bool {
        var bindings = state.withLock { currentBindings($0) }
        guard change(&bindings) else { return false }
        if let path = bindingsPath { try BindingsFile.save(bindings, to: path) }
        state.withLock { $0.triggers.saved = bindings }
        syncTriggerWatches()
        return true
    }

    // MARK: Watches

    /// At start: the saved bindings (a file with errors is logged and the
    /// configuration's apply), then a watch per bound key.
    func startTriggers() {
        if let path = bindingsPath {
            do {
                let saved = try BindingsFile.load(path)
                state.withLock { $0.triggers.saved = saved }
                if let saved { log.info("bindings: \(saved.count) from \(path)") }
            } catch {
                log.error("the saved bindings cannot be used (the configuration's apply): \(error)")
            }
        }
        syncTriggerWatches()
    }

    /// Starts a watch for every key bound and not watched, cancels the
    /// watches of keys no longer bound; all of them anew when the timings
    /// or the grab changed (a reload).
    func syncTriggerWatches() {
        // Decided and recorded under one lock, so that two changes at once
        // (a bind and a SIGHUP) never start two watches of one key.
        let (toStart, toCancel, timings, grab) = state.withLock {
            current -> ([(WatchedKey, TriggerHandle)], [TriggerHandle], PressTimings, Bool) in
            if current.stopping { return ([], [], current.configuration.pressTimings, false) }
            let wanted = Set(currentBindings(current).map(\.trigger.watched))
            let configuration = current.configuration
            var cancel: [TriggerHandle] = []
            if configuration.pressTimings != current.triggers.timings || configuration.grab != current.triggers.grab {
                cancel = current.triggers.watches.values.map(\.handle)
                current.triggers.watches = [:]
                current.triggers.timings = configuration.pressTimings
                current.triggers.grab = configuration.grab
            }
            for (key, watch) in current.triggers.watches where !wanted.contains(key) {
                cancel.append(watch.handle)
                current.triggers.watches[key] = nil
            }
            let start = wanted.filter { current.triggers.watches[$0] == nil }.sorted().map { ($0, TriggerHandle()) }
            for (key, handle) in start { current.triggers.watches[key] = TriggerState.Watch(handle: handle) }
            return (start, cancel, configuration.pressTimings, configuration.grab)
        }
        for handle in toCancel { handle.cancel() }
        for (key, handle) in toStart {
            do {
                let request = try TriggerRequest(device: key.device, key: key.key, timings: timings, grab: grab)
                handle.observeProgress { [self] event in triggerEvent(event, on: key, from: handle) }
                try triggers.start(request, handle)
                log.info("watching \(key.key) on \(key.device)")
            } catch {
                state.withLock { current in
                    if current.triggers.watches[key]?.handle === handle { current.triggers.watches[key] = nil }
                }
                log.error("cannot watch \(key.key) on \(key.device): \(error)")
            }
        }
    }

    /// Cancels every watch (the daemon stops).
    func cancelTriggerWatches() {
        let handles = state.withLock { current in
            defer { current.triggers.watches = [:] }
            return current.triggers.watches.values.map(\.handle)
        }
        for handle in handles { handle.cancel() }
    }

    /// What a watch reported (on its thread). A watch that was replaced or
    /// cancelled meanwhile is not listened to any more.
    private func triggerEvent(_ event: TriggerEvent, on key: WatchedKey, from handle: TriggerHandle) {
        guard state.withLock({ $0.triggers.watches[key]?.handle === handle }) else { return }
        switch event {
        case .connected(let node, let name):
            state.withLock { current in
                current.triggers.watches[key]?.state = .connected
                current.triggers.watches[key]?.node = node
                current.triggers.watches[key]?.reason = nil
            }
            log.info("trigger \(key.key) on \(key.device): \(DaemonLog.oneLine(name)) at \(node)")
        case .disconnected(let reason):
            state.withLock { current in
                guard var watch = current.triggers.watches[key] else { return }
                watch.state = watch.node == nil ? .waiting : .disconnected
                watch.reason = reason
                current.triggers.watches[key] = watch
            }
            log.warning("trigger \(key.key) on \(key.device): \(DaemonLog.oneLine(reason))")
        case .press(let press, _):
            broadcast(
                .trigger,
                [("trigger", .object([("device", .string(key.device)), ("key", .string(key.key))])), ("press", .string(press.rawValue))])
            // While a create flow or menu runs, its switch operates it, not the
            // bindings (the emergency stop still stops everything else too).
            let forwarded = forwardToAssist(press, on: key)
            if press == .emergencyStop {
                emergencyStop(because: "\(key.key) on \(key.device) was held")
                return
            }
            if forwarded { return }
            let binding = state.withLock { current in
                currentBindings(current).first { $0.trigger.watched == key && $0.trigger.press == press }
            }
            guard let binding else {
                log.debug("trigger \(key.key) on \(key.device): \(press.rawValue) press, not bound")
                return
            }
            do {
                if case .create(let create) = binding.action {
                    try startCreate(create, operatedBy: key)
                    log.info("trigger \(key.key) on \(key.device): \(press.rawValue) press, create flow on \(DaemonLog.oneLine(create.device))")
                    return
                }
                if case .menu(let menu) = binding.action {
                    try startMenu(menu, operatedBy: key)
                    log.info("trigger \(key.key) on \(key.device): \(press.rawValue) press, menu")
                    return
                }
                let job = try run(binding.action)
                log.info("trigger \(key.key) on \(key.device): \(press.rawValue) press, job \(job)")
            } catch {
                log.error("trigger \(key.key) on \(key.device): \(press.rawValue) press: \(error)")
            }
        }
    }

    // MARK: Actions

    /// Queues a binding's action as a job nobody waits for, through the
    /// same queues as `play` and `press`; returns the job.
    private func run(_ action: TriggerBinding.Action) throws -> Int {
        switch action {
        case .create, .menu:
            throw DaemonError(.badArgument, "a create flow or a menu is no job")
        case .press(let name, _):
            let key = try VirtualKeyboard.key(named: name)
            return try queuePress(KeyPress(key: key.code), client: 0, requestID: .null, waits: false, limited: true)
        case .play(let name, let kind):
            let library = state.withLock { $0.library }
            let gesture: Gesture
            do {
                gesture = try gestureCache.gesture(at: library.entry(named: name).path)
            } catch {
                throw DaemonError(.notFound, "cannot play \"\(DaemonLog.oneLine(name))\": \(error)")
            }
            return try queuePlay(
                gesture, options: PlaybackOptions(), on: ReadyDevice(kind: kind), client: 0, requestID: .null, waits: false, cancelOnDisconnect: false)
        }
    }

    /// The emergency stop: cancels every job (running plays lift every
    /// finger, queued ones never start, a recording stops as on a `cancel`
    /// of its job, its result kept for `record-stop`), forgets which
    /// clients hold keys, and queues a release of every key down on the
    /// keyboard. The daemon keeps running and the bindings stay.
    func emergencyStop(because reason: String) {
        let (handles, recordingJob, hasKeyboard, assist) = state.withLock { current in
            current.heldKeys = HeldKeys()
            return (current.jobs.values.map(\.handle), current.recording?.job, current.queues[.keyboard] != nil, current.assist)
        }
        // A create flow or menu lifts what it played and ends its recording itself.
        assist?.cancel()
        log.warning("emergency stop (\(reason)): cancelling \(handles.count + (recordingJob == nil ? 0 : 1)) job(s), releasing every key")
        for handle in handles { handle.cancel() }
        if let recordingJob { _ = cancelRecording(recordingJob) }
        guard hasKeyboard, let session = try? engine.readyDevice(Self.profile(for: .keyboard)) else { return }
        // Queued behind the cancelled jobs, so each finds the keyboard free;
        // a key that is up by then costs no frame.
        for key in session.state.pressedKeys.sorted(by: { $0.rawValue < $1.rawValue }) {
            _ = try? queuePress(KeyPress(key: key, action: .up), client: 0, requestID: .null, waits: false, limited: false)
        }
    }

    static func describeTrigger(_ trigger: TriggerBinding.Trigger) -> String {
        "\(trigger.press.rawValue) \(trigger.key) on \(DaemonLog.oneLine(trigger.device))"
    }
}
