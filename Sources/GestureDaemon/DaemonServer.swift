import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import OperatingSystem
import Synchronization

/// The daemon: a Unix socket server over the engine, for test rigs and
/// switch users (docs/PROTOCOL.md).
///
/// One I/O thread (`gesturectl-io`) polls the listening socket and every
/// client: it reads request lines, answers the quick operations itself,
/// and queues plays and presses on the ready devices' queues, which the
/// engine owns (``GestureEngine/PlayQueue``): one request after another on
/// a device, so plays on one device never interleave and different devices
/// play in parallel. Replies and pushed events go into each client's bounded output
/// buffer and are written as the client reads; a client that does not read
/// loses pushed events (counted, and told in a `dropped` event), never
/// stalls the daemon. Every connection's peer is checked when it connects
/// (root, or a member of the configured group).
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
        /// The group id allowed to connect (`nil`: root only).
        public var allowedGroup: UInt32?
        /// How much the daemon buffers for its clients.
        public var limits: Limits
        /// Where bindings changed over the socket are saved
        /// (`/var/lib/gesturectl/bindings.json` for the system service);
        /// `nil`: they last until the daemon stops.
        public var bindingsPath: String?

        /// Creates a set-up.
        public init(
            listening: FileDescriptor, createdSocketPath: String?, library: GestureLibrary,
            configuration: DaemonConfiguration, allowedGroup: UInt32?, bindingsPath: String? = nil, limits: Limits = Limits()
        ) {
            self.listening = listening
            self.createdSocketPath = createdSocketPath
            self.library = library
            self.configuration = configuration
            self.allowedGroup = allowedGroup
            self.bindingsPath = bindingsPath
            self.limits = limits
        }
    }

    /// The daemon's bounds on what it holds for its clients (docs/PROTOCOL.md,
    /// "Limits"). The defaults are the protocol's; tests make them small.
    public struct Limits: Sendable, Hashable {
        /// The longest request line (without its newline): a longer one is
        /// answered `too-large` and the connection closed.
        public var lineBytes: Int
        /// Pushed events are dropped (and counted) for a client whose unread
        /// output exceeds this.
        public var eventBufferBytes: Int
        /// A client whose unread replies exceed this is disconnected (its
        /// output discarded).
        public var replyBufferBytes: Int
        /// Unread input (an incomplete line) each client may have buffered
        /// whatever the others hold.
        public var freeInputBytes: Int
        /// All clients' unread input together: beyond it, of the clients whose
        /// incomplete line is over `freeInputBytes` only the one with the
        /// longest is read (the others' writes wait in the kernel) until it
        /// completes. With 100 clients sending 64 MiB lines at once, the
        /// daemon holds at most this + one line + `freeInputBytes` (and a
        /// 64 KiB read) per client — 128 + 64 + 100 × 1 MiB ≈ 300 MiB with
        /// the defaults — not 6.4 GB.
        public var inputBudgetBytes: Int

        /// Creates limits; the defaults are the daemon's.
        public init(
            lineBytes: Int = DaemonRequest.maximumLineBytes, eventBufferBytes: Int = 1 << 20,
            replyBufferBytes: Int = 256 << 20, freeInputBytes: Int = 1 << 20, inputBudgetBytes: Int = 128 << 20
        ) {
            self.lineBytes = lineBytes
            self.eventBufferBytes = eventBufferBytes
            self.replyBufferBytes = replyBufferBytes
            self.freeInputBytes = freeInputBytes
            self.inputBudgetBytes = inputBudgetBytes
        }
    }

    /// The daemon's protocol version (`version`'s `protocol`).
    public static let protocolVersion = 1
    let engine: Engine
    /// Held while a ready device is made after start (``readyQueue(_:)``).
    private let lateStart = Mutex(())
    let recordings: RecordingProvider
    let log: DaemonLog
    let version: String
    let state: Mutex<ServerState>
    let wake: EventCounter
    let listening: FileDescriptor
    let createdSocketPath: String?
    let limits: Limits
    let bindingsPath: String?
    let triggers: TriggerWatcher
    let finished = JobHandle<Int32, Never>()
    /// Library gestures already read, while their files are unchanged.
    let gestureCache = GestureCache()
    /// Signalled when the last job ends while stopping.
    let jobsEnded = Semaphore(value: 0)

    /// Creates the server; nothing runs until ``start()``. Its ready
    /// devices are the engine's kept devices (an engine made with a
    /// ``GestureEngine/DeviceFactory`` of test doubles in tests), recordings
    /// come from `recordings` (by default the engine reading input devices),
    /// trigger watches from `triggers` (by default the engine's, on real devices).
    public init(
        setup: Setup, engine: Engine, recordings: RecordingProvider? = nil,
        triggers: TriggerWatcher? = nil, log: DaemonLog, version: String
    ) throws(SystemError) {
        self.engine = engine
        self.recordings = recordings ?? .engine(engine)
        self.triggers = triggers ?? .engine(engine)
        bindingsPath = setup.bindingsPath
        self.log = log
        self.version = version
        listening = setup.listening
        createdSocketPath = setup.createdSocketPath
        limits = setup.limits
        wake = try EventCounter()
        state = Mutex(
            ServerState(
                library: setup.library, configuration: setup.configuration, allowedGroup: setup.allowedGroup))
    }

    /// Creates the ready devices and starts the I/O thread. Returns once the
    /// daemon accepts requests.
    /// - Throws: ``OperatingSystem/SystemError`` when a device or a thread
    ///   cannot be made (no uinput, no access).
    public func start() throws {
        // A socket handed over by socket activation is blocking: the I/O
        // thread accepts until "would block", so it must not be.
        try listening.setNonBlocking()
        let ready = state.withLock { $0.configuration.readyDevices }
        for device in ready {
            do {
                try startDevice(device)
            } catch where device.output != .uinput {
                // A HID output may not be usable yet (a gadget whose host is
                // not plugged in): said, and made when a play asks for it.
                log.warning("the \(device) is not ready yet (\(error)); it is made when a play asks for it")
            }
        }
        try DedicatedThread.start(Self.ioThread) { [self] in
            runLoop()
            finished.finish(0)
        }
        startTriggers()
    }

    /// The unread input the daemon holds for all its clients (incomplete
    /// lines), in bytes: bounded by ``Limits/inputBudgetBytes`` plus
    /// ``Limits/freeInputBytes`` per client.
    public var bufferedInputBytes: Int { state.withLock { $0.bufferedInput } }

    /// Waits until the server has stopped (after ``stop()``).
    public func stopped() async -> Int32 { await finished.finished() }

    /// Stops: refuses new work, cancels every job (each lifts every finger),
    /// waits for them, destroys the virtual devices, closes the clients and
    /// removes the socket file it created. Safe from any thread; later calls
    /// do nothing.
    public func stop() {
        let (first, running, queues) = state.withLock { current -> (Bool, [JobHandle<PlaybackResult, PlaybackProgress>], [PlayQueue]) in
            if current.stopping { return (false, [], []) }
            current.stopping = true
            return (true, current.jobs.values.map(\.handle), Array(current.queues.values))
        }
        guard first else { return }
        cancelTriggerWatches()
        stopAssist()
        log.notice("stopping: cancelling \(running.count) job(s)")
        for handle in running { handle.cancel() }
        // Queued jobs end at once, cancelled before they started.
        for queue in queues { queue.retire() }
        // Wait until every job has ended and queued its reply (not only
        // until the players stopped: the replies come after).
        if state.withLock({ !$0.jobs.isEmpty }) { jobsEnded.wait() }
        stopRecordingForShutdown()
        releaseAllHeldKeys()
        engine.closeKeptDevices()
        // Every reply of the cancelled jobs is queued by now: the I/O thread
        // may finish once they are written.
        state.withLock { $0.drained = true }
        wake.signal()
    }

    /// Applies a new configuration (SIGHUP): the group and queue limit at
    /// once; devices added are created, devices removed are closed.
    public func reload(_ configuration: DaemonConfiguration, allowedGroup: UInt32?, library: GestureLibrary) {
        gestureCache.clear()
        let (added, removed) = state.withLock { current -> ([ReadyDevice], [ReadyDevice]) in
            let old = current.configuration.readyDevices
            current.configuration = configuration
            current.allowedGroup = allowedGroup
            current.library = library
            let new = configuration.readyDevices
            return (new.filter { !old.contains($0) }, old.filter { !new.contains($0) })
        }
        for device in added {
            do { try startDevice(device) } catch { log.error("cannot create the \(device): \(error)") }
        }
        for device in removed {
            guard let queue = state.withLock({ $0.queues.removeValue(forKey: device) }) else { continue }
            // Its waiting plays end cancelled; the device goes once the
            // running one has ended.
            queue.retire { [engine] in engine.forgetDevice(queue.profile, output: queue.output) }
        }
        syncTriggerWatches()
        log.notice("configuration reloaded: devices \(configuration.readyDevices.map(\.description).joined(separator: ", "))")
    }

    // MARK: Devices and their workers

    /// The ready device of a kind through uinput
    /// (``GestureEngine/Engine/builtinReadyProfile(kind:)``; the
    /// configuration and `play`'s "as" only let the four playable kinds and
    /// the keyboard through, anything else is the touchscreen).
    public static func profile(for kind: DeviceKind) -> VirtualDeviceProfile {
        (try? Engine.builtinReadyProfile(kind: kind)) ?? .touchscreen()
    }

    /// The queue of a ready device, made now when the configuration names
    /// it but it could not be made at start (a HID output's device: a
    /// gadget whose host was not plugged in). One at a time: a play that
    /// finds it being made waits for that.
    /// - Throws: `not-found` when the configuration does not name it or it
    ///   still cannot be made (saying why).
    func readyQueue(_ device: ReadyDevice) throws(DaemonError) -> PlayQueue {
        if let queue = state.withLock({ $0.queues[device] }), !queue.isRetired { return queue }
        guard state.withLock({ $0.configuration.readyDevices.contains(device) && !$0.stopping }) else {
            throw Self.notReady(device)
        }
        return try lateStart.withLock { _ throws(DaemonError) -> PlayQueue in
            if let queue = state.withLock({ $0.queues[device] }), !queue.isRetired { return queue }
            do {
                try startDevice(device)
            } catch {
                throw DaemonError(.notFound, "the \(device) is not ready: \(DaemonLog.oneLine(String(describing: error)))")
            }
            guard let queue = state.withLock({ $0.queues[device] }) else { throw Self.notReady(device) }
            return queue
        }
    }

    private func startDevice(_ device: ReadyDevice) throws {
        let profile = try engine.readyProfile(kind: device.kind, output: device.output)
        let session = try engine.readyDevice(profile, output: device.output)
        log.info("ready: \(device) at \(session.devnode ?? "?")")
        let queue = engine.queue(for: profile, output: device.output)
        queue.observeRemade { [self] session, error in
            log.warning("the \(device) vanished (\(error)); making it again")
            broadcast(.device, Self.deviceFields(device, node: session?.devnode, state: .recreated))
        }
        state.withLock { $0.queues[device] = queue }
        broadcast(.device, Self.deviceFields(device, node: session.devnode, state: .added))
    }

    /// The fields of a `device` event: kind, node, state, and the output
    /// when it is not uinput.
    static func deviceFields(_ device: ReadyDevice, node: String?, state: DeviceEventState) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("kind", .string(device.kind.rawValue)), ("node", node.map(JSONValue.string) ?? .null)]
        if device.output != .uinput { fields.append(("to", .string(device.output.word))) }
        fields.append(("state", .string(state.rawValue)))
        return fields
    }

    /// The I/O thread: named `gesturectl-io`.
    public static let ioThread = ThreadOptions(name: "gesturectl-io")

    /// The thread that starts an idle ready device's next play
    /// (``GestureEngine/Engine/queueThread(_:_:)``): `gesturectl-q-ts`
    /// through uinput, `gesturectl-h-ts` through uhid, `gesturectl-g-ts`
    /// through a gadget.
    public static func workerThread(for device: ReadyDevice) -> ThreadOptions {
        Engine.queueThread(device.kind, device.output)
    }

    // MARK: Output to clients

    /// Queues `line` for a client (a reply: never dropped; a client that lets
    /// replies pile up past the limit is disconnected, its output discarded).
    func reply(_ clientID: Int, _ line: String) {
        let cutOff = state.withLock { current -> Bool in
            // In place (through the dictionary's subscript): a copy of the
            // client would copy its whole output for every reply.
            current.clients[clientID]?.appendOutput(line.utf8)
            guard let pending = current.clients[clientID]?.pendingOutput, pending > limits.replyBufferBytes,
                current.clients[clientID]?.writeBlocked == true, current.clients[clientID]?.overflowed == false
            else { return false }
            current.clients[clientID]?.overflowed = true
            current.clients[clientID]?.discardOutput()
            return true
        }
        if cutOff { log.warning("client \(clientID) does not read its replies (over \(limits.replyBufferBytes) bytes unread); disconnecting") }
        wake.signal()
    }

    /// Pushes an event to every client subscribed to `name`; a client whose
    /// unread output is over the limit loses it (counted).
    func broadcast(_ event: DaemonEvent, _ fields: [(String, JSONValue)]) {
        let line = Array(DaemonReply.event(event, fields).utf8)
        let limit = limits.eventBufferBytes
        let startedDropping = state.withLock { current -> [Int] in
            var started: [Int] = []
            // The ids copied first: iterating the dictionary itself while
            // changing its clients would copy it, and every client's output.
            for id in Array(current.clients.keys) where current.clients[id]?.subscriptions.contains(event) == true {
                if current.clients[id]?.pushEvent(line, limit: limit) == true { started.append(id) }
            }
            return started
        }
        for id in startedDropping {
            log.warning("client \(id) does not read: over \(limit) bytes wait for it; its events are dropped (and counted) until it reads")
        }
        wake.signal()
    }
}

/// One connected client, as the I/O thread and the workers share it.
/// Mutated in place in ``ServerState/clients`` (never copied out and back:
/// its buffers can be megabytes).
struct ClientState: Sendable {
    let id: Int
    let socket: FileDescriptor
    let peer: PeerCredentials
    /// Unread input: an incomplete line, without a newline in it.
    var input: [UInt8] = []
    /// Output; the bytes before `outputStart` are sent.
    var output: [UInt8] = []
    var outputStart = 0
    /// Close once the output is written (refused peers, oversize lines).
    var closing = false
    /// Its replies went over the limit: disconnect it now.
    var overflowed = false
    var subscriptions: Set<DaemonEvent> = []
    var droppedEvents = 0
    /// The socket refused part of the last write: its buffer is full, the
    /// client is not reading. Only then do the output limits apply, so that
    /// the replies and events queued between two writes (a burst of
    /// pipelined requests) are not taken for a client that does not read.
    var writeBlocked = false

    /// Bytes queued and not yet sent.
    var pendingOutput: Int { output.count - outputStart }

    mutating func appendOutput<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard !overflowed else { return }
        output.append(contentsOf: bytes)
    }

    mutating func discardOutput() {
        output = []
        outputStart = 0
    }

    /// Sends what the socket takes now (non-blocking).
    mutating func sendOutput() throws {
        guard pendingOutput > 0 else { return }
        let start = outputStart
        let socket = socket
        let sent = try output.withUnsafeBytes { bytes in
            try UnixSocket.sendAvailable(socket, UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
        writeBlocked = sent < output.count - start
        consumeOutput(sent)
    }

    /// Marks `count` more bytes sent, and frees the sent part now and then.
    mutating func consumeOutput(_ count: Int) {
        outputStart = min(output.count, outputStart + count)
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 16)
            outputStart = 0
        } else if outputStart >= 1 << 20 && outputStart * 2 >= output.count {
            output.removeFirst(outputStart)
            outputStart = 0
        }
    }

    /// Queues a pushed event, or counts it as dropped when more than
    /// `limit` bytes wait; true when this starts a run of drops.
    mutating func pushEvent(_ line: [UInt8], limit: Int) -> Bool {
        if pendingOutput > limit && writeBlocked {
            droppedEvents += 1
            return droppedEvents == 1
        }
        flushDropped(limit: limit)
        appendOutput(line)
        return false
    }

    /// Adds `bytes` to the input and takes the complete lines out (without
    /// their newlines). A line longer than `limit` (complete or not) stops
    /// it: the lines before it are returned, nothing after, and the input is
    /// emptied. Only the new bytes are searched for newlines.
    mutating func takeLines(_ bytes: ArraySlice<UInt8>, limit: Int) -> (lines: [[UInt8]], tooLarge: Bool) {
        var lines: [[UInt8]] = []
        var lineStart = 0  // in input
        let searchFrom = input.count
        input.append(contentsOf: bytes)
        var index = searchFrom
        while let newline = input[index...].firstIndex(of: 0x0A) {
            if newline - lineStart > limit {
                input = []
                return (lines, true)
            }
            lines.append(Array(input[lineStart..<newline]))
            lineStart = newline + 1
            index = lineStart
        }
        if input.count - lineStart > limit {
            input = []
            return (lines, true)
        }
        if lineStart > 0 { input.removeFirst(lineStart) }
        return (lines, false)
    }

    /// Queues the `dropped` event once the output is back under `limit`
    /// (or the socket took all it was given).
    mutating func flushDropped(limit: Int) {
        guard droppedEvents > 0, pendingOutput <= limit || !writeBlocked else { return }
        appendOutput(DaemonReply.event(.dropped, [("count", .integer(droppedEvents))]).utf8)
        droppedEvents = 0
    }
}

/// A play, from the request to its end.
struct JobRecord: Sendable {
    enum State: String, Sendable { case queued, running, done, cancelled, failed }

    let id: Int
    let kind: DeviceKind
    /// How its device is made.
    var output: PlayOutput = .uinput
    let clientID: Int
    let requestID: JSONValue
    let waits: Bool
    let cancelOnDisconnect: Bool
    let handle: JobHandle<PlaybackResult, PlaybackProgress>
    /// A press of a key on the keyboard instead of a play: DaemonServer+Press.swift.
    var press: KeyPress? = nil
    var state: State = .queued
    /// The node of the device it played on, once it runs.
    var devnode: String?

    /// The ready device it plays on.
    var device: ReadyDevice { ReadyDevice(kind: kind, output: output) }
}

/// Everything the server's threads share, behind one lock.
struct ServerState: Sendable {
    var library: GestureLibrary
    var configuration: DaemonConfiguration
    var allowedGroup: UInt32?
    var clients: [Int: ClientState] = [:]
    var jobs: [Int: JobRecord] = [:]
    /// The engine's queue of each ready device.
    var queues: [ReadyDevice: PlayQueue] = [:]
    var nextClientID = 0
    var nextJobID = 0
    var stopping = false
    /// The unread input of all clients together (their `input`s' sizes).
    var bufferedInput = 0
    /// Set by `stop()` once every job has ended and queued its reply.
    var drained = false
    /// The keys each client holds down with `press` `down`.
    var heldKeys = HeldKeys()
    /// The custom actions: saved bindings and trigger watches (DaemonServer+Bindings.swift).
    var triggers = TriggerState()
    /// The one recording, until collected: DaemonServer+Record.swift.
    var recording: RecordingRecord?
    /// The create flow or menu a binding started, while it runs: DaemonServer+Create.swift.
    var assist: AssistRun?
    var nextAssistID = 0
}
