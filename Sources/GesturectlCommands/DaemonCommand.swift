import CommandKit
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureLibrary
import OperatingSystem

/// `daemon`: the long-running service for test rigs and switch users.
enum DaemonCommand {
    static let section = "Service"

    /// `daemon`'s options (its socket is the global `--socket`).
    enum Options {
        static let config: TypedOption<String?> = .string(
            "config", valueName: "file",
            help: "The configuration file (default: /etc/gesturectl/daemon.json as root; it may be missing).", completion: .files)
        static let library: TypedOption<String?> = .string(
            "library", valueName: "folder",
            help: "The folder of named gestures (default: the configuration's, else /var/lib/gesturectl/gestures for the system service, else your library).",
            completion: .directories)
        static let bindings: TypedOption<String?> = .string(
            "bindings", valueName: "file",
            help: "Where bindings changed over the socket are saved (default: /var/lib/gesturectl/bindings.json for the system service, else ~/.local/share/gesturectl/bindings.json).",
            completion: .files)
        static let writeDropIn: TypedOption<Bool> = .flag(
            "write-dropin", help: "Write the system service's drop-in for the configuration's outputs (the devices they need), then exit.")
        static let dropInFolder: TypedOption<String> = .string(
            "dropin-dir", valueName: "folder", help: "Where --write-dropin writes outputs.conf.", default: DaemonDropIn.defaultFolder,
            completion: .directories)
    }

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
            and members of the group are served. A socket folder that anyone
            but root and the daemon's user could write (unless it is sticky,
            as /tmp is) or that belongs to another user is refused.

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

            Live fingertips: the 'fingertips' request moves 2-10 virtual
            fingertips with one source device, as 'gesturectl fingertips'
            does, until a cancel of its job, the emergency stop, SIGTERM, the
            client's disconnect (unless it asked to keep them), the idle
            time or the source unplugged; one session per source. A binding's
            {"fingertips": {"count": 3}} toggles them: a press starts them,
            the next press of the same trigger stops them. Subscribers get
            'fingertips' events (ready, down, up, ended).

            The system service's devices: the shipped unit allows /dev/uinput
            and reading input devices only. --write-dropin writes
            /etc/systemd/system/gesturectl.service.d/outputs.conf (or into
            --dropin-dir) for the configuration's "outputs" (--config, else
            /etc/gesturectl/daemon.json): /dev/uhid for uhid, the gadget's
            /dev/hidgN for gadget, nothing more; then it exits. Run it again
            after changing "outputs", then 'systemctl daemon-reload' and
            'systemctl restart gesturectl.service'. An up-to-date drop-in is
            left as it is.

            Example:
              gesturectl daemon --socket /tmp/g.sock &
              gesturectl --socket /tmp/g.sock play pinch-in
              sudo gesturectl daemon --write-dropin
            """,
        section: section,
        options: [Options.config, Options.library, Options.bindings, Options.writeDropIn, Options.dropInFolder]
    ) { values, context in
        if values[Options.writeDropIn] {
            try DaemonDropIn.write(values, context: context)
            return
        }
        if values.isGiven(Options.dropInFolder) {
            throw CommandFailure.usage("--dropin-dir says where --write-dropin writes; add --write-dropin")
        }
        let service = DaemonService(
            options: DaemonService.Options(
                socket: values[Gesturectl.GlobalOptions.socket], configuration: values[Options.config],
                library: values[Options.library], bindings: values[Options.bindings], environment: context.environment,
                userLibrary: context.library,
                version: Gesturectl.version,
                // A regular file of at most 1 MiB, opened without following a
                // link or waiting on a FIFO (issue 36: /dev/zero was read to
                // 552 MB, a FIFO on SIGHUP blocked SIGTERM).
                readFile: { path in try context.readFile(path, limit: DaemonConfiguration.maximumFileBytes, regularOnly: true) }),
            engine: context.engine)
        do {
            try await service.run(signals: context.signals)
        } catch let error as DaemonError {
            throw DaemonFailure.failure(for: error)
        } catch let error as UnsafeSocketFolder {
            throw CommandFailure.failure(error.description)
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
