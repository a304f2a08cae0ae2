import CommandKit
import GestureEditing
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GestureProtocol
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
        let request = DaemonCall.recordStart(
            name: gestureName(values, defaultFile: defaultFile), device: values[Options.device],
            sequential: values[Options.sequential], grab: values[Options.grab],
            idleTimeoutMilliseconds: idle.map { Double($0.rawValue) / 1_000 },
            maximumDurationMilliseconds: values[Options.maximumDuration].map { Double($0.rawValue) / 1_000 })
        // The second connection stops the recording on Ctrl-C or Enter while
        // the first waits for the result; made first, so that a daemon that
        // refuses it refuses before anything is recorded.
        let stopper: DaemonClient
        do {
            stopper = try DaemonClient(path: socketPath)
        } catch {
            throw CommandFailure(status: error.isPermissionDenied ? .permissionDenied : .daemonUnavailable, message: error.description)
        }
        let started = RecordStartResult(try DaemonCalls.call(client, request))
        guard let job = started.job else { throw CommandFailure.failure("the daemon's record-start reply has no job") }
        let node = Unknown.replied(started.device)
        let name = Unknown.replied(started.name)

        let watchEnter = context.isStandardInputTerminal
        let remote = try RemoteRecording.follow(
            job: job, waiting: client, stopper: stopper, save: values[GestureOutput.save], force: values[GestureOutput.force],
            watchEnter: watchEnter)
        context.cancelledBySignals(remote)
        var ways = ["Ctrl-C"]
        if watchEnter { ways.append("Enter") }
        if let idle { ways.append("\(DurationText.format(microseconds: idle.rawValue)) without contact") }
        context.note("recording through the daemon at \(socketPath) from \(node) (\(name)); stop with " + ways.joined(separator: ", "))
        let outcome = await context.untilFinished(remote)
        let result = RecordStopResult(try outcome.reply.mapError(DaemonCalls.failure(for:)).get())

        let stopped = Unknown.replied(result.stopped)
        let failed = result.stopCode?.isFailure == true
        guard let inline = result.gesture else {
            // The daemon says why there is no gesture; one that does not, said here.
            let message = result.message ?? "no contact was recorded"
            if failed { throw CommandFailure.failure("\(stopped); \(message)") }
            throw CommandFailure.failure("\(message); \(nothingWritten(values))")
        }
        let gesture: Gesture
        do {
            gesture = try GestureFileFormat.decode(json: inline, source: "the daemon's recording")
        } catch {
            throw CommandFailure.failure(error.description)
        }
        for warning in result.warnings { context.warn(warning) }
        let saveFailure = outcome.saveFailure.map(DaemonCalls.failure(for:))
        let path = try write(gesture, values: values, defaultFile: defaultFile, context: context) { name in
            let path = try savedByDaemon(result, saveFailure: saveFailure)
            if result.saved?.hidesBuiltin == true { context.noteHidesBuiltin(name) }
            return path
        }
        // The path may be the daemon's: escaped, as everything it says.
        if path != "-" { context.print(shown(path)) }
        context.note("\(describe(gesture)) (stopped: \(stopped))")
        if result.stopCode == .deviceVanished {
            throw CommandFailure.failure("the device vanished while recording (\(stopped)); what was recorded is in \(path)")
        }
        if failed { throw CommandFailure.failure("recording stopped: \(stopped); what was recorded is in \(path)") }
    }

    /// The `--save` step of a recording that came through the daemon: the
    /// daemon saved it (or said why not); the path it saved to.
    private static func savedByDaemon(_ result: RecordStopResult, saveFailure: CommandFailure?) throws -> String {
        if let saveFailure { throw saveFailure }
        guard let path = result.saved?.path else {
            throw CommandFailure.failure("the daemon's record-stop reply does not say where it saved the gesture")
        }
        return path
    }
}

extension PlayCommand {
    /// A placement's `at` coordinate as a request takes it.
    private static func coordinate(_ coordinate: Placement.Coordinate) -> DaemonCall.Coordinate {
        switch coordinate {
        case .millimetres(let value): .millimetres(value)
        case .percent(let value): .percent(value)
        }
    }

    /// `play` through the daemon, on its ready device of the kind asked for.
    static func playThroughDaemon(values: ParsedValues, placement: Placement?, context: CommandContext) async throws {
        // The caller asked goesThroughDaemon, so there is a client.
        guard let client = try context.daemonClient(values) else { return }
        // The daemon's outputs are its configuration's ("outputs"); --to picks one.
        let request = DaemonCall.play(
            try DaemonCalls.gestureArgument(values[gestureArgument], context: context), kind: values[Options.kind].rawValue,
            output: values.isGiven(DeviceOutput.to) ? values[DeviceOutput.to].rawValue : nil, speed: values[Options.speed],
            repeatCount: values[Options.repeatCount], at: placement?.at.map { (coordinate($0.x), coordinate($0.y)) },
            scale: values.isGiven(Options.scale) ? placement?.scale : nil,
            rotate: values.isGiven(Options.rotate) ? placement?.degrees : nil)
        context.note("playing through the daemon at \(client.path)")
        let result = PlayResult(try DaemonCalls.call(client, request))
        if values[Options.json] {
            context.print(
                JSONText.object([
                    ("outcome", JSONText.string("completed")), ("device", JSONText.stringOrNull(result.device)),
                    ("frames", JSONText.valueOrNull(result.frames)),
                    ("lateness_max_us", JSONText.valueOrNull(result.latenessMaximum)),
                    ("lateness_p50_us", JSONText.valueOrNull(result.latenessMedian)),
                    ("lateness_p99_us", JSONText.valueOrNull(result.latenessPercentile99)),
                ]))
        }
    }
}

extension PressCommand {
    /// The protocol's word for a press's action.
    private static func word(_ action: KeyPress.Action) -> PressAction {
        switch action {
        case .tap: .tap
        case .down: .down
        case .up: .up
        }
    }

    /// `press` through the daemon, on its ready keyboard.
    static func pressThroughDaemon(
        name: String, action: KeyPress.Action, values: ParsedValues, context: CommandContext
    ) async throws {
        // The caller asked goesThroughDaemon, so there is a client.
        guard let client = try context.daemonClient(values) else { return }
        let localOnly: [any OptionDeclaration] = [Options.leadIn, Options.linger, Options.to, DeviceOutput.gadget, Options.startOnFD]
        for option in localOnly where values.isGiven(option) {
            throw CommandFailure.usage("\(option.declaration.longName) is not available through the daemon (it presses on its ready keyboard)")
        }
        let hold = values.isGiven(Options.hold) ? Double(values[Options.hold].rawValue) / 1_000 : nil
        context.note("pressing \(name) through the daemon at \(client.path)")
        _ = try DaemonCalls.call(client, .press(key: name, action: Self.word(action), holdMilliseconds: hold, force: values[Options.force]))
        guard action == .down else { return }
        // The daemon releases a key when the connection that pressed it
        // closes, so the key stays down while this command runs.
        let signalled = JobHandle<Int32, Never>()
        let subscription = context.signals.subscribe { signalled.finish($0) }
        context.note("holding \(name) down; Ctrl-C or SIGTERM releases it (or 'press \(name) --up' from elsewhere)")
        _ = await signalled.finished()
        subscription.cancel()
        // Harmless: the daemon releases the key when this connection closes, as the command exits now.
        _ = try? DaemonCalls.call(client, .press(key: name, action: .up))
        context.note("released \(name)")
        throw CommandFailure.exit(.interrupted)
    }
}

extension FingertipsCommand {
    /// `fingertips` through the daemon: the daemon grabs the source and
    /// makes the device; the same lines are printed as locally, from its
    /// `fingertips` events, and Ctrl-C or SIGTERM cancels them (so does
    /// this command's end: the daemon ends them when the connection closes).
    static func fingertipsThroughDaemon(_ values: ParsedValues, context: CommandContext) async throws {
        if values[Options.clone] != nil {
            throw CommandFailure.usage("--clone works only locally; through the daemon the fingertips are shown on a touchscreen or a touchpad (--as)")
        }
        // The caller asked goesThroughDaemon, so there is a client.
        guard let client = try context.daemonClient(values) else { return }
        let watcher: DaemonClient
        do {
            watcher = try DaemonClient(path: client.path)
        } catch {
            throw CommandFailure(status: error.isPermissionDenied ? .permissionDenied : .daemonUnavailable, message: error.description)
        }
        let socketPath = client.path
        let count = values[countArgument]
        let idle = values[Options.idle]
        let request = DaemonCall.fingertips(
            count: count, device: values[Options.device], layout: values[Options.layout].rawValue,
            spacingMillimetres: values[Options.spacing], speed: values[Options.speed],
            idleMilliseconds: Double(idle.rawValue) / 1_000, absolute: values[Options.absolute], kind: values[Options.kind]?.rawValue,
            hover: !values[Options.noHover])
        let started: (result: FingertipsStartResult, handle: JobHandle<RemoteFingertipsOutcome, RemoteFingertipsEvent>)
        do {
            started = try RemoteFingertips.start(request, client: client, watcher: watcher) { event in
                switch event {
                // The daemon's words reach a terminal: escaped (issue 36).
                case .ready(let line): context.print(shown(line))
                case .touching(let down): context.print("\(count) fingertips \(down ? "down" : "up").")
                }
            }
        } catch let error as DaemonError {
            throw DaemonFailure.failure(for: error)
        } catch let error as DaemonUnreachable {
            throw CommandFailure(status: .daemonUnavailable, message: error.description)
        }
        let handle = started.handle
        let source = started.result.source
        let stop = idle == .zero ? "Ctrl-C" : "Ctrl-C or \(DurationText.format(microseconds: idle.rawValue)) without input"
        // Ctrl-C cancels from before the note that invites it: a signal
        // right after the note found no subscriber and ended the command
        // without the cancel or its words (a unit test beside a CPU hog).
        context.cancelledBySignals(handle)
        context.note("fingertips through the daemon at \(socketPath), reading \(source); stop with \(stop)")
        switch await context.untilFinished(handle) {
        case .ended(.idle?, _):
            context.print("\(count) fingertips gone: no input for \(DurationText.format(microseconds: idle.rawValue)).")
        case .ended(.cancelled?, _):
            context.print("\(count) fingertips gone: stopped.")
        case .ended(.sourceVanished?, let message):
            context.print("\(count) fingertips gone: the source was unplugged.")
            throw CommandFailure.failure("\(source) was unplugged (\(message)); every fingertip lifted, the virtual device removed")
        case .ended(_, let message):
            context.print("\(count) fingertips gone: an error.")
            throw CommandFailure.failure("fingertips stopped: \(message)")
        case .lost(let error):
            throw DaemonCalls.failure(for: error)
        }
    }
}
