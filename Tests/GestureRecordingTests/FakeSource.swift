import GestureModel
import Glibc
import InputSystem

@testable import GestureRecording
import OperatingSystem

/// A clock the test moves by hand.
final class ManualClock: RecordingClock {
    var current: Microseconds

    init(_ start: Microseconds) { current = start }

    func now() -> Microseconds { current }
}

/// An event source that plays a script: its descriptor (a pipe with one
/// byte in it) is always readable, so `poll` never waits; time passes only
/// through the script and by `idleStep` for each read after the script has
/// run dry, so timeouts are reached without sleeping.
final class FakeSource: EventSource {
    enum Step {
        /// Returned as is; an event also moves the clock to its time.
        case outcome(ReadOutcome)
        /// Moves the clock on.
        case advance(Microseconds)
        /// Thrown from the read.
        case fail(SystemError)
        /// Cancels the session from "another thread".
        case cancel(CancellationSignal)
    }

    let fileDescriptor: FileDescriptor
    private let writeDescriptor: FileDescriptor
    private var steps: [Step]
    private let clock: ManualClock
    private let idleStep: Microseconds
    private var dryReads = 0

    init(clock: ManualClock, steps: [Step], idleStep: Microseconds = ms(10)) {
        let ends = try! FileDescriptor.pipe()
        try! ends.write.writeAll([1])
        fileDescriptor = ends.read
        writeDescriptor = ends.write
        self.steps = steps
        self.clock = clock
        self.idleStep = idleStep
    }

    convenience init(clock: ManualClock, outcomes: [ReadOutcome]) {
        self.init(clock: clock, steps: outcomes.map { .outcome($0) })
    }

    deinit {
        fileDescriptor.close()
        writeDescriptor.close()
    }

    func nextEvent() throws(SystemError) -> ReadOutcome {
        while !steps.isEmpty {
            switch steps.removeFirst() {
            case .outcome(let outcome):
                if case .event(let event) = outcome, event.time > clock.current { clock.current = event.time }
                return outcome
            case .advance(let duration): clock.current = clock.current + duration
            case .fail(let error): throw error
            case .cancel(let signal): signal.cancel()
            }
        }
        dryReads += 1
        // A session that never stops would hang the test: fail it instead.
        if dryReads > 1_000_000 {
            throw SystemError(call: "fake read", errorNumber: EIO, detail: "the session did not stop")
        }
        clock.current = clock.current + idleStep
        return .wouldBlock
    }
}

/// A pipe for the Enter descriptor; the test writes to `write` and closes it.
struct TestPipe {
    let read: Int32
    let write: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        read = ends[0]
        write = ends[1]
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(write, &bytes, bytes.count)
    }
}
