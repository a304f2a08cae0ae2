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
        /// Whether it grabs its device.
        var grab = false
        /// "waiting" until the device is found, then "connected" or "disconnected".
        var state = "waiting"
        var node: String?
        var reason: String?
    }

    /// The bindings changed over the socket (from `bindings.json`); `nil`:
    /// the configuration's apply.
    var saved: [TriggerBinding]?
    /// The watches, one per device and key bound.
    var watches: [WatchedKey: Watch] = [:]
    /// The timings the watches were started with.
    var timings = PressTimings()
    /// Why bindings in force are not watched (``TriggerKeys``), by key.
    var refused: [WatchedKey: String] = [:]
}

extension DaemonServer {
    /// The bindings in force: the saved ones, else the configuration's.
    func currentBindings(_ current: ServerState) -> [TriggerBinding] {
        current.triggers.saved ?? current.configuration.bindings
    }

    /// The bindings in force that the configuration lets be watched
    /// (``TriggerKeys``; a saved binding refused since is kept, not watched).
    func watchedBindings(_ current: ServerState) -> [TriggerBinding] {
        currentBindings(current).filter {
            TriggerKeys.refusal(of: $0.trigger, dedicatedKeyboards: current.configuration.dedicatedKeyboards) == nil
        }
    }

    // MARK: Operations

    /// `bind` {trigger, action}: binds (or re-binds) a trigger, saves the
    /// bindings, and starts watching its key.
    func bind(_ arguments: Arguments, client: Int) throws -> JSONValue {
        guard let triggerValue = arguments.value("trigger") else { throw DaemonError(.badArgument, "bind: \"trigger\" is missing") }
        guard let actionValue = arguments.value("action") else { throw DaemonError(.badArgument, "bind: \"action\" is missing") }
        let binding = TriggerBinding(
            trigger: try TriggerBinding.Trigger.parse(triggerValue, what: "bind: \"trigger\""),
            action: try TriggerBinding.Action.parse(actionValue, what: "bind: \"action\""))
        let dedicated = state.withLock { $0.configuration.dedicatedKeyboards }
        if let refusal = TriggerKeys.refusal(of: binding.trigger, dedicatedKeyboards: dedicated) {
            throw DaemonError(.badArgument, "bind: \"trigger\": \(refusal)")
        }
        if case .play(let name, _) = binding.action {
            // A gesture that does not exist now is refused now, not at the press.
            let library = state.withLock { $0.library }
            if (try? library.load(named: name)) == nil {
                throw DaemonError(.notFound, "bind: no gesture \"\(DaemonLog.oneLine(name))\" in the library")
            }
        }
        var replaced = false
        _ = try changeBindings { bindings throws(DaemonError) in
            let index = bindings.firstIndex { $0.trigger.isSame(as: binding.trigger) }
            if index == nil && bindings.count >= BindingLimits.maximumCount {
                throw DaemonError(.badArgument, "bind: \(BindingLimits.maximumCount) bindings are the most; unbind one first")
            }
            if let index { bindings[index] = binding } else { bindings.append(binding) }
            replaced = index != nil
            return true
        }
        log.info("client \(client) bound \(Self.describeTrigger(binding.trigger)) to \(binding.action.json.jsonText)")
        return .object([("trigger", binding.trigger.json), ("action", binding.action.json), ("replaced", .bool(replaced))])
    }

    /// `unbind` {trigger}: removes a binding and saves the bindings.
    func unbind(_ arguments: Arguments, client: Int) throws -> JSONValue {
        guard let triggerValue = arguments.value("trigger") else { throw DaemonError(.badArgument, "unbind: \"trigger\" is missing") }
        let trigger = try TriggerBinding.Trigger.parse(triggerValue, what: "unbind: \"trigger\"")
        let removed = try changeBindings { bindings in
            guard let index = bindings.firstIndex(where: { $0.trigger.isSame(as: trigger) }) else { return false }
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
        if try arguments.bool("reset", default: false) {
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
                ("triggers", .array(Set(current.triggers.watches.keys).union(current.triggers.refused.keys).sorted().map { key in
                    let watch = current.triggers.watches[key]
                    let refused = watch == nil ? current.triggers.refused[key] : nil
                    return .object([
                        ("device", .string(key.device)), ("key", .string(key.key)),
                        ("state", .string(refused != nil ? "refused" : watch?.state ?? "waiting")),
                        ("node", watch?.node.map(JSONValue.string) ?? .null),
                        ("reason", (refused ?? watch?.reason).map(JSONValue.string) ?? .null),
                    ])
                })),
            ])
        }
    }

    /// Applies `change` to the bindings in force; when it says it changed
    /// them, saves the result (the file first: nothing changes when it
    /// cannot be written), then watches what they bind.
    private func changeBindings(_ change: (inout [TriggerBinding]) throws(DaemonError) -> Bool) throws(DaemonError) -> Bool {
        var bindings = state.withLock { currentBindings($0) }
        guard try change(&bindings) else { return false }
        if let path = bindingsPath { try BindingsFile.save(bindings, to: path) }
        state.withLock { $0.triggers.saved = bindings }
        syncTriggerWatches()
        return true
    }

    // MARK: Watches

    /// At start: the saved bindings (a file with errors is logged, kept
    /// aside, and the last good file takes its place, else the
    /// configuration's apply), then a watch per bound key.
    func startTriggers() {
        if let path = bindingsPath {
            do {
                let saved = try BindingsFile.load(path)
                state.withLock { $0.triggers.saved = saved }
                if let saved { log.info("bindings: \(saved.count) from \(path)") }
            } catch {
                let recovered = BindingsFile.recover(path)
                state.withLock { $0.triggers.saved = recovered.bindings }
                log.error("the saved bindings cannot be used: \(error); \(recovered.report)")
            }
        }
        syncTriggerWatches()
    }

    /// Starts a watch for every key bound and not watched, cancels the
    /// watches of keys no longer bound; all of them anew when the timings
    /// changed (a reload), and those whose grab changed. A device is
    /// grabbed when the configuration's `grab` is true or a binding on it
    /// has `"grab": true`.
    func syncTriggerWatches() {
        // Decided and recorded under one lock, so that two changes at once
        // (a bind and a SIGHUP) never start two watches of one key.
        let (toStart, toCancel, timings, refused) = state.withLock {
            current -> ([(WatchedKey, Bool, TriggerHandle)], [TriggerHandle], PressTimings, [WatchedKey: String]) in
            if current.stopping { return ([], [], current.configuration.pressTimings, [:]) }
            let configuration = current.configuration
            let bindings = watchedBindings(current)
            let grabbed = Set(bindings.filter(\.trigger.grab).map(\.trigger.device))
            var wanted: [WatchedKey: Bool] = [:]
            for binding in bindings { wanted[binding.trigger.watched] = configuration.grab || grabbed.contains(binding.trigger.device) }
            current.triggers.refused = [:]
            for binding in currentBindings(current) where wanted[binding.trigger.watched] == nil {
                current.triggers.refused[binding.trigger.watched] = TriggerKeys.refusal(
                    of: binding.trigger, dedicatedKeyboards: configuration.dedicatedKeyboards)
            }
            var cancel: [TriggerHandle] = []
            if configuration.pressTimings != current.triggers.timings {
                cancel = current.triggers.watches.values.map(\.handle)
                current.triggers.watches = [:]
                current.triggers.timings = configuration.pressTimings
            }
            for (key, watch) in current.triggers.watches where wanted[key] != watch.grab {
                cancel.append(watch.handle)
                current.triggers.watches[key] = nil
            }
            let start = wanted.keys.filter { current.triggers.watches[$0] == nil }.sorted().map { ($0, wanted[$0] ?? false, TriggerHandle()) }
            for (key, grab, handle) in start { current.triggers.watches[key] = TriggerState.Watch(handle: handle, grab: grab) }
            return (start, cancel, configuration.pressTimings, current.triggers.refused)
        }
        for handle in toCancel { handle.cancel() }
        for (key, reason) in refused.sorted(by: { $0.key < $1.key }) {
            log.error("not watching \(key.key) on \(DaemonLog.excerpt(key.device)): \(reason)")
        }
        for (key, grab, handle) in toStart {
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
                current.triggers.watches[key]?.state = "connected"
                current.triggers.watches[key]?.node = node
                current.triggers.watches[key]?.reason = nil
            }
            log.info("trigger \(key.key) on \(key.device): \(DaemonLog.oneLine(name)) at \(node)")
        case .disconnected(let reason):
            state.withLock { current in
                guard var watch = current.triggers.watches[key] else { return }
                watch.state = watch.node == nil ? "waiting" : "disconnected"
                watch.reason = reason
                current.triggers.watches[key] = watch
            }
            log.warning("trigger \(key.key) on \(key.device): \(DaemonLog.oneLine(reason))")
        case .press(let press, _):
            let (binding, operatesFlow) = state.withLock { current in
                (watchedBindings(current).first { $0.trigger.watched == key && $0.trigger.press == press }, current.assist?.switchKey == key)
            }
            // Subscribers hear of a press only as a binding's (or as the
            // switch of the flow a binding started, or the emergency stop),
            // never of presses of the key that no binding has.
            if binding != nil || operatesFlow || press == .emergencyStop {
                broadcast(
                    "trigger",
                    [("trigger", .object([("device", .string(key.device)), ("key", .string(key.key))])), ("press", .string(press.rawValue))])
            }
            // While a create flow or menu runs, its switch operates it, not the
            // bindings (the emergency stop still stops everything else too).
            let forwarded = forwardToAssist(press, on: key)
            if press == .emergencyStop {
                emergencyStop(because: "\(key.key) on \(key.device) was held")
                return
            }
            if forwarded { return }
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
