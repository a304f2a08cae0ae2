import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import OperatingSystem
import Synchronization

/// The daemon: a Unix socket server over the engine, for test rigs and
/// switch users (docs/PROTOCOL.md).
///
/// The socket (``SocketServer``: the I/O thread `gesturectl-io`, the
/// clients' buffers and limits) hands each request line over; the daemon
/// answers the quick operations at once, and queues plays and presses on
/// the ready devices' queues, which the engine owns
/// (``GestureEngine/PlayQueue``): one request after another on a device,
/// so plays on one device never interleave and different devices play in
/// parallel. Every connection's peer is checked when it connects (root, or
/// a member of the configured group).
public final class DaemonServer: Sendable {
    /// What the daemon was started with.
    public struct Setup: Sendable {
        /// The listening socket (made by ``OperatingSystem/UnixSocket/listen(at:backlog:)``
        /// or handed over by socket activation).
        public var listening: FileDescriptor
        /// The socket file to remove when stopping: set when the daemon created it.
        public var createdSocketPath: String?
        /// The library of named gestures.
        public var library: GestureLibrary
        /// The configuration.
        public var configuration: DaemonConfiguration
        /// The group id allowed to connect (`nil`: root only).
        public var allowedGroup: UInt32?
        /// How much the daemon buffers for its clients.
        public var limits: Limits
        /// Where bindings changed over the socket are saved
        /// (`/var/lib/gesturectl/bindings.json` for the system service);
        /// `nil`: they last until the daemon stops.
        public var bindingsPath: String?

        /// Creates a set-up.
        public init(
            listening: FileDescriptor, createdSocketPath: String?, library: GestureLibrary,
            configuration: DaemonConfiguration, allowedGroup: UInt32?, bindingsPath: String? = nil, limits: Limits = Limits()
        ) {
            self.listening = listening
            self.createdSocketPath = createdSocketPath
            self.library = library
            self.configuration = configuration
            self.allowedGroup = allowedGroup
            self.bindingsPath = bindingsPath
            self.limits = limits
        }
    }

    /// The daemon's bounds on what it holds for its clients.
    public typealias Limits = ClientLimits

    /// The daemon's protocol version (`version`'s `protocol`).
    public static let protocolVersion = 1
    let engine: Engine
    /// Held while a ready device is made after start (``readyQueue(_:)``).
    private let lateStart = Mutex(())
    let recordings: RecordingProvider
    let log: DaemonLog
    let version: String
    let state: Mutex<ServerState>
    /// The socket, its clients and the I/O thread.
    let sockets: SocketServer
    let bindingsPath: String?
    let triggers: TriggerWatcher
    let finished = JobHandle<Int32, Never>()
    /// Library gestures already read, while their files are unchanged.
    let gestureCache = GestureCache()
    /// Signalled when the last job ends while stopping.
    let jobsEnded = Semaphore(value: 0)

    /// Creates the server; nothing runs until ``start()``. Its ready
    /// devices are the engine's kept devices (an engine made with a
    /// ``GestureEngine/DeviceFactory`` of test doubles in tests), recordings
    /// come from `recordings` (by default the engine reading input devices),
    /// trigger watches from `triggers` (by default the engine's, on real devices).
    public init(
        setup: Setup, engine: Engine, recordings: RecordingProvider? = nil,
        triggers: TriggerWatcher? = nil, log: DaemonLog, version: String
    ) throws(SystemError) {
        self.engine = engine
        self.recordings = recordings ?? .engine(engine)
        self.triggers = triggers ?? .engine(engine)
        bindingsPath = setup.bindingsPath
        self.log = log
        self.version = version
        sockets = try SocketServer(
            listening: setup.listening, createdSocketPath: setup.createdSocketPath, limits: setup.limits, log: log)
        state = Mutex(
            ServerState(
                library: setup.library, configuration: setup.configuration, allowedGroup: setup.allowedGroup))
    }

    /// Creates the ready devices and starts the I/O thread. Returns once the
    /// daemon accepts requests.
    /// - Throws: ``OperatingSystem/SystemError`` when a device or a thread
    ///   cannot be made (no uinput, no access).
    public func start() throws {
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
        try sockets.start(
            SocketServer.Handlers(
                refusal: { [self] peer in refusal(of: peer) },
                connected: { [self] client in state.withLock { _ = $0.liveClients.insert(client) } },
                line: { [self] line, client in handleLine(line, from: client) },
                disconnected: { [self] client in clientLeft(client) }),
            finished: { [finished] in finished.finish(0) })
        startTriggers()
    }

    /// The unread input the daemon holds for all its clients (incomplete
    /// lines), in bytes: bounded by ``Limits/inputBudgetBytes`` plus
    /// ``Limits/freeInputBytes`` per client.
    public var bufferedInputBytes: Int { sockets.bufferedInputBytes }

    /// Why a peer may not use the daemon: it is neither root nor in the
    /// configured group.
    private func refusal(of peer: PeerCredentials) -> DaemonError? {
        state.withLock { current in
            peer.isRootOrMember(of: current.allowedGroup)
                ? nil
                : DaemonError(
                    .permissionDenied,
                    "user \(peer.userID) may not use this daemon: only root and members of group \"\(current.configuration.group)\" may")
        }
    }

    /// A client went away: its jobs' `on_disconnect`, its held keys, its
    /// recording. How many jobs were cancelled.
    private func clientLeft(_ client: Int) -> Int {
        let cancelled = state.withLock { current in
            current.liveClients.remove(client)
            return current.jobs.values.filter { $0.clientID == client && $0.cancelOnDisconnect }.map(\.handle)
        }
        for handle in cancelled { handle.cancel() }
        releaseHeldKeys(of: client)
        recordingClientLeft(client)
        return cancelled.count
    }

    /// Waits until the server has stopped (after ``stop()``).
    public func stopped() async -> Int32 { await finished.finished() }

    /// Stops: refuses new work, cancels every job (each lifts every finger),
    /// waits for them, destroys the virtual devices, closes the clients and
    /// removes the socket file it created. Safe from any thread; later calls
    /// do nothing.
    public func stop() {
        let (first, running, queues) = state.withLock { current -> (Bool, [JobHandle<PlaybackResult, PlaybackProgress>], [PlayQueue]) in
            if current.stopping { return (false, [], []) }
            current.stopping = true
            return (true, current.jobs.values.map(\.handle), Array(current.queues.values))
        }
        guard first else { return }
        sockets.stopListening()
        cancelTriggerWatches()
        stopAssist()
        log.notice("stopping: cancelling \(running.count) job(s)")
        for handle in running { handle.cancel() }
        // Queued jobs end at once, cancelled before they started.
        for queue in queues { queue.retire() }
        // Wait until every job has ended and queued its reply (not only
        // until the players stopped: the replies come after).
        if state.withLock({ !$0.jobs.isEmpty }) { jobsEnded.wait() }
        stopRecordingForShutdown()
        releaseAllHeldKeys()
        engine.closeKeptDevices()
        // Every reply of the cancelled jobs is queued by now: the I/O thread
        // may finish once they are written.
        sockets.finish()
    }

    /// Applies a new configuration (SIGHUP): the group and queue limit at
    /// once; devices added are created, devices removed are closed.
    public func reload(_ configuration: DaemonConfiguration, allowedGroup: UInt32?, library: GestureLibrary) {
        gestureCache.clear()
        let (added, removed) = state.withLock { current -> ([ReadyDevice], [ReadyDevice]) in
            let old = current.configuration.readyDevices
            current.configuration = configuration
            current.allowedGroup = allowedGroup
            current.library = library
            let new = configuration.readyDevices
            return (new.filter { !old.contains($0) }, old.filter { !new.contains($0) })
        }
        for device in added {
            do { try startDevice(device) } catch { log.error("cannot create the \(device): \(error)") }
        }
        for device in removed {
            guard let queue = state.withLock({ $0.queues.removeValue(forKey: device) }) else { continue }
            // Its waiting plays end cancelled; the device goes once the
            // running one has ended.
            queue.retire { [engine] in engine.forgetDevice(queue.profile, output: queue.output) }
        }
        syncTriggerWatches()
        log.notice("configuration reloaded: devices \(configuration.readyDevices.map(\.description).joined(separator: ", "))")
    }

    // MARK: Devices and their workers

    /// The ready device of a kind through uinput
    /// (``GestureEngine/Engine/builtinReadyProfile(kind:)``; the
    /// configuration and `play`'s "as" only let the four playable kinds and
    /// the keyboard through, anything else is the touchscreen).
    public static func profile(for kind: DeviceKind) -> VirtualDeviceProfile {
        (try? Engine.builtinReadyProfile(kind: kind)) ?? .touchscreen()
    }

    /// The queue of a ready device, made now when the configuration names
    /// it but it could not be made at start (a HID output's device: a
    /// gadget whose host was not plugged in). One at a time: a play that
    /// finds it being made waits for that.
    /// - Throws: `not-found` when the configuration does not name it or it
    ///   still cannot be made (saying why).
    func readyQueue(_ device: ReadyDevice) throws(DaemonError) -> PlayQueue {
        if let queue = state.withLock({ $0.queues[device] }), !queue.isRetired { return queue }
        guard state.withLock({ $0.configuration.readyDevices.contains(device) && !$0.stopping }) else {
            throw Self.notReady(device)
        }
        return try lateStart.withLock { _ throws(DaemonError) -> PlayQueue in
            if let queue = state.withLock({ $0.queues[device] }), !queue.isRetired { return queue }
            do {
                try startDevice(device)
            } catch {
                throw DaemonError(.notFound, "the \(device) is not ready: \(DaemonLog.oneLine(String(describing: error)))")
            }
            guard let queue = state.withLock({ $0.queues[device] }) else { throw Self.notReady(device) }
            return queue
        }
    }

    private func startDevice(_ device: ReadyDevice) throws {
        let profile = try engine.readyProfile(kind: device.kind, output: device.output)
        let session = try engine.readyDevice(profile, output: device.output)
        log.info("ready: \(device) at \(session.devnode ?? "?")")
        let queue = engine.queue(for: profile, output: device.output)
        queue.observeRemade { [self] session, error in
            log.warning("the \(device) vanished (\(error)); making it again")
            broadcast(.device, Self.deviceFields(device, node: session?.devnode, state: .recreated))
        }
        state.withLock { $0.queues[device] = queue }
        broadcast(.device, Self.deviceFields(device, node: session.devnode, state: .added))
    }

    /// The fields of a `device` event: kind, node, state, and the output
    /// when it is not uinput.
    static func deviceFields(_ device: ReadyDevice, node: String?, state: DeviceEventState) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("kind", .string(device.kind.rawValue)), ("node", node.map(JSONValue.string) ?? .null)]
        if device.output != .uinput { fields.append(("to", .string(device.output.word))) }
        fields.append(("state", .string(state.rawValue)))
        return fields
    }

    /// The I/O thread: named `gesturectl-io`.
    public static let ioThread = SocketServer.ioThread

    /// The thread that starts an idle ready device's next play
    /// (``GestureEngine/Engine/queueThread(_:_:)``): `gesturectl-q-ts`
    /// through uinput, `gesturectl-h-ts` through uhid, `gesturectl-g-ts`
    /// through a gadget.
    public static func workerThread(for device: ReadyDevice) -> ThreadOptions {
        Engine.queueThread(device.kind, device.output)
    }

    // MARK: Output to clients

    /// Queues a reply for a client.
    func reply(_ clientID: Int, _ line: String) { sockets.reply(clientID, line) }

    /// Pushes an event to its subscribers.
    func broadcast(_ event: DaemonEvent, _ fields: [(String, JSONValue)]) { sockets.broadcast(event, fields) }
}

/// A play, from the request to its end.
struct JobRecord: Sendable {
    enum State: String, Sendable { case queued, running, done, cancelled, failed }

    let id: Int
    let kind: DeviceKind
    /// How its device is made.
    var output: PlayOutput = .uinput
    let clientID: Int
    let requestID: JSONValue
    let waits: Bool
    let cancelOnDisconnect: Bool
    let handle: JobHandle<PlaybackResult, PlaybackProgress>
    /// A press of a key on the keyboard instead of a play: DaemonServer+Press.swift.
    var press: KeyPress? = nil
    var state: State = .queued
    /// The node of the device it played on, once it runs.
    var devnode: String?

    /// The ready device it plays on.
    var device: ReadyDevice { ReadyDevice(kind: kind, output: output) }
}

/// Everything the server's threads share, behind one lock.
struct ServerState: Sendable {
    var library: GestureLibrary
    var configuration: DaemonConfiguration
    var allowedGroup: UInt32?
    /// The clients connected (let in, not yet gone).
    var liveClients: Set<Int> = []
    var jobs: [Int: JobRecord] = [:]
    /// The engine's queue of each ready device.
    var queues: [ReadyDevice: PlayQueue] = [:]
    var nextJobID = 0
    var stopping = false
    /// The keys each client holds down with `press` `down`.
    var heldKeys = HeldKeys()
    /// The custom actions: saved bindings and trigger watches (DaemonServer+Bindings.swift).
    var triggers = TriggerState()
    /// The one recording, until collected: DaemonServer+Record.swift.
    var recording: RecordingRecord?
    /// The create flow or menu a binding started, while it runs: DaemonServer+Create.swift.
    var assist: AssistRun?
    var nextAssistID = 0
}
