import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization

/// An input device as the kernel hands it out: each ``open()`` is a reader
/// of its own, which gets what happens on the device from its open until
/// it is released; what happens while no reader is open is lost, as a
/// touch made before a recorder opens the device is. It notes when a reader is opened and
/// first read (and the test may note what it says in between), so that a
/// test can check that a front end invites a touch only when it is heard
/// (issue 24).
public final class ListeningDevice: Sendable {
    private struct State {
        var readers: [PipeSource] = []
        var notes: [String] = []
        var lostFrames = 0
        var gone = false
    }

    private let state = Mutex(State())
    private let lastStamp = Mutex(Microseconds.zero)

    public init() {}

    /// What happened, in order: "opened", "read" (a reader's first read),
    /// and whatever the test noted.
    public var notes: [String] { state.withLock { $0.notes } }

    /// How many frames were made while no reader was open.
    public var lostFrames: Int { state.withLock { $0.lostFrames } }

    /// How many readers are open (not yet released by whoever opened them).
    public var openReaders: Int { state.withLock { $0.readers.count } }

    /// Notes something that happened (e.g. a line shown), in order with
    /// the device's own notes.
    public func note(_ text: String) { state.withLock { $0.notes.append(text) } }

    /// A new reader: it gets every frame made from now on.
    public func open() throws -> any EventSource {
        let pipe = try PipeSource()
        let gone = state.withLock { current in
            if !current.gone {
                current.readers.append(pipe)
                current.notes.append("opened")
            }
            return current.gone
        }
        if gone {
            throw SystemError(call: "open", errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished, detail: "unplugged by the test")
        }
        return Reader(pipe: pipe, device: self)
    }

    /// The device is unplugged: each open reader fails with ENODEV once it
    /// has read what was made before, and it cannot be opened again.
    public func vanish() {
        let readers = state.withLock { current in
            current.gone = true
            return current.readers
        }
        for reader in readers { reader.vanish() }
    }

    private func release(_ pipe: PipeSource) {
        state.withLock { current in current.readers.removeAll { $0 === pipe } }
    }

    /// One frame stamped `time` (default: now) to every open reader: `events`
    /// (type, code, value), then SYN_REPORT; lost when none is open.
    public func frame(_ events: [(EventType, EventCode, Int32)], at time: Microseconds = SystemClock().now()) {
        let readers = state.withLock { current in
            if current.readers.isEmpty { current.lostFrames += 1 }
            return current.readers
        }
        for reader in readers { reader.frame(events, at: time) }
    }

    /// A one-finger stroke in slot 0 (see ``PipeSource/stroke(id:x:y:at:)``)
    /// to every open reader; lost when none is open.
    public func stroke(id: Int32, x: Int32, y: Int32, at start: Microseconds = SystemClock().now()) {
        frame([(.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, id), (.absolute, .multitouchPositionX, x), (.absolute, .multitouchPositionY, y)], at: start)
        frame([(.absolute, .multitouchPositionX, x + 100)], at: start + Microseconds(2_000))
        frame([(.absolute, .multitouchTrackingID, -1)], at: start + Microseconds(4_000))
    }

    /// Presses `key` as a person would: down, then up `held` later (the
    /// release stamped so, without waiting: a long press at once), `times`
    /// in a row (2: a double press); `held` `nil` keeps the last press
    /// down. Stamps never go back, so presses stamped ahead stay in order.
    public func press(_ key: EventCode, times: Int = 1, held: Microseconds? = .zero) {
        for _ in 1...max(times, 1) {
            let down = stamp()
            frame([(.key, key, 1)], at: down)
            guard let held else { continue }
            let up = held > .zero ? down + held : stamp()
            lastStamp.withLock { $0 = max($0, up) }
            frame([(.key, key, 0)], at: up)
        }
    }

    /// Now, or just after the last stamp given.
    private func stamp() -> Microseconds {
        lastStamp.withLock { last in
            last = max(SystemClock().now(), last + Microseconds(1_000))
            return last
        }
    }

    /// One reader: a pipe source that notes its first read.
    private final class Reader: EventSource, Sendable {
        private let pipe: PipeSource
        private let device: ListeningDevice
        private let read = Mutex(false)

        init(pipe: PipeSource, device: ListeningDevice) {
            self.pipe = pipe
            self.device = device
        }

        deinit { device.release(pipe) }

        var fileDescriptor: FileDescriptor { pipe.fileDescriptor }

        func nextEvent() throws(SystemError) -> ReadOutcome {
            let first = read.withLock { current in
                defer { current = true }
                return !current
            }
            if first { device.note("read") }
            return try pipe.nextEvent()
        }
    }
}
