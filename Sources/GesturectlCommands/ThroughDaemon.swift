import CommandKit
import GestureDaemon
import GestureEditing
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRender
import OperatingSystem

// The local commands' ways through the daemon (--socket, --daemon,
// $GESTURECTL_SOCKET): what talks to its socket lives here and in
// DaemonCalls.swift, so that the commands' own files need not import
// GestureDaemon.

extension RecordCommand {
    /// `record` through the daemon: record-start with the options, then a
    /// `record-stop` that waits until the recording stops by itself, while
    /// Ctrl-C (or Enter) stops it through a second connection (`cancel`);
    /// the result is written here exactly as a local recording's.
    static func recordThroughDaemon(
        values: ParsedValues, idle: Microseconds?, defaultFile: String, context: CommandContext
    ) async throws {
        // The caller asked goesThroughDaemon, so there is a client.
        guard let client = try context.daemonClient(values) else { return }
        let socketPath = client.path
        var arguments: [(String, JSONValue)] = [
            ("name", .string(values.string("name") ?? values.string("save") ?? String(defaultFile.dropLast(GestureName.fileSuffix.count))))
        ]
        if let device = values.string("device") { arguments.append(("device", .string(device))) }
        if values.flag("sequential") { arguments.append(("sequential", .bool(true))) }
        if values.flag("grab") { arguments.append(("grab", .bool(true))) }
        if let idle { arguments.append(("idle_timeout_ms", .decimal(Double(idle.rawValue) / 1_000))) }
        if let maximum = values.duration("max-duration") { arguments.append(("max_duration_ms", .decimal(Double(maximum) / 1_000))) }
        // The second connection stops the recording on Ctrl-C or Enter while
        // the first waits for the result; made first, so that a daemon that
        // refuses it refuses before anything is recorded.
        let stopper: DaemonClient
        do {
            stopper = try DaemonClient(path: socketPath)
        } catch {
            throw CommandFailure(status: error.isPermissionDenied ? .permissionDenied : .daemonUnavailable, message: error.description)
        }
        let started = try DaemonCalls.call(client, "record-start", arguments)
        guard let job = started["job"] else { throw CommandFailure.failure("the daemon's record-start reply has no job") }
        let node: String = if case .string(let text)? = started["device"] { text } else { "?" }
        let name: String = if case .string(let text)? = started["name"] { text } else { "?" }

        var stopArguments: [(String, JSONValue)] = []
        if let save = values.string("save") { stopArguments.append(("save", .string(save))) }
        if values.flag("force") { stopArguments.append(("force", .bool(true))) }
        let watchEnter = context.isStandardInputTerminal
        let remote = try RemoteRecording.follow(
            job: job, waiting: client, stopper: stopper, stopArguments: stopArguments, watchEnter: watchEnter)
        context.cancelledBySignals(remote)
        var ways = ["Ctrl-C"]
        if watchEnter { ways.append("Enter") }
        if let idle { ways.append("\(DurationText.format(microseconds: idle.rawValue)) without contact") }
        context.note("recording through the daemon at \(socketPath) from \(node) (\(name)); stop with " + ways.joined(separator: ", "))
        let outcome = await context.untilFinished(remote)
        let result = try outcome.reply.mapError(DaemonCalls.failure(for:)).get()

        let stopped: String = if case .string(let text)? = result["stopped"] { text } else { "?" }
        let reason: String = if case .string(let text)? = result["stop_reason"] { text } else { "" }
        let failed = reason == "device-vanished" || reason == "read-failed"
        guard let inline = result["gesture"], inline != .null else {
            let message: String = if case .string(let text)? = result["message"] { text } else { "no contact was recorded" }
            if failed { throw CommandFailure.failure("\(stopped); \(message)") }
            throw CommandFailure.failure("\(message); nothing was written")
        }
        let gesture: Gesture
        do {
            gesture = try GestureFileFormat.decode(Array(inline.jsonText.utf8), source: "the daemon's recording")
        } catch {
            throw CommandFailure.failure(error.description)
        }
        if case .array(let warnings)? = result["warnings"] {
            for case .string(let warning) in warnings { context.warn(warning) }
        }
        let saveFailure = outcome.saveFailure.map(DaemonCalls.failure(for:))
        let path = try write(gesture, values: values, defaultFile: defaultFile, context: context) { name in
            let path = try savedByDaemon(result, saveFailure: saveFailure)
            if case .bool(true)? = result["saved"]?["hides_builtin"] { context.noteHidesBuiltin(name) }
            return path
        }
        if path != "-" { context.print(path) }
        context.note("\(describe(gesture)) (stopped: \(stopped))")
        if reason == "device-vanished" {
            throw CommandFailure.failure("the device vanished while recording (\(stopped)); what was recorded is in \(path)")
        }
        if failed { throw CommandFailure.failure("recording stopped: \(stopped); what was recorded is in \(path)") }
    }

    /// The `--save` step of a recording that came through the daemon: the
    /// daemon saved it (or said why not); the path it saved to.
    private static func savedByDaemon(_ result: JSONValue, saveFailure: CommandFailure?) throws -> String {
        if let saveFailure { throw saveFailure }
        guard case .string(let path)? = result["saved"]?["path"] else {
            throw CommandFailure.failure("the daemon's record-stop reply does not say where it saved the gesture")
        }
        return path
    }
}

extension PlayCommand {
    /// A placement's `at` coordinate as the daemon takes it: a number of
    /// mm, or a string `N%`.
    private static func json(_ coordinate: Placement.Coordinate) -> JSONValue {
        switch coordinate {
        case .millimetres(let value): .decimal(value)
        case .percent(let value): .string("\(JSONValue.decimal(value).jsonText)%")
        }
    }

    /// `play` through the daemon, on its ready device of the kind asked for.
    static func playThroughDaemon(values: ParsedValues, placement: Placement?, context: CommandContext) async throws {
        // The caller asked goesThroughDaemon, so there is a client.
        guard let client = try context.daemonClient(values) else { return }
        var arguments = [try DaemonCalls.gestureArgument(values.argument("gesture") ?? "", context: context)]
        arguments.append(("as", .string(values.stringOrDefault("as"))))
        // The daemon's outputs are its configuration's ("outputs"); --to picks one.
        if values.isGiven("to") { arguments.append(("to", .string(values.stringOrDefault("to")))) }
        if let speed = values.double("speed") { arguments.append(("speed", .decimal(speed))) }
        if let count = values.integer("repeat") { arguments.append(("repeat", .integer(count))) }
        if let at = placement?.at { arguments.append(("at", .array([json(at.x), json(at.y)]))) }
        if values.isGiven("scale"), let scale = placement?.scale { arguments.append(("scale", .decimal(scale))) }
        if values.isGiven("rotate"), let degrees = placement?.degrees { arguments.append(("rotate", .decimal(degrees))) }
        context.note("playing through the daemon at \(client.path)")
        let result = try DaemonCalls.call(client, "play", arguments)
        if values.flag("json") {
            func number(_ key: String) -> String { if case .number(let text)? = result[key] { text } else { "null" } }
            let device: String = if case .string(let node)? = result["device"] { JSONText.string(node) } else { "null" }
            context.print(
                JSONText.object([
                    ("outcome", JSONText.string("completed")), ("device", device), ("frames", number("frames")),
                    ("lateness_max_us", number("lateness_max_us")), ("lateness_p50_us", number("lateness_p50_us")),
                    ("lateness_p99_us", number("lateness_p99_us")),
                ]))
        }
    }
}

extension PressCommand {
    /// `press` through the daemon, on its ready keyboard.
    static func pressThroughDaemon(
        name: String, action: KeyPress.Action, values: ParsedValues, context: CommandContext
    ) async throws {
        // The caller asked goesThroughDaemon, so there is a client.
        guard let client = try context.daemonClient(values) else { return }
        for option in ["lead-in", "linger", "to", "gadget", "start-on-fd"] where values.isGiven(option) {
            throw CommandFailure.usage("--\(option) is not available through the daemon (it presses on its ready keyboard)")
        }
        var arguments: [(String, JSONValue)] = [("key", .string(name)), ("action", .string(action.rawValue))]
        if let hold = values.duration("hold"), values.isGiven("hold") { arguments.append(("hold_ms", .decimal(Double(hold) / 1_000))) }
        if values.flag("force") { arguments.append(("force", .bool(true))) }
        context.note("pressing \(name) through the daemon at \(client.path)")
        _ = try DaemonCalls.call(client, "press", arguments)
        guard action == .down else { return }
        // The daemon releases a key when the connection that pressed it
        // closes, so the key stays down while this command runs.
        let signalled = JobHandle<Int32, Never>()
        let subscription = Gesturectl.signals.subscribe { signalled.finish($0) }
        context.note("holding \(name) down; Ctrl-C or SIGTERM releases it (or 'press \(name) --up' from elsewhere)")
        _ = await signalled.finished()
        subscription.cancel()
        _ = try? DaemonCalls.call(client, "press", [("key", .string(name)), ("action", .string("up"))])
        context.note("released \(name)")
        throw CommandFailure.exit(.interrupted)
    }
}
