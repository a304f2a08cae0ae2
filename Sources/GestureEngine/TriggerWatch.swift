import DeviceDiscovery
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem

/// A trigger that cannot be watched: a device named by its event node, a
/// code that is no key or button, a device without that key.
public struct TriggerError: Error, CustomStringConvertible, Hashable, Sendable {
    /// What is wrong, for people.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// A key or button on an input device named by a stable identity, whose
/// presses are recognised (``PressRecognizer``).
public struct TriggerRequest: Hashable, Sendable {
    /// The device: a /dev/input/by-id or by-path link (any udev link), a
    /// name or a unique part of one, or vendor:product; never `eventN`,
    /// which changes when the device is plugged in again.
    public var device: String
    /// The key's code (`EV_KEY`).
    public var key: EventCode
    /// The key's kernel name, e.g. `KEY_F13` or `BTN_0`.
    public var keyName: String
    /// The recogniser's timings.
    public var timings: PressTimings
    /// Take the device for this watch alone (EVIOCGRAB): for a dedicated
    /// switch, never for a key on a shared keyboard.
    public var grab: Bool

    /// Checks and creates a request.
    /// - Throws: ``TriggerError`` for an `eventN` device, a name that is no
    ///   `KEY_*`/`BTN_*` code, or timings that cannot work.
    public init(device: String, key: String, timings: PressTimings = PressTimings(), grab: Bool = false) throws(TriggerError) {
        try Self.checkIdentity(device)
        self.device = device
        self.key = try Self.keyCode(named: key)
        keyName = key
        if let problem = timings.problem { throw TriggerError(problem) }
        self.timings = timings
        self.grab = grab
    }

    /// Refuses what is not a stable identity: empty, or an event node
    /// (`eventN`, `/dev/input/eventN`), whose number the kernel hands out
    /// anew at every plug.
    public static func checkIdentity(_ device: String) throws(TriggerError) {
        if device.isEmpty { throw TriggerError("the trigger's device is empty") }
        let last = device.split(separator: "/").last.map(String.init) ?? device
        if UdevInputDevice.isEventNode("/dev/input/" + last) {
            throw TriggerError(
                "\"\(DisplayText.escaped(device))\" changes when the device is plugged in again; name it by a /dev/input/by-id or by-path link, its name, or vendor:product (gesturectl devices lists them)")
        }
    }

    /// The `EV_KEY` code of a `KEY_*` or `BTN_*` name.
    public static func keyCode(named name: String) throws(TriggerError) -> EventCode {
        guard name.hasPrefix("KEY_") || name.hasPrefix("BTN_"), let (type, code) = EventCode.lookUp(codeName: name), type == .key
        else {
            throw TriggerError("\"\(DisplayText.escaped(name))\" is no key or button: give a KEY_* or BTN_* name such as KEY_F13 or BTN_0")
        }
        return code
    }
}

/// What a trigger watch reports as it runs.
public enum TriggerEvent: Hashable, Sendable {
    /// The device was found and opened (at the start, or plugged in again).
    case connected(node: String, name: String)
    /// The device is not there (not yet, unplugged, or it cannot be opened: why).
    case disconnected(reason: String)
    /// A recognised press, at the time it was recognised.
    case press(TriggerPress, time: Microseconds)
}

/// A trigger watch: cancel it to stop; progress is every ``TriggerEvent``;
/// the result is `nil` after a cancel, or the error that ended it.
public typealias TriggerHandle = JobHandle<SystemError?, TriggerEvent>

/// Where a trigger watch finds its device: udev and evdev
/// (``UdevTriggerDevices``), or a test double. Used on the watch's thread only.
public protocol TriggerDevices {
    /// The trigger's device, opened (and grabbed if asked), or `nil` when
    /// it is not there.
    /// - Throws: when it is there but cannot be used (no access, no such key).
    func open() throws -> (source: any EventSource, node: String, name: String)?
    /// A descriptor readable when devices may have come or gone, if any.
    var hotplug: FileDescriptor? { get }
    /// Reads what the hotplug descriptor has; whether an input device came
    /// (worth trying ``open()`` again).
    func hotplugAdded() -> Bool
}

/// The trigger's device found by udev and opened with evdev; udev's "add"
/// events say when to look again after an unplug.
public final class UdevTriggerDevices: TriggerDevices {
    private let request: TriggerRequest
    private let monitor: UdevMonitor

    /// Opens udev's monitor first, so that no "add" is missed.
    public init(_ request: TriggerRequest) throws(SystemError) {
        self.request = request
        monitor = try Udev().monitor()
    }

    public var hotplug: FileDescriptor? { monitor.fileDescriptor }

    public func hotplugAdded() -> Bool {
        var added = false
        // Harmless: a receive error (ENOBUFS: udev's socket overflowed) ends this read; an "add" it lost
        // is made up for by the retry every retryInterval while the device is missing.
        while let event = try? monitor.receive() {
            if event.action == .add && UdevInputDevice.isEventNode(event.device.node) { added = true }
        }
        return added
    }

    public func open() throws -> (source: any EventSource, node: String, name: String)? {
        let chosen: OpenedInputDevice
        do {
            // Only what udev lists: a node it does not know yet is waited for.
            chosen = try InputDevices.open(request.device, udevDevices: Udev().inputDevices(), unlistedNodes: false) {
                // The daemon's own virtual keyboard must never trigger it.
                if $0.name.hasPrefix("gesturectl virtual") {
                    throw TriggerError("\"\(DisplayText.escaped($0.name))\" is one of gesturectl's own virtual devices")
                }
            }
        } catch let error as DeviceSelectionError where error.kind == .notFound {
            return nil
        }
        let info = chosen.info, evdev = chosen.evdev
        guard evdev.description.supports(.key, request.key) else {
            throw TriggerError("\(DisplayText.escaped(info.name)) (\(info.node)) has no \(request.keyName)")
        }
        if request.grab { try evdev.grab() }
        return (evdev, info.node, info.name)
    }
}

extension Engine {
    /// How a trigger watch's thread is set up: named `gesturectl-trig`.
    public static let triggerThread = ThreadOptions(name: "gesturectl-trig")

    /// Watches a trigger on the devices of the engine's ``InputFactory``
    /// (udev and evdev: ``UdevTriggerDevices``) on a dedicated thread until
    /// cancelled.
    /// - Throws: ``OperatingSystem/SystemError`` when udev or the thread
    ///   cannot be set up. A device that is missing is not an error: the
    ///   watch waits for it.
    public func startWatchingTrigger(_ request: TriggerRequest, handle: TriggerHandle = TriggerHandle()) throws(SystemError)
        -> TriggerHandle
    {
        try Self.startWatchingTrigger(request, devices: inputs.triggerDevices(request), handle: handle)
    }

    /// Watches a trigger on devices the caller provides (a test double),
    /// with its clock, on a dedicated thread (``triggerThread``).
    ///
    /// The loop: while the device is missing it tries to open it at once,
    /// on every hotplug "add", and every `retryInterval`; while it is open,
    /// one `poll` waits on it, the hotplug descriptor and the cancellation,
    /// until the recogniser's next deadline. Key events of the trigger's
    /// code (also those of a resync after dropped events) feed the
    /// recogniser; a device that vanishes is closed (which ends a grab),
    /// the recogniser forgets what was in progress, and the watch waits for
    /// the device again. Each recognised press is reported as progress.
    public static func startWatchingTrigger(
        _ request: TriggerRequest, devices: sending any TriggerDevices, clock: any RecordingClock & Sendable = SystemClock(),
        retryInterval: Microseconds = Microseconds(2_000_000), handle: TriggerHandle = TriggerHandle()
    ) throws(SystemError) -> TriggerHandle {
        let cancelled = try handle.cancellation.fileDescriptor
        try DedicatedThread.start(triggerThread) {
            var watch = TriggerWatchLoop(
                request: request, devices: devices, clock: clock, retryInterval: retryInterval, handle: handle,
                cancelled: cancelled)
            handle.finish(watch.run())
        }
        return handle
    }
}

/// The loop of one trigger watch, on its thread.
struct TriggerWatchLoop {
    let request: TriggerRequest
    let devices: any TriggerDevices
    let clock: any RecordingClock
    let retryInterval: Microseconds
    let handle: TriggerHandle
    let cancelled: FileDescriptor
    var recognizer: PressRecognizer
    var device: (source: any EventSource, node: String, name: String)?
    var lastProblem: String?
    /// What is reported while it cannot be yet (during the first read of
    /// a device just opened, before its ``TriggerEvent/connected(node:name:)``);
    /// `nil`: reported at once.
    var held: [TriggerEvent]?

    init(
        request: TriggerRequest, devices: any TriggerDevices, clock: any RecordingClock, retryInterval: Microseconds,
        handle: TriggerHandle, cancelled: FileDescriptor
    ) {
        self.request = request
        self.devices = devices
        self.clock = clock
        self.retryInterval = retryInterval
        self.handle = handle
        self.cancelled = cancelled
        recognizer = PressRecognizer(timings: request.timings)
    }

    mutating func run() -> SystemError? {
        var nextAttempt = clock.now()
        while true {
            if handle.isCancelled { return stopped() }
            var now = clock.now()
            if device == nil && now >= nextAttempt {
                tryOpen()
                now = clock.now()
                nextAttempt = now + retryInterval
            }
            report(recognizer.advance(to: now))

            var descriptors: [(FileDescriptor, Poll.Events)] = [(cancelled, .readable)]
            if let hotplug = devices.hotplug { descriptors.append((hotplug, .readable)) }
            if let device { descriptors.append((device.source.fileDescriptor, .readable)) }
            var moments: [Microseconds] = []
            if let deadline = recognizer.nextDeadline { moments.append(deadline) }
            if device == nil { moments.append(nextAttempt) }
            // Events the source read but has not passed on (a wake-up ended
            // at the most outcomes) do not make it readable: do not wait.
            let buffered = device?.source.hasBufferedEvents == true
            if buffered { moments.append(now) }
            let timeout = moments.min().map { Poll.milliseconds(roundingUp: ($0 - now).rawValue) }
            let ready: [Poll.Events]
            do {
                ready = try Poll.wait(descriptors, timeoutMilliseconds: timeout)
            } catch {
                return error
            }
            if !ready[0].isEmpty || handle.isCancelled { return stopped() }
            var index = 1
            if devices.hotplug != nil {
                if !ready[index].isEmpty, devices.hotplugAdded(), device == nil { nextAttempt = clock.now() }
                index += 1
            }
            if device != nil, index < ready.count, !ready[index].isEmpty || buffered {
                readAvailable(hangUp: !ready[index].isDisjoint(with: [.hangUp, .error]))
            }
        }
    }

    private mutating func tryOpen() {
        do {
            if let opened = try devices.open() {
                device = opened
                lastProblem = nil
                // Read what waits once before saying the device is there:
                // "connected" (a front end's "the switch is ready") then
                // means the watch already reads it (issue 24). What that
                // read reports follows it.
                held = []
                readAvailable(hangUp: false)
                let early = held ?? []
                held = nil
                handle.report(.connected(node: opened.node, name: opened.name))
                for event in early { handle.report(event) }
            } else {
                disconnected("\(request.device) is not plugged in")
            }
        } catch {
            disconnected("\(error)")
        }
    }

    /// Reports a missing device once per reason, not at every retry.
    private mutating func disconnected(_ reason: String) {
        guard reason != lastProblem else { return }
        lastProblem = reason
        emit(.disconnected(reason: reason))
    }

    /// A stop: the presses in what the device already delivered are
    /// reported first (issue 40), as a recording's stop reads what waits.
    private mutating func stopped() -> SystemError? {
        for _ in 0..<RecordingSession.maximumDrainRounds where device != nil {
            if readAvailable(hangUp: false) { break }
        }
        report(recognizer.advance(to: clock.now()))
        return nil
    }

    /// Reads what waits (at most a wake-up's worth); true when the source
    /// would block or is gone, false when more may wait.
    @discardableResult
    private mutating func readAvailable(hangUp: Bool) -> Bool {
        guard let source = device?.source else { return true }
        for index in 0..<RecordingSession.maximumOutcomesPerWakeup {
            let outcome: ReadOutcome
            do {
                outcome = try source.nextEvent()
            } catch {
                lost(error.kind == .deviceVanished ? "\(request.device) was unplugged" : "reading \(request.device) failed: \(error)")
                return true
            }
            switch outcome {
            case .wouldBlock:
                if hangUp && index == 0 { lost("\(request.device) was unplugged") }
                return true
            case .event(let event), .resyncEvent(let event):
                guard event.type == .key, event.code == request.key else { continue }
                report(recognizer.feed(value: event.value, at: event.time))
            case .resyncNeeded, .resyncDone:
                continue
            }
        }
        return false
    }

    private mutating func lost(_ reason: String) {
        // Closing the device (when the last reference goes) ends a grab.
        device = nil
        recognizer.reset()
        lastProblem = nil
        disconnected(reason)
    }

    private mutating func report(_ presses: [TriggerPress]) {
        guard !presses.isEmpty else { return }
        let now = clock.now()
        for press in presses { emit(.press(press, time: now)) }
    }

    /// Reports `event`, or holds it while reports are held.
    private mutating func emit(_ event: TriggerEvent) {
        if held != nil {
            held?.append(event)
        } else {
            handle.report(event)
        }
    }
}
