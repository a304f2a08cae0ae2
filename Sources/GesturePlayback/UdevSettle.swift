import GestureModel
import InputSystem
import OperatingSystem

/// Something that delivers udev events on a pollable descriptor: a
/// ``UdevMonitor``, or a test double.
public protocol UdevEventSource: AnyObject {
    /// The descriptor that becomes readable when events are pending.
    var fileDescriptor: FileDescriptor { get }
    /// The next pending event, `nil` when none is pending.
    func receive() throws(SystemError) -> UdevEvent?
}

extension UdevMonitor: UdevEventSource {}

/// Waiting until udev has set up a new device (permissions, `ID_INPUT_*`),
/// so that libinput and others see it as what it is.
public enum UdevSettle {
    /// How long to wait by default: 5 s (udev took 0.6–1.7 s in the VM).
    public static let defaultTimeout = Microseconds(5_000_000)

    /// Waits for udev's "add" event for `devnode` on `monitor`, which must
    /// have been opened *before* the device was created (or the event may
    /// have passed already). Polls the monitor's descriptor; no fixed sleep.
    ///
    /// - Returns: true when the event arrived; false when `timeout` passed
    ///   first or the monitor failed (no udev running: the caller warns and
    ///   goes on).
    public static func waitForDevice(
        monitor: some UdevEventSource, devnode: String, timeout: Microseconds = defaultTimeout,
        clock: some PlaybackClock = SystemClock()
    ) -> Bool {
        waitForDevice(monitor: monitor, timeout: timeout, clock: clock) { $0.node == devnode } != nil
    }

    /// Waits for udev's "add" event of the first evdev node that `matches`
    /// (e.g. by its parent's `uniq`, for a device whose node the creator
    /// is not told, as with /dev/uhid), on a monitor opened before the
    /// device was created.
    ///
    /// - Returns: the node as udev announced it; `nil` when `timeout`
    ///   passed first or the monitor failed.
    public static func waitForDevice(
        monitor: some UdevEventSource, timeout: Microseconds = defaultTimeout, clock: some PlaybackClock = SystemClock(),
        matching matches: (UdevInputDevice) -> Bool
    ) -> UdevInputDevice? {
        let deadline = clock.now() + timeout
        while true {
            do throws(SystemError) {
                while let event = try monitor.receive() {
                    if event.action == .add && matches(event.device) { return event.device }
                }
            } catch {
                return nil
            }
            let remaining = deadline.rawValue - clock.now().rawValue
            if remaining <= 0 { return nil }
            do throws(SystemError) {
                _ = try Poll.waitReadable(monitor.fileDescriptor, timeoutMilliseconds: Poll.milliseconds(roundingUp: remaining))
            } catch {
                return nil
            }
        }
    }
}
