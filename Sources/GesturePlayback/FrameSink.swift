import GestureModel
import InputSystem
import Synchronization
import OperatingSystem

/// Where a player writes frames: a uinput device, or a test double.
public protocol FrameSink {
    /// Writes one whole frame (all its events at once).
    func write(_ frame: InputFrame) throws
    /// Runs the write path once without changing what readers see, so that
    /// the first frame does not pay for code and memory used for the first
    /// time (the player calls it before its first deadline). Best effort.
    func warmUp()
}

extension FrameSink {
    /// Nothing to warm (test doubles and other outputs).
    public func warmUp() {}

    /// Writes the one frame that lifts every contact and releases every
    /// button `state` holds down (``DeviceState/liftAllFrame(time:)``), when
    /// anything is, and keeps `state` with it: released when written; after
    /// a failed write, with no slot known to be selected. Returns the frame
    /// written, or why it could not be.
    func liftAll(_ state: inout DeviceState, time: Microseconds = .zero) -> (frame: InputFrame?, error: (any Error)?) {
        guard let frame = state.liftAllFrame(time: time) else { return (nil, nil) }
        do {
            try write(frame)
            state.apply(frame)
            return (frame, nil)
        } catch {
            state.forgetCurrentSlot()
            return (nil, error)
        }
    }
}

/// Writes frames to a uinput device, one `write()` per frame
/// (``UinputDevice/write(frame:)``).
public final class UinputFrameSink: FrameSink, Sendable {
    /// The device written to.
    public let device: UinputDevice

    /// Creates a sink over `device`.
    public init(device: UinputDevice) { self.device = device }

    /// Writes `frame`'s events in one `write()`.
    /// - Throws: ``SystemError`` from `write` (kind `.deviceVanished` on ENODEV).
    public func write(_ frame: InputFrame) throws { try device.write(frame: frame.events) }

    /// Writes a lone `SYN_REPORT`: the whole path of a frame (this sink,
    /// `write()`, uinput, the input core), which readers never see — the
    /// input core passes a report on only with at least one event before
    /// it (drivers/input/input.c, `num_vals >= 2`). A failure is left to
    /// the first real frame to report.
    public func warmUp() {
        // Harmless: the first real frame goes the same way and reports the failure.
        try? device.write(frame: [.synchronizationReport()])
    }
}
