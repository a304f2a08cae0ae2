import DeviceDiscovery
import GestureEngine
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem
import Testing
import TestSupport

@Suite("Live fingertips: the idle time")
struct FingertipsIdleTests {
    @Test("The idle time counts from the ready line, not from the start: a slow device (udev under load) does not eat it")
    func idleCountsFromReady() async throws {
        let clock = ManualClock()
        let engine = Engine(
            devices: DeviceFactory(make: { profile, _, _ in
                // Making the device takes 10 s of the source's clock, twice the idle time.
                clock.advance(by: Microseconds(10_000_000))
                return PlaybackSession(
                    profile: profile, sink: RecordingSink(), devnode: "/dev/input/test-fingertips", linger: .zero, clock: ManualClock())
            }),
            inputs: InputFactory(
                openRecording: { _ in throw FingertipsError("not a recording test") },
                openLiveSource: { _ in
                    OpenedInput(
                        source: FakeSource(clock: clock, steps: []), description: TestDevices.mouse,
                        info: DeviceInfo(node: "/dev/input/test-source", name: "mouse", kind: .mouse), stableID: nil)
                }))
        let job = try engine.startFingertips(
            FingertipsRequest(options: FingertipsOptions(count: 3, idle: Microseconds(5_000_000))), clock: clock)
        let outcome = await job.finished()
        guard case .idle = outcome.reason else {
            Issue.record("ended as \(outcome.reason)")
            return
        }
        // Ready at 10 s (after the device), gone 5 s later, not at once.
        #expect(clock.now() >= Microseconds(15_000_000))
    }

    @Test("restartIdle moves the deadline forward, never back")
    func restartIdle() throws {
        var model = try FingertipsModel(
            options: FingertipsOptions(count: 2, idle: Microseconds(5_000_000)), source: TestDevices.mouse,
            target: LiveTouchFrames.surface(of: VirtualDeviceProfile.touchscreen()), start: Microseconds(1_000_000))
        model.restartIdle(at: Microseconds(3_000_000))
        #expect(model.idleDeadline == Microseconds(8_000_000))
        model.restartIdle(at: Microseconds(2_000_000))
        #expect(model.idleDeadline == Microseconds(8_000_000))
    }
}
