import GesturePlayback
import GestureModel
import HIDOutput
import OperatingSystem

extension Engine {
    /// The profile of the HID function of kind `kind` of the gadget `name`
    /// (made by `gesturectl gadget up`): frames are built for its geometry.
    func gadgetProfile(name: String?, kind: DeviceKind) throws -> VirtualDeviceProfile {
        throw PlayOutputError.unavailable(output: "gadget", reason: "not built yet")
    }

    /// A session writing to the gadget's HID function for `profile`
    /// (``PlayOutput/gadget(name:)``).
    func gadgetSession(name: String?, profile: VirtualDeviceProfile, linger: Microseconds) throws -> PlaybackSession {
        throw PlayOutputError.unavailable(output: "gadget", reason: "not built yet")
    }
}
