/// What one read from an ``EvdevDevice`` produced. Reading on without
/// events and the kernel's "events were lost" are outcomes, not errors.
public enum ReadOutcome: Hashable, Sendable {
    /// A normal event.
    case event(InputEvent)
    /// The kernel dropped events (its buffer was full); the associated event
    /// is the `SYN_DROPPED`. The following reads return ``resyncEvent(_:)``
    /// values: the difference between the state last passed on and the
    /// state the frames the kernel still holds start from (see
    /// ``DropRecovery``), then ``resyncDone``, then those frames as normal
    /// events. Touches that began and ended in the gap are lost.
    case resyncNeeded(InputEvent)
    /// One event of that difference. The last one is a `SYN_REPORT`.
    case resyncEvent(InputEvent)
    /// The resync is complete; normal events follow. The per-slot state
    /// (``EvdevDevice/slotValue(slot:code:)``) is where those events start.
    case resyncDone
    /// No event is available now; wait until the descriptor is readable.
    case wouldBlock
}
