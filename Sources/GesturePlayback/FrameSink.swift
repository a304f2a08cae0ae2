import InputSystem
import Synchronization
import OperatingSystem

/// Where a player writes frames: a uinput device, or a test double.
public protocol FrameSink {
    /// Writes one whole frame (all its events at once).
    func write(_ frame: InputFrame) throws
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
}
