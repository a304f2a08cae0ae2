import Glibc
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization

/// An input device for recordings on a thread (the daemon's, a command's
/// through the daemon): the test pushes read
/// outcomes (timed on CLOCK_MONOTONIC, like the kernel's), or unplugs it.
public final class PipeSource: EventSource, Sendable {
    private struct State {
        var queue: [ReadOutcome] = []
        var signalled = false
        var vanished = false
    }

    public let fileDescriptor: FileDescriptor
    private let writeEnd: FileDescriptor
    private let state = Mutex(State())

    public init() throws {
        let ends = try FileDescriptor.pipe()
        fileDescriptor = ends.read
        writeEnd = ends.write
    }

    deinit {
        fileDescriptor.close()
        writeEnd.close()
    }

    /// Queues outcomes and makes the descriptor readable.
    public func push(_ outcomes: [ReadOutcome]) {
        state.withLock { current in
            current.queue += outcomes
            signal(&current)
        }
    }

    /// The device is unplugged: once what is queued has been read, reads
    /// fail with ENODEV.
    public func vanish() {
        state.withLock { current in
            current.vanished = true
            signal(&current)
        }
    }

    private func signal(_ current: inout State) {
        if !current.signalled {
            writeEnd.writeAllIgnoringErrors([1])
            current.signalled = true
        }
    }

    /// Whether everything pushed has been read.
    public var isDrained: Bool { state.withLock { $0.queue.isEmpty } }

    public func nextEvent() throws(SystemError) -> ReadOutcome {
        let next: ReadOutcome? = state.withLock { current in
            // What was queued before the unplugging is read first.
            if current.queue.isEmpty && current.vanished { return nil }
            if current.queue.isEmpty {
                if current.signalled {
                    _ = try? fileDescriptor.read(upTo: 1)
                    current.signalled = false
                }
                return .wouldBlock
            }
            return current.queue.removeFirst()
        }
        guard let next else {
            throw SystemError(call: "read", errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished, detail: "unplugged by the test")
        }
        return next
    }

    /// One frame stamped `time` (default: now): `events` (type, code, value), then SYN_REPORT.
    public func frame(_ events: [(EventType, EventCode, Int32)], at time: Microseconds = SystemClock().now()) {
        push(events.map { .event(InputEvent(time: time, type: $0.0, code: $0.1, value: $0.2)) } + [.event(.synchronizationReport(time: time))])
    }

    /// A one-finger stroke in slot 0: down at (x, y), moved, lifted.
    /// Its frames are stamped 2 ms apart, starting at `start` (default now;
    /// no waiting). Its lift is stamped 4 ms after `start`: a stroke pushed
    /// right after it must start later than that to be drawn after it.
    public func stroke(id: Int32, x: Int32, y: Int32, at start: Microseconds = SystemClock().now()) {
        frame([(.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, id), (.absolute, .multitouchPositionX, x), (.absolute, .multitouchPositionY, y)], at: start)
        frame([(.absolute, .multitouchPositionX, x + 100)], at: start + Microseconds(2_000))
        frame([(.absolute, .multitouchTrackingID, -1)], at: start + Microseconds(4_000))
    }
}
