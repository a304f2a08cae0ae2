import CommandKit
import DeviceDiscovery
import GestureFormat
import GestureLibrary
import GestureModel
import GestureProtocol
import OperatingSystem

extension CommandContext {
    /// A NAME from the daemon's library when `daemon` is given (files and
    /// standard input are still read here), else as ``loadGesture(_:)``.
    func loadGesture(_ argument: String, daemon: DaemonClient?) throws -> Gesture {
        guard let daemon, case .library(let name) = GestureSource(argument: argument, context: self) else {
            return try loadGesture(argument)
        }
        let result = ShowResult(try DaemonCalls.call(daemon, .show(name: name)))
        guard let gesture = result.gesture else { throw CommandFailure.failure("the daemon's show reply has no gesture") }
        do {
            return try GestureFileFormat.decode(json: gesture, source: "the daemon's \"\(name)\"")
        } catch {
            throw CommandFailure.failure(error.description)
        }
    }

    /// Whether the command goes through the daemon (--socket, --daemon or
    /// $GESTURECTL_SOCKET), decided without connecting: options the daemon
    /// does not take are refused before it is reached.
    func goesThroughDaemon(_ values: ParsedValues) -> Bool {
        values[Gesturectl.GlobalOptions.socket] != nil || values[Gesturectl.GlobalOptions.daemon] || hasValue("GESTURECTL_SOCKET")
    }

    /// A connection to the daemon when the command line or the environment
    /// asks for one (`--socket PATH`, `--daemon`, or `$GESTURECTL_SOCKET`);
    /// `nil` to work locally.
    /// - Throws: a failure with exit status 5 when the daemon is unreachable.
    func daemonClient(_ values: ParsedValues) throws -> DaemonClient? {
        guard goesThroughDaemon(values) else { return nil }
        let path = DaemonPaths.clientSocket(option: values[Gesturectl.GlobalOptions.socket], environment: environment)
        do {
            return try DaemonClient(path: path)
        } catch {
            throw CommandFailure(status: error.isPermissionDenied ? .permissionDenied : .daemonUnavailable, message: error.description)
        }
    }
}

/// Commands' requests to the daemon, with its answers turned into what the
/// local commands print.
enum DaemonCalls {
    /// A daemon call's failure as the command failure a local command would throw.
    static func failure(for error: DaemonCallError) -> CommandFailure {
        switch error {
        case .daemon(let error): DaemonFailure.failure(for: error)
        case .unreachable(let error):
            CommandFailure(status: error.isPermissionDenied ? .permissionDenied : .daemonUnavailable, message: error.description)
        case .other(let message): .failure(message)
        }
    }

    /// Runs a request; daemon errors become the local exit statuses.
    static func call(_ client: DaemonClient, _ request: DaemonCall) throws -> JSONValue {
        do {
            return try client.call(request)
        } catch let error as DaemonError {
            throw DaemonFailure.failure(for: error)
        } catch let error as DaemonUnreachable {
            throw CommandFailure(status: .daemonUnavailable, message: error.description)
        }
    }

    /// `devices` through the daemon: the input devices it sees.
    static func devices(_ client: DaemonClient) throws -> [DeviceFacts] {
        guard let items = DevicesResult(try call(client, .devices)).devices else {
            throw CommandFailure.failure("the daemon's devices reply lacks \"devices\"")
        }
        return try items.map { item in
            guard let facts = DeviceFacts(json: item) else {
                throw CommandFailure.failure("the daemon described a device this gesturectl cannot read: \(item.jsonText)")
            }
            return facts
        }
    }

    /// `list` through the daemon: the entries with their summaries, and the library folder.
    static func list(_ client: DaemonClient) throws -> ([(LibraryEntry, String)], String) {
        let result = ListResult(try call(client, .list))
        guard let items = result.gestures, let folder = result.folder else {
            throw CommandFailure.failure("the daemon's list reply lacks \"gestures\" or \"folder\"")
        }
        let rows: [(LibraryEntry, String)] = items.compactMap { item in
            guard let kind = LibrarySource(rawValue: item.source) else { return nil }
            return (LibraryEntry(name: item.name, path: item.path, source: kind, hidesBuiltin: item.hidesBuiltin), item.summary)
        }
        return (rows, folder)
    }

    /// `save` through the daemon: the gesture sent inline; the name it was
    /// saved as, and whether it hides a built-in.
    static func save(
        _ client: DaemonClient, _ gesture: Gesture, as name: String, force: Bool, readFrom: MappedFileLog
    ) throws -> (name: String?, hidesBuiltin: Bool) {
        let saved = SavedEntry(try call(client, .save(name: name, gesture: try inline(gesture, readFrom: readFrom), force: force)))
        return (saved.name, saved.hidesBuiltin)
    }

    /// `rm` through the daemon (asking first is the command's part: `force` is sent).
    static func remove(_ client: DaemonClient, name: String) throws {
        _ = try call(client, .remove(name: name, force: true))
    }

    /// A gesture as the protocol carries it inline: the file format's JSON
    /// object; never one made from a file that changed while it was read
    /// (`readFrom`: the mapped files its samples come from).
    static func inline(_ gesture: Gesture, readFrom: MappedFileLog) throws -> JSONValue {
        let json = GestureFileFormat.json(gesture)
        try readFrom.checkIntact()
        return json
    }

    /// The gesture argument as the daemon takes it: a library NAME by name,
    /// a FILE (or standard input) read here and sent inline.
    static func gestureArgument(_ argument: String, context: CommandContext) throws -> DaemonCall.GestureArgument {
        switch GestureSource(argument: argument, context: context) {
        case .library(let name):
            return .name(name)
        case .standardInput, .file:
            return .inline(try inline(try context.loadGesture(argument), readFrom: context.mappedFiles))
        }
    }
}
