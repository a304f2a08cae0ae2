import GestureEditing
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Synchronization

/// The device a gesture is played on.
public enum PlayTarget: Hashable, Sendable {
    /// A virtual device of this kind, sized to fit the gesture's device.
    case kind(DeviceKind)
    /// A uinput copy of a real device's description (a `--device` string),
    /// played as `kind` when given, else as what the device is.
    case clone(device: String, as: DeviceKind?)
    /// A profile made elsewhere.
    case profile(VirtualDeviceProfile)
}

/// How a play reaches its device: the transport under the virtual device.
public enum PlayOutput: Hashable, Sendable {
    /// A uinput device on this machine (evdev, above the HID layer): the default.
    case uinput
    /// A HID device through /dev/uhid on this machine: the kernel's own HID
    /// drivers (hid-multitouch for a touchscreen) drive it, as a real
    /// touchscreen is driven.
    case uhid
    /// The HID functions of a USB gadget made by `gesturectl gadget up`
    /// (configfs name `name`, or the default one when `nil`): the host the
    /// board is plugged into receives the gesture.
    case gadget(name: String?)

    /// The word front ends and the protocol use: `uinput`, `uhid`, `gadget`.
    public var word: String {
        switch self {
        case .uinput: "uinput"
        case .uhid: "uhid"
        case .gadget: "gadget"
        }
    }
}

/// Why a play cannot use the output asked for, found before anything is played.
public enum PlayOutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The output cannot play this kind of device (e.g. a tablet through uhid).
    case unsupportedKind(output: String, kind: DeviceKind, hint: String)
    /// The output cannot be used here: what is missing and what to do.
    case unavailable(output: String, reason: String)
    /// The key has no HID usage hosts agree on (the HID buttons cannot send it).
    case unsupportedKey(output: String, key: EventCode)

    /// A one-line message for people.
    public var description: String {
        switch self {
        case let .unsupportedKind(output, kind, hint):
            "--to \(output) cannot play a \(kind.rawValue) gesture; \(hint)"
        case let .unavailable(output, reason):
            "--to \(output): \(reason)"
        case let .unsupportedKey(output, key):
            "--to \(output) cannot press \(key.name(type: .key) ?? "key \(key.rawValue)"): HID buttons have no usage for it that hosts agree on; press it through uinput"
        }
    }
}

/// Where a played gesture lands, how big and how turned
/// (``GestureEditing/Placement``), by a name front ends that do not import
/// GestureEditing (the daemon) can use.
public typealias PlayPlacement = Placement

/// Everything a play needs: what, where, how, and the moments around it.
public struct PlayRequest: Sendable {
    /// The lead-in of a play or a press unless told otherwise: 100 ms, long
    /// enough for udev and a desktop's readers to open a new device. The
    /// one value `play`, `press` and `menu --lead-in` default to and show
    /// in their help.
    public static let defaultLeadIn = Microseconds(100_000)

    /// The gesture.
    public var gesture: Gesture
    /// Where it is played.
    public var target: PlayTarget
    /// Speed, repetitions, placement.
    public var options: PlaybackOptions
    /// Time between the device being ready and the first frame, so readers
    /// can open it (default ``defaultLeadIn``). Part of the schedule: a cancel cuts it short.
    public var leadIn: Microseconds
    /// Time the device is kept after the last frame so readers get it
    /// (default ``GesturePlayback/PlaybackSession/defaultLinger``).
    public var linger: Microseconds
    /// Keep the virtual device for later plays with the same profile
    /// instead of destroying it after this one (the daemon does).
    public var keepDevice: Bool
    /// Where the gesture lands, how big and how turned, on its own surface
    /// (docs/EDITING.md, "place"); applied before frames are built. `nil`
    /// (default) plays it where it is.
    public var placement: PlayPlacement?
    /// Play at this SCHED_FIFO priority (``OperatingSystem/DedicatedThread/defaultRealtimePriority``
    /// for `play --realtime`); `nil` (default) for the normal scheduler.
    /// Checked before the device is made: refused with
    /// ``GesturePlayback/PlaybackError/realtimeRefused(priority:_:)``.
    public var realtimePriority: Int32?
    /// The transport under the device (default ``PlayOutput/uinput``).
    public var output: PlayOutput
    /// When given, the play waits on its ready device until this descriptor
    /// is readable (a byte, or its writer closing it) before its clock
    /// starts and the lead-in runs: `play --start-on-fd`, for observers
    /// that must be reading first. `nil` (default): it starts at once.
    public var startGate: FileDescriptor?

    /// Creates a request; see each property for the defaults.
    public init(
        gesture: Gesture, target: PlayTarget = .kind(.touchscreen), options: PlaybackOptions = PlaybackOptions(),
        leadIn: Microseconds = defaultLeadIn, linger: Microseconds = PlaybackSession.defaultLinger,
        keepDevice: Bool = false, placement: PlayPlacement? = nil, realtimePriority: Int32? = nil,
        output: PlayOutput = .uinput, startGate: FileDescriptor? = nil
    ) {
        self.output = output
        self.startGate = startGate
        self.gesture = gesture
        self.target = target
        self.options = options
        self.leadIn = leadIn
        self.linger = linger
        self.keepDevice = keepDevice
        self.placement = placement
        self.realtimePriority = realtimePriority
    }

    /// The request with its placement applied to the gesture (and no
    /// placement left), and the placement's warnings (samples clipped to
    /// the surface's edge). The engine does this before building frames; a
    /// front end that reports warnings or checks early does it first.
    /// - Throws: ``GestureEditing/Placement/Failure`` for a bad placement.
    public func resolvingPlacement() throws(PlayPlacement.Failure) -> (request: PlayRequest, warnings: [String]) {
        guard let placement else { return (self, []) }
        let placed = try placement.apply(to: gesture)
        var request = self
        request.gesture = placed.gesture
        request.placement = nil
        return (request, placed.warnings)
    }
}

/// A play that has started: its device, its frames, and its handle.
///
/// ``finished()`` (or ``wait()``) returns the result once the play has
/// ended and, unless the device is kept, once the device has lingered and
/// been destroyed.
public final class PlayJob: Sendable {
    /// Cancel, progress, result.
    public let handle: PlaybackHandle
    /// The device played on.
    public let session: PlaybackSession
    /// How many frames the play has (the lead-in adds none: it only delays
    /// the first one), once known (``GesturePlayback/FrameTally``): a
    /// gesture's frames are streamed to its device and counted as they are
    /// built, so the count of a long one is known only a look-ahead before
    /// its end, and a play that ended early counts its remaining frames
    /// after it has lifted everything. 0 for a job that never started (a
    /// play queued on a kept device that was cancelled while it waited).
    public let frameTally: FrameTally
    /// ``frameTally``'s count, blocking the calling thread until it is
    /// known (at once after a play that completed). Never read it on
    /// Swift's cooperative pool while it may be unknown: use
    /// ``countedFrames()`` there.
    public var frameCount: Int { frameTally.wait() }
    /// For a real-time play, whether the process's memory was locked
    /// (``OperatingSystem/MemoryLock``: where permitted); `nil` otherwise.
    public let memoryLocked: Bool?
    private let closesSession: Bool

    /// Its id in the engine's ``Engine/jobs`` (0 for a play started on a
    /// session the caller holds, which is not listed there).
    public let id: Int

    init(
        id: Int = 0, handle: PlaybackHandle, session: PlaybackSession, frames: FrameTally, closesSession: Bool,
        memoryLocked: Bool? = nil
    ) {
        self.id = id
        self.handle = handle
        self.session = session
        frameTally = frames
        self.closesSession = closesSession
        self.memoryLocked = memoryLocked
    }

    /// How many frames the play has, once known, without blocking a
    /// thread (see ``frameTally``).
    public func countedFrames() async -> Int { await frameTally.total() }

    /// The event node of the device played on.
    public var devnode: String? { session.devnode }

    /// Stops the play; it lifts every finger and releases every button.
    public func cancel() { handle.cancel() }

    /// How the thread that lets the device linger and destroys it is set
    /// up: named `gesturectl-end`.
    public static let closeThread = ThreadOptions(name: "gesturectl-end")

    /// The result, without blocking a thread of the cooperative pool: the
    /// device's linger and destruction run on a dedicated thread.
    public func finished() async -> PlaybackResult {
        let result = await handle.finished()
        if closesSession {
            let session = session
            await Background.run(Self.closeThread) { session.close() }
        }
        return result
    }

    /// The result, blocking the calling thread (not for the cooperative pool).
    public func wait() -> PlaybackResult {
        let result = handle.wait()
        if closesSession { session.close() }
        return result
    }
}

/// Running blocking work off the cooperative pool.
enum Background {
    /// Runs `body` on a dedicated thread and resumes when it is done; runs
    /// it here when no thread can be started (it must run either way).
    static func run(_ options: ThreadOptions, _ body: @escaping @Sendable () -> Void) async {
        let done = JobHandle<Bool, Never>()
        do {
            try DedicatedThread.start(options) {
                body()
                done.finish(true)
            }
        } catch {
            body()
            done.finish(true)
        }
        _ = await done.finished()
    }

    /// The value of `body`, run on a dedicated thread (here when no thread
    /// can be started), without blocking the cooperative pool.
    static func value<Value: Sendable>(_ options: ThreadOptions, _ body: @escaping @Sendable () -> Value) async -> Value {
        let done = JobHandle<Value, Never>()
        do {
            try DedicatedThread.start(options) { done.finish(body()) }
        } catch {
            done.finish(body())
        }
        return await done.finished()
    }
}
