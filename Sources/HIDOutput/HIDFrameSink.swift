import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Synchronization

/// A ``GesturePlayback/FrameSink`` that plays through a HID transport:
/// each frame the player writes becomes the HID input reports that make the
/// host's HID driver produce the same frame (``HIDReportEncoder``), sent
/// at once, in order. The player's scheduling, lead-in, linger and
/// lift-on-abort are those of a uinput play: the frame that lifts
/// everything becomes the reports that lift every contact and release
/// every button.
public final class HIDFrameSink: FrameSink, Sendable {
    /// Where the reports go.
    public let output: any HIDReportOutput
    private let encoder: Mutex<HIDReportEncoder>
    private let clock: @Sendable () -> Microseconds

    /// A sink for the frames of `profile` (a touchscreen, the mouse or the
    /// keyboard) into `output`. `clock` gives the scan time (default
    /// CLOCK_MONOTONIC).
    /// - Throws: ``HIDDevicePlan/Failure`` for a profile with no HID form.
    public init(
        profile: VirtualDeviceProfile, output: any HIDReportOutput,
        clock: @escaping @Sendable () -> Microseconds = { Microseconds(MonotonicClock.nowMicroseconds()) }
    ) throws(HIDDevicePlan.Failure) {
        self.output = output
        self.encoder = Mutex(try HIDReportEncoder(profile: profile))
        self.clock = clock
    }

    /// Sends the reports of `frame`.
    /// - Throws: what the transport throws; the frame counts as written in
    ///   part, and the player then lifts everything.
    public func write(_ frame: InputFrame) throws {
        let now = clock()
        let reports = encoder.withLock { $0.reports(for: frame, scanTime: now) }
        for report in reports { try output.send(report: report) }
    }
}
