import GestureBindings
import GestureEngine
import GestureFormat
import GestureModel
import GesturePlayback
import GestureProtocol
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

extension Dispatcher {
    /// `press` {key, action, hold_ms, force}: queues a press on the ready
    /// keyboard; the reply comes when it has been played.
    func press(_ request: DaemonRequest, _ arguments: Arguments, client: Int) throws -> JSONValue? {
        let name = try arguments.requiredString(.key)
        let key: VirtualKeyboard.Key
        do throws(KeyNameError) {
            key = try VirtualKeyboard.key(named: name)
        } catch {
            throw DaemonError(.badArgument, "press: \"key\": \(error)")
        }
        let actionName = try arguments.string(.action) ?? KeyPress.Action.tap.rawValue
        guard let action = KeyPress.Action(rawValue: actionName) else {
            throw DaemonError(.badArgument, "press: \"action\" must be \"tap\", \"down\" or \"up\"")
        }
        let holdRange = Double(KeyPress.minimumHold.rawValue) / 1_000...Double(KeyPress.maximumHold.rawValue) / 1_000
        let holdMilliseconds = try arguments.number(.holdMilliseconds, in: holdRange)
        if holdMilliseconds != nil && action != .tap {
            throw DaemonError(.badArgument, "press: \"hold_ms\" is for a tap; a \"down\" stays down until an \"up\"")
        }
        let force = try arguments.bool(.force, default: false)
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
        let device = ReadyDevice(kind: .keyboard)
        guard state.withLock({ $0.ready[device] }) != nil else {
            if state.withLock({ $0.stopping }) { throw DaemonError(.busy, "the daemon is stopping") }
            throw DaemonError(.notFound, "no keyboard is kept ready (the configuration's \"devices\" does not name it)")
        }
        return try queueJob(
            .press(press), on: device, client: client, requestID: requestID, waits: waits, cancelOnDisconnect: waits,
            limited: limited)
    }

    /// Keeps the record of held keys once a press has been played: a
    /// completed `down` is held by its client, or released at once when
    /// that client has gone meanwhile.
    func pressEnded(_ press: KeyPress, client: Int, _ result: PlaybackResult) {
        var completed = false
        if case .completed = result.outcome { completed = true }
        let orphaned = state.withLock { current -> Bool in
            current.heldKeys.keepOnly(result.finalState.pressedKeys)
            guard completed, press.action == .down, result.finalState.pressedKeys.contains(press.key) else { return false }
            guard current.liveClients.contains(client) else { return true }
            current.heldKeys.hold(press.key, by: client)
            return false
        }
        if orphaned { release([press.key], reason: "client \(client) went away while it pressed") }
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
            // Harmless: not limited, so only a stopping daemon refuses (busy), and stopping releases every key itself (releaseAllHeldKeys, which logs a key it cannot release).
            _ = try? queuePress(KeyPress(key: key, action: .up), client: 0, requestID: .null, waits: false, limited: false)
        }
        log.info("releasing \(names.joined(separator: ", ")): \(reason)")
    }

    /// Releases every key down on the ready keyboard (when stopping, after
    /// every job has ended), through the keyboard's session.
    func releaseAllHeldKeys() {
        let keyboard = state.withLock { current in
            current.heldKeys = HeldKeys()
            return current.ready[.keyboard]
        }
        // The keyboard there is, by its own profile; never one made to
        // release keys (one destroyed released its keys: the kernel sent the ups).
        guard let keyboard, let session = engine.existingReadyDevice(keyboard) else { return }
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
    static func pressResult(
        _ press: KeyPress, _ result: PlaybackResult, job: Int, state: JobState, device: String?, frames: Int
    ) -> PressResult {
        let held = result.finalState.pressedKeys.sorted { $0.rawValue < $1.rawValue }
        return PressResult(
            job: job, state: state, device: device, frames: frames,
            key: VirtualKeyboard.key(code: press.key)?.kernelName ?? "\(press.key.rawValue)", action: PressAction(press.action),
            held: held.map { VirtualKeyboard.key(code: $0)?.kernelName ?? "\($0.rawValue)" })
    }
}
