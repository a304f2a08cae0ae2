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
