import GestureBindings
import GestureEngine
import GestureLibrary
import GestureProtocol
import OperatingSystem

/// The daemon as a service: everything between "run the daemon with these
/// options" and "it has stopped" — the socket (handed over by socket
/// activation, or made at its path with its mode and group), the
/// configuration and its reload on SIGHUP, the server, readiness and
/// stopping through the service manager (sd_notify), and the log lines
/// that go with them. `gesturectl daemon` parses its options into
/// ``Options``, runs the service, and turns what it throws into messages
/// and exit statuses.
public final class DaemonService: Sendable {
    /// What the daemon is started with: the command line's options and the
    /// process's environment.
    public struct Options: Sendable {
        /// `--socket`: the path to listen on (else as ``DaemonPaths/serverSocket(option:environment:isRoot:isSocketActivated:)``).
        public var socket: String?
        /// `--config`: a configuration file that must exist (else
        /// ``DaemonPaths/systemConfiguration`` for the system service, which may be missing).
        public var configuration: String?
        /// `--library`: the folder of named gestures.
        public var library: String?
        /// `--bindings`: where bindings changed over the socket are saved.
        public var bindings: String?
        /// The process's environment.
        public var environment: [String: String]
        /// The caller's own library (a user instance's gestures, the built-in ones).
        public var userLibrary: GestureLibrary
        /// The version the daemon reports.
        public var version: String
        /// Reads a file given on the command line (the configuration), its
        /// errors naming it as given.
        public var readFile: @Sendable (String) throws -> [UInt8]
        /// Tells the service manager a state (``OperatingSystem/ServiceManager/notify(_:)``).
        public var notify: @Sendable (String) throws -> Bool

        /// Creates options.
        public init(
            socket: String? = nil, configuration: String? = nil, library: String? = nil, bindings: String? = nil,
            environment: [String: String], userLibrary: GestureLibrary, version: String,
            readFile: @escaping @Sendable (String) throws -> [UInt8],
            notify: @escaping @Sendable (String) throws -> Bool = { state in try ServiceManager.notify(state) }
        ) {
            self.socket = socket
            self.configuration = configuration
            self.library = library
            self.bindings = bindings
            self.environment = environment
            self.userLibrary = userLibrary
            self.version = version
            self.readFile = readFile
            self.notify = notify
        }
    }

    let options: Options
    let engine: Engine
    let log: DaemonLog
    /// Whether the daemon runs as root (the system service's defaults).
    let isRoot: Bool

    /// Creates the service; nothing happens until ``run(signals:)``. Its
    /// devices are the engine's (an engine over test doubles in tests); the
    /// log goes to standard error, with journal priorities under systemd.
    public init(
        options: Options, engine: Engine, log: DaemonLog? = nil,
        isRoot: Bool = UserGroups.effectiveUserID == 0
    ) {
        self.options = options
        self.engine = engine
        self.log = log ?? DaemonLog(journal: ServiceManager.logsToJournal(environment: options.environment))
        self.isRoot = isRoot
    }

    /// Runs the daemon until SIGTERM or SIGINT (from `signals`) stops it;
    /// SIGHUP reloads the configuration meanwhile. Returns once it has
    /// stopped: jobs cancelled, devices destroyed, the socket it made removed.
    /// - Throws: ``DaemonError`` for a configuration with errors or no
    ///   socket path; ``OperatingSystem/UnsafeSocketFolder`` for a socket
    ///   folder, or a folder above it, that others could change; what reading the configuration, making
    ///   the socket or the ready devices throws.
    public func run(signals: SignalRouter) async throws {
        let activated = try ServiceManager.listeningDescriptors()
        let systemInstance = isRoot || !activated.isEmpty
        let configurationPath = options.configuration ?? (systemInstance ? DaemonPaths.systemConfiguration : nil)
        let configuration = try loadConfiguration(configurationPath, required: options.configuration != nil)

        let listening: FileDescriptor
        var createdPath: String?
        if let handed = activated.first {
            listening = handed
            log.info("listening on the socket systemd handed over")
        } else {
            let path = try DaemonPaths.serverSocket(
                option: options.socket, environment: options.environment, isRoot: isRoot, isSocketActivated: false)
            listening = try makeSocket(at: path, group: configuration.group)
            createdPath = path
        }
        let server = try DaemonServer(
            setup: DaemonServer.Setup(
                listening: listening, createdSocketPath: createdPath, library: library(for: configuration, systemInstance: systemInstance),
                configuration: configuration, allowedGroup: try UserGroups.groupID(named: configuration.group),
                bindingsPath: options.bindings
                    ?? (systemInstance ? DaemonPaths.systemBindings : DaemonPaths.userBindings(environment: options.environment)),
                limits: DaemonServer.Limits(
                    replyBufferBytes: configuration.replyLimitMiB << 20, totalReplyBytes: configuration.replyTotalMiB << 20,
                    userReplyBytes: configuration.replyUserMiB << 20)),
            engine: engine, log: log, version: options.version)
        do {
            try server.start()
        } catch {
            // Harmless: the error thrown is the one to tell; a socket file left is stale, and the next listen removes it.
            if let createdPath { try? FileSystem.unlink(createdPath) }
            listening.close()
            throw error
        }
        let subscription = signals.subscribe { [self] signal in
            if signal == SignalMask.hangUp {
                reload(server, path: configurationPath, systemInstance: systemInstance)
            } else {
                tellServiceManager("STOPPING=1", what: "the daemon is stopping")
                log.notice("\(SignalMask.name(of: signal) == "INT" ? "interrupted" : "SIG" + SignalMask.name(of: signal)): stopping")
                server.stop()
            }
        }
        defer { subscription.cancel() }
        log.notice("ready: listening on \(createdPath ?? "the activated socket"), devices \(configuration.devices.map(\.rawValue).joined(separator: ", "))")
        tellServiceManager("READY=1\nSTATUS=ready: \(configuration.devices.count) devices", what: "the daemon is ready")
        _ = await server.stopped()
    }

    /// Tells the service manager `state`; a failure is logged (a service of
    /// Type=notify that is never told READY=1 is stopped when its start
    /// times out, and the log should say why).
    private func tellServiceManager(_ state: String, what: String) {
        do {
            _ = try options.notify(state)
        } catch {
            log.warning("cannot tell the service manager \(what) (\(error))")
        }
    }

    /// The configuration at `path`; the defaults when no path is given, or
    /// when the default file is missing.
    func loadConfiguration(_ path: String?, required: Bool) throws -> DaemonConfiguration {
        guard let path else { return DaemonConfiguration() }
        if !required && !Paths.exists(path) { return DaemonConfiguration() }
        let bytes = try options.readFile(path)
        return try DaemonConfiguration.parse(bytes, path: path)
    }

    /// The library: `--library`, else the configuration's, else the system
    /// library for the system service, else the caller's.
    func library(for configuration: DaemonConfiguration, systemInstance: Bool) -> GestureLibrary {
        var library = options.userLibrary
        if let folder = options.library ?? configuration.library ?? (systemInstance ? DaemonPaths.systemLibrary : nil) {
            library.userDirectory = folder
            // Shared by the daemon's members, as before (each file is its member's).
            library.folderPermissions = 0o755
        }
        return library
    }

    /// SIGHUP: the configuration again; one with errors is reported and the old one kept.
    private func reload(_ server: DaemonServer, path: String?, systemInstance: Bool) {
        do {
            let configuration = try loadConfiguration(path, required: false)
            server.reload(
                configuration, allowedGroup: try UserGroups.groupID(named: configuration.group),
                library: library(for: configuration, systemInstance: systemInstance))
        } catch {
            let message = (error as? DaemonError)?.message ?? "\(error)"
            log.error("the configuration was not reloaded (the previous one stays): \(message)")
        }
    }

    /// The listening socket at `path`: 0660 with the group when it exists;
    /// 0600 and a warning otherwise. Made only in a folder no one but root
    /// and the daemon's user can change, nor any folder above it from `/`
    /// (``OperatingSystem/SocketFolder``), through the checked folder's
    /// descriptor, and born with its mode and group
    /// (``OperatingSystem/UnixSocket/listen(in:access:backlog:)``): a root
    /// daemon that set them by path afterwards gave them to whatever a
    /// local user had put at the path meanwhile, and one that checked only
    /// the socket's own folder, by name, made the socket in another user's
    /// folder when that user swapped in a link or owned a parent.
    private func makeSocket(at path: String, group: String) throws -> FileDescriptor {
        // Harmless: a folder that exists is fine; one that cannot be made is named by openFolder or listen below.
        if path == DaemonPaths.systemSocket { try? FileSystem.makeDirectory("/run/gesturectl", permissions: 0o755) }
        let folder = try UnixSocket.openFolder(of: path)
        if let groupID = try UserGroups.groupID(named: group) {
            return try UnixSocket.listen(in: folder, access: SocketAccess(permissions: 0o660, group: groupID))
        }
        let listening = try UnixSocket.listen(in: folder, access: SocketAccess(permissions: 0o600, group: nil))
        log.warning("there is no group \"\(group)\": the socket is 0600, for its owner only (create the group: see the README)")
        return listening
    }
}
