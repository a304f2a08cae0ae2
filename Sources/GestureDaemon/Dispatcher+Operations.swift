import DaemonTransport
import GestureBindings
import GestureEngine
import Glibc
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureProtocol
import GestureRender
import InputSystem
import OperatingSystem

extension Dispatcher {
    /// A request line from client `id`, on the I/O thread, which never
    /// waits for one to be served. Its lane is chosen by its operation,
    /// read from its top-level `"op"` within its first ``peekBytes`` (a
    /// bounded walk that builds only keys: issue 36, where a byte search
    /// for `"bind"` put `{"id": "bind", "op": "list"}` in the bindings' lane
    /// and a 24.7 KB bind in the workers'). `cancel`, `version`, `jobs` and
    /// `subscribe` in a line of at most ``readOnArrival`` bytes are read and
    /// answered at once, ahead of anything waiting; `bind`, `unbind` and
    /// `bindings` go to the bindings' lane, everything else (and any line
    /// whose operation is not found so soon) to the workers'
    /// (``RequestLanes``), where it is read in full.
    func route(_ line: [UInt8], from id: Int) {
        switch Self.lane(for: DaemonRequest.peekOperation(line, within: Self.peekBytes), lineBytes: line.count) {
        case .onArrival:
            let request: DaemonRequest
            do {
                request = try DaemonRequest.parse(line)
            } catch {
                reply(id, DaemonReply.failure(id: error.id, error: error.error))
                return
            }
            handle(request, from: id)
        case .bindings:
            lanes.bindings.add(.line(line), bytes: line.count, client: id, user: user(of: id))
        case .work:
            lanes.work.add(.line(line), bytes: line.count, client: id, user: user(of: id))
        }
    }

    /// Where a request line is served (``route(_:from:)``).
    enum Lane: Equatable {
        /// Read and answered on the I/O thread, ahead of anything waiting.
        case onArrival
        /// The bindings' lane.
        case bindings
        /// The workers' lanes.
        case work
    }

    /// The lane of a line of `lineBytes` whose top-level operation is
    /// `operation` (`nil`: not found within ``peekBytes``). Every quick
    /// operation is bounded by ``readOnArrival``: a `case` with four
    /// patterns and one `where` bounded only `subscribe`, so a `cancel`,
    /// `version` or `jobs` line of any length was read on the I/O thread.
    static func lane(for operation: DaemonOperation?, lineBytes: Int) -> Lane {
        switch operation {
        case .cancel?, .version?, .jobs?, .subscribe?: lineBytes <= readOnArrival ? .onArrival : .work
        case .bind?, .unbind?, .bindings?: .bindings
        default: .work
        }
    }

    /// The uid of client `id` (whose turn in the lanes its requests take).
    private func user(of id: Int) -> UInt32 { state.withLock { $0.user(of: id) } ?? .max }

    /// A quick operation's line up to this long is read on the I/O thread
    /// (a `cancel` is about 40 bytes, a `subscribe` to every event about
    /// 150); a longer one is read by a worker, so that no line costs the
    /// I/O thread, and so another client's `cancel`, more than a short walk.
    static let readOnArrival = 1 << 10
    /// How far into a line its `"op"` is looked for (a request whose `op`
    /// comes after a larger argument goes to the workers' lane, and is
    /// served there all the same).
    static let peekBytes = 16 << 10

    /// Serves a queued request (on a lane's worker).
    func serve(_ queued: QueuedRequest, from id: Int) {
        switch queued {
        case .request(let request): handle(request, from: id)
        case .line(let line):
            do {
                handle(try DaemonRequest.parse(line), from: id)
            } catch {
                reply(id, DaemonReply.failure(id: error.id, error: error.error))
            }
        }
    }

    /// Handles one request of client `id`: answers at once, or (a play
    /// that waits, a change of the bindings) when it is done.
    func handle(_ request: DaemonRequest, from id: Int) {
        do {
            guard let operation = DaemonOperation(rawValue: request.op) else {
                throw DaemonError(
                    .unknownOp,
                    "unknown operation \"\(DaemonLog.excerpt(request.op))\"; known: \(DaemonOperation.allCases.map(\.rawValue).sorted().joined(separator: ", "))")
            }
            let arguments = try Arguments(request, of: operation)
            // Replies nobody reads are bounded (per client, per user and in
            // total) where they are queued: the clients that hold the most
            // are cut off (SocketServer), nobody is refused for them.
            if let result = try perform(operation, request, arguments, client: id) {
                reply(id, DaemonReply.success(id: request.id, result: result))
            }
        } catch let error as DaemonError {
            reply(id, DaemonReply.failure(id: request.id, error: error))
        } catch {
            log.client(id, .error, "client \(id), \(request.op): \(error)")
            reply(id, DaemonReply.failure(id: request.id, error: DaemonError(.internal, "\(error)")))
        }
    }

    /// A reply that comes once the work is done (the bindings saved).
    private func answerLater(_ request: DaemonRequest, client: Int) -> TriggerBindings.Answer {
        { [self] result in
            switch result {
            case .success(let value): reply(client, DaemonReply.success(id: request.id, result: value))
            case .failure(let error): reply(client, DaemonReply.failure(id: request.id, error: error))
            }
        }
    }

    /// The result of an operation, or `nil` when the reply comes later.
    private func perform(_ operation: DaemonOperation, _ request: DaemonRequest, _ arguments: Arguments, client: Int) throws -> JSONValue? {
        switch operation {
        case .version:
            return VersionResult(protocolVersion: DaemonServer.protocolVersion, version: version).json
        case .devices:
            return devicesResult()
        case .list:
            let library = state.withLock { $0.library }
            let entries = try libraryCall { () throws(LibraryError) in try library.list() }
            return ListResult(
                folder: library.userDirectory,
                gestures: entries.map { entry in
                    ListResult.Entry(
                        name: entry.name, source: entry.source.rawValue, path: entry.path,
                        summary: summary(ofFileAt: entry.path),
                        hidesBuiltin: entry.hidesBuiltin)
                }
            ).json
        case .show:
            let name = try arguments.requiredString(.name)
            let gesture = try loadNamed(name)
            // The gesture's own text goes into the reply as it is: no tree of
            // values to build and print again (a 2.5 MB gesture's `show`).
            var result = ShowResult(name: name, summary: describe(gesture), gesture: .null).json
            if case .object(let members, let span) = result { result = .object(members.filter { $0.key != "gesture" }, span: span) }
            reply(client, DaemonReply.success(id: request.id, result: result, adding: "gesture", json: GestureFileFormat.encodeOneLineUTF8(gesture)))
            return nil
        case .play:
            return try play(request, arguments, client: client)
        case .press:
            return try press(request, arguments, client: client)
        case .bind:
            try bindings.bind(arguments, client: client, asker: asker(client), answer: answerLater(request, client: client))
            return nil
        case .unbind:
            try bindings.unbind(arguments, client: client, asker: asker(client), answer: answerLater(request, client: client))
            return nil
        case .bindings:
            try bindings.bindingsOperation(arguments, client: client, asker: asker(client), answer: answerLater(request, client: client))
            return nil
        case .recordStart:
            return try recordStart(request, arguments, client: client)
        case .recordStop:
            return try recordStop(request, arguments, client: client)
        case .fingertips:
            return try fingertipsStart(arguments, client: client)
        case .cancel:
            let job = try arguments.integer(.job, in: 1...Int.max) ?? { throw DaemonError(.badArgument, "cancel: \"job\" is missing") }()
            try cancel(job, client: client)
            return CancelResult(job: job).json
        case .jobs:
            let (fingertips, askerUser, administrator, shownSources) = state.withLock { current in
                let fingertips = fingertipsTable.withLock { Array($0.running.values) }
                return (
                    fingertips, current.user(of: client), current.isAdministrator(client),
                    Set(fingertips.filter { current.mayAct(on: $0.owner, client: client) }.map(\.job))
                )
            }
            // Who made each (issue 36): `mine` for the asker's own; an
            // administrator also sees each one's `uid`. Another user's
            // fingertips do not name their source, unless to an administrator.
            func mine(_ owner: UInt32?) -> Bool { owner != nil && owner == askerUser }
            func uid(_ owner: UInt32?) -> Int? { administrator ? owner.map { Int($0) } : nil }
            // The engine's plays and presses (a client's, a binding's, and
            // what a menu or a create flow plays: no client's, so any
            // member may stop them), then live fingertips (`kind` tells
            // them apart; fingertips also name their source): one list
            // sorted by job.
            let entries: [JobsResult.Entry] =
                engine.jobs.list().map { entry in
                    JobsResult.Entry(
                        job: entry.id, device: entry.device.rawValue, state: (entry.state == .running ? JobState.running : .queued).rawValue,
                        kind: (entry.kind == .play ? JobKind.play : .press).rawValue, mine: mine(entry.owner.user), uid: uid(entry.owner.user))
                }
                + fingertips.map { record in
                    JobsResult.Entry(
                        job: record.job, device: record.fingertips.profile.kind.rawValue, state: JobState.running.rawValue,
                        kind: JobKind.fingertips.rawValue,
                        source: shownSources.contains(record.job) ? record.fingertips.source.node : nil, mine: mine(record.owner),
                        uid: uid(record.owner))
                }
            return JobsResult(jobs: entries.sorted { $0.job < $1.job }).json
        case .save:
            let name = try arguments.requiredString(.name)
            guard arguments.has(.gesture) else { throw DaemonError(.badArgument, "save: \"gesture\" is missing") }
            let gesture = try inlineGesture(request, arguments)
            let force = try arguments.bool(.force, default: false)
            let (library, user) = state.withLock { ($0.library, $0.user(of: client)) }
            // A gesture is its file owner's: another member may not replace it (issue 36).
            if force { try checkMayChangeGesture(name, library: library, client: client, doing: "replace") }
            // As root, the daemon gives a member's gesture to them.
            let owner = UserGroups.effectiveUserID == 0 ? user : nil
            let entry = try libraryCall { () throws(LibraryError) in try library.save(gesture, as: name, overwrite: force, owner: owner) }
            log.client(client, .info, "client \(client) saved \(name)")
            return SavedEntry(name: entry.name, hidesBuiltin: entry.hidesBuiltin).json
        case .rm:
            let name = try arguments.requiredString(.name)
            let library = state.withLock { $0.library }
            _ = try arguments.bool(.force, default: false)
            try checkMayChangeGesture(name, library: library, client: client, doing: "delete")
            try libraryCall { () throws(LibraryError) in try library.remove(name) }
            log.client(client, .info, "client \(client) removed \(name)")
            return RemoveResult(name: name).json
        case .subscribe:
            guard case .array(let items)? = arguments.value(.events) else {
                throw DaemonError(.badArgument, "subscribe: \"events\" must be a list such as [\"job\", \"device\"]")
            }
            var events: Set<DaemonEvent> = []
            for item in items {
                guard case .string(let name) = item, let event = DaemonEvent(rawValue: name), DaemonEvent.subscribable.contains(event) else {
                    throw DaemonError(
                        .badArgument,
                        "subscribe: \(item.jsonText) is not an event; known: \(DaemonEvent.subscribable.map(\.rawValue).sorted().joined(separator: ", "))")
                }
                events.insert(event)
            }
            sockets.subscribe(client, to: events)
            return SubscribeResult(events: events.map(\.rawValue).sorted()).json
        }
    }

    /// Who client `client` is, to the bindings.
    private func asker(_ client: Int) -> TriggerBindings.Asker {
        state.withLock { TriggerBindings.Asker(user: $0.user(of: client), administrator: $0.isAdministrator(client)) }
    }

    /// Refuses when the user gesture `name` is another user's (its file's
    /// owner) and client `client` is not an administrator; a gesture that
    /// is not there, or a built-in, is left to the library to answer.
    private func checkMayChangeGesture(_ name: String, library: GestureLibrary, client: Int, doing: String) throws {
        // Harmless: a name the library cannot look up is answered by the library call that follows, with its reason.
        guard let file = try? library.file(named: name), file.source == .user else { return }
        let owner = file.status.userID
        guard state.withLock({ $0.mayChange(owner, client: client) }) else {
            throw DaemonError(
                .permissionDenied,
                "\(doing): the gesture \"\(DaemonLog.excerpt(name))\" is another user's: only its own user or an administrator may \(doing) it")
        }
    }

    // MARK: Playing

    private func play(_ request: DaemonRequest, _ arguments: Arguments, client: Int) throws -> JSONValue? {
        let kindName = try arguments.string(.kind) ?? DeviceKind.touchscreen.rawValue
        guard let kind = DeviceKind(rawValue: kindName), DaemonConfiguration.playableKinds.contains(kind) else {
            throw DaemonError(.badArgument, "play: \"as\" must be one of \(DaemonConfiguration.playableKinds.map(\.rawValue).joined(separator: ", "))")
        }
        let outputWord = try arguments.string(.output) ?? "uinput"
        guard let output = state.withLock({ $0.configuration.output(named: outputWord) }) else {
            throw DaemonError(.badArgument, "play: \"to\" must be one of \(DaemonConfiguration.outputWords.joined(separator: ", "))")
        }
        let device = ReadyDevice(kind: kind, output: output)
        let options = PlaybackOptions(
            speed: try arguments.number(.speed, in: 0.01...100) ?? 1,
            repeatCount: try arguments.integer(.repeatCount, in: 1...GestureLimits.maximumRepeatCount) ?? 1)
        let placement = try Self.placement(arguments)
        let waits = try arguments.bool(.wait, default: true)
        let onDisconnect = try arguments.string(.onDisconnect) ?? DisconnectPolicy.cancel.rawValue
        guard let disconnectPolicy = DisconnectPolicy(rawValue: onDisconnect) else {
            throw DaemonError(.badArgument, "play: \"on_disconnect\" must be \"cancel\" or \"finish\"")
        }
        // Arguments are checked before the gesture is looked up or read.
        var gesture: Gesture
        switch (arguments.has(.name), arguments.has(.gesture)) {
        case (true, true): throw DaemonError(.badArgument, "play: give \"name\" or \"gesture\", not both")
        case (false, false): throw DaemonError(.badArgument, "play: \"name\" (a gesture in the library) or \"gesture\" (inline) is missing")
        case (true, false): gesture = try loadNamed(try arguments.requiredString(.name))
        case (false, true): gesture = try inlineGesture(request, arguments)
        }
        if placement != nil {
            do {
                let placed = try PlayRequest(gesture: gesture, placement: placement).resolvingPlacement()
                gesture = placed.request.gesture
                for warning in placed.warnings { log.client(client, .warning, "client \(client), play: \(warning)") }
            } catch {
                throw DaemonError(.badArgument, "play: \"\(error.part.rawValue)\": \(error.message)")
            }
        }
        // The queue checks the gesture against the device now, so a bad
        // request is answered at once rather than after the queue.
        let job = try queuePlay(
            gesture, options: options, on: device, client: client, requestID: request.id, waits: waits,
            cancelOnDisconnect: disconnectPolicy == .cancel)
        return waits ? nil : QueuedResult(job: job).json
    }

    /// Queues a play on the ready device of `kind` as a job (`busy` when its
    /// queue is full or the daemon stops, `not-found` when it is not kept
    /// ready, `bad-argument` when the gesture cannot play there), tells
    /// subscribers it is queued, and returns the job. A binding's action
    /// uses it too, with client 0 and nobody waiting.
    func queuePlay(
        _ gesture: Gesture, options: PlaybackOptions, on device: ReadyDevice, client: Int, requestID: JSONValue, waits: Bool,
        cancelOnDisconnect: Bool
    ) throws(DaemonError) -> Int {
        try queueJob(
            .play(gesture, options), on: device, client: client, requestID: requestID, waits: waits,
            cancelOnDisconnect: cancelOnDisconnect, limited: true)
    }

    /// What a daemon job does on its ready device.
    enum JobWork {
        case play(Gesture, PlaybackOptions)
        case press(KeyPress)

        /// The word its errors use.
        var word: String {
            if case .press = self { "press" } else { "play" }
        }
    }

    /// Starts `work` as the engine's job on a ready device, as client
    /// `client`'s: its events (`queued`, `running`, then its end) and its
    /// reply when the client waits. `limited`: refused as `busy` when the
    /// queue is full (key releases never are).
    func queueJob(
        _ work: JobWork, on device: ReadyDevice, client: Int, requestID: JSONValue, waits: Bool, cancelOnDisconnect: Bool,
        limited: Bool
    ) throws(DaemonError) -> Int {
        let profile = try readyProfile(device)
        let (owner, limit) = try state.withLock { current throws(DaemonError) -> (JobOwner, Int) in
            if current.stopping { throw DaemonError(.busy, "the daemon is stopping") }
            // A request that waited in a lane while its client went away:
            // played anyway only when a disconnect would not have cancelled it.
            if cancelOnDisconnect && !current.liveClients.contains(client) {
                throw DaemonError(.cancelled, "the client went away before its \(work.word) was queued")
            }
            return (JobOwner(client: client, user: current.user(of: client)), current.configuration.queueLimit)
        }
        let options = JobOptions(
            owner: owner, endsWithClient: cancelOnDisconnect, queueLimit: limited ? limit : nil,
            queued: { [self] job in broadcast(JobEvent(job: job, state: .queued, progress: 0)) },
            started: { [self] job, _ in broadcast(JobEvent(job: job, state: .running, progress: 0)) },
            ended: { [self] entry, result in
                if case .press(let press) = work { pressEnded(press, client: client, result) }
                finish(entry, work, result, client: client, requestID: requestID, waits: waits)
            })
        do {
            switch work {
            case .play(let gesture, let playOptions):
                let request = PlayRequest(
                    gesture: gesture, target: .profile(profile), options: playOptions, leadIn: .zero, keepDevice: true,
                    output: device.output)
                return try engine.startPlay(request, job: options).id
            case .press(let press):
                return try engine.startPress(PressRequest(press: press, leadIn: .zero, keepDevice: true, output: device.output), job: options).id
            }
        } catch let error as PlayQueueError {
            switch error {
            case .cannotPlay(let refusal): throw DaemonError(.badArgument, "\(work.word): \(refusal)")
            case .full(let waiting): throw DaemonError(.busy, "the \(device) has \(waiting) \(work.word)s waiting; try again later")
            case .retired: throw Self.notReady(device)
            }
        } catch let refusal as PlaybackError {
            throw DaemonError(.badArgument, "\(work.word): \(refusal)")
        } catch {
            throw DaemonError(.notFound, "the \(device) is not ready: \(DaemonLog.oneLine(String(describing: error)))")
        }
    }

    /// The answer when no device of a kind is kept ready through an output.
    static func notReady(_ device: ReadyDevice) -> DaemonError {
        device.output == .uinput
            ? DaemonError(.notFound, "no \(device.kind.rawValue) is kept ready (the configuration's \"devices\" does not name it)")
            : DaemonError(
                .notFound,
                "no \(device) is kept ready (the configuration's \"outputs\" must name \(device.output.word) and \"devices\" \(device.kind.rawValue); through \(device.output.word), only touchscreen, mouse and keyboard)")
    }

    /// The placement a play asks for (`at`, `scale`, `rotate`), checked as
    /// far as it can be without the gesture; `nil` when none is given.
    private static func placement(_ arguments: Arguments) throws(DaemonError) -> PlayPlacement? {
        guard arguments.has(.at) || arguments.has(.scale) || arguments.has(.rotate) else { return nil }
        var placement = PlayPlacement()
        if arguments.has(.at) {
            let wanted = "[x, y]: numbers of mm from the top-left corner, or strings of percents of the surface such as [\"80%\", \"90%\"]"
            guard case .array(let items)? = arguments.value(.at), items.count == 2 else {
                throw DaemonError(.badArgument, "play: \"at\" must be \(wanted)")
            }
            var coordinates: [PlayPlacement.Coordinate] = []
            for item in items {
                switch item {
                case .number(let text):
                    guard let value = Double(text), value.isFinite else {
                        throw DaemonError(.badArgument, "play: \"at\": \(text) is not a finite number")
                    }
                    coordinates.append(.millimetres(value))
                case .string(let text) where text.hasSuffix("%"):
                    guard let coordinate = PlayPlacement.Coordinate(text) else {
                        throw DaemonError(.badArgument, "play: \"at\": \(item.jsonText) is not a percent such as \"80%\"")
                    }
                    coordinates.append(coordinate)
                default:
                    throw DaemonError(.badArgument, "play: \"at\" must be \(wanted), not \(item.jsonText) in it")
                }
            }
            placement.at = PlayPlacement.Point(x: coordinates[0], y: coordinates[1])
        }
        let any = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        if let scale = try arguments.number(.scale, in: any) { placement.scale = scale }
        if let degrees = try arguments.number(.rotate, in: any) { placement.degrees = degrees }
        do {
            try placement.validate()
        } catch {
            throw DaemonError(.badArgument, "play: \"\(error.part.rawValue)\": \(error.message)")
        }
        return placement
    }

    /// Cancels a job: a queued one ends at once, a running one lifts
    /// everything and ends.
    private func cancel(_ job: Int, client: Int) throws(DaemonError) {
        if try cancelRecording(job, client: client) { return }
        if try cancelFingertips(job, client: client) { return }
        guard let entry = engine.jobs.entry(job) else {
            throw DaemonError(.notFound, "no job \(job) (finished jobs are forgotten)")
        }
        guard state.withLock({ $0.mayAct(on: entry.owner.user, client: client) }) else {
            throw ServerState.notYours("play or press", job)
        }
        engine.jobs.cancel(job)
    }

    /// Ends a job: its event, and its reply if its client waits.
    private func finish(
        _ entry: EngineJobs.Entry, _ work: JobWork, _ result: PlaybackResult, client: Int, requestID: JSONValue, waits: Bool
    ) {
        let job = entry.id
        let written: Int
        let state: JobState
        var error: DaemonError?
        let released = if case .press = work { "every key released" } else { "every finger lifted" }
        switch result.outcome {
        case .completed:
            state = .done
            written = result.lateness.count
        case .cancelled(let frames):
            state = .cancelled
            written = frames
            error = DaemonError(.cancelled, "job \(job) was cancelled after \(frames) frames; \(released)")
        case .failed(let failure, let frames):
            state = .failed
            written = frames
            error = (failure as? DaemonError) ?? DaemonError(.internal, "playing failed after \(frames) frames: \(failure); \(released)")
        }
        broadcast(JobEvent(job: job, state: state, progress: written))
        guard waits else { return }
        if let error {
            reply(client, DaemonReply.failure(id: requestID, error: error))
        } else if case .press(let press) = work {
            reply(
                client,
                DaemonReply.success(
                    id: requestID,
                    result: Self.pressResult(press, result, job: job, state: state, device: entry.devnode, frames: written).json))
        } else {
            let played = PlayResult(
                job: job, state: state.rawValue, device: entry.devnode, frames: written,
                latenessMaximum: result.lateness.maximum.rawValue, latenessMedian: result.lateness.median.rawValue,
                latenessPercentile99: result.lateness.percentile99.rawValue)
            reply(client, DaemonReply.success(id: requestID, result: played.json))
        }
    }

    // MARK: Helpers

    private func devicesResult() -> JSONValue {
        let ready = state.withLock { current in
            current.configuration.readyDevices.compactMap { device in current.ready[device].map { (device, $0) } }
        }
        let inputDevices: [JSONValue]
        do {
            inputDevices = try InputDevicesJSON.list()
        } catch {
            // The ready devices are still worth the reply; the list is empty.
            log.warning("devices: the input devices cannot be listed (\(error))")
            inputDevices = []
        }
        return DevicesResult(
            ready: ready.map { device, profile in
                let node: String?
                // A question makes nothing: a device not made yet (a HID
                // output whose host is not plugged in) has a null node, and
                // is made when a play asks for it.
                node = engine.existingReadyDevice(profile, output: device.output)?.devnode
                return DevicesResult.Ready(kind: device.kind.rawValue, node: node, output: device.output == .uinput ? nil : device.output.word)
            },
            devices: inputDevices
        ).json
    }

    /// A library gesture's summary for `list`: as `gesturectl list` shows
    /// it, "unreadable" and why for a file that cannot be read.
    private func summary(ofFileAt path: String) -> String {
        do {
            return describe(try GestureFile.load(path: path, regularOnly: true))
        } catch {
            return "unreadable: \(DaemonLog.oneLine("\(error)"))"
        }
    }

    private func loadNamed(_ name: String) throws -> Gesture {
        let library = state.withLock { $0.library }
        return try libraryCall { () throws(LibraryError) in try gestureCache.gesture(named: name, in: library) }
    }

    /// The inline gesture of a request, read by the gesture file reader from
    /// the request's own bytes.
    private func inlineGesture(_ request: DaemonRequest, _ arguments: Arguments) throws(DaemonError) -> Gesture {
        guard case .object(_, let span)? = arguments.value(.gesture) else {
            throw DaemonError(.badArgument, "\(request.op): \"gesture\" must be a gesture object (the file format's JSON object)")
        }
        do {
            // The request's parse checked the gesture's JSON with the rest of the line.
            return try GestureFileFormat.decode(checkedJSON: Array(request.line[span]), source: "\"gesture\"")
        } catch {
            throw DaemonError(.badArgument, "\(request.op): \(error)")
        }
    }

    func libraryCall<Result>(_ body: () throws(LibraryError) -> Result) throws(DaemonError) -> Result {
        do {
            return try body()
        } catch {
            switch error.kind {
            case .notFound: throw DaemonError(.notFound, error.message)
            case .alreadyExists: throw DaemonError(.exists, error.message)
            case .invalidName: throw DaemonError(.badArgument, error.message)
            case .permissionDenied: throw DaemonError(.permissionDenied, error.message)
            default: throw DaemonError(.internal, error.message)
            }
        }
    }
}

extension Dispatcher {
    // MARK: Bound actions

    /// Queues a binding's action as a job nobody waits for, through the
    /// same queues as `play` and `press`; returns the job.
    func queueBound(_ action: TriggerBinding.Action) throws -> Int {
        switch action {
        case .create, .menu, .fingertips, .screenMenu:
            throw DaemonError(.badArgument, "a create flow, a menu, fingertips or the on-screen menu are no job")
        case .press(let name, _):
            let key = try VirtualKeyboard.key(named: name)
            return try queuePress(KeyPress(key: key.code), client: 0, requestID: .null, waits: false, limited: true)
        case .play(let name, let kind):
            let library = state.withLock { $0.library }
            let gesture: Gesture
            do {
                gesture = try gestureCache.gesture(named: name, in: library)
            } catch {
                throw DaemonError(.notFound, "cannot play \"\(DaemonLog.oneLine(name))\": \(error)")
            }
            return try queuePlay(
                gesture, options: PlaybackOptions(), on: ReadyDevice(kind: kind), client: 0, requestID: .null, waits: false, cancelOnDisconnect: false)
        }
    }

    /// The emergency stop: cancels every job (running plays lift every
    /// finger, queued ones never start, a recording stops as on a `cancel`
    /// of its job, its result kept for `record-stop`), forgets which
    /// clients hold keys, and releases every key down on the keyboard
    /// (``GestureEngine/Engine/emergencyStop()``, which makes no device).
    /// The daemon keeps running and the bindings stay.
    func emergencyStop(because reason: String) {
        state.withLock { $0.heldKeys = HeldKeys() }
        let recording = recordingSlot.withLock { $0.recording }
        // Everyone's: the emergency stop is the rig's, whoever started what.
        let cancelled = engine.emergencyStop()
        log.warning("emergency stop (\(reason)): cancelling \(cancelled + (recording == nil ? 0 : 1)) job(s), releasing every key")
        recording?.recording.cancel()
        cancelAllFingertips()
    }
}
