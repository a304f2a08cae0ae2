import GestureEngine
import GesturePlayback

/// Where the daemon's ready devices come from: the engine's kept uinput
/// devices, or (in tests) sessions over test doubles.
public struct DeviceProvider: Sendable {
    /// The ready device of a profile, made when missing or closed.
    public var ready: @Sendable (VirtualDeviceProfile) throws -> PlaybackSession
    /// Closes and forgets the device of a profile (it is made again on the next `ready`).
    public var forget: @Sendable (VirtualDeviceProfile) -> Void
    /// Closes every device (each lifts what is down, lingers, and is destroyed).
    public var closeAll: @Sendable () -> Void

    /// Creates a provider from its three operations.
    public init(
        ready: @escaping @Sendable (VirtualDeviceProfile) throws -> PlaybackSession,
        forget: @escaping @Sendable (VirtualDeviceProfile) -> Void, closeAll: @escaping @Sendable () -> Void
    ) {
        self.ready = ready
        self.forget = forget
        self.closeAll = closeAll
    }

    /// The engine's kept uinput devices.
    public static func engine(_ engine: Engine) -> DeviceProvider {
        DeviceProvider(
            ready: { try engine.readyDevice($0) }, forget: { engine.forgetDevice($0) }, closeAll: { engine.closeKeptDevices() })
    }
}
