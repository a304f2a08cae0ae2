import DaemonTestSupport
import DeviceDiscovery
import Foundation
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// `gesturectl --socket PATH record …` against a daemon in this process
/// whose recordings read test sources instead of input devices.
@Suite("record through the daemon", .serialized)
struct RecordThroughDaemonTests {
    /// What each recording's source does as soon as it starts.
    enum Script: Sendable { case stroke, strokeThenVanish, vanish, nothing }

    final class Rig: Sendable {
        let scratch: TemporaryFolder
        /// The daemon, whose recordings read the script's sources.
        let daemon: TestDaemon
        var socketPath: String { daemon.socketPath }
        /// The daemon's library.
        var library: String { daemon.folder + "/library" }
        final class Shared: Sendable {
            let script = Mutex<Script>(.stroke)
            let sources = Mutex<[PipeSource]>([])
        }
        let shared = Shared()

        init() throws {
            scratch = try TemporaryFolder()
            let shared = self.shared
            let inputs = InputFactory(openRecording: { _ in
                let source = try PipeSource()
                shared.sources.withLock { $0.append(source) }
                switch shared.script.withLock({ $0 }) {
                case .stroke: source.stroke(id: 1, x: 1_000, y: 2_000)
                case .strokeThenVanish:
                    source.stroke(id: 1, x: 1_000, y: 2_000)
                    source.vanish()
                case .vanish: source.vanish()
                case .nothing: break
                }
                return OpenedInput(
                    source: source, description: TestDevices.touchscreen,
                    info: DeviceInfo(node: "/dev/input/test-recording", name: "gesturectl test touchscreen", kind: .touchscreen),
                    stableID: "1d6b:0001")
            })
            daemon = try TestDaemon(configuration: DaemonConfiguration(devices: []), inputs: inputs)
        }

        func stop() async { await daemon.stop() }

        func record(_ arguments: [String]) throws -> CLIResult {
            try CLI.run(["--socket", socketPath, "record"] + arguments, in: scratch.path)
        }
    }

    @Test func idleTimeoutWritesTheFileAndPrintsItsPath() async throws {
        let rig = try Rig()
        let result = try rig.record(["--idle-timeout", "0.2", "-o", "out.gesture.json", "--name", "drawn"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "out.gesture.json\n")
        #expect(result.stderr.contains("recording through the daemon at \(rig.socketPath) from /dev/input/test-recording"))
        #expect(result.stderr.contains("stopped: idle timeout"))
        let gesture = try GestureFileFormat.decode(Array(try Data(contentsOf: URL(fileURLWithPath: rig.scratch.path + "/out.gesture.json"))), source: "out")
        #expect(gesture.strokes.count == 1)
        #expect(gesture.name == "drawn")
        #expect(gesture.metadata?.deviceID == "1d6b:0001")
        await rig.stop()
    }

    @Test func saveGoesToTheDaemonsLibraryAndATakenNameFallsBackToTheDefaultFile() async throws {
        let rig = try Rig()
        let saved = try rig.record(["--idle-timeout", "0.2", "--save", "mine", "--sequential"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout == rig.library + "/mine.gesture.json\n")
        #expect(FileManager.default.fileExists(atPath: rig.library + "/mine.gesture.json"))
        let taken = try rig.record(["--idle-timeout", "0.2", "--save", "mine"])
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(taken.stderr.contains("already exists"))
        #expect(taken.stdout.hasPrefix("gesture-") && taken.stdout.hasSuffix(".gesture.json\n"))
        let file = rig.scratch.path + "/" + taken.stdout.dropLast()
        #expect(FileManager.default.fileExists(atPath: file))
        let forced = try rig.record(["--idle-timeout", "0.2", "--save", "mine", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.hasSuffix("/mine.gesture.json\n"))
        await rig.stop()
    }

    @Test func aVanishedDeviceWritesWhatWasRecordedAndExits1() async throws {
        let rig = try Rig()
        rig.shared.script.withLock { $0 = .strokeThenVanish }
        let result = try rig.record(["-o", "partial.gesture.json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == "partial.gesture.json\n")
        #expect(result.stderr.contains("the device vanished while recording"))
        rig.shared.script.withLock { $0 = .vanish }
        let nothing = try rig.record(["-o", "none.gesture.json"])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("no contact was recorded"))
        #expect(!FileManager.default.fileExists(atPath: rig.scratch.path + "/none.gesture.json"))
        await rig.stop()
    }

    @Test func optionsOnlyALocalRecordingHasAreRefused() async throws {
        let rig = try Rig()
        let result = try rig.record(["--screen", "800x600"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--screen"))
        #expect(rig.shared.sources.withLock { $0.isEmpty })
        await rig.stop()
    }

    @Test func ctrlCStopsTheRecordingAndWritesIt() async throws {
        let rig = try Rig()
        // A subscriber to `record` events tells when the stroke has been
        // recorded (no fixed wait): subscribed before the recording starts.
        let events = try UnixSocket.connect(to: rig.socketPath)
        defer { events.close() }
        try events.writeAll(Array("{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"record\"]}\n".utf8))
        var received = ""
        func readEvents(until text: String) throws {
            while !received.contains(text) {
                guard let chunk = try events.read(upTo: 4_096), !chunk.isEmpty else { return }
                received += String(decoding: chunk, as: UTF8.self)
            }
        }
        try readEvents(until: "\n")
        #expect(received.contains("\"ok\": true"))
        let program = try RunningProgram(
            CLI.binary, ["--socket", rig.socketPath, "record", "-o", rig.scratch.path + "/c.gesture.json"],
            environment: ["PATH=/usr/bin:/bin", "HOME=\(rig.scratch.path)"])
        #expect(try program.readStandardError(until: "stop with Ctrl-C"))
        // The stroke was drawn before record-start answered; wait until it is recorded.
        try readEvents(until: "\"event\": \"record\"")
        #expect(received.contains("\"event\": \"record\""))
        program.send(SIGINT)
        let termination = try program.finish()
        let standardError = program.standardError
        #expect(termination == .exited(0), "\(standardError)")
        #expect(standardError.contains("stopped: cancelled"))
        let gesture = try GestureFileFormat.decode(Array(try Data(contentsOf: URL(fileURLWithPath: rig.scratch.path + "/c.gesture.json"))), source: "c")
        #expect(gesture.strokes.count == 1)
        await rig.stop()
    }
}

extension RecordThroughDaemonTests {
    /// Issue 40: a save that saved nothing is no success. Ctrl-C ends a
    /// recording in which nothing was touched; `--save` then saved nothing,
    /// and the command says so and exits 1 (the daemon answered
    /// `nothing-recorded`, and nothing is in its library).
    @Test func aSaveOfNothingExits1AndSaysNothingWasSaved() async throws {
        let rig = try Rig()
        rig.shared.script.withLock { $0 = .nothing }
        let program = try RunningProgram(
            CLI.binary, ["--socket", rig.socketPath, "record", "--save", "empty"],
            environment: ["PATH=/usr/bin:/bin", "HOME=\(rig.scratch.path)"])
        #expect(try program.readStandardError(until: "stop with Ctrl-C"))
        program.send(SIGINT)
        let termination = try program.finish()
        let standardError = program.standardError
        #expect(termination == .exited(1), "\(standardError)")
        #expect(standardError.contains("no contact was recorded"), "\(standardError)")
        #expect(standardError.contains("nothing was saved as \"empty\""), "\(standardError)")
        #expect(!FileManager.default.fileExists(atPath: rig.library + "/empty.gesture.json"))
        await rig.stop()
    }
}
