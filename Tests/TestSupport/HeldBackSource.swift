import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem

/// A source that has read events from the kernel but not passed them on:
/// its descriptor is never readable, only ``hasBufferedEvents`` says that
/// events wait (what ``InputSystem/EvdevDevice`` does with a batch, or with
/// the frames it kept after a drop). A reader that waits for the
/// descriptor first never reads them.
public final class HeldBackSource: EventSource {
    public let fileDescriptor: FileDescriptor
    private let writeEnd: FileDescriptor
    private var outcomes: [ReadOutcome]
    private let clock: ManualClock?

    /// A source holding `outcomes`; each event moves `clock` (if given) to its time.
    public init(_ outcomes: [ReadOutcome], clock: ManualClock? = nil) throws {
        let ends = try FileDescriptor.pipe()
        fileDescriptor = ends.read
        writeEnd = ends.write
        self.outcomes = outcomes.reversed()
        self.clock = clock
    }

    deinit {
        fileDescriptor.close()
        writeEnd.close()
    }

    public var hasBufferedEvents: Bool { !outcomes.isEmpty }

    public func nextEvent() throws(SystemError) -> ReadOutcome {
        guard let outcome = outcomes.popLast() else { return .wouldBlock }
        if case .event(let event) = outcome { clock?.advance(to: event.time) }
        return outcome
    }
}
