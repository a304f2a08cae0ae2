import CommandKit
import GestureDaemon
import GestureEngine
import GestureLibrary
import OperatingSystem

/// `daemon`: the long-running service for test rigs and switch users.
enum DaemonCommand {
    static let section = "Service"

    static let command = Command(
        name: "daemon", abstract: "Run the service: ready virtual devices and a socket that plays gestures on request.",
        discussion: """
            Keeps a virtual touchscreen, touchpad, mouse, tablet and keyboard ready and
            answers requests on a Unix socket (newline-delimited JSON,
            docs/PROTOCOL.md) from test rigs, scripts in any language, and
            'gesturectl --socket PATH COMMAND'. Plays on one device run one
            after another; different devices play in parallel; a cancel, a
            client that goes away, SIGTERM or an error lifts every finger.

            The socket is --socket, else $GESTURECTL_SOCKET, else
            /run/gesturectl/gesturectl.sock as root or socket-activated, else
            $XDG_RUNTIME_DIR/gesturectl.sock. It is made 0660 with the group
            'gesturectl' (0600 and a warning without that group); only root
            and members of the group are served.

            SIGTERM (or Ctrl-C) stops: jobs are cancelled, devices destroyed,
            the socket removed, exit status 0. SIGHUP reloads the
            configuration (a configuration with errors is reported and the
            previous one kept). Under systemd it reports readiness with
            sd_notify (Type=notify) and takes a socket-activated socket.

            Custom actions: a key or switch on an input device (by a by-id
            link, its name or vendor:product) bound to a gesture or a button
            for a single, double or long press, in the configuration's
            "bindings" or with 'bind' over the socket (saved in
            /var/lib/gesturectl/bindings.json, for a user instance in
            ~/.local/share/gesturectl/bindings.json). Holding a trigger 3 s
            is the emergency stop: every job cancelled, every key released.

            Example:
              gesturectl daemon --socket /tmp/g.sock &
              gesturectl --socket /tmp/g.sock play pinch-in
            """,
        section: section,
        options: [
            .option("config", valueName: "file", help: "The configuration file (default: /etc/gesturectl/daemon.json as root; it may be missing).", completion: .files),
            .option("library", valueName: "folder", help: "The folder of named gestures (default: the configuration's, else /var/lib/gesturectl/gestures for the system service, else your library).", completion: .directories),
            .option("bindings", valueName: "file", help: "Where bindings changed over the socket are saved (default: /var/lib/gesturectl/bindings.json for the system service, else ~/.local/share/gesturectl/bindings.json).", completion: .files),
        ]
    ) { values, context in
        let environment = context.environment
        let isRoot = UserGroups.effectiveUserID == 0
        let activated = try ServiceManager.listeningDescriptors()
        let configurationPath = values.string("config") ?? (isRoot || !activated.isEmpty ? DaemonPaths.systemConfiguration : nil)
        let configuration = try loadConfiguration(configurationPath, required: values.isGiven("config"), context: context)
        let log = DaemonLog(journal: ServiceManager.logsToJournal(environment: environment))

        let listening: FileDescriptor
        var createdPath: String?
        if let handed = activated.first {
            listening = handed
            log.info("listening on the socket systemd handed over")
        } else {
            let path = try daemonCall {
                () throws(DaemonError) in
                try DaemonPaths.serverSocket(
                    option: values.string("socket"), environment: environment, isRoot: isRoot, isSocketActivated: false)
            }
            if path == DaemonPaths.systemSocket { try? FileSystem.makeDirectory("/run/gesturectl", permissions: 0o755) }
            listening = try UnixSocket.listen(at: path)
            createdPath = path
            try secure(path, group: configuration.group, log: log)
        }
        let systemInstance = isRoot || !activated.isEmpty
        let libraryFolder = values.string("library") ?? configuration.library ?? (systemInstance ? DaemonPaths.systemLibrary : nil)
        var library = context.library
        if let libraryFolder { library.userDirectory = libraryFolder }
        let server = try DaemonServer(
            setup: DaemonServer.Setup(
                listening: listening, createdSocketPath: createdPath, library: library, configuration: configuration,
                allowedGroup: try UserGroups.groupID(named: configuration.group),
                bindingsPath: values.string("bindings")
                    ?? (systemInstance ? DaemonPaths.systemBindings : DaemonPaths.userBindings(environment: environment))),
            engine: context.engine, log: log, version: Gesturectl.version)
        do {
            try server.start()
        } catch {
            if let createdPath { try? FileSystem.unlink(createdPath) }
            listening.close()
            throw error
        }
        let subscription = Gesturectl.signals.subscribe { signal in
            if signal == SignalMask.hangUp {
                reload(server, path: configurationPath, libraryOption: values.string("library"), systemInstance: systemInstance, context: context, log: log)
            } else {
                _ = try? ServiceManager.notify("STOPPING=1")
                log.notice("\(SignalMask.name(of: signal) == "INT" ? "interrupted" : "SIG" + SignalMask.name(of: signal)): stopping")
                server.stop()
            }
        }
        defer { subscription.cancel() }
        log.notice("ready: listening on \(createdPath ?? "the activated socket"), devices \(configuration.devices.map(\.rawValue).joined(separator: ", "))")
        _ = try? ServiceManager.notify("READY=1\nSTATUS=ready: \(configuration.devices.count) devices")
        _ = await server.stopped()
    }

    /// The configuration at `path`; the defaults when no path is given, or
    /// when the default file is missing.
    private static func loadConfiguration(_ path: String?, required: Bool, context: CommandContext) throws -> DaemonConfiguration {
        guard let path else { return DaemonConfiguration() }
        if !required && !Paths.exists(path) { return DaemonConfiguration() }
        let bytes = try context.readFile(path)
        return try daemonCall { () throws(DaemonError) in try DaemonConfiguration.parse(bytes, path: path) }
    }

    /// SIGHUP: the configuration again; one with errors is reported and the old one kept.
    private static func reload(
        _ server: DaemonServer, path: String?, libraryOption: String?, systemInstance: Bool, context: CommandContext,
        log: DaemonLog
    ) {
        do {
            let configuration = try loadConfiguration(path, required: false, context: context)
            var library = context.library
            if let folder = libraryOption ?? configuration.library ?? (systemInstance ? DaemonPaths.systemLibrary : nil) {
                library.userDirectory = folder
            }
            server.reload(configuration, allowedGroup: try UserGroups.groupID(named: configuration.group), library: library)
        } catch {
            log.error("the configuration was not reloaded (the previous one stays): \(error)")
        }
    }

    /// 0660 with the group when it exists; 0600 and a warning otherwise.
    private static func secure(_ path: String, group: String, log: DaemonLog) throws {
        if let groupID = try UserGroups.groupID(named: group) {
            try UserGroups.setOwnership(path, group: groupID, permissions: 0o660)
        } else {
            try UserGroups.setOwnership(path, group: nil, permissions: 0o600)
            log.warning("there is no group \"\(group)\": the socket is 0600, for its owner only (create the group: see the README)")
        }
    }

    static func daemonCall<Result>(_ body: () throws(DaemonError) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw DaemonFailure.failure(for: error)
        }
    }
}

/// Daemon errors as command failures with the documented exit statuses.
enum DaemonFailure {
    static func failure(for error: DaemonError) -> CommandFailure {
        switch error.code {
        case .badArgument, .unknownOp, .malformedJSON: .usage(error.message)
        case .notFound: .notFound(error.message)
        case .permissionDenied: .permissionDenied(error.message)
        case .busy: CommandFailure(status: .daemonUnavailable, message: error.message)
        case .cancelled: CommandFailure(status: .interrupted, message: error.message)
        default: .failure(error.message)
        }
    }
}
