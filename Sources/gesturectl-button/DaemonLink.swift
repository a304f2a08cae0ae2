import ButtonModel
import CGtk
import GestureFormat
import GestureModel
import GestureProtocol
import OperatingSystem

/// Why a request to the daemon did not do what was asked, as shown.
struct LinkFailure: Error, Sendable {
    /// For people: the daemon's own message, or why it cannot be reached.
    var message: String
    /// The daemon could not be reached at all (no daemon, no permission).
    var unreachable: Bool
}

/// What a request's thread hands back to the main loop.
enum LinkReply: Sendable {
    /// `version`: the daemon's version.
    case version(String)
    /// `list`: the library.
    case list([ButtonMenu.SavedGesture])
    /// A `play` was queued as this job (more replies follow: its end).
    case queued(job: Int)
    /// The play's job ended in this state (done, cancelled, failed).
    case ended(JobState)
    /// `show`: the gesture (its file's object, read).
    case shown(Gesture)
    /// `press` or `cancel` done.
    case done
    /// `subscribe` answered: events follow, each as `.event`.
    case subscribed
    /// A pushed event of a subscription.
    case event(JSONValue)
    /// `record-start`: the daemon records from `device` (its name) as
    /// `job`; its surface lies on the canvas as `area` says.
    case recordStarted(job: Int, device: String, area: CanvasArea)
    /// A stroke of the recording, as it lifted (a `record` event).
    case stroke(CanvasStroke)
    /// The recording ended: the waiting `record-stop`'s result.
    case recordEnded(CanvasFlow.Ending)
    /// `save`: saved under this name.
    case saved(String)
    /// `fingertips`: running as `job`, from `source` (its name), driven as
    /// `kind` says; `handle` cancels them.
    case fingertipsStarted(job: Int, source: String, kind: String, handle: FingertipsHandle)
    /// They are ready: the daemon's line (how the source moves them).
    case fingertipsReady(String)
    /// They ended: the reason word (`nil`: unknown, or the connection broke) and the words.
    case fingertipsEnded(reason: String?, message: String)
    /// It failed.
    case failed(LinkFailure)
}

/// The button's way to the daemon: GestureProtocol's ``DaemonClient``, one
/// connection per request, each on its own short-lived thread, so that GTK's
/// main loop never waits for the daemon. A reply comes back to the main
/// thread through `g_idle_add`, to the handler given with the request. No
/// connection is kept while nothing happens, so a daemon started later is
/// found by the next request (and nothing polls).
final class DaemonLink {
    /// The socket, found as `gesturectl` finds it.
    let path: String
    private var handlers: [Int: (LinkReply) -> Void] = [:]
    private var nextRequest = 0

    init(path: String) { self.path = path }

    /// `version`.
    func version(_ handler: @escaping (LinkReply) -> Void) {
        run(handler) { client throws(LinkFailure) in
            let result = try Self.call(client, .version)
            do throws(DaemonError) {
                return .version(try VersionResult(result).version)
            } catch {
                throw LinkFailure(message: error.message, unreachable: false)
            }
        }
    }

    /// `list`: the saved gestures.
    func list(_ handler: @escaping (LinkReply) -> Void) {
        run(handler) { client throws(LinkFailure) in
            let result = ListResult(try Self.call(client, .list))
            let gestures = (result.gestures ?? []).map { ButtonMenu.SavedGesture(name: $0.name, summary: $0.summary) }
            return .list(gestures)
        }
    }

    /// `show`: a saved gesture, to draw its fingers while it is placed.
    func show(_ name: String, _ handler: @escaping (LinkReply) -> Void) {
        run(handler) { client throws(LinkFailure) in
            let result = try Self.call(client, .show(name: name))
            guard let member = result["gesture"] else {
                throw LinkFailure(message: "the daemon's show reply has no gesture", unreachable: false)
            }
            do throws(GestureFormatError) {
                return .shown(try GestureFileFormat.decode(json: member, source: "the daemon's \"\(name)\""))
            } catch {
                throw LinkFailure(message: "\(error)", unreachable: false)
            }
        }
    }

    /// `subscribe` to `events` on a connection kept open for as long as the
    /// daemon keeps it: `.subscribed`, then each event as `.event`, and
    /// `.failed` (the last reply) when it cannot be made or breaks. The
    /// thread waits in a read: nothing wakes while no event comes.
    func subscribe(_ events: [DaemonEvent], _ handler: @escaping (LinkReply) -> Void) {
        stream(handler) { client, replies throws(LinkFailure) in
            _ = try Self.call(client, .subscribe(events))
            replies.more(.subscribed)
            while true {
                do throws(DaemonUnreachable) {
                    replies.more(.event(try client.nextEvent()))
                } catch {
                    throw LinkFailure(message: "the connection to the daemon broke: \(error.reason)", unreachable: true)
                }
            }
        }
    }

    /// `press` {key, tap}, with `force` for power.
    func press(key: String, force: Bool, _ handler: @escaping (LinkReply) -> Void) {
        run(handler) { client throws(LinkFailure) in
            _ = try Self.call(client, .press(key: key, action: .tap, force: force))
            return .done
        }
    }

    /// `cancel` {job}.
    func cancel(job: Int, _ handler: @escaping (LinkReply) -> Void) {
        run(handler) { client throws(LinkFailure) in
            _ = try Self.call(client, .cancel(job: .integer(job)))
            return .done
        }
    }

    /// `play` {name, at: [x%, y%], wait: false} on the touchscreen: first
    /// `.queued(job)`, then `.ended(state)` when the job's event says it
    /// ended (or `.failed`). The connection stays open until then: the
    /// daemon cancels a play whose client goes away.
    func play(_ name: String, at placement: PlayPlacement, _ handler: @escaping (LinkReply) -> Void) {
        let call = DaemonCall.play(
            .name(name), kind: "touchscreen", at: (.percent(placement.xPercent), .percent(placement.yPercent)), wait: false)
        stream(handler) { client, replies throws(LinkFailure) in
            client.keepsEvents = true
            _ = try Self.call(client, .subscribe([.job]))
            let queued = try Self.call(client, call)
            let job: Int
            do throws(DaemonError) {
                job = try QueuedResult(queued).job
            } catch {
                throw LinkFailure(message: error.message, unreachable: false)
            }
            replies.more(.queued(job: job))
            while true {
                let event: JSONValue
                do throws(DaemonUnreachable) {
                    event = try client.nextEvent()
                } catch {
                    throw LinkFailure(message: "the connection to the daemon broke while it played: \(error.reason)", unreachable: true)
                }
                do throws(DaemonError) {
                    if let ended = try JobEvent(event, job: .integer(job)), ended.isFinal {
                        replies.last(.ended(ended.state))
                        return
                    }
                } catch {
                    throw LinkFailure(message: error.message, unreachable: false)
                }
            }
        }
    }

    /// Create New Gesture's recording: `subscribe` {record} and
    /// `record-start` {name, device} on one connection, then a `record-stop`
    /// {wait} sent on it without waiting, so that the strokes pushed
    /// meanwhile come as they are drawn: `.recordStarted`, each `.stroke`,
    /// then `.recordEnded` when the recording stops (a `cancel` of its job
    /// from ``cancel(job:_:)``, or by itself). The connection stays open
    /// until then: the daemon drops a recording whose client goes away.
    func record(device: String?, _ handler: @escaping (LinkReply) -> Void) {
        stream(handler) { client, replies throws(LinkFailure) in
            client.keepsEvents = true
            _ = try Self.call(client, .subscribe([.record]))
            let started = RecordStartResult(try Self.call(client, .recordStart(name: "recording", device: device)))
            guard let job = started.job, case .number(let text) = job, let jobNumber = Int(text) else {
                throw LinkFailure(message: "the daemon's record-start reply has no job", unreachable: false)
            }
            // Where its surface lies on the canvas: its axes, from the daemon's list.
            let listed = try? Self.call(client, .devices)
            let facts = listed.flatMap { DevicesResult($0).inputDevices.first { $0.node == started.device } }
            let area = facts.map { CanvasArea.device(kind: $0.kind, x: $0.x, y: $0.y) } ?? .relativePointer
            replies.more(.recordStarted(job: jobNumber, device: started.name ?? started.device ?? "the device", area: area))
            let waiting = try Self.send(client, .recordStop(wait: true))
            while true {
                let message: DaemonReplyLine
                do throws(DaemonUnreachable) {
                    message = try client.nextMessage()
                } catch {
                    throw LinkFailure(message: "the connection to the daemon broke while recording: \(error.reason)", unreachable: true)
                }
                switch message {
                case .event(let event):
                    // Harmless: an event that cannot be read is not drawn; the result has every stroke.
                    if let record = try? RecordEvent(event, job: job), let stroke = CanvasStroke(json: record.stroke) {
                        replies.more(.stroke(stroke))
                    }
                case .reply(let replyID, let outcome):
                    guard replyID == .integer(waiting) else { continue }
                    switch outcome {
                    case .success(let result): replies.last(.recordEnded(Self.ending(RecordStopResult(result))))
                    case .failure(let error): replies.last(.recordEnded(.failed(error.message)))
                    }
                    return
                }
            }
        }
    }

    /// How a `record-stop` result ended the recording, for the canvas.
    private static func ending(_ result: RecordStopResult) -> CanvasFlow.Ending {
        guard let json = result.gesture else { return .nothing(result.message ?? "no contact was recorded") }
        do throws(GestureFormatError) {
            let gesture = try GestureFileFormat.decode(json: json, source: "the daemon's recording")
            return .recorded(
                gesture, stopped: result.stopped ?? result.stopReason ?? "stopped", failure: result.stopCode?.isFailure ?? false,
                warnings: result.warnings)
        } catch {
            return .failed("its recording cannot be read: \(error)")
        }
    }

    /// `save` {name, gesture, force: false}: the recorded gesture, named
    /// `name` inside too, into the daemon's library.
    func save(_ gesture: Gesture, as name: String, _ handler: @escaping (LinkReply) -> Void) {
        var named = gesture
        named.name = name
        let json = GestureFileFormat.json(named)
        run(handler) { client throws(LinkFailure) in
            _ = try Self.call(client, .save(name: name, gesture: json, force: false))
            return .saved(name)
        }
    }

    /// `fingertips` {count, device, idle_ms}: started and followed as
    /// `gesturectl --socket … fingertips` does (GestureProtocol's
    /// ``RemoteFingertips``: one connection subscribed to their events,
    /// the other, which started them, cancels them when the handle is
    /// cancelled; its closing ends them too). `.fingertipsStarted`,
    /// `.fingertipsReady`, then `.fingertipsEnded` (or `.failed`: refused).
    func fingertips(count: Int, device: String?, _ handler: @escaping (LinkReply) -> Void) {
        let path = self.path
        stream(handler) { client, replies throws(LinkFailure) in
            let watcher = try Self.connect(path)
            let request = DaemonCall.fingertips(
                count: count, device: device, idleMilliseconds: Double(FingertipsFlow.idleMilliseconds))
            let started: (result: FingertipsStartResult, handle: FingertipsHandle)
            do {
                started = try RemoteFingertips.start(request, client: client, watcher: watcher) { event in
                    if case .ready(let line) = event { replies.more(.fingertipsReady(line)) }
                }
            } catch {
                throw Self.failure(error)
            }
            let result = started.result
            replies.more(.fingertipsStarted(job: result.job, source: result.name, kind: result.kind, handle: started.handle))
            started.handle.onCompletion { outcome in
                switch outcome {
                case .ended(let reason, let message):
                    replies.last(.fingertipsEnded(reason: reason?.rawValue, message: message))
                case .lost(let failure):
                    replies.last(.fingertipsEnded(reason: nil, message: Self.words(failure)))
                }
            }
        }
    }

    private static func words(_ failure: DaemonCallError) -> String {
        switch failure {
        case .daemon(let error): error.message
        case .unreachable(let error): error.description
        case .other(let text): text
        }
    }

    // MARK: the threads

    private func register(_ handler: @escaping (LinkReply) -> Void) -> Int {
        nextRequest += 1
        handlers[nextRequest] = handler
        return nextRequest
    }

    /// One request on its own thread: `body` gets a connected client; its
    /// reply is the last.
    private func run(_ handler: @escaping (LinkReply) -> Void, _ body: @escaping @Sendable (DaemonClient) throws(LinkFailure) -> LinkReply) {
        stream(handler) { client, replies throws(LinkFailure) in replies.last(try body(client)) }
    }

    /// A request on its own thread that may answer more than once: `body`
    /// gets a connected client and where to send replies; a failure (also
    /// of the connection) is the last reply.
    private func stream(
        _ handler: @escaping (LinkReply) -> Void, _ body: @escaping @Sendable (sending DaemonClient, Replies) throws(LinkFailure) -> Void
    ) {
        let replies = Replies(link: MainThreadOnly(self), id: register(handler))
        let path = self.path
        start {
            do throws(LinkFailure) {
                try body(try Self.connect(path), replies)
            } catch {
                replies.last(.failed(error))
            }
        }
    }

    private func start(_ body: @escaping @Sendable () -> Void) {
        do {
            try DedicatedThread.start(ThreadOptions(name: "button-daemon"), body)
        } catch {
            say("cannot start a thread to reach the daemon: \(error)")
        }
    }

    /// On the main thread: a reply for request `id`.
    func deliver(_ id: Int, _ reply: LinkReply, last: Bool) {
        guard let handler = handlers[id] else { return }
        if last { handlers[id] = nil }
        handler(reply)
    }

    private static func connect(_ path: String) throws(LinkFailure) -> DaemonClient {
        do {
            return try DaemonClient(path: path)
        } catch {
            throw LinkFailure(message: error.description, unreachable: true)
        }
    }

    /// A request sent without waiting for its reply (it comes with ``DaemonClient/nextMessage()``).
    private static func send(_ client: DaemonClient, _ request: DaemonCall) throws(LinkFailure) -> Int {
        do throws(DaemonUnreachable) {
            return try client.send(request)
        } catch {
            throw LinkFailure(message: error.description, unreachable: true)
        }
    }

    /// A call whose errors become a ``LinkFailure`` with the daemon's message.
    private static func call(_ client: DaemonClient, _ request: DaemonCall) throws(LinkFailure) -> JSONValue {
        do {
            return try client.call(request)
        } catch {
            throw failure(error)
        }
    }

    /// What a client's error is for the button: the daemon's message, or
    /// that it cannot be reached.
    private static func failure(_ error: any Error) -> LinkFailure {
        switch error {
        case let error as DaemonError: LinkFailure(message: error.message, unreachable: false)
        case let error as DaemonUnreachable: LinkFailure(message: error.description, unreachable: true)
        default: LinkFailure(message: "\(error)", unreachable: false)
        }
    }
}

/// Live fingertips' handle: cancelling it ends them (through the daemon).
typealias FingertipsHandle = JobHandle<RemoteFingertipsOutcome, RemoteFingertipsEvent>

/// A value that only the main thread touches, carried through another
/// thread untouched (the link, handed back with a reply).
struct MainThreadOnly<Value: AnyObject>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A reply on its way to the main loop.
private final class Posted: @unchecked Sendable {
    // @unchecked: made on a request's thread, read once on the main thread
    // after g_idle_add hands it over.
    let link: MainThreadOnly<DaemonLink>
    let id: Int
    let reply: LinkReply
    let last: Bool
    init(link: MainThreadOnly<DaemonLink>, id: Int, reply: LinkReply, last: Bool) {
        self.link = link
        self.id = id
        self.reply = reply
        self.last = last
    }
}

/// Where a request's thread sends its replies (to the main loop).
struct Replies: Sendable {
    let link: MainThreadOnly<DaemonLink>
    let id: Int

    /// A reply, more to come.
    func more(_ reply: LinkReply) { post(link, id, reply, last: false) }
    /// The last reply.
    func last(_ reply: LinkReply) { post(link, id, reply, last: true) }
}

/// Hands `reply` to the main loop (g_idle_add is safe from any thread).
private func post(_ link: MainThreadOnly<DaemonLink>, _ id: Int, _ reply: LinkReply, last: Bool) {
    let posted = Unmanaged.passRetained(Posted(link: link, id: id, reply: reply, last: last)).toOpaque()
    _ = g_idle_add(onPosted, posted)
}

private let onPosted: @convention(c) (gpointer?) -> gboolean = { data in
    let posted = Unmanaged<Posted>.fromOpaque(data!).takeRetainedValue()
    posted.link.value.deliver(posted.id, posted.reply, last: posted.last)
    return 0  // G_SOURCE_REMOVE
}
