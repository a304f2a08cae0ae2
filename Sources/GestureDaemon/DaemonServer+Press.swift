import GestureEngine
import GestureFormat
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem

/// The keys each client holds down with `press` `"action": "down"`, so
/// that they are released when that client goes away.
struct HeldKeys: Sendable {
    private var byClient: [Int: Set<EventCode>] = [:]

    /// Every key some client holds.
    var all: Set<EventCode> { byClient.values.reduce(into: []) { $0.formUnion($1) } }

    /// The keys `client` holds.
    func keys(of client: Int) -> Set<EventCode> { byClient[client] ?? [] }

    mutating func hold(_ key: EventCode, by client: Int) { byClient[client, default: []].insert(key) }

    /// Forgets every record of a key that is no longer down.
    mutating func keepOnly(_ down: Set<EventCode>) {
        for client in Array(byClient.keys) {
            byClient[client]?.formIntersection(down)
            if byClient[client]?.isEmpty == true { byClient[client] = nil }
        }
    }

    /// Forgets a client; returns the keys it held that no other client holds.
    mutating func remove(client: Int) -> Set<EventCode> {
        let keys = byClient.removeValue(forKey: client) ?? []
        return keys.subtracting(all)
    }
}

extension DaemonServer {
    /// `press` {key, action, hold_ms, force}: queues a press on the ready
    /// keyboard; the reply comes when it has been played.
    func press(_ request: DaemonRequest, _ arguments: Arguments, client: Int) throws -> JSONValue? {
        let name = try arguments.requiredString("key")
        let key: VirtualKeyboard.Key
        do throws(KeyNameError) {
            key = try VirtualKeyboard.key(named: name)
        } catch {
            throw DaemonError(.badArgument, "press: \"key\": \(error)")
        }
        let actionName = try arguments.string("action") ?? KeyPress.Action.tap.rawValue
        guard let action = KeyPress.Action(rawValue: actionName) else {
            throw DaemonError(.badArgument, "press: \"action\" must be \"tap\", \"down\" or \"up\"")
        }
        let holdRange = Double(KeyPress.minimumHold.rawValue) / 1_000...Double(KeyPress.maximumHold.rawValue) / 1_000
        let holdMilliseconds = try arguments.number("hold_ms", in: holdRange)
        if holdMilliseconds != nil && action != .tap {
            throw DaemonError(.badArgument, "press: \"hold_ms\" is for a tap; a \"down\" stays down until an \"up\"")
        }
        let force = try arguments.bool("force", default: false)
        // Releasing is always allowed; pressing power needs force.
        if VirtualKeyboard.needsForce.contains(key.code) && action != .up && !force {
            throw DaemonError(
                .badArgument,
                "press: \(key.name) (\(key.kernelName)) can switch the machine off (logind's HandlePowerKey); send \"force\": true to press it")
        }
        let press = KeyPress(
            key: key.code, action: action,
            hold: holdMilliseconds.map { Microseconds(Int64(($0 * 1_000).rounded())) } ?? KeyPress.defaultHold)
        _ = try queuePress(press, client: client, requestID: request.id, waits: true, limited: true)
        return nil
    }

    /// Queues a press on the keyboard's queue, like a play. `limited`:
    /// refused as `busy` when the queue is full (releases never are).
    @discardableResult
    func queuePress(_ press: KeyPress, client: Int, requestID: JSONValue, waits: Bool, limited: Bool) throws(DaemonError) -> Int {
        let handle = JobHandle<PlaybackResult, PlaybackProgress>()
        let job: Int = try state.withLock { current throws(DaemonError) -> Int in
            if current.stopping { throw DaemonError(.busy, "the daemon is stopping") }
            guard let queue = current.queues[.keyboard], !queue.retired else {
                throw DaemonError(.notFound, "no keyboard is kept ready (the configuration's \"devices\" does not name it)")
            }
            if limited && queue.count >= current.configuration.queueLimit {
                throw DaemonError(.busy, "the keyboard has \(queue.count) presses waiting; try again later")
            }
            current.nextJobID += 1
            var record = JobRecord(
                id: current.nextJobID, kind: .keyboard, clientID: client, requestID: requestID, waits: waits,
                cancelOnDisconnect: waits, handle: handle,
                gesture: Gesture(name: "press", device: .synthDefault, strokes: []), options: PlaybackOptions())
            record.press = press
            current.jobs[current.nextJobID] = record
            queue.push(current.nextJobID)
            return current.nextJobID
        }
        broadcast("job", [("job", .integer(job)), ("state", .string("queued")), ("progress", .integer(0))])
        return job
    }

    /// Plays one press on the ready keyboard (on its worker), and keeps the
    /// record of held keys: a completed `down` is held by its client, or
    /// released at once when that client has gone meanwhile.
    func pressNow(_ record: JobRecord, _ press: KeyPress, profile: VirtualDeviceProfile) -> PlaybackResult {
        var outcome: PlaybackResult?
        // A keyboard that vanished is made again once, as for plays.
        for attempt in 0..<2 where outcome == nil {
            do {
                let session = try devices.ready(profile, .uinput)
                state.withLock { $0.jobs[record.id]?.devnode = session.devnode }
                let played = try engine.startPress(press, on: session, handle: record.handle, closesSession: false).wait()
                if case .failed(let error as SystemError, _) = played.outcome, error.kind == .deviceVanished, attempt == 0 {
                    recreate(profile, after: error)
                    continue
                }
                outcome = played
            } catch let error as SystemError where error.kind == .deviceVanished && attempt == 0 {
                recreate(profile, after: error)
            } catch {
                return PlaybackResult.failedBeforeStart(error, state: DeviceState(description: profile.description))
            }
        }
        guard let result = outcome else {
            return PlaybackResult.failedBeforeStart(
                DaemonError(.internal, "the keyboard vanished twice"), state: DeviceState(description: profile.description))
        }
        var completed = false
        if case .completed = result.outcome { completed = true }
        let orphaned = state.withLock { current -> Bool in
            current.heldKeys.keepOnly(result.finalState.pressedKeys)
            guard completed, press.action == .down, result.finalState.pressedKeys.contains(press.key) else { return false }
            guard current.clients[record.clientID] != nil else { return true }
            current.heldKeys.hold(press.key, by: record.clientID)
            return false
        }
        if orphaned { release([press.key], reason: "client \(record.clientID) went away while it pressed") }
        return result
    }

    /// Releases the keys a client held with `down` (it disconnected),
    /// unless another client holds them too.
    func releaseHeldKeys(of client: Int) {
        let keys = state.withLock { $0.heldKeys.remove(client: client) }
        release(keys, reason: "client \(client) disconnected")
    }

    private func release(_ keys: Set<EventCode>, reason: String) {
        guard !keys.isEmpty else { return }
        let names = keys.sorted { $0.rawValue < $1.rawValue }.map { VirtualKeyboard.key(code: $0)?.kernelName ?? "\($0.rawValue)" }
        for key in keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            // Never refused for a full queue; only a stopping daemon
            // refuses, and stopping releases every key itself.
            _ = try? queuePress(KeyPress(key: key, action: .up), client: 0, requestID: .null, waits: false, limited: false)
        }
        log.info("releasing \(names.joined(separator: ", ")): \(reason)")
    }

    /// Releases every key down on the ready keyboard (when stopping, after
    /// every job has ended), through the keyboard's session.
    func releaseAllHeldKeys() {
        let hasKeyboard = state.withLock { current in
            current.heldKeys = HeldKeys()
            return current.queues[.keyboard] != nil
        }
        guard hasKeyboard, let session = try? devices.ready(Self.profile(for: .keyboard), .uinput) else { return }
        let down = session.state.pressedKeys.sorted { $0.rawValue < $1.rawValue }
        for key in down {
            do {
                _ = try engine.startPress(KeyPress(key: key, action: .up), on: session, closesSession: false).wait()
            } catch {
                log.warning("cannot release \(VirtualKeyboard.key(code: key)?.kernelName ?? "\(key.rawValue)") (\(error)); destroying the keyboard releases it")
            }
        }
        if !down.isEmpty { log.info("released \(down.count) held key(s)") }
    }

    /// The result of a press as the reply carries it: the key, the action,
    /// and every key now held down on the keyboard.
    static func pressFields(_ press: KeyPress, _ result: PlaybackResult) -> [(String, JSONValue)] {
        let held = result.finalState.pressedKeys.sorted { $0.rawValue < $1.rawValue }
        return [
            ("key", .string(VirtualKeyboard.key(code: press.key)?.kernelName ?? "\(press.key.rawValue)")),
            ("action", .string(press.action.rawValue)),
            ("held", .array(held.map { .string(VirtualKeyboard.key(code: $0)?.kernelName ?? "\($0.rawValue)") })),
        ]
    }
}
