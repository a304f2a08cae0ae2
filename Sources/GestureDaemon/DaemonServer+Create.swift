import GestureAssist
import GestureEngine
import GestureLibrary
import GestureModel
import GestureRecording
import OperatingSystem

/// A create flow started by a binding, while it runs: the trigger that
/// operates it, whose presses go to the flow instead of the bindings.
struct CreateRun: Sendable {
    let handle: JobHandle<Result<CreateOutcome, CreateFailure>, Never>
    let switchKey: WatchedKey
    /// The flow's switch: the daemon reports the trigger's presses on it.
    let switchPresses: TriggerHandle
}

/// The create flow's services in the daemon: recordings through the
/// daemon's provider (the engine, or a test's), plays on a virtual device of
/// their own, saves in the daemon's library, and the switch's presses
/// forwarded from the binding's watch (a second watch of the same device
/// could not grab it).
struct DaemonCreateServices: CreateServices {
    let recordings: RecordingProvider
    let request: RecordRequest
    let engine: Engine
    let library: GestureLibrary
    let switchPresses: TriggerHandle

    var idleTimeout: Microseconds? { request.sessionOptions.idleTimeout }

    func startRecording(strokes: @escaping @Sendable (Stroke) -> Void) throws -> RecordJob {
        try recordings.start(request, strokes)
    }

    func startPlay(_ gesture: Gesture) throws -> PlayJob {
        try engine.startPlay(PlayRequest(gesture: gesture, target: .kind(.touchscreen)))
    }

    func save(_ gesture: Gesture, name: String, replacing: Bool) throws -> String {
        try library.save(gesture, as: name, overwrite: replacing).path
    }

    func writePicture(_ gesture: Gesture) throws -> String? { nil }

    func watchSwitch(_ request: TriggerRequest) throws -> TriggerHandle {
        // Nothing reads a device for this "watch": it ends when the flow cancels it.
        let handle = switchPresses
        let cancelled = try handle.cancellation.fileDescriptor
        try DedicatedThread.start(ThreadOptions(name: "gesturectl-cfwd")) {
            _ = try? Poll.waitReadable(cancelled, timeoutMilliseconds: nil)
            handle.finish(nil)
        }
        return handle
    }
}

/// A create flow's lines as the daemon's `create` events (and its log).
final class DaemonCreateDisplay: AssistDisplay {
    private let publish: @Sendable (Announcement) -> Void

    init(publish: @escaping @Sendable (Announcement) -> Void) { self.publish = publish }

    func say(_ line: Announcement) { publish(line) }
    func menu(_ presenter: MenuPresenter, isNew: Bool) { for line in presenter.plainLines(isNew: isNew) { publish(line) } }
    func namePrompt(suggestion: String, typed: String) {
        if typed.isEmpty { publish(Announcement("Name to save as: \(suggestion)")) }
    }
    func reviewFrame(_ gesture: Gesture, fraction: Double) {}
    func finish() {}
}

extension DaemonServer {
    /// How long a create flow started by a binding waits after the last
    /// lift before its recording ends (as `record --sequential`).
    static let createIdleTimeout = Microseconds(3_000_000)

    /// Starts the guided create flow drawing on `device`, operated by the
    /// trigger `key` (its presses go to the flow until it ends); one at a time.
    func startCreate(_ action: CreateAction, operatedBy key: WatchedKey) throws {
        let handle = JobHandle<Result<CreateOutcome, CreateFailure>, Never>()
        let switchPresses = TriggerHandle()
        let (library, timings) = try state.withLock { current throws(DaemonError) -> (GestureLibrary, PressTimings) in
            if current.stopping { throw DaemonError(.busy, "the daemon is stopping") }
            if current.create != nil { throw DaemonError(.busy, "a create flow is running already") }
            current.create = CreateRun(handle: handle, switchKey: key, switchPresses: switchPresses)
            return (current.library, current.configuration.pressTimings)
        }
        let services = DaemonCreateServices(
            recordings: recordings,
            request: RecordRequest(
                device: action.device, grab: true, sessionOptions: RecordingSessionOptions(idleTimeout: Self.createIdleTimeout),
                details: RecordingDetails(name: "created", recordedAt: WallClock.iso8601(), tool: "gesturectl \(version) daemon")),
            engine: engine, library: library, switchPresses: switchPresses)
        let log = self.log
        let display = DaemonCreateDisplay { [self] line in
            log.info("create: \(DaemonLog.oneLine(line.text))")
            broadcast("create", [("line", .string(line.text)), ("spoken", .string(line.spoken))])
        }
        handle.onCompletion { [self] result in
            state.withLock { current in
                if current.create?.handle === handle { current.create = nil }
            }
            switch result {
            case .success(let outcome): log.info("create flow ended: \(outcome)")
            case .failure(let failure): log.error("create flow failed: \(failure.message)")
            }
        }
        do {
            let trigger = try TriggerRequest(device: key.device, key: key.key)
            _ = try CreateSession.start(
                flow: CreateFlow(library: LibraryNames(library)), services: services, display: display, keyboard: nil,
                switchSetup: SwitchSetup(
                    trigger: trigger,
                    scanning: ScanSettings(
                        interval: action.scanInterval, firstItemHold: action.firstItemHold, longPress: timings.longPress,
                        emergencyStop: timings.emergencyStop),
                    stopsRecording: action.stopsRecording),
                handle: handle)
        } catch {
            handle.finish(.failure(CreateFailure("\(error)")))
            throw error
        }
    }

    /// Hands a press of `key` to the running create flow when that key
    /// operates it; whether it did.
    func forwardToCreate(_ press: TriggerPress, on key: WatchedKey) -> Bool {
        guard let run = state.withLock({ $0.create }), run.switchKey == key else { return false }
        run.switchPresses.report(.press(press, time: Microseconds(MonotonicClock.nowMicroseconds())))
        return true
    }

    /// Cancels a running create flow and waits for it (everything it
    /// recorded or played is released).
    func stopCreate() {
        guard let run = state.withLock({ $0.create }) else { return }
        run.handle.cancel()
        _ = run.handle.wait()
    }
}
