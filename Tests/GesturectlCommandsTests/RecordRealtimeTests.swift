import Testing
import TestSupport

/// `record --realtime`: SCHED_FIFO for the recording thread, refused clearly
/// (naming CAP_SYS_NICE and RLIMIT_RTPRIO) before any device is opened when
/// the process may not have it; not offered through the daemon.
@Suite struct RecordRealtimeTests {
    @Test(.requiring(PlayRealtimeTests.toolsExist, "SKIPPED LOUDLY: setpriv or prlimit is missing (util-linux)"))
    func realtimeWithoutTheCapabilityIsRefusedBeforeTheDeviceIsOpened() throws {
        // A device that does not exist: the refusal must come first.
        let result = try PlayRealtimeTests.runUnprivileged(["record", "--realtime", "--device", "/dev/input/event-none", "-o", "x.gesture.json"])
        PlayRealtimeTests.expectRefused(result, doing: "recording", done: "recorded", device: "event-none")
    }

    @Test func helpTellsThePriorityAndWhatItNeeds() throws {
        let result = try CLI.run(["help", "record"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("--realtime"))
        #expect(result.stdout.contains("SCHED_FIFO at priority 40"))
        #expect(result.stdout.contains("CAP_SYS_NICE"))
        #expect(result.stdout.contains("RLIMIT_RTPRIO"))
    }

    @Test func realtimeThroughTheDaemonIsAUsageError() throws {
        let result = try CLI.run(["--socket", "/nonexistent/gesturectl.sock", "record", "--realtime"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--realtime is not available through the daemon"), "\(result.stderr)")
    }
}
