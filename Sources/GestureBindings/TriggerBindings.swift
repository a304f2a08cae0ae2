import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureProtocol
import InputSystem
import OperatingSystem
import Synchronization

/// The custom actions' state, behind ``TriggerBindings``' lock.
package struct TriggerState: Sendable {
    /// One running watch.
    package struct Watch: Sendable {
        package let handle: TriggerHandle
        /// Whether it grabs its device.
        package var grab = false
        /// Waiting until the device is found, then connected or disconnected.
        package var state = TriggerWatchState.waiting
        package var node: String?
        package var reason: String?
    }

    /// The bindings changed over the socket (from `bindings.json`); `nil`:
    /// the configuration's apply.
    package var saved: [TriggerBinding]?
    /// The watches, one per device and key bound.
    package var watches: [WatchedKey: Watch] = [:]
    /// The timings the watches were started with.
    package var timings = PressTimings()
    /// The configuration's bindings, timings and grab (the configuration
    /// in force: a reload changes them).
    package var configuration: DaemonConfiguration
    /// The daemon stops: no watch starts any more.
    package var stopped = false
    /// Why bindings in force are not watched (``TriggerKeys``), by key.
    package var refused: [WatchedKey: String] = [:]
    /// What `bindings.json` holds (`nil`: no file), as last read or written:
    /// the bindings go back to it when a write fails.
    package var onDisk: [TriggerBinding]?

    /// The bindings in force: the saved ones, else the configuration's.
    package var current: [TriggerBinding] { saved ?? configuration.bindings }
}

/// The daemon's custom actions: the bindings (the configuration's, or
/// those changed over the socket and saved in `bindings.json`), a watch of
/// every key they bind, and what a press of one does: a `trigger` event,
/// then its binding's action, through ``Actions`` (the daemon's jobs and
/// assist runs). Its state is behind its own lock.
package final class TriggerBindings: Sendable {
    /// What a press sets going, in the rest of the daemon. Each is called
    /// on the watch's thread, outside the bindings' lock.
    package struct Actions: Sendable {
        /// Why the library's gesture of a name cannot be played now (`bind`
        /// refuses a play of one that does not exist or cannot be read);
        /// `nil` when it can.
        package var gestureProblem: @Sendable (String) -> DaemonError?
        /// Pushes an event (a press's `trigger` event, a `screen-menu` event):
        /// to every subscriber, or with a user only to that user's clients.
        package var publish: @Sendable (any DaemonEventMessage, _ to: UInt32?) -> Void
        /// Hands a press to the create flow or menu it operates; whether it did.
        package var forward: @Sendable (TriggerPress, WatchedKey) -> Bool
        /// Whether the key operates the running create flow or menu.
        package var operates: @Sendable (WatchedKey) -> Bool
        /// Stops every job, the daemon going on.
        package var emergencyStop: @Sendable (_ reason: String) -> Void
        /// Queues a bound play or press as a job nobody waits for; the job.
        package var queue: @Sendable (TriggerBinding.Action) throws -> Int
        /// Starts a bound create flow, operated by the key.
        package var startCreate: @Sendable (CreateAction, WatchedKey) throws -> Void
        /// Starts a bound menu, operated by the key.
        package var startMenu: @Sendable (MenuAction, WatchedKey) throws -> Void
        /// Starts bound fingertips, or stops those the trigger (described) started; what it did.
        package var toggleFingertips: @Sendable (FingertipsAction, String) throws -> String

        package init(
            gestureProblem: @escaping @Sendable (String) -> DaemonError?, publish: @escaping @Sendable (any DaemonEventMessage, _ to: UInt32?) -> Void,
            forward: @escaping @Sendable (TriggerPress, WatchedKey) -> Bool, operates: @escaping @Sendable (WatchedKey) -> Bool,
            emergencyStop: @escaping @Sendable (_ reason: String) -> Void, queue: @escaping @Sendable (TriggerBinding.Action) throws -> Int,
            startCreate: @escaping @Sendable (CreateAction, WatchedKey) throws -> Void,
            startMenu: @escaping @Sendable (MenuAction, WatchedKey) throws -> Void,
            toggleFingertips: @escaping @Sendable (FingertipsAction, String) throws -> String
        ) {
            self.gestureProblem = gestureProblem
            self.publish = publish
            self.forward = forward
            self.operates = operates
            self.emergencyStop = emergencyStop
            self.queue = queue
            self.startCreate = startCreate
            self.startMenu = startMenu
            self.toggleFingertips = toggleFingertips
        }
    }

    /// Where bindings changed over the socket are saved; `nil`: nowhere.
    package let path: String?
    /// Whose trigger watches (on its inputs: the system's devices, or a test's doubles).
    private let engine: Engine
    private let log: DaemonLog
    private let state: Mutex<TriggerState>
    private let actions = Mutex<Actions?>(nil)
    /// Writes `bindings.json`, a few times a second at most.
    private let saver: BindingsSaver

    /// Bindings under `configuration`, saved at `path`, watched by
    /// `engine`; nothing is watched until ``start(_:)``.
    package init(configuration: DaemonConfiguration, path: String?, engine: Engine, log: DaemonLog) {
        self.path = path
        self.engine = engine
        self.log = log
        let state = Mutex(TriggerState(configuration: configuration))
        self.state = state
        saver = BindingsSaver(
            storage: BindingsSaver.Storage(write: { (contents) throws(DaemonError) in
                guard let path else { return }
                if let contents { try BindingsFile.save(contents, to: path) } else { try BindingsFile.remove(path) }
            }))
    }

    /// A reply that comes once the bindings are saved.
    package typealias Answer = @Sendable (Result<JSONValue, DaemonError>) -> Void

    /// Who asks: the client's user, and whether it acts as an
    /// administrator (root or `admin_group`: may change every binding).
    package struct Asker: Sendable {
        package var user: UInt32?
        package var administrator: Bool

        package init(user: UInt32?, administrator: Bool) {
            self.user = user
            self.administrator = administrator
        }

        /// Whether it may replace or remove `binding`: its own, or any as
        /// an administrator (the configuration's are an administrator's).
        package func mayChange(_ binding: TriggerBinding) -> Bool {
            administrator || (binding.owner != nil && binding.owner == user)
        }

        /// Why it may not change `binding`, for an operation `what`.
        package func refusal(_ what: String, _ binding: TriggerBinding) -> DaemonError {
            DaemonError(
                .permissionDenied,
                "\(what): \(TriggerBindings.describeTrigger(binding.trigger)) is bound by "
                    + (binding.owner == nil ? "the configuration" : "another user") + ": only its own user or an administrator may change it")
        }
    }

    /// The bindings in force that the configuration lets be watched
    /// (``TriggerKeys``; a saved binding refused since is kept, not watched).
    private func watchedBindings(_ current: TriggerState) -> [TriggerBinding] {
        current.current.filter {
            TriggerKeys.refusal(of: $0.trigger, dedicatedKeyboards: current.configuration.dedicatedKeyboards) == nil
        }
    }

    // MARK: Operations

    /// `bind` {trigger, action}: binds (or re-binds) a trigger, saves the
    /// bindings, and starts watching its key; `answer` is told once the
    /// file holds it. A request that is wrong throws at once.
    package func bind(_ arguments: Arguments, client: Int, asker: Asker, answer: @escaping Answer) throws {
        let gestureProblem: @Sendable (String) -> DaemonError? =
            actions.withLock { $0?.gestureProblem } ?? { @Sendable _ in DaemonError(.notFound, "") }
        guard let triggerValue = arguments.value(.trigger) else { throw DaemonError(.badArgument, "bind: \"trigger\" is missing") }
        guard let actionValue = arguments.value(.action) else { throw DaemonError(.badArgument, "bind: \"action\" is missing") }
        let binding = TriggerBinding(
            trigger: try TriggerBinding.Trigger.parse(triggerValue, what: "bind: \"trigger\""),
            action: try TriggerBinding.Action.parse(actionValue, what: "bind: \"action\""), owner: asker.user)
        let dedicated = state.withLock { $0.configuration.dedicatedKeyboards }
        if let refusal = TriggerKeys.refusal(of: binding.trigger, dedicatedKeyboards: dedicated) {
            throw DaemonError(.badArgument, "bind: \"trigger\": \(refusal)")
        }
        if case .play(let name, _) = binding.action {
            // A gesture that does not exist now is refused now, not at the press.
            if let problem = gestureProblem(name) {
                if problem.code == .notFound {
                    throw DaemonError(.notFound, "bind: no gesture \"\(DaemonLog.oneLine(name))\" in the library")
                }
                // It exists but cannot be read (a damaged file, no permission): why.
                throw DaemonError(problem.code, "bind: \(problem.message)")
            }
        }
        // Set by the change, read when it is saved.
        let replaced = Mutex(false)
        try changeBindings(
            { bindings throws(DaemonError) in
                let index = bindings.firstIndex { $0.trigger.isSame(as: binding.trigger) }
                if let index, !asker.mayChange(bindings[index]) { throw asker.refusal("bind", bindings[index]) }
                if index == nil && bindings.count >= BindingLimits.maximumCount {
                    throw DaemonError(.badArgument, "bind: \(BindingLimits.maximumCount) bindings are the most; unbind one first")
                }
                if let index { bindings[index] = binding } else { bindings.append(binding) }
                replaced.withLock { $0 = index != nil }
                return true
            },
            saved: { [log] failure in
                if let failure { return answer(.failure(failure)) }
                log.client(client, .info, "client \(client) bound \(Self.describeTrigger(binding.trigger)) to \(binding.action.json.jsonText)")
                answer(.success(BindResult(trigger: binding.trigger.json, action: binding.action.json, replaced: replaced.withLock { $0 }).json))
            })
    }

    /// `unbind` {trigger}: removes a binding and saves the bindings;
    /// `answer` is told once the file is written.
    package func unbind(_ arguments: Arguments, client: Int, asker: Asker, answer: @escaping Answer) throws {
        guard let triggerValue = arguments.value(.trigger) else { throw DaemonError(.badArgument, "unbind: \"trigger\" is missing") }
        let trigger = try TriggerBinding.Trigger.parse(triggerValue, what: "unbind: \"trigger\"")
        let removed = try changeBindings(
            { bindings throws(DaemonError) in
                guard let index = bindings.firstIndex(where: { $0.trigger.isSame(as: trigger) }) else { return false }
                if !asker.mayChange(bindings[index]) { throw asker.refusal("unbind", bindings[index]) }
                bindings.remove(at: index)
                return true
            },
            saved: { [log] failure in
                if let failure { return answer(.failure(failure)) }
                log.client(client, .info, "client \(client) unbound \(Self.describeTrigger(trigger))")
                answer(.success(UnbindResult(trigger: trigger.json).json))
            })
        guard removed else { throw DaemonError(.notFound, "unbind: \(Self.describeTrigger(trigger)) is not bound") }
    }

    /// `bindings` {reset}: the bindings in force and the state of each
    /// watched trigger; `"reset": true` first removes the asker's own
    /// bindings, or, from an administrator, deletes the saved bindings
    /// (kept as the last good file), so the configuration's apply again
    /// (answered once the file is written or gone).
    package func bindingsOperation(_ arguments: Arguments, client: Int, asker: Asker, answer: @escaping Answer) throws {
        guard try arguments.bool(.reset, default: false) else { return answer(.success(bindingsResult(for: asker))) }
        guard asker.administrator else {
            // A member's reset removes only their own bindings (issue 36: it removed everyone's).
            let user = asker.user
            let changed = try changeBindings(
                { bindings in
                    let before = bindings.count
                    bindings.removeAll { $0.owner != nil && $0.owner == user }
                    return bindings.count != before
                },
                saved: { [self, log] failure in
                    if let failure { return answer(.failure(failure)) }
                    log.client(client, .info, "client \(client) removed its user's bindings")
                    answer(.success(bindingsResult(for: asker)))
                })
            if !changed { answer(.success(bindingsResult(for: asker))) }
            return
        }
        let queued = try state.withLock { current throws(DaemonError) -> Bool in
            // The deletion is queued under the lock, in order with the changes' writes.
            if path != nil, !saver.save(nil, completion: { [self] failure in bindingsResetSaved(failure, client: client, asker: asker, answer: answer) }) {
                throw DaemonError(.busy, "the daemon is stopping")
            }
            current.saved = nil
            return path != nil
        }
        if !queued {
            syncTriggerWatches()
            bindingsResetSaved(nil, client: client, asker: asker, answer: answer)
        }
    }

    private func bindingsResetSaved(_ failure: DaemonError?, client: Int, asker: Asker, answer: Answer) {
        if let failure { return answer(.failure(failure)) }
        log.client(client, .info, "client \(client) reset the bindings to the configuration's")
        answer(.success(bindingsResult(for: asker)))
    }

    /// The `bindings` result: the bindings in force and each watched
    /// trigger's state. Each binding says whether it is the asker's
    /// (`mine`); an administrator also sees its owner's `uid` (`null`: the
    /// configuration's).
    private func bindingsResult(for asker: Asker) -> JSONValue {
        func entry(_ binding: TriggerBinding) -> BindingsResult.Entry {
            BindingsResult.Entry(
                trigger: binding.trigger.json, action: binding.action.json, mine: binding.owner != nil && binding.owner == asker.user,
                uid: asker.administrator ? .some(binding.owner.map { Int($0) }) : nil)
        }
        return state.withLock { current in
            BindingsResult(
                bindings: current.current.map(entry),
                source: current.saved == nil ? BindingsSource.configuration.rawValue : BindingsSource.saved.rawValue,
                file: path,
                triggers: Set(current.watches.keys).union(current.refused.keys).sorted().map { key in
                    let watch = current.watches[key]
                    let refused = watch == nil ? current.refused[key] : nil
                    return BindingsResult.Trigger(
                        device: key.device, key: key.key,
                        state: refused != nil ? TriggerWatchState.refused.rawValue : (watch?.state ?? .waiting).rawValue,
                        node: watch?.node, reason: refused ?? watch?.reason)
                }
            ).json
        }
    }

    /// Applies `change` to the bindings in force; when it says it changed
    /// them, queues their write (``BindingsSaver``: changes close together
    /// share one) and returns. Once written, what they bind is watched and
    /// `saved` is told; when the write fails, the bindings go back to what
    /// the file holds, and `saved` is told why.
    @discardableResult
    private func changeBindings(
        _ change: (inout [TriggerBinding]) throws(DaemonError) -> Bool, saved: @escaping BindingsSaver.Completion
    ) throws(DaemonError) -> Bool {
        // Changed and queued under one lock: the writes follow the changes' order.
        let changed = try state.withLock { current throws(DaemonError) -> Bool in
            var bindings = current.current
            guard try change(&bindings) else { return false }
            if path != nil, !saver.save(bindings, completion: saved) { throw DaemonError(.busy, "the daemon is stopping") }
            current.saved = bindings
            return true
        }
        guard changed else { return false }
        if path == nil {
            // Nowhere to save (a test's daemon): in force at once.
            syncTriggerWatches()
            saved(nil)
        }
        return true
    }

    /// A write of the bindings ended (on the saver's thread), before its
    /// changes are answered: they are watched now, or undone.
    private func bindingsWritten(_ contents: [TriggerBinding]?, _ failure: DaemonError?, changes: Int) {
        guard let failure else {
            log.debug("bindings saved: \(changes) change\(changes == 1 ? "" : "s") in one write")
            state.withLock { $0.onDisk = contents }
            syncTriggerWatches()
            return
        }
        // Changes made since were made on top of this one: undone too.
        let undone = state.withLock { current -> [BindingsSaver.Completion] in
            current.saved = current.onDisk
            return saver.takePending()
        }
        log.error("the bindings cannot be saved: \(failure); the changes since the last write are undone")
        syncTriggerWatches()
        for completion in undone { completion(failure) }
    }

    // MARK: Watches

    /// At start: the saved bindings (a file with errors is logged, kept
    /// aside, and the last good file takes its place, else the
    /// configuration's apply), then a watch per bound key, whose presses
    /// set `actions` going.
    /// - Throws: when the saver's thread cannot be started.
    package func start(_ actions: Actions) throws(SystemError) {
        self.actions.withLock { $0 = actions }
        if let path {
            do {
                let saved = try BindingsFile.load(path)
                state.withLock {
                    $0.saved = saved
                    $0.onDisk = saved
                }
                if let saved { log.info("bindings: \(saved.count) from \(path)") }
            } catch {
                let recovered = BindingsFile.recover(path)
                state.withLock {
                    $0.saved = recovered.bindings
                    $0.onDisk = recovered.bindings
                }
                log.error("the saved bindings cannot be used: \(error); \(recovered.report)")
            }
            try saver.start { [self] contents, failure, changes in bindingsWritten(contents, failure, changes: changes) }
        }
        syncTriggerWatches()
    }

    /// A new configuration (a reload): its bindings apply unless some are
    /// saved, and the watches follow.
    package func reconfigure(_ configuration: DaemonConfiguration) {
        state.withLock { $0.configuration = configuration }
        syncTriggerWatches()
    }

    /// Starts a watch for every key bound and not watched, cancels the
    /// watches of keys no longer bound; all of them anew when the timings
    /// changed (a reload), and those whose grab changed. A device is
    /// grabbed when the configuration's `grab` is true or a binding on it
    /// has `"grab": true`.
    private func syncTriggerWatches() {
        // Decided and recorded under one lock, so that two changes at once
        // (a bind and a SIGHUP) never start two watches of one key.
        let (toStart, toCancel, timings, refused) = state.withLock {
            current -> ([(WatchedKey, Bool, TriggerHandle)], [TriggerHandle], PressTimings, [WatchedKey: String]) in
            if current.stopped { return ([], [], current.configuration.pressTimings, [:]) }
            let configuration = current.configuration
            let bindings = watchedBindings(current)
            let grabbed = Set(bindings.filter(\.trigger.grab).map(\.trigger.device))
            var wanted: [WatchedKey: Bool] = [:]
            for binding in bindings { wanted[binding.trigger.watched] = configuration.grab || grabbed.contains(binding.trigger.device) }
            current.refused = [:]
            for binding in current.current where wanted[binding.trigger.watched] == nil {
                current.refused[binding.trigger.watched] = TriggerKeys.refusal(
                    of: binding.trigger, dedicatedKeyboards: configuration.dedicatedKeyboards)
            }
            var cancel: [TriggerHandle] = []
            if configuration.pressTimings != current.timings {
                cancel = current.watches.values.map(\.handle)
                current.watches = [:]
                current.timings = configuration.pressTimings
            }
            for (key, watch) in current.watches where wanted[key] != watch.grab {
                cancel.append(watch.handle)
                current.watches[key] = nil
            }
            let start = wanted.keys.filter { current.watches[$0] == nil }.sorted().map { ($0, wanted[$0] ?? false, TriggerHandle()) }
            for (key, grab, handle) in start { current.watches[key] = TriggerState.Watch(handle: handle, grab: grab) }
            return (start, cancel, configuration.pressTimings, current.refused)
        }
        for handle in toCancel { handle.cancel() }
        for (key, reason) in refused.sorted(by: { $0.key < $1.key }) {
            log.error("not watching \(key.key) on \(DaemonLog.excerpt(key.device)): \(reason)")
        }
        for (key, grab, handle) in toStart {
            do {
                let request = try TriggerRequest(device: key.device, key: key.key, timings: timings, grab: grab)
                handle.observeProgress { [self] event in triggerEvent(event, on: key, from: handle) }
                _ = try engine.startWatchingTrigger(request, handle: handle)
                log.info("watching \(key.key) on \(DaemonLog.excerpt(key.device))")
            } catch {
                state.withLock { current in
                    if current.watches[key]?.handle === handle { current.watches[key] = nil }
                }
                log.error("cannot watch \(key.key) on \(DaemonLog.excerpt(key.device)): \(error)")
            }
        }
    }

    /// Writes the changes not yet written, cancels every watch, and starts
    /// none any more (the daemon stops).
    package func stop() {
        saver.stop()
        let handles = state.withLock { current in
            current.stopped = true
            defer { current.watches = [:] }
            return current.watches.values.map(\.handle)
        }
        for handle in handles { handle.cancel() }
    }

    /// What a watch reported (on its thread). A watch that was replaced or
    /// cancelled meanwhile is not listened to any more.
    private func triggerEvent(_ event: TriggerEvent, on key: WatchedKey, from handle: TriggerHandle) {
        guard state.withLock({ $0.watches[key]?.handle === handle }), let actions = actions.withLock({ $0 }) else { return }
        switch event {
        case .connected(let node, let name):
            state.withLock { current in
                current.watches[key]?.state = .connected
                current.watches[key]?.node = node
                current.watches[key]?.reason = nil
            }
            log.info("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(DaemonLog.oneLine(name)) at \(node)")
        case .disconnected(let reason):
            state.withLock { current in
                guard var watch = current.watches[key] else { return }
                watch.state = watch.node == nil ? .waiting : .disconnected
                watch.reason = reason
                current.watches[key] = watch
            }
            log.warning("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(DaemonLog.oneLine(reason))")
        case .press(let press, _):
            let (binding, screenBinding) = state.withLock { current in
                let bindings = watchedBindings(current)
                return (
                    bindings.first { $0.trigger.watched == key && $0.trigger.press == press },
                    bindings.first { $0.trigger.watched == key && $0.action.screenMenu != nil }
                )
            }
            // The on-screen menu's switch: every press of its key that no
            // other binding has goes to the button (a long press goes back),
            // the binding's owner's button only (the configuration's: any).
            let screenMenu = screenBinding?.action.screenMenu
            let scansScreenMenu = screenMenu != nil && (binding == nil || binding?.action.screenMenu != nil)
            // Subscribers hear of a press only as a binding's (or as the
            // switch of the flow a binding started, or the emergency stop),
            // never of presses of the key that no binding has; a member's
            // binding's presses only that member's clients (another member
            // would learn when their switch is used), the emergency stop and
            // the configuration's bindings everyone.
            if binding != nil || scansScreenMenu || actions.operates(key) || press == .emergencyStop {
                let audience = press == .emergencyStop ? nil : binding?.owner ?? (scansScreenMenu ? screenBinding?.owner : nil)
                actions.publish(TriggerPressEvent(device: key.device, key: key.key, press: press.rawValue), audience)
            }
            // While a create flow or menu runs, its switch operates it, not the
            // bindings (the emergency stop still stops everything else too).
            let forwarded = actions.forward(press, key)
            if press == .emergencyStop {
                if let screenMenu { actions.publish(screenMenu.event(key, press: press), screenBinding?.owner) }
                actions.emergencyStop("\(key.key) on \(key.device) was held")
                return
            }
            if forwarded { return }
            if scansScreenMenu, let screenMenu {
                actions.publish(screenMenu.event(key, press: press), screenBinding?.owner)
                log.info("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(press.rawValue) press, to the on-screen menu")
                return
            }
            guard let binding else {
                log.debug("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(press.rawValue) press, not bound")
                return
            }
            do {
                if case .create(let create) = binding.action {
                    try actions.startCreate(create, key)
                    log.info("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(press.rawValue) press, create flow on \(DaemonLog.excerpt(create.device))")
                    return
                }
                if case .fingertips(let fingertips) = binding.action {
                    let done = try actions.toggleFingertips(fingertips, Self.describeTrigger(binding.trigger))
                    log.info("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(press.rawValue) press, \(done)")
                    return
                }
                if case .menu(let menu) = binding.action {
                    try actions.startMenu(menu, key)
                    log.info("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(press.rawValue) press, menu")
                    return
                }
                let job = try actions.queue(binding.action)
                log.info("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(press.rawValue) press, job \(job)")
            } catch {
                log.error("trigger \(key.key) on \(DaemonLog.excerpt(key.device)): \(press.rawValue) press: \(error)")
            }
        }
    }

    package static func describeTrigger(_ trigger: TriggerBinding.Trigger) -> String {
        "\(trigger.press.rawValue) \(trigger.key) on \(DaemonLog.excerpt(trigger.device))"
    }
}
