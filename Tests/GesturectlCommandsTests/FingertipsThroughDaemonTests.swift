import DaemonTestSupport
import DeviceDiscovery
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// `gesturectl --socket PATH fingertips N …` against a daemon in this
/// process whose fingertips read test sources and write to test devices.
@Suite("fingertips through the daemon", .serialized)
struct FingertipsThroughDaemonTests {
    final class Rig: Sendable {
        let scratch: TemporaryFolder
        /// The daemon, whose fingertips read test sources.
        let daemon: TestDaemon
        var socketPath: String { daemon.socketPath }
        /// Whether each source vanishes as soon as it is opened.
        final class Shared: Sendable { let vanishes = Atomic(false) }
        let shared = Shared()

        init() throws {
            scratch = try TemporaryFolder()
            let shared = self.shared
            let inputs = InputFactory(openRecording: { request in
                let source = try PipeSource()
                if shared.vanishes.load(ordering: .acquiring) { source.vanish() }
                return OpenedInput(
                    source: source, description: TestDevices.touchscreen,
                    info: DeviceInfo(node: "/dev/input/test-\(request.device ?? "only")", name: "test source", kind: .touchscreen),
                    stableID: nil)
            })
            daemon = try TestDaemon(configuration: DaemonConfiguration(devices: []), inputs: inputs)
        }

        func stop() async { await daemon.stop() }

        func fingertips(_ arguments: [String]) throws -> CLIResult {
            try CLI.run(["--socket", socketPath, "fingertips"] + arguments, in: scratch.path)
        }
    }

    @Test("The same lines as locally, from the daemon's events; they go away after --idle")
    func idle() async throws {
        let rig = try Rig()
        let result = try rig.fingertips(["3", "--device", "pad", "--idle", "0.3", "--layout", "arc"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("3 fingertips ready: touch the screen with one finger; every fingertip follows it.\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("3 fingertips gone: no input for 300ms.\n"), "\(result.stdout)")
        #expect(result.stderr.contains("fingertips through the daemon at \(rig.socketPath), reading /dev/input/test-pad"))
        await rig.stop()
    }

    @Test("A source unplugged ends them with exit status 1; --clone is refused; the daemon's refusals are told")
    func failures() async throws {
        let rig = try Rig()
        rig.shared.vanishes.store(true, ordering: .releasing)
        let unplugged = try rig.fingertips(["2", "--device", "pad"])
        #expect(unplugged.status == 1, "\(unplugged.stderr)")
        #expect(unplugged.stdout.contains("2 fingertips gone: the source was unplugged.\n"), "\(unplugged.stdout)")
        #expect(unplugged.stderr.contains("/dev/input/test-pad was unplugged"), "\(unplugged.stderr)")
        rig.shared.vanishes.store(false, ordering: .releasing)
        let clone = try rig.fingertips(["2", "--clone", "ELAN Touchscreen"])
        #expect(clone.status == 2, "\(clone.stderr)")
        #expect(clone.stderr.contains("--clone works only locally"))
        await rig.stop()
        let gone = try rig.fingertips(["2"])
        #expect(gone.status != 0)
    }
}
