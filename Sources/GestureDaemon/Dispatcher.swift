import DaemonTransport
import GestureBindings
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureProtocol
import OperatingSystem
import Synchronization

/// The daemon's requests, from a line to an engine call: the operations
/// (this file; plays, presses and recordings in Dispatcher+Press.swift and
/// Dispatcher+Record.swift), started as the engine's jobs on the ready
/// devices, and the ready devices themselves. It answers through the
/// socket server, and hands `bind`, `unbind` and `bindings` to the
/// bindings.
final class Dispatcher: Sendable {
    let engine: Engine
    let log: DaemonLog
    let version: String
    let state: Mutex<ServerState>
    let sockets: SocketServer
    let bindings: TriggerBindings
    /// Held while a ready device is made after start (``readyProfile(_:)``).
    private let lateStart = Mutex(())
    /// Library gestures already read, while their files are unchanged.
    let gestureCache = GestureCache()
    /// The requests waiting to be served (``route(_:from:)``).
    let lanes = Lanes()
    /// The one recording (Dispatcher+Record.swift), behind a lock of its
    /// own. Where both are needed it is taken inside ``state``'s, never the
    /// other way round.
    let recordingSlot = Mutex(RecordingSlot())
    /// The live fingertips (Dispatcher+Fingertips.swift), behind a lock of
    /// their own, taken inside ``state``'s as ``recordingSlot`` is.
    let fingertipsTable = Mutex(FingertipsTable())

    /// The lanes requests wait in: the bindings' changes on a thread of
    /// their own, so that they never wait behind a slow `save` or `show`.
    struct Lanes: Sendable {
        /// Two workers (`gesturectl-work`): one client's long request
        /// leaves the other to everyone else.
        let work = RequestLanes<QueuedRequest>(workers: 2, name: "gesturectl-work")
        /// `bind`, `unbind` and `bindings` (`gesturectl-bind`).
        let bindings = RequestLanes<QueuedRequest>(workers: 1, name: "gesturectl-bind")
    }

    init(
        engine: Engine, log: DaemonLog, version: String, state: ServerState, sockets: SocketServer,
        bindings: TriggerBindings
    ) {
        self.engine = engine
        self.log = log
        self.version = version
        var state = state
        state.administratorGroup = Self.administratorGroup(of: state.configuration, log: log)
        self.state = Mutex(state)
        self.sockets = sockets
        self.bindings = bindings
    }

    // MARK: Clients

    /// The configuration's `admin_group` as a group id; `nil` (root alone)
    /// when it names none, or a group that does not exist (said in the log).
    static func administratorGroup(of configuration: DaemonConfiguration, log: DaemonLog) -> UInt32? {
        guard let name = configuration.adminGroup else { return nil }
        do {
            if let group = try UserGroups.groupID(named: name) { return group }
            log.warning("admin_group \"\(DaemonLog.excerpt(name))\" is not a group; only root acts as an administrator")
        } catch {
            log.warning("admin_group \"\(DaemonLog.excerpt(name))\" cannot be looked up (\(error)); only root acts as an administrator")
        }
        return nil
    }

    /// Why a peer may not use the daemon: it is neither root, nor the
    /// daemon's own user, nor in the configured group. (A user instance
    /// refused its own user without the group: issue 38's screen test.)
    func refusal(of peer: PeerCredentials) -> DaemonError? {
        state.withLock { current in
            peer.userID == current.daemonUser || peer.isRootOrMember(of: current.allowedGroup)
                ? nil
                : DaemonError(
                    .permissionDenied,
                    "user \(peer.userID) may not use this daemon: only root, its own user and members of group \"\(current.configuration.group)\" may")
        }
    }

    /// A client was let in, as the user the kernel says it is.
    func clientConnected(_ client: Int, peer: PeerCredentials) {
        state.withLock { $0.connect(client, peer: peer) }
    }

    /// Starts the lanes' workers.
    func startServing() throws(SystemError) {
        for lane in [lanes.work, lanes.bindings] {
            try lane.start(
                serve: { [self] queued, client in serve(queued, from: client) }, drained: { [sockets] _ in sockets.resume() })
        }
    }

    /// Whether a client is not read for now: its requests waiting to be
    /// served are over their bound (``RequestLanes/backlogLimit``).
    func isBacklogged(_ client: Int) -> Bool { lanes.work.isBacklogged(client) || lanes.bindings.isBacklogged(client) }

    /// Stops serving what waits: each is answered `busy`.
    func stopServing() {
        for lane in [lanes.work, lanes.bindings] {
            for (queued, client) in lane.stop() {
                let id: JSONValue = if case .request(let request) = queued { request.id } else { .null }
                reply(client, DaemonReply.failure(id: id, error: DaemonError(.busy, "the daemon is stopping")))
            }
        }
    }

    /// A client is cut off for not reading its replies (a bound of
    /// docs/PROTOCOL.md "Limits"): its requests still waiting are dropped,
    /// not served for nobody while other clients wait their turn.
    func clientCutOff(_ client: Int) {
        let dropped = lanes.work.forget(client) + lanes.bindings.forget(client)
        if dropped > 0 { log.client(client, .info, "client \(client): \(dropped) request(s) it had waiting are not served") }
    }

    /// A client went away: its jobs' `on_disconnect`, its held keys, its
    /// recording. How many jobs were cancelled.
    /// Its requests still waiting are served all the same (a client may
    /// write a request and close at once); a play or recording it would
    /// have had cancelled by the disconnect is refused then (``queueJob``).
    func clientLeft(_ client: Int) -> Int {
        state.withLock { $0.leave(client) }
        let cancelled = engine.jobs.clientLeft(client)
        releaseHeldKeys(of: client)
        recordingClientLeft(client)
        return cancelled + fingertipsClientLeft(client)
    }

    // MARK: Lifecycle

    /// Makes the configuration's ready devices (a HID output's that cannot
    /// be made yet is made when a play asks for it).
    /// - Throws: when a uinput device cannot be made (no uinput, no access).
    func startReadyDevices() throws {
        let ready = state.withLock { $0.configuration.readyDevices }
        for device in ready {
            do {
                try startDevice(device)
            } catch where device.output != .uinput {
                // A HID output may not be usable yet (a gadget whose host is
                // not plugged in): said, and made when a play asks for it.
                log.warning("the \(device) is not ready yet (\(error)); it is made when a play asks for it")
            }
        }
    }

    /// Refuses new work from now on; false when stopping began before.
    func beginStopping() -> Bool {
        state.withLock { current -> Bool in
            if current.stopping { return false }
            current.stopping = true
            return true
        }
    }

    /// Cancels every job and waits until each has ended and queued its
    /// reply, then stops the recording and releases every held key.
    func endJobs() {
        // Queued jobs end at once, cancelled before they started.
        engine.retireQueues()
        log.notice("stopping: cancelling \(engine.jobs.cancelAll()) job(s)")
        // Until every job has ended and queued its reply (each job's
        // `ended` runs before it leaves the engine's list).
        engine.jobs.waitUntilEmpty()
        stopRecordingForShutdown()
        stopFingertipsForShutdown()
        releaseAllHeldKeys()
    }

    /// A new configuration: the group and queue limit at once; devices
    /// added are created, devices removed are closed.
    func reload(_ configuration: DaemonConfiguration, allowedGroup: UInt32?, library: GestureLibrary) {
        gestureCache.clear()
        let (added, removed) = state.withLock { current -> ([ReadyDevice], [ReadyDevice]) in
            let old = current.configuration.readyDevices
            current.configuration = configuration
            current.allowedGroup = allowedGroup
            current.administratorGroup = Self.administratorGroup(of: configuration, log: log)
            current.library = library
            let new = configuration.readyDevices
            return (new.filter { !old.contains($0) }, old.filter { !new.contains($0) })
        }
        for device in added {
            do { try startDevice(device) } catch { log.error("cannot create the \(device): \(error)") }
        }
        for device in removed {
            guard let profile = state.withLock({ $0.ready.removeValue(forKey: device) }) else { continue }
            // Its waiting plays end cancelled; the device goes once the
            // running one has ended.
            engine.retireReady(profile, output: device.output)
        }
    }

    /// What a create flow or a menu starts with.
    func assistContext() -> AssistRuns.Context {
        state.withLock { current in
            AssistRuns.Context(
                library: current.library, timings: current.configuration.pressTimings,
                readyTouchscreen: current.ready[ReadyDevice(kind: .touchscreen)])
        }
    }

    /// Why the library's gesture `name` cannot be played now (`not-found`
    /// when there is none; the file's problem when it cannot be read);
    /// `nil` when it can.
    func gestureProblem(_ name: String) -> DaemonError? {
        let library = state.withLock { $0.library }
        do throws(DaemonError) {
            _ = try libraryCall { () throws(LibraryError) in try gestureCache.gesture(named: name, in: library) }
            return nil
        } catch {
            return error
        }
    }

    // MARK: Ready devices

    /// The profile of a ready device, made now when the configuration names
    /// it but it could not be made at start (a HID output's device: a
    /// gadget whose host was not plugged in). One at a time: a play that
    /// finds it being made waits for that.
    /// - Throws: `not-found` when the configuration does not name it or it
    ///   still cannot be made (saying why).
    func readyProfile(_ device: ReadyDevice) throws(DaemonError) -> VirtualDeviceProfile {
        if let profile = state.withLock({ $0.ready[device] }) { return profile }
        guard state.withLock({ $0.configuration.readyDevices.contains(device) && !$0.stopping }) else {
            throw Self.notReady(device)
        }
        return try lateStart.withLock { _ throws(DaemonError) -> VirtualDeviceProfile in
            if let profile = state.withLock({ $0.ready[device] }) { return profile }
            do {
                try startDevice(device)
            } catch {
                throw DaemonError(.notFound, "the \(device) is not ready: \(DaemonLog.oneLine(String(describing: error)))")
            }
            guard let profile = state.withLock({ $0.ready[device] }) else { throw Self.notReady(device) }
            return profile
        }
    }

    private func startDevice(_ device: ReadyDevice) throws {
        let profile = try engine.readyProfile(kind: device.kind, output: device.output)
        let session = try engine.keepReady(profile, output: device.output) { [self] session, error in
            log.warning("the \(device) vanished (\(error)); making it again")
            broadcast(Self.deviceEvent(device, node: session?.devnode, state: .recreated))
        }
        log.info("ready: \(device) at \(session.devnode ?? "?")")
        state.withLock { $0.ready[device] = profile }
        broadcast(Self.deviceEvent(device, node: session.devnode, state: .added))
    }

    /// The fields of a `device` event: kind, node, state, and the output
    /// when it is not uinput.
    static func deviceEvent(_ device: ReadyDevice, node: String?, state: DeviceEventState) -> ReadyDeviceEvent {
        ReadyDeviceEvent(kind: device.kind.rawValue, node: node, output: device.output == .uinput ? nil : device.output.word, state: state)
    }

    // MARK: Output to clients

    /// Queues a reply for a client.
    func reply(_ clientID: Int, _ line: String) { sockets.reply(clientID, line) }

    /// Pushes an event to its subscribers.
    func broadcast<Message: DaemonEventMessage>(_ message: @autoclosure () -> Message) { sockets.broadcast(message()) }
}

/// A request waiting in a lane: read already, or a long line that the
/// worker serving it reads.
enum QueuedRequest: Sendable {
    case request(DaemonRequest)
    case line([UInt8])
}

/// The dispatcher's state (the clients, the ready devices, the configuration
/// in force, the held keys), behind one lock; the recording and the live
/// fingertips have locks of their own (``Dispatcher/recordingSlot``,
/// ``Dispatcher/fingertipsTable``), and the jobs are the engine's.
struct ServerState: Sendable {
    var library: GestureLibrary
    var configuration: DaemonConfiguration
    var allowedGroup: UInt32?
    /// The user the daemon runs as (always let in, an administrator).
    var daemonUser: UInt32 = 0
    /// The clients connected (let in, not yet gone).
    var liveClients: Set<Int> = []
    /// The profile of each ready device made (its jobs are the engine's).
    var ready: [ReadyDevice: VirtualDeviceProfile] = [:]
    /// The user each live client is (its peer credentials' uid).
    var clientUsers: [Int: UInt32] = [:]
    /// The users of the clients that went away last (see ``leave(_:)``), and their order.
    var departedUsers: [Int: UInt32] = [:]
    var departedOrder: [Int] = []
    /// Each live client's peer credentials (its groups: administrators).
    var clientPeers: [Int: PeerCredentials] = [:]
    /// The configuration's `admin_group`, resolved (`nil`: root alone).
    var administratorGroup: UInt32?
    var stopping = false
    /// The keys each client holds down with `press` `down`.
    var heldKeys = HeldKeys()
}

extension ServerState {
    /// The user client `client` is; `nil` for a binding's work (client 0)
    /// or a client gone.
    func user(of client: Int) -> UInt32? { clientUsers[client] ?? departedUsers[client] }

    /// Lets client `client` in, as the user `peer` says it is.
    mutating func connect(_ client: Int, peer: PeerCredentials) {
        liveClients.insert(client)
        clientUsers[client] = peer.userID
        clientPeers[client] = peer
    }

    /// Client `client` went away. Its user is kept a while (the most recent
    /// ``departedUsersKept``), so that a request it left waiting in a lane
    /// (a play with `on_disconnect` `finish`) is still its user's when it is
    /// queued: such a play had no owner, and any member could cancel it.
    mutating func leave(_ client: Int) {
        liveClients.remove(client)
        clientPeers[client] = nil
        guard let user = clientUsers.removeValue(forKey: client) else { return }
        departedUsers[client] = user
        departedOrder.append(client)
        if departedOrder.count > Self.departedUsersKept {
            departedUsers[departedOrder.removeFirst()] = nil
        }
    }

    /// How many departed clients' users are kept.
    static let departedUsersKept = 4_096

    /// Whether client `client` acts as an administrator: root, or a member
    /// of the configuration's `admin_group` (who may act on every user's
    /// jobs, recordings, fingertips, bindings and saved gestures).
    func isAdministrator(_ client: Int) -> Bool {
        guard let peer = clientPeers[client] else { return false }
        return peer.userID == daemonUser || peer.isRootOrMember(of: administratorGroup)
    }

    /// Whether client `client` may see the details of, or stop, work that
    /// `owner` made: its own user's, an administrator, or work no client
    /// made (a binding's, which any member at the rig may stop).
    func mayAct(on owner: UInt32?, client: Int) -> Bool {
        guard let owner else { return true }
        return isAdministrator(client) || clientUsers[client] == owner
    }

    /// The refusal of client `client` acting on `what` (job `job`) that another user made.
    static func notYours(_ what: String, _ job: Int) -> DaemonError {
        DaemonError(.permissionDenied, "\(what) \(job) is another user's: only its own user or an administrator may stop it")
    }

    /// Whether client `client` may replace or delete what user `owner`
    /// made (a binding, a saved gesture): its own user, or an
    /// administrator. `nil`: what the configuration or an administrator
    /// made, which only an administrator may change.
    func mayChange(_ owner: UInt32?, client: Int) -> Bool {
        isAdministrator(client) || (owner != nil && clientUsers[client] == owner)
    }
}
