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

/// The daemon: a Unix socket server over the engine, for test rigs and
/// switch users (docs/PROTOCOL.md).
///
/// The socket (``SocketServer``: the I/O thread `gesturectl-io`, the
/// clients' buffers and limits) hands each request line over; the daemon
/// answers the quick operations at once, and starts plays and presses as
/// the engine's jobs on its ready devices (``GestureEngine/Engine/startPlay(_:job:handle:)``,
/// listed in ``GestureEngine/EngineJobs``): one after another on a device,
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
        /// The group id allowed to connect (`nil`: root and the daemon's own user only).
        public var allowedGroup: UInt32?
        /// The user the daemon runs as: always let in, and an administrator
        /// of its own daemon (a user instance serves its user whatever the
        /// groups). Tests give another.
        public var daemonUser: UInt32
        /// How much the daemon buffers for its clients.
        public var limits: Limits
        /// Where bindings changed over the socket are saved
        /// (`/var/lib/gesturectl/bindings.json` for the system service);
        /// `nil`: they last until the daemon stops.
        public var bindingsPath: String?

        /// Creates a set-up.
        public init(
            listening: FileDescriptor, createdSocketPath: String?, library: GestureLibrary,
            configuration: DaemonConfiguration, allowedGroup: UInt32?, bindingsPath: String? = nil, limits: Limits = Limits(),
            daemonUser: UInt32 = UserGroups.effectiveUserID
        ) {
            self.daemonUser = daemonUser
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
    private let engine: Engine
    private let log: DaemonLog
    /// The socket, its clients and the I/O thread.
    private let sockets: SocketServer
    /// The requests, the jobs and the ready devices.
    private let dispatcher: Dispatcher
    /// The bindings and their trigger watches.
    private let bindings: TriggerBindings
    /// The create flows and menus bindings start.
    private let assists: AssistRuns
    private let finished = JobHandle<Int32, Never>()

    /// Creates the server; nothing runs until ``start()``. Its ready
    /// devices are the engine's kept devices (an engine made with a
    /// ``GestureEngine/DeviceFactory`` of test doubles in tests), its
    /// recordings the engine's (reading the engine's
    /// ``GestureEngine/InputFactory``: test doubles in tests), and so are
    /// its trigger watches.
    public init(setup: Setup, engine: Engine, log: DaemonLog, version: String) throws(SystemError) {
        let sockets = try SocketServer(
            listening: setup.listening, createdSocketPath: setup.createdSocketPath, limits: setup.limits, log: log)
        let bindings = TriggerBindings(
            configuration: setup.configuration, path: setup.bindingsPath, engine: engine, log: log)
        let dispatcher = Dispatcher(
            engine: engine, log: log, version: version,
            state: ServerState(
                library: setup.library, configuration: setup.configuration, allowedGroup: setup.allowedGroup, daemonUser: setup.daemonUser),
            sockets: sockets, bindings: bindings)
        self.engine = engine
        self.log = log
        self.sockets = sockets
        self.bindings = bindings
        self.dispatcher = dispatcher
        assists = AssistRuns(
            engine: engine, version: version, log: log, context: { [dispatcher] in dispatcher.assistContext() },
            publish: { [sockets] line in sockets.broadcast(line.event, line.fields) })
    }

    /// Creates the ready devices, starts watching the bound triggers and
    /// starts the I/O thread. Returns once the daemon accepts requests.
    /// - Throws: ``OperatingSystem/SystemError`` when a device or a thread
    ///   cannot be made (no uinput, no access).
    public func start() throws {
        try dispatcher.startReadyDevices()
        try dispatcher.startServing()
        try bindings.start(
            TriggerBindings.Actions(
                gestureProblem: { [dispatcher] name in dispatcher.gestureProblem(name) },
                publish: { [sockets] event, user in sockets.broadcast(type(of: event).event, to: user, event.fields) },
                forward: { [assists] press, key in assists.forward(press, on: key) },
                operates: { [assists] key in assists.isOperated(by: key) },
                emergencyStop: { [self] reason in emergencyStop(because: reason) },
                queue: { [dispatcher] action in try dispatcher.queueBound(action) },
                startCreate: { [assists] action, key in try assists.startCreate(action, operatedBy: key) },
                startMenu: { [assists] action, key in try assists.startMenu(action, operatedBy: key) },
                toggleFingertips: { [dispatcher] action, trigger in try dispatcher.toggleFingertips(action, trigger: trigger) }))
        do {
            try sockets.start(
                SocketServer.Handlers(
                    refusal: { [dispatcher] peer in dispatcher.refusal(of: peer) },
                    connected: { [dispatcher] client, peer in dispatcher.clientConnected(client, peer: peer) },
                    line: { [dispatcher] line, client in dispatcher.route(line, from: client) },
                    disconnected: { [dispatcher] client in dispatcher.clientLeft(client) },
                    cutOff: { [dispatcher] client in dispatcher.clientCutOff(client) },
                    paused: { [dispatcher] client in dispatcher.isBacklogged(client) }),
                finished: { [finished] in finished.finish(0) })
        } catch {
            bindings.stop()
            throw error
        }
    }

    /// The unread input the daemon holds for all its clients (incomplete
    /// lines), in bytes: bounded by ``Limits/inputBudgetBytes`` plus
    /// ``Limits/freeInputBytes`` per client.
    public var bufferedInputBytes: Int { sockets.bufferedInputBytes }

    /// The replies and events the daemon holds for its clients, unread, in
    /// bytes: past ``Limits/totalReplyBytes`` the clients that do not read
    /// and hold the most are disconnected.
    public var pendingOutputBytes: Int { sockets.pendingOutputBytes }

    /// Waits until the server has stopped (after ``stop()``).
    public func stopped() async -> Int32 { await finished.finished() }

    /// Stops: refuses new work, cancels every job (each lifts every finger),
    /// waits for them, destroys the virtual devices, closes the clients and
    /// removes the socket file it created. Safe from any thread; later calls
    /// do nothing.
    public func stop() {
        guard dispatcher.beginStopping() else { return }
        sockets.stopListening()
        // What waits is answered busy; a request being served is not waited
        // for (its reply, if it comes, goes nowhere once the clients close).
        dispatcher.stopServing()
        bindings.stop()
        assists.stop()
        dispatcher.endJobs()
        engine.closeKeptDevices()
        // Every reply of the cancelled jobs is queued by now: the I/O thread
        // may finish once they are written.
        sockets.finish()
    }

    /// Applies a new configuration (SIGHUP): the group and queue limit at
    /// once; devices added are created, devices removed are closed.
    public func reload(_ configuration: DaemonConfiguration, allowedGroup: UInt32?, library: GestureLibrary) {
        dispatcher.reload(configuration, allowedGroup: allowedGroup, library: library)
        bindings.reconfigure(configuration)
        log.notice("configuration reloaded: devices \(configuration.readyDevices.map(\.description).joined(separator: ", "))")
    }

    /// The emergency stop (a trigger held): the running create flow or menu
    /// lifts what it played and ends its recording itself; every job is
    /// cancelled and every key released (``Dispatcher/emergencyStop(because:)``).
    private func emergencyStop(because reason: String) {
        assists.cancelRunning()
        dispatcher.emergencyStop(because: reason)
    }

    // MARK: Devices and their threads

    /// The ready device of a kind through uinput
    /// (``GestureEngine/Engine/builtinReadyProfile(kind:)``; the
    /// configuration and `play`'s "as" only let the four playable kinds and
    /// the keyboard through, anything else is the touchscreen).
    public static func profile(for kind: DeviceKind) -> VirtualDeviceProfile {
        // Harmless: only a kind that plays nothing throws, which the configuration and "as" never let through; it is the touchscreen, as said above.
        (try? Engine.builtinReadyProfile(kind: kind)) ?? .touchscreen()
    }

    /// The I/O thread: named `gesturectl-io`.
    public static let ioThread = SocketServer.ioThread

    /// The thread that plays a ready device's queue
    /// (``GestureEngine/Engine/queueThread(_:_:)``): `gesturectl-q-ts`
    /// through uinput, `gesturectl-h-ts` through uhid, `gesturectl-g-ts`
    /// through a gadget.
    public static func workerThread(for device: ReadyDevice) -> ThreadOptions {
        Engine.queueThread(device.kind, device.output)
    }
}
