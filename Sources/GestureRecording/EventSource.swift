import InputSystem
import OperatingSystem

/// Where a ``RecordingSession`` reads events from: a descriptor to wait on
/// and a non-blocking read. ``InputSystem/EvdevDevice`` is one; tests use a
/// fake that returns queued outcomes.
public protocol EventSource {
    /// The descriptor that becomes readable (poll `POLLIN`) when events are
    /// waiting; `POLLHUP`/`POLLERR` on it mean the device is going away.
    var fileDescriptor: FileDescriptor { get }
    /// The next outcome; ``InputSystem/ReadOutcome/wouldBlock`` when none
    /// is waiting.
    /// - Throws: ``InputSystem/SystemError``, with kind `.deviceVanished`
    ///   when the device was unplugged or destroyed.
    func nextEvent() throws(SystemError) -> ReadOutcome
    /// Whether events already read from the kernel wait to be passed on:
    /// then ``nextEvent()`` has more though the descriptor may not be
    /// readable, and a reader must not wait on it first.
    var hasBufferedEvents: Bool { get }
}

extension EventSource {
    /// A source that keeps nothing back: false.
    public var hasBufferedEvents: Bool { false }
}

extension EvdevDevice: EventSource {}
