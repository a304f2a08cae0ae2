import GestureModel
import GestureRecording
import Glibc
import InputSystem
import OperatingSystem

/// An event source that plays a script: its descriptor (a pipe with one
/// byte in it) is always readable, so `poll` never waits; time passes only
/// through the script and by `idleStep` for each read after the script has
/// run dry, so timeouts are reached without sleeping.
public final class FakeSource: EventSource {
    public enum Step {
        /// Returned as is; an event also moves the clock to its time.
        case outcome(ReadOutcome)
        /// Moves the clock on.
        case advance(Microseconds)
        /// Thrown from the read.
        case fail(SystemError)
        /// Cancels the session from "another thread".
        case cancel(CancellationSignal)
    }

    public let fileDescriptor: FileDescriptor
    private let writeDescriptor: FileDescriptor
    private var steps: [Step]
    private let clock: ManualClock
    private let idleStep: Microseconds
    private var dryReads = 0

    /// Creates a source that plays `steps`, then moves `clock` on by
    /// `idleStep` (10 ms unless given) for each read after that.
    public init(clock: ManualClock, steps: [Step], idleStep: Microseconds = Microseconds(10_000)) {
        let ends = try! FileDescriptor.pipe()
        try! ends.write.writeAll([1])
        fileDescriptor = ends.read
        writeDescriptor = ends.write
        self.steps = steps
        self.clock = clock
        self.idleStep = idleStep
    }

    /// Creates a source that returns `outcomes` in order.
    public convenience init(clock: ManualClock, outcomes: [ReadOutcome]) {
        self.init(clock: clock, steps: outcomes.map { .outcome($0) })
    }

    deinit {
        fileDescriptor.close()
        writeDescriptor.close()
    }

    public func nextEvent() throws(SystemError) -> ReadOutcome {
        while !steps.isEmpty {
            switch steps.removeFirst() {
            case .outcome(let outcome):
                if case .event(let event) = outcome { clock.advance(to: event.time) }
                return outcome
            case .advance(let duration): clock.advance(by: duration)
            case .fail(let error): throw error
            case .cancel(let signal): signal.cancel()
            }
        }
        dryReads += 1
        // A session that never stops would hang the test: fail it instead.
        if dryReads > 1_000_000 {
            throw SystemError(call: "fake read", errorNumber: EIO, detail: "the session did not stop")
        }
        clock.advance(by: idleStep)
        return .wouldBlock
    }
}

/// A pipe standing in for a terminal (the Enter descriptor): the test
/// writes to `write` and closes the ends itself.
public struct TestPipe {
    public let read: Int32
    public let write: Int32

    /// Creates a pipe (both ends close-on-exec).
    public init() {
        let ends = try! FileDescriptor.pipe()
        read = ends.read.rawValue
        write = ends.write.rawValue
    }

    /// Writes `text` to the pipe.
    public func send(_ text: String) {
        try! FileDescriptor(rawValue: write).writeAll(Array(text.utf8))
    }
}
