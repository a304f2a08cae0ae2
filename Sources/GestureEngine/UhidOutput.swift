import GesturePlayback
import GestureModel
import HIDOutput
import OperatingSystem

extension Engine {
    /// A new HID device of `profile` through /dev/uhid (``PlayOutput/uhid``):
    /// its description made from the profile's geometry
    /// (``HIDOutput/HIDDevicePlan``), created once a HID driver has bound it
    /// (hid-multitouch for a touchscreen) and udev has announced the evdev
    /// node that driver made, which is the session's ``PlaybackSession/devnode``.
    /// Frames become HID input reports (``HIDOutput/HIDFrameSink``); the
    /// session schedules, lingers and lifts on abort as a uinput one does,
    /// and destroying it (UHID_DESTROY) follows the sink's release.
    ///
    /// - Throws: the plan's error for a kind uhid cannot play (before
    ///   /dev/uhid is touched); ``OperatingSystem/SystemError`` about
    ///   `.uhid` (no uhid module, no access); ``HIDOutput/UhidError`` (no
    ///   driver bound the device in time).
    func uhidSession(profile: VirtualDeviceProfile, linger: Microseconds) throws -> PlaybackSession {
        let description = try HIDDevicePlan.description(for: profile)
        let device = try UhidDevice(description: description, driverTimeout: udevTimeout, udevTimeout: udevTimeout)
        return PlaybackSession(
            profile: profile, sink: HIDFrameSink(profile: profile, output: device), devnode: device.devnode,
            isInitialisedByUdev: device.isInitialisedByUdev, linger: linger)
    }
}
