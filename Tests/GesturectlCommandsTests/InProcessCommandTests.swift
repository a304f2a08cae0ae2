import CommandKit
import DeviceDiscovery
import Foundation
import GestureBindings
import GestureDaemon
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import GesturectlCommands
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// gesturectl's commands run in this process, on an engine injected into
/// their context (``GesturectlServices``) whose devices are TestSupport's:
/// virtual devices write to a ``RecordingSink`` on a ``ManualClock``, and
/// recordings read a ``PipeSource``. No uinput, no input device, no
/// process: what each command printed, returned and did to the devices.
@Suite("commands in process, on test devices", .serialized)
struct InProcessCommandTests {
    /// The virtual devices the engine made, by node.
    final class Devices: Sendable {
        let sinks = Mutex<[String: RecordingSink]>([:])

        func sink(_ node: String) -> RecordingSink? { sinks.withLock { $0[node] } }

        /// Sessions over a sink each, on a clock that jumps to every
        /// deadline (no play waits), at `/dev/input/test-KIND`.
        var factory: DeviceFactory {
            DeviceFactory(make: { [self] profile, _, _ in
                let sink = RecordingSink()
                let node = "/dev/input/test-\(profile.kind.rawValue)"
                sinks.withLock { $0[node] = sink }
                return PlaybackSession(profile: profile, sink: sink, devnode: node, linger: .zero, clock: ManualClock())
            })
        }
    }

    /// What one in-process run of a command line did.
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Recordings read one stroke at (1000, 2000) on the test touchscreen.
    static let oneStroke = InputFactory(openRecording: { _ in
        let source = try PipeSource()
        source.stroke(id: 1, x: 1_000, y: 2_000)
        return OpenedInput(
            source: source, description: TestDevices.touchscreen,
            info: DeviceInfo(node: "/dev/input/test-recording", name: "gesturectl test touchscreen", kind: .touchscreen),
            stableID: "1d6b:0001")
    })

    let scratch: TemporaryFolder
    let devices = Devices()
    let engine: Engine

    init() throws {
        scratch = try TemporaryFolder()
        engine = Engine(devices: devices.factory, inputs: Self.oneStroke)
    }

    /// Runs `arguments` in this process on the test engine, in the scratch
    /// folder, with a library of its own and the checkout's built-ins.
    /// `mapped`: told when a mapped gesture file has been read (see
    /// ``MappedGestureRead``).
    func run(_ arguments: [String], mapped: MappedGestureRead? = nil) async -> Run {
        let output = OutputBuffer()
        let error = OutputBuffer()
        var context = CommandContext(
            standardOutput: output.writer, standardError: error.writer,
            environment: [
                "HOME": scratch.path, "GESTURECTL_LIBRARY": scratch.path + "/library",
                "GESTURECTL_BUILTINS": CLI.checkout + "/Recordings",
            ],
            currentDirectory: scratch.path)
        context.services[MappedGestureRead.self] = mapped
        // Not started: no signal reaches a test; the commands subscribe as they would.
        let services = GesturectlServices(engine: engine, signals: SignalRouter(unhandled: { _ in }))
        let status = await Gesturectl.main(arguments: arguments, context: context, services: services)
        return Run(status: status, standardOutput: output.text, standardError: error.text)
    }

    @Test func playWritesTheGesturesFramesToTheInjectedEnginesDevice() async throws {
        let result = await run(["play", "pinch-in", "--lead-in", "0", "--linger", "0", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("playing on /dev/input/test-touchscreen (gesturectl virtual touchscreen)"))
        let sink = try #require(devices.sink("/dev/input/test-touchscreen"))
        #expect(!sink.frames.isEmpty)
        #expect(result.standardOutput.hasPrefix("{\"outcome\": \"completed\", \"device\": \"/dev/input/test-touchscreen\", \"frames\": \(sink.frames.count),"))
        // The last frame lifts every finger: no tracking id is left.
        #expect(sink.frames.last?.events.contains { $0.code == .multitouchTrackingID && $0.value == -1 } == true)
    }

    @Test func playOnAnotherKindAndABadValue() async throws {
        let played = await run(["play", "tap", "--as", "touchpad", "--lead-in", "0", "--linger", "0"])
        #expect(played.status == 0, "\(played.standardError)")
        #expect(devices.sink("/dev/input/test-touchpad")?.frames.isEmpty == false)
        let refused = await run(["play", "tap", "--as", "keyboard"])
        #expect(refused.status == 2)
        #expect(refused.standardError.hasPrefix("gesturectl: error: --as: \"keyboard\" is not one of touchscreen, touchpad, mouse, tablet\n"))
    }

    @Test func pressTapsTheKeyOnTheInjectedEnginesKeyboard() async throws {
        let result = await run(["press", "volume-up", "--lead-in", "0", "--linger", "0", "--hold", "10ms"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("pressing volume-up (KEY_VOLUMEUP) on /dev/input/test-keyboard"))
        let sink = try #require(devices.sink("/dev/input/test-keyboard"))
        let key = try VirtualKeyboard.key(named: "volume-up").code
        let presses = sink.frames.flatMap(\.events).filter { $0.type == .key && $0.code == key }.map(\.value)
        #expect(presses == [1, 0])
    }

    @Test func recordWritesWhatTheInjectedEnginesSourceDrew() async throws {
        let result = await run(["record", "--idle-timeout", "0.2", "-o", "drawn.gesture.json", "--name", "drawn"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "drawn.gesture.json\n")
        #expect(result.standardError.contains("recording from /dev/input/test-recording (gesturectl test touchscreen)"))
        #expect(result.standardError.contains("stopped: idle timeout"))
        let bytes = try FileIO.read(path: scratch.path + "/drawn.gesture.json", limit: 1 << 20)
        let gesture = try GestureFileFormat.decode(bytes, source: "drawn")
        #expect(gesture.strokes.count == 1)
        #expect(gesture.name == "drawn")
    }

    @Test func playAndRecordThroughADaemonOnTheSameKindOfEngine() async throws {
        // The daemon in this process, on its own test engine and devices.
        let daemonDevices = Devices()
        let socketPath = scratch.path + "/d.sock"
        let server = try DaemonServer(
            setup: DaemonServer.Setup(
                listening: try UnixSocket.listen(at: socketPath), createdSocketPath: socketPath,
                library: GestureLibrary(userDirectory: scratch.path + "/daemon-library", builtinDirectory: CLI.checkout + "/Recordings"),
                configuration: DaemonConfiguration(devices: [.touchscreen]), allowedGroup: nil),
            engine: Engine(devices: daemonDevices.factory, inputs: Self.oneStroke),
            log: DaemonLog(journal: false, minimum: .debug, write: { _ in }), version: "test")
        try server.start()

        let played = await run(["--socket", socketPath, "play", "pinch-in", "--json"])
        #expect(played.status == 0, "\(played.standardError)")
        #expect(played.standardError.contains("playing through the daemon at \(socketPath)"))
        #expect(played.standardOutput.hasPrefix("{\"outcome\": \"completed\", \"device\": \"/dev/input/test-touchscreen\""))
        #expect(daemonDevices.sink("/dev/input/test-touchscreen")?.frames.isEmpty == false)
        // The command's own engine made nothing: the daemon played.
        #expect(devices.sink("/dev/input/test-touchscreen") == nil)

        let local = await run(["--socket", socketPath, "play", "pinch-in", "--lead-in", "0"])
        #expect(local.status == 2)
        #expect(local.standardError.hasPrefix("gesturectl: error: --lead-in is not available through the daemon (it plays on its ready devices)\n"))

        let recorded = await run(["--socket", socketPath, "record", "--idle-timeout", "0.2", "-o", "remote.gesture.json"])
        #expect(recorded.status == 0, "\(recorded.standardError)")
        #expect(recorded.standardOutput == "remote.gesture.json\n")
        #expect(recorded.standardError.contains("recording through the daemon at \(socketPath) from /dev/input/test-recording"))

        server.stop()
        _ = await server.stopped()
    }
}
