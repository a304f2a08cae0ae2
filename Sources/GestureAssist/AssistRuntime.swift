import GestureEngine
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization

/// Where a flow's lines, menus and pictures go: a terminal
/// (``TerminalDisplay``), the daemon's subscribers, or a test's transcript.
/// Called on the flow's thread only.
public protocol AssistDisplay: AnyObject {
    /// One line: a state change that makes sense alone.
    func say(_ line: Announcement)
    /// A menu: shown anew (`isNew`), or its highlight moved (or paused).
    func menu(_ presenter: MenuPresenter, isNew: Bool)
    /// The name prompt, with what has been typed so far.
    func namePrompt(suggestion: String, typed: String)
    /// One step of the animated review: the gesture up to `fraction` (0–1) of its time.
    func reviewFrame(_ gesture: Gesture, fraction: Double)
    /// While a pointer records: the strokes drawn so far and where the
    /// pointer is (a grabbed pointer moves no cursor), on the recording's surface.
    func canvas(_ strokes: Gesture, pointer: PointerPosition)
    /// The flow is over; leave the display as a terminal expects it.
    func finish()
}

extension AssistDisplay {
    /// No canvas (a display that cannot draw one, e.g. the daemon's events).
    public func canvas(_ strokes: Gesture, pointer: PointerPosition) {}
}

/// Posts from other threads (the recording's, the play's, the switch's)
/// into a flow's loop, which polls ``fileDescriptor``.
final class Mailbox<Message: Sendable>: Sendable {
    private let queue = Mutex<[Message]>([])
    private let wake: EventCounter

    init() throws(SystemError) { wake = try EventCounter() }

    var fileDescriptor: FileDescriptor { wake.fileDescriptor }

    func post(_ message: Message) {
        queue.withLock { $0.append(message) }
        wake.signal()
    }

    func take() -> [Message] {
        wake.drain()
        return queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }
}

/// The switch of a scanning flow: which key on which device, how its
/// presses are read, and whether a press during recording stops it.
public struct SwitchSetup: Sendable {
    /// The device and key (a stable identity, as the daemon's triggers).
    public var trigger: TriggerRequest
    /// Scanning and the press timings (also given to `trigger`).
    public var scanning: ScanSettings
    /// A press during recording stops it (default: no, recording then
    /// ends after the idle timeout).
    public var stopsRecording: Bool

    /// Creates a setup; the trigger takes the scanning's press timings.
    public init(trigger: TriggerRequest, scanning: ScanSettings, stopsRecording: Bool = false) {
        var trigger = trigger
        trigger.timings = scanning.press
        self.trigger = trigger
        self.scanning = scanning
        self.stopsRecording = stopsRecording
    }
}

/// Reads keys from a terminal (or a pipe in tests) without blocking.
public struct KeyboardInput: Sendable {
    /// The descriptor to read (standard input, in character mode).
    public var fileDescriptor: FileDescriptor

    /// Creates an input.
    public init(fileDescriptor: FileDescriptor) { self.fileDescriptor = fileDescriptor }
}
