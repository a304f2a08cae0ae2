import DeviceDiscovery
import GestureBindings
import GestureEngine
import GestureFormat
import GestureModel
import GestureProtocol
import InputSystem
import OperatingSystem

/// The live fingertips the daemon runs (``Dispatcher/fingertipsTable``).
struct FingertipsTable: Sendable {
    /// Running, by job.
    var running: [Int: FingertipsRecord] = [:]
    /// Fingertips are between their check and their start.
    var starting = false
    /// How many times all fingertips were stopped (the emergency stop):
    /// fingertips starting meanwhile are stopped as they are registered.
    var stops = 0
}

/// Live fingertips the daemon runs, from `fingertips` (or a binding's
/// press) until they go away: idle, a `cancel` of the job, the emergency
/// stop, the binding's next press, the client's disconnect (unless
/// `on_disconnect` is `keep`), the daemon stopping, or the source unplugged.
struct FingertipsRecord: Sendable {
    let job: Int
    /// The client that started them; 0 for a binding.
    let clientID: Int
    /// The user whose client started them; `nil` for a binding's.
    var owner: UInt32? = nil
    let cancelOnDisconnect: Bool
    /// The source as asked for (`nil`: the only touch or pointer device).
    let requested: String?
    /// The trigger whose next press stops them, for a binding's.
    let binding: String?
    let fingertips: FingertipsJob
}

extension Dispatcher {
    /// `fingertips` {count, device, layout, spacing_mm, speed, idle_ms,
    /// absolute, as, on_disconnect}: starts live fingertips; `{job, source,
    /// name, device, state: "ready"}`.
    func fingertipsStart(_ arguments: Arguments, client: Int) throws -> JSONValue {
        let action = try FingertipsAction(arguments)
        let policyWord = try arguments.string(.onDisconnect) ?? FingertipsDisconnectPolicy.cancel.rawValue
        guard let policy = FingertipsDisconnectPolicy(rawValue: policyWord) else {
            throw DaemonError(.badArgument, "\(arguments.op): \"\(DaemonField.onDisconnect.rawValue)\" must be \"cancel\" or \"keep\"")
        }
        let record = try startFingertips(action, client: client, cancelOnDisconnect: policy == .cancel, binding: nil)
        return Self.fingertipsResult(record)
    }

    /// A binding's press: stops the fingertips the same trigger started,
    /// else starts them; says which, for the log.
    func toggleFingertips(_ action: FingertipsAction, trigger: String) throws -> String {
        let running = fingertipsTable.withLock { table in table.running.values.first { $0.binding == trigger } }
        if let running {
            running.fingertips.cancel()
            return "fingertips job \(running.job) stopped"
        }
        let record = try startFingertips(action, client: 0, cancelOnDisconnect: false, binding: trigger)
        return "fingertips job \(record.job) on \(record.fingertips.source.node)"
    }

    /// Stops the fingertips of job `job` for a `cancel`; false when no
    /// fingertips have that job.
    func cancelFingertips(_ job: Int, client: Int) throws(DaemonError) -> Bool {
        let running = try state.withLock { current throws(DaemonError) -> FingertipsRecord? in
            guard let record = fingertipsTable.withLock({ $0.running[job] }) else { return nil }
            guard current.mayAct(on: record.owner, client: client) else { throw ServerState.notYours("fingertips job", job) }
            return record
        }
        running?.fingertips.cancel()
        return running != nil
    }

    /// Stops every client's fingertips that its disconnect ends; how many.
    func fingertipsClientLeft(_ client: Int) -> Int {
        let ended = fingertipsTable.withLock { table in
            table.running.values.filter { $0.clientID == client && $0.cancelOnDisconnect }
        }
        for record in ended { record.fingertips.cancel() }
        return ended.count
    }

    /// Stops all fingertips (the emergency stop); how many.
    @discardableResult
    func cancelAllFingertips() -> Int {
        let running = fingertipsTable.withLock { table in
            table.stops += 1
            return Array(table.running.values)
        }
        for record in running { record.fingertips.cancel() }
        return running.count
    }

    /// Stops all fingertips and waits until each has lifted every
    /// fingertip, given its source back and removed its device (the daemon stops).
    func stopFingertipsForShutdown() {
        let running = fingertipsTable.withLock { Array($0.running.values) }
        for record in running { record.fingertips.cancel() }
        for record in running { _ = record.fingertips.handle.wait() }
    }

    /// Starts fingertips as job of `client` (one session per source: `busy`
    /// while another runs on it or is starting), telling subscribers what
    /// they do, and forgetting them when they end.
    private func startFingertips(
        _ action: FingertipsAction, client: Int, cancelOnDisconnect: Bool, binding: String?
    ) throws(DaemonError) -> FingertipsRecord {
        let what = DaemonOperation.fingertips.rawValue
        let (job, stops) = try state.withLock { current throws(DaemonError) -> (Int, Int) in
            if current.stopping { throw DaemonError(.busy, "the daemon is stopping") }
            return try fingertipsTable.withLock { table throws(DaemonError) -> (Int, Int) in
                if table.starting { throw DaemonError(.busy, "other fingertips are starting; try again") }
                if let same = table.running.values.first(where: { Self.sameSource($0, action.device) }) {
                    throw DaemonError(
                        .busy,
                        "fingertips job \(same.job) runs on \(same.fingertips.source.node) (\(DaemonLog.oneLine(same.fingertips.source.name))); one session per source: cancel it first")
                }
                table.starting = true
                return (engine.jobs.nextID(), table.stops)
            }
        }
        defer { fingertipsTable.withLock { $0.starting = false } }
        let count = action.count
        let started: FingertipsJob
        do {
            started = try engine.startFingertips(
                action.request,
                events: { [self] event in
                    switch event {
                    case .ready(let line):
                        broadcast(FingertipsEventMessage(job: job, state: .ready, count: count, line: line))
                    case .touching(let down):
                        broadcast(FingertipsEventMessage(job: job, state: down ? .down : .up))
                    case .notice(let notice):
                        log.info("fingertips job \(job): \(notice)")
                    }
                })
        } catch {
            throw fingertipsError(error, what: what)
        }
        let record = FingertipsRecord(
            job: job, clientID: client, cancelOnDisconnect: cancelOnDisconnect, requested: action.device, binding: binding,
            fingertips: started)
        // Another spelling of a source already driven (its grab would
        // normally have failed first), a client gone meanwhile, or an
        // emergency stop or the daemon stopping while they started.
        let refusal = state.withLock { current -> DaemonError? in
            if current.stopping { return DaemonError(.busy, "the daemon is stopping") }
            if cancelOnDisconnect && !current.liveClients.contains(client) {
                return DaemonError(.cancelled, "the client went away before its fingertips started")
            }
            var record = record
            record.owner = current.user(of: client)
            return fingertipsTable.withLock { table -> DaemonError? in
                if table.stops != stops {
                    return DaemonError(.cancelled, "the emergency stop came while the fingertips started")
                }
                if let same = table.running.values.first(where: { $0.fingertips.source.node == started.source.node }) {
                    return DaemonError(
                        .busy, "fingertips job \(same.job) runs on \(started.source.node); one session per source: cancel it first")
                }
                table.running[job] = record
                return nil
            }
        }
        if let refusal {
            started.cancel()
            _ = started.handle.wait()
            throw refusal
        }
        started.handle.onCompletion { [self] outcome in fingertipsEnded(job, outcome) }
        log.info(
            "client \(client) started \(count) fingertips on \(started.source.node) (\(DaemonLog.oneLine(started.source.name))), shown on \(started.devnode ?? "?"), job \(job)"
        )
        return record
    }

    /// Whether `record` runs on the source a request names the same way.
    private static func sameSource(_ record: FingertipsRecord, _ device: String?) -> Bool {
        record.requested == device || record.fingertips.source.node == device
    }

    private func fingertipsEnded(_ job: Int, _ outcome: FingertipsOutcome) {
        let record = fingertipsTable.withLock { $0.running.removeValue(forKey: job) }
        guard record != nil else { return }
        broadcast(
            FingertipsEventMessage(
                job: job, state: .ended, reason: FingertipsEndCode(outcome.reason), message: DaemonLog.oneLine(outcome.reason.description)))
        if outcome.reason.isFailure {
            log.warning("fingertips job \(job) ended: \(outcome.reason)")
        } else {
            log.info("fingertips job \(job) ended: \(outcome.reason)")
        }
    }

    private static func fingertipsResult(_ record: FingertipsRecord) -> JSONValue {
        FingertipsStartResult(
            job: record.job, source: record.fingertips.source.node, name: record.fingertips.source.name, device: record.fingertips.devnode,
            kind: record.fingertips.sourceKind.rawValue
        ).json
    }

    private func fingertipsError(_ error: any Error, what: String) -> DaemonError {
        if let error = error as? DaemonError { return error }
        if let error = error as? FingertipsError { return DaemonError(.badArgument, "\(what): \(error)") }
        return Self.inputDeviceError(error, what: what) ?? DaemonError(.internal, "\(what): \(error)")
    }
}
