import GesturePlayback
import GestureModel
import HIDOutput
import OperatingSystem

extension Engine {
    /// A new HID device of `profile` through /dev/uhid (``PlayOutput/uhid``).
    func uhidSession(profile: VirtualDeviceProfile, linger: Microseconds) throws -> PlaybackSession {
        throw PlayOutputError.unavailable(output: "uhid", reason: "not built yet")
    }
}
