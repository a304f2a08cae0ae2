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

@Suite("A create session end to end (the engine over test doubles: a touchscreen and a switch the test works, keys from a pipe)", .serialized)
struct CreateSessionTests {
    @Test("Keys: two strokes one after another, Return stops, Save, a typed name: saved with two fingers starting together")
    func keyboardFlow() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.write.close(); keys.read.close() }
        let handle = try CreateSession.start(
            flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("Recording from test touchscreen") })
        let first = SystemClock().now()
        rig.drawing.stroke(id: 1, x: 1_000, y: 1_000, at: first)
        #expect(display.eventually { display.has("Stroke 1: ") })
        // Stamped after the first stroke's lift (4 ms after its start), however soon it is pushed.
        rig.drawing.stroke(id: 2, x: 3_000, y: 1_000, at: max(SystemClock().now(), first + Microseconds(20_000)))
        #expect(display.eventually { display.has("Stroke 2: ") })
        try keys.write.writeAll(Array("\r".utf8))
        #expect(display.eventually { display.has("MENU ") })
        try keys.write.writeAll(Array("2".utf8))
        #expect(display.eventually { display.has("NAME? ") })
        try keys.write.writeAll(Array("my-two\r".utf8))
        let result = handle.wait()
        #expect(result == .success(.saved(name: "my-two", path: rig.folder.file("my-two.gesture.json"))))
        let saved = try rig.library.load(named: "my-two")
        #expect(saved.strokes.count == 2)
        #expect(saved.strokes[0].startTime == saved.strokes[1].startTime)
        #expect(display.all.last == "END")
        #expect(display.has("Saved as my-two: 2 fingers"))
    }

    @Test("One switch: it stops the recording, scanning reaches Save, one press accepts the suggested name")
    func switchFlow() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let handle = try CreateSession.start(
            flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display, keyboard: nil,
            switchSetup: try rig.switchSetup(stopsRecording: true))
        #expect(display.eventually { display.has("Recording from") })
        #expect(display.eventually { display.has("The switch is ready: test switch.") })
        let first = SystemClock().now()
        rig.drawing.stroke(id: 1, x: 1_000, y: 1_000, at: first)
        rig.drawing.stroke(id: 2, x: 3_000, y: 1_000, at: first + Microseconds(20_000))
        #expect(display.eventually { display.has("Stroke 2: ") })
        rig.press(.single)
        #expect(display.eventually { display.all.last == "HIGHLIGHT Save" })
        rig.press(.single)
        #expect(display.eventually { display.has("MENU Save the gesture as 2-fingers") })
        rig.press(.single)
        let result = handle.wait()
        guard case .success(.saved(let name, _)) = result else {
            Issue.record("not saved: \(result) \(display.all)")
            return
        }
        #expect(name.hasPrefix("2-fingers"))
        #expect(try rig.library.load(named: name).strokes.count == 2)
    }

    @Test("A pointer: the canvas follows it while recording (a grabbed pointer moves no cursor)")
    func pointerCanvas() throws {
        let rig = try AssistRig(drawing: TestDevices.mouse, name: "test mouse")
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.write.close(); keys.read.close() }
        let handle = try CreateSession.start(
            flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("Recording from") })
        // The pointer starts at the centre of the 1920x1080 screen and moves 100 px right.
        rig.drawing.frame([(.relative, .relativeX, 100)])
        #expect(display.eventually { display.has("CANVAS 0 1060,540") })
        // A press-drag-release is a stroke; the canvas then shows it.
        rig.drawing.frame([(.key, .buttonLeft, 1)])
        rig.drawing.frame([(.relative, .relativeY, 50)])
        rig.drawing.frame([(.key, .buttonLeft, 0)])
        rig.drawing.frame([(.relative, .relativeX, 10)])
        #expect(display.eventually { display.has("CANVAS 1 1070,590") })
        handle.cancel()
        #expect(handle.wait() == .success(.emergencyStopped))
    }

    @Test("Holding the switch 3 s is the emergency stop: the recording is cancelled, nothing saved; so is a cancel (Ctrl-C)")
    func emergencyStop() throws {
        for viaCancel in [false, true] {
            let rig = try AssistRig()
            let display = try TranscriptDisplay()
            let handle = try CreateSession.start(
                flow: CreateFlow(library: LibraryNames(rig.library)), setup: rig.createSetup, display: display, keyboard: nil,
                switchSetup: try rig.switchSetup())
            #expect(display.eventually { display.has("Recording from") })
            #expect(display.eventually { display.has("The switch is ready") })
            if viaCancel { handle.cancel() } else { rig.press(.emergencyStop) }
            #expect(handle.wait() == .success(.emergencyStopped))
            #expect(display.has("Emergency stop"))
            #expect(try rig.library.list().isEmpty)
            // The switch's watch and the recording let their devices go with everything else.
            #expect(waitUntil { rig.switchDevice.openReaders == 0 && rig.drawing.openReaders == 0 })
        }
    }
}
