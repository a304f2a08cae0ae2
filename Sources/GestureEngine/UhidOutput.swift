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
    /// - Throws: ``PlayOutputError`` for a profile uhid cannot play (a
    ///   touchpad, a tablet; before /dev/uhid is touched);
    ///   ``OperatingSystem/SystemError`` about `.uhid` (no uhid module, no
    ///   access); ``HIDOutput/UhidError`` (no driver bound the device in time).
    func uhidSession(profile: VirtualDeviceProfile, linger: Microseconds) throws -> PlaybackSession {
        let description: HIDDeviceDescription
        do throws(HIDDevicePlan.Failure) {
            description = try HIDDevicePlan.description(for: profile)
        } catch {
            throw Self.outputError(error, output: .uhid)
        }
        let device = try UhidDevice(description: description, driverTimeout: udevTimeout, udevTimeout: udevTimeout)
        let sink: HIDFrameSink
        do throws(HIDDevicePlan.Failure) {
            sink = try HIDFrameSink(profile: profile, output: device)
        } catch {
            device.close()
            throw Self.outputError(error, output: .uhid)
        }
        return PlaybackSession(
            profile: profile, sink: sink, devnode: device.devnode, isInitialisedByUdev: device.isInitialisedByUdev,
            linger: linger)
    }

    /// The plan's refusal in the words of ``PlayOutputError``, which names
    /// the output (`--to uhid cannot play a tablet gesture; …`).
    static func outputError(_ failure: HIDDevicePlan.Failure, output: PlayOutput) -> PlayOutputError {
        switch failure {
        case let .unsupportedKind(kind, hint): .unsupportedKind(output: output.word, kind: kind, hint: hint)
        case .layout: .unavailable(output: output.word, reason: failure.description)
        }
    }
}
