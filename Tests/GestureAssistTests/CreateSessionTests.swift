@testable import GestureAssist
import DeviceDiscovery
import Glibc
import GestureEngine
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import TestSupport
import Testing

/// Lines and menus as a plain transcript, readable from the test's thread.
final class TranscriptDisplay: AssistDisplay, Sendable {
    let lines = Mutex<[String]>([])
    /// Signalled on each line shown, so a test waits on the display's changes.
    private let changed: TestEvent
    init() throws { changed = try TestEvent() }
    func say(_ line: Announcement) { append(line.text) }
    func menu(_ presenter: MenuPresenter, isNew: Bool) {
        if isNew { append("MENU " + presenter.screen.summaryLine(highlighted: nil).text) }
        append(presenter.highlighted.map { "HIGHLIGHT " + presenter.screen.items[$0].label } ?? "PAUSED")
    }
    func namePrompt(suggestion: String, typed: String) { if typed.isEmpty { append("NAME? \(suggestion)") } }
    func reviewFrame(_ gesture: Gesture, fraction: Double) {}
    func canvas(_ strokes: Gesture, pointer: PointerPosition) { append("CANVAS \(strokes.strokes.count) \(pointer.x),\(pointer.y)") }
    func finish() { append("END") }
    private func append(_ line: String) {
        lines.withLock { $0.append(line) }
        changed.signal()
    }
    var all: [String] { lines.withLock { $0 } }
    func has(_ prefix: String) -> Bool { all.contains { $0.hasPrefix(prefix) } }
    /// Waits (bounded) until `condition` holds of what is shown, checking it on each line shown.
    func eventually(_ condition: () -> Bool) -> Bool { (try? changed.wait(until: condition)) ?? false }
}

/// Services with a pipe for a touchscreen, a switch the test presses, and a
/// library in memory.
final class FakeServices: CreateServices, Sendable {
    let engine = Engine()
    let description: InputDeviceDescription
    init(description: InputDeviceDescription = TestDevices.touchscreen) { self.description = description }
    let sources = Mutex<[PipeSource]>([])
    let saved = Mutex<[(Gesture, String, Bool)]>([])
    let switchHandle = TriggerHandle()
    var idleTimeout: Microseconds? { nil }

    var source: PipeSource? { sources.withLock { $0.last } }

    func startRecording(strokes: @escaping @Sendable (Stroke) -> Void) throws -> RecordJob {
        let source = try PipeSource()
        sources.withLock { $0.append(source) }
        return try engine.startRecording(
            RecordRequest(details: RecordingDetails(name: "created")), source: source, description: description,
            device: DeviceInfo(node: "/dev/input/test", name: "test touchscreen", kind: .touchscreen), stableID: nil,
            strokes: strokes)
    }
    func startPlay(_ gesture: Gesture) throws -> PlayJob { throw CreateFailure("no uinput in this test") }
    func save(_ gesture: Gesture, name: String, replacing: Bool) throws -> String {
        saved.withLock { $0.append((gesture, name, replacing)) }
        return "/library/\(name).gesture.json"
    }
    func writePicture(_ gesture: Gesture) throws -> String? { nil }
    func watchSwitch(_ request: TriggerRequest) throws -> TriggerHandle {
        // Like the engine's watch: it ends when cancelled.
        let handle = switchHandle
        let cancelled = try handle.cancellation.fileDescriptor
        try DedicatedThread.start(ThreadOptions(name: "test-switch")) {
            _ = try? Poll.wait([(cancelled, .readable)], timeoutMilliseconds: nil)
            handle.finish(nil)
        }
        return handle
    }

    func press(_ press: TriggerPress) { switchHandle.report(.press(press, time: SystemClock().now())) }
}

@Suite("A create session end to end (recording from a pipe, keys from a pipe)", .serialized)
struct CreateSessionTests {
    @Test("Keys: two strokes one after another, Return stops, Save, a typed name: saved with two fingers starting together")
    func keyboardFlow() throws {
        let services = FakeServices()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.write.close(); keys.read.close() }
        let handle = try CreateSession.start(
            flow: CreateFlow(library: FakeLibrary()), services: services, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("Recording from test touchscreen") })
        let first = SystemClock().now()
        services.source?.stroke(id: 1, x: 1_000, y: 1_000, at: first)
        #expect(display.eventually { display.has("Stroke 1: ") })
        // Stamped after the first stroke's lift (4 ms after its start), however soon it is pushed.
        services.source?.stroke(id: 2, x: 3_000, y: 1_000, at: max(SystemClock().now(), first + Microseconds(20_000)))
        #expect(display.eventually { display.has("Stroke 2: ") })
        try keys.write.writeAll(Array("\r".utf8))
        #expect(display.eventually { display.has("MENU ") })
        try keys.write.writeAll(Array("2".utf8))
        #expect(display.eventually { display.has("NAME? ") })
        try keys.write.writeAll(Array("my-two\r".utf8))
        let result = handle.wait()
        #expect(result == .success(.saved(name: "my-two", path: "/library/my-two.gesture.json")))
        let saved = try #require(services.saved.withLock { $0.first })
        #expect(saved.1 == "my-two" && !saved.2)
        #expect(saved.0.strokes.count == 2)
        #expect(saved.0.strokes[0].startTime == saved.0.strokes[1].startTime)
        #expect(display.all.last == "END")
        #expect(display.has("Saved as my-two: 2 fingers"))
    }

    @Test("One switch: it stops the recording, scanning reaches Save, one press accepts the suggested name")
    func switchFlow() throws {
        let services = FakeServices()
        let display = try TranscriptDisplay()
        let trigger = try TriggerRequest(device: "usb-test-switch", key: "KEY_ENTER")
        let scanning = ScanSettings(interval: Microseconds(300_000), firstItemHold: .zero)
        let handle = try CreateSession.start(
            flow: CreateFlow(library: FakeLibrary()), services: services, display: display, keyboard: nil,
            switchSetup: SwitchSetup(trigger: trigger, scanning: scanning, stopsRecording: true))
        #expect(display.eventually { display.has("Recording from") })
        let first = SystemClock().now()
        services.source?.stroke(id: 1, x: 1_000, y: 1_000, at: first)
        services.source?.stroke(id: 2, x: 3_000, y: 1_000, at: first + Microseconds(20_000))
        #expect(display.eventually { display.has("Stroke 2: ") })
        services.press(.single)
        #expect(display.eventually { display.all.last == "HIGHLIGHT Save" })
        services.press(.single)
        #expect(display.eventually { display.has("MENU Save the gesture as 2-fingers") })
        services.press(.single)
        let result = handle.wait()
        guard case .success(.saved(let name, _)) = result else {
            Issue.record("not saved: \(result) \(display.all)")
            return
        }
        #expect(name.hasPrefix("2-fingers"))
        #expect(services.saved.withLock { $0.first?.0.strokes.count } == 2)
    }

    @Test("A pointer: the canvas follows it while recording (a grabbed pointer moves no cursor)")
    func pointerCanvas() throws {
        let services = FakeServices(description: TestDevices.mouse)
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.write.close(); keys.read.close() }
        let handle = try CreateSession.start(
            flow: CreateFlow(library: FakeLibrary()), services: services, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("Recording from") })
        // The pointer starts at the centre of the 1920x1080 screen and moves 100 px right.
        services.source?.frame([(.relative, .relativeX, 100)])
        #expect(display.eventually { display.has("CANVAS 0 1060,540") })
        // A press-drag-release is a stroke; the canvas then shows it.
        services.source?.frame([(.key, .buttonLeft, 1)])
        services.source?.frame([(.relative, .relativeY, 50)])
        services.source?.frame([(.key, .buttonLeft, 0)])
        services.source?.frame([(.relative, .relativeX, 10)])
        #expect(display.eventually { display.has("CANVAS 1 1070,590") })
        handle.cancel()
        #expect(handle.wait() == .success(.emergencyStopped))
    }

    @Test("Holding the switch 3 s is the emergency stop: the recording is cancelled, nothing saved; so is a cancel (Ctrl-C)")
    func emergencyStop() throws {
        for viaCancel in [false, true] {
            let services = FakeServices()
            let display = try TranscriptDisplay()
            let trigger = try TriggerRequest(device: "usb-test-switch", key: "KEY_ENTER")
            let handle = try CreateSession.start(
                flow: CreateFlow(library: FakeLibrary()), services: services, display: display, keyboard: nil,
                switchSetup: SwitchSetup(trigger: trigger, scanning: ScanSettings()))
            #expect(display.eventually { display.has("Recording from") })
            if viaCancel { handle.cancel() } else { services.press(.emergencyStop) }
            #expect(handle.wait() == .success(.emergencyStopped))
            #expect(display.has("Emergency stop"))
            #expect(services.saved.withLock { $0.isEmpty })
            // The switch watch was cancelled with everything else.
            #expect(services.switchHandle.isCancelled)
        }
    }
}
