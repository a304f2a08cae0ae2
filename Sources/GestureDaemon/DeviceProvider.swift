import GestureEngine
import GestureModel
import GesturePlayback

/// Where the daemon's ready devices come from: the engine's kept devices
/// (through uinput, uhid or a USB gadget), or (in tests) sessions over
/// test doubles.
public struct DeviceProvider: Sendable {
    /// The ready device of a profile through an output, made when missing or closed.
    public var ready: @Sendable (VirtualDeviceProfile, PlayOutput) throws -> PlaybackSession
    /// Closes and forgets the device of a profile through an output (it is
    /// made again on the next `ready`).
    public var forget: @Sendable (VirtualDeviceProfile, PlayOutput) -> Void
    /// Closes every device (each lifts what is down, lingers, and is destroyed).
    public var closeAll: @Sendable () -> Void
    /// The profile of the ready device of a kind through an output.
    public var profile: @Sendable (DeviceKind, PlayOutput) throws -> VirtualDeviceProfile

    /// Creates a provider from its operations.
    public init(
        ready: @escaping @Sendable (VirtualDeviceProfile, PlayOutput) throws -> PlaybackSession,
        forget: @escaping @Sendable (VirtualDeviceProfile, PlayOutput) -> Void, closeAll: @escaping @Sendable () -> Void,
        profile: @escaping @Sendable (DeviceKind, PlayOutput) throws -> VirtualDeviceProfile
    ) {
        self.ready = ready
        self.forget = forget
        self.closeAll = closeAll
        self.profile = profile
    }

    /// A provider of uinput devices only (test doubles): another output is
    /// refused as unavailable.
    public init(
        ready: @escaping @Sendable (VirtualDeviceProfile) throws -> PlaybackSession,
        forget: @escaping @Sendable (VirtualDeviceProfile) -> Void, closeAll: @escaping @Sendable () -> Void
    ) {
        self.init(
            ready: { profile, output in
                guard output == .uinput else {
                    throw PlayOutputError.unavailable(output: output.word, reason: "not available here")
                }
                return try ready(profile)
            },
            forget: { profile, output in if output == .uinput { forget(profile) } }, closeAll: closeAll,
            profile: { kind, output in
                guard output == .uinput else {
                    throw PlayOutputError.unavailable(output: output.word, reason: "not available here")
                }
                return DaemonServer.profile(for: kind)
            })
    }

    /// The engine's kept devices.
    public static func engine(_ engine: Engine) -> DeviceProvider {
        DeviceProvider(
            ready: { try engine.readyDevice($0, output: $1) }, forget: { engine.forgetDevice($0, output: $1) },
            closeAll: { engine.closeKeptDevices() },
            profile: { kind, output in try engine.readyProfile(kind: kind, output: output) })
    }
}
