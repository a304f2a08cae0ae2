import CommandKit
import GestureEngine
import OperatingSystem

/// The `gesturectl` command-line tool: every command, its help and its
/// exit statuses.
public enum Gesturectl {
    /// The version `--version` prints and recordings store.
    public static let version = "0.1.0"

    /// The tool with all its commands.
    public static var tool: Tool {
        Tool(
            name: "gesturectl", version: version,
            abstract: "Record, merge, edit, draw and replay touch gestures.",
            discussion: """
                A gesture is a set of strokes (fingers, pens, pointer drags) on a
                timeline, stored as a versioned text file (docs/FORMAT.md).
                Wherever a command takes NAME|FILE: '-' is standard input; an
                argument that contains '/' or names an existing file is a file;
                anything else is a name in the library (see 'gesturectl list').
                """,
            globalOptions: [GlobalOptions.socket, GlobalOptions.daemon],
            commands: [
                SynthCommand.command, EditCommands.merge, EditCommands.fingers, EditCommands.transform,
                InspectCommands.describeCommand, InspectCommands.show, InspectCommands.render, InspectCommands.validate,
                DevicesCommand.command, RecordCommand.command, PlayCommand.command, PressCommand.command, FingertipsCommand.command, GadgetCommand.command, InteropCommands.importCommand, InteropCommands.exportCommand,
                LibraryCommands.save, LibraryCommands.list, LibraryCommands.rename, LibraryCommands.remove,
                DaemonCommand.command, CreateCommand.command, MenuCommand.command, PackagingCommands.completions,
                PackagingCommands.manpages,
            ],
            mapError: { ErrorMapping.failure(for: $0) }
        )
    }

    /// The options every command takes: the daemon to go through.
    enum GlobalOptions {
        /// `--socket PATH`: the daemon's socket (also `$GESTURECTL_SOCKET`).
        static let socket: TypedOption<String?> = .string(
            "socket", valueName: "path",
            help: "The daemon's socket: 'daemon' listens on it; play, press, record, fingertips, list, show, save, rm and devices go through the daemon listening there (also $GESTURECTL_SOCKET).",
            completion: .files)
        /// `--daemon`: the daemon at its default socket.
        static let daemon: TypedOption<Bool> = .flag(
            "daemon", help: "Go through the daemon at its default socket ($XDG_RUNTIME_DIR/gesturectl.sock if it exists, else /run/gesturectl/gesturectl.sock).")
    }

    /// Blocks SIGINT, SIGTERM and SIGHUP and ignores SIGPIPE, starts the
    /// signal thread (see ``GestureEngine/SignalRouter``), and returns the
    /// process's services: that router and an engine over the system's
    /// devices. The executable calls it first thing, on the main thread,
    /// before any other thread exists (so from synchronous code: see
    /// ``runAsProcess(_:)``).
    public static func prepareProcess() -> GesturectlServices {
        let signals = SignalRouter()
        do {
            try SignalRouter.prepareProcess()
            try signals.start()
        } catch {
            // Without the signal thread the signals must keep their default
            // actions, or Ctrl-C would be ignored.
            // Harmless: pthread_sigmask fails only for an invalid `how` (EINVAL), which this call never passes.
            try? SignalMask.unblock(SignalMask.handled)
            FileDescriptor.standardError.writeAllIgnoringErrors(
                Array("gesturectl: warning: signals cannot be handled (\(error)); Ctrl-C ends at once\n".utf8))
        }
        return GesturectlServices(engine: Engine(), signals: signals)
    }

    /// Runs one command line (`arguments`, without the program name) with
    /// `context`'s streams and environment on `services`, and returns the
    /// exit status: what the executable does with the process's, and what
    /// a test does in process with an engine over test devices.
    public static func main(arguments: [String], context: CommandContext, services: GesturectlServices) async -> Int32 {
        await tool.main(arguments: arguments, context: context.with(services))
    }

    /// Runs the tool as the process: parses `CommandLine.arguments` and
    /// returns the exit status.
    public static func main(services: GesturectlServices) async -> Int32 {
        await main(arguments: Array(CommandLine.arguments.dropFirst()), context: .process(), services: services)
    }

    /// Runs ``main(services:)`` on the concurrency pool and blocks the
    /// calling thread (the process's main thread, which is not one of the
    /// pool's) until it returns the exit status. For a synchronous
    /// `main.swift`, which is what lets ``prepareProcess()`` run before any
    /// thread exists.
    public static func runAsProcess(_ services: GesturectlServices) -> Int32 {
        let status = JobHandle<Int32, Never>()
        Task.detached { status.finish(await main(services: services)) }
        return status.wait()
    }
}
