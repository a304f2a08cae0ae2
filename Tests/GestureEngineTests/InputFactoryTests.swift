import Glibc
import DeviceDiscovery
import GestureEngine
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

@Suite("The engine's inputs")
struct InputFactoryTests {
    @Test("A recording reads what the engine's inputs open for its request, and reports their device")
    func recordingThroughInputs() throws {
        let source = try PipeSource()
        let asked = Mutex<[RecordRequest]>([])
        let inputs = InputFactory(openRecording: { request in
            asked.withLock { $0.append(request) }
            return OpenedInput(
                source: source, description: TestDevices.touchscreen,
                info: DeviceInfo(node: "/dev/input/test-recording", name: "gesturectl test touchscreen", kind: .touchscreen),
                stableID: "1d6b:0001")
        })
        let drawn = CancellationSignal()
        let job = try Engine(inputs: inputs).startRecording(
            RecordRequest(device: "test", grab: true, details: RecordingDetails(name: "drawn")), strokes: { _ in drawn.cancel() })
        #expect(job.device.node == "/dev/input/test-recording")
        #expect(job.stableID == "1d6b:0001")
        source.stroke(id: 1, x: 1_000, y: 2_000)
        _ = try Poll.wait([(try drawn.fileDescriptor, .readable)], timeoutMilliseconds: 10_000)
        job.cancel()
        let outcome = job.handle.wait()
        let gesture = try outcome.gesture.get()
        #expect(gesture.gesture.strokes.count == 1)
        #expect(gesture.gesture.metadata?.deviceID == "1d6b:0001")
        #expect(asked.withLock { $0.map(\.device) } == ["test"])
        #expect(asked.withLock { $0.map(\.grab) } == [true])
    }

    @Test("A recording starts listening before startRecording returns: the source was opened and read, and a stroke made at once is kept")
    func listeningWhenStarted() throws {
        let device = ListeningDevice()
        let inputs = InputFactory(openRecording: { _ in
            OpenedInput(
                source: try device.open(), description: TestDevices.touchscreen,
                info: DeviceInfo(node: "/dev/input/test-recording", name: "gesturectl test touchscreen", kind: .touchscreen),
                stableID: nil)
        })
        let drawn = CancellationSignal()
        let job = try Engine(inputs: inputs).startRecording(
            RecordRequest(details: RecordingDetails(name: "drawn")), strokes: { _ in drawn.cancel() })
        // What a front end says now ("recording from", "draw") comes after both.
        #expect(device.notes == ["opened", "read"])
        device.stroke(id: 1, x: 1_000, y: 2_000)
        _ = try Poll.wait([(try drawn.fileDescriptor, .readable)], timeoutMilliseconds: 10_000)
        job.cancel()
        #expect(try job.handle.wait().gesture.get().gesture.strokes.count == 1)
        #expect(device.lostFrames == 0)
    }
}

/// Issue 36: the system's inputs open only input devices. A path that is
/// no input node (a file only the daemon can read, another user's open
/// descriptor, a pty) is "not found" exactly as a missing path is, for a
/// recording and for fingertips, and nothing is opened.
@Suite("The system's inputs open only input devices")
struct SystemInputsNodeRuleTests {
    static func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "opened"
        } catch let error as DeviceSelectionError {
            return "\(error.kind): \(error)"
        } catch {
            return "other: \(error)"
        }
    }

    @Test("A file, a descriptor link and a terminal answer as a missing path does")
    func otherPathsAreNotFound() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/secret"
        let missing = folder.path + "/nothing"
        #expect(Glibc.close(Glibc.creat(file, 0o600)) == 0)
        let open = Glibc.open(file, O_RDONLY)
        defer { Glibc.close(open) }
        let engine = Engine(inputs: .system)
        for path in [file, "/proc/self/fd/\(open)", "/dev/null", "/dev/ptmx"] {
            let recording = Self.refusal {
                _ = try engine.startRecording(RecordRequest(device: path, details: RecordingDetails(name: "x")))
            }
            let expected = Self.refusal {
                _ = try engine.startRecording(RecordRequest(device: missing, details: RecordingDetails(name: "x")))
            }
            #expect(recording.hasPrefix("notFound"), "\(path): \(recording)")
            #expect(recording.replacingPath(path, with: missing) == expected, "\(path)")
            #expect(!recording.contains(folder.path) || path.hasPrefix(folder.path), "\(recording)")
            let live = Self.refusal { _ = try InputFactory.system.openLiveSource(path) }
            #expect(live.hasPrefix("notFound"), "\(path): \(live)")
        }
    }
}

extension String {
    fileprivate func replacingPath(_ path: String, with other: String) -> String {
        var parts = self.components(separatedBy: path)
        if parts.count < 2 { return self }
        let first = parts.removeFirst()
        return parts.reduce(first) { $0 + other + $1 }
    }

    fileprivate func components(separatedBy separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let range = rest.range(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}
