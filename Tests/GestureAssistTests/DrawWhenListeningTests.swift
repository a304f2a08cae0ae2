@testable import GestureAssist
import GestureEngine
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import TestSupport
import Testing

/// A display that draws a stroke on `device` the moment it shows a line
/// asking for one, as a person told to draw does, and notes each line in
/// the device's notes (so their order with its opening and first read shows).
final class PromptlyDrawingDisplay: AssistDisplay, Sendable {
    let device: ListeningDevice
    let transcript: TranscriptDisplay
    private let strokesDrawn = Mutex(0)

    init(device: ListeningDevice) throws {
        self.device = device
        transcript = try TranscriptDisplay()
    }

    func say(_ line: Announcement) {
        device.note(line.text)
        if line.text.hasPrefix("Draw ") || line.text.hasPrefix("Recording again") {
            let number = strokesDrawn.withLock { current in
                current += 1
                return current
            }
            device.stroke(id: Int32(number), x: 1_000 * Int32(number), y: 1_000)
        }
        transcript.say(line)
    }
    func menu(_ presenter: MenuPresenter, isNew: Bool) { transcript.menu(presenter, isNew: isNew) }
    func namePrompt(suggestion: String, typed: String) { transcript.namePrompt(suggestion: suggestion, typed: typed) }
    func reviewFrame(_ gesture: Gesture, fraction: Double) {}
    func finish() { transcript.finish() }
}

@Suite("create says \"draw\" only when its recording listens (issue 24)", .serialized)
struct DrawWhenListeningTests {
    /// A create session on `rig`'s engine, shown on a display that draws
    /// when told, with keys from a pipe.
    private func start(_ rig: AssistRig) throws -> (
        display: PromptlyDrawingDisplay, keys: (read: FileDescriptor, write: FileDescriptor),
        handle: JobHandle<Result<CreateOutcome, CreateFailure>, Never>
    ) {
        let display = try PromptlyDrawingDisplay(device: rig.drawing)
        let keys = try FileDescriptor.pipe()
        let handle = try CreateSession.start(
            flow: CreateFlow(library: FakeLibrary()), setup: rig.createSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        return (display, keys, handle)
    }

    @Test("A stroke drawn the moment each instruction line is shown is kept: the first, and one added later")
    func strokeRightAfterTheInstruction() throws {
        let rig = try AssistRig()
        let device = rig.drawing
        let (display, keys, handle) = try start(rig)
        defer { keys.write.close(); keys.read.close() }
        let shown = display.transcript
        #expect(shown.eventually { shown.has("Stroke 1: ") })
        try keys.write.writeAll(Array("\r".utf8))
        #expect(shown.eventually { shown.has("MENU ") })
        // Add a stroke (the third item): its instruction draws the second at once.
        try keys.write.writeAll(Array("3".utf8))
        #expect(shown.eventually { shown.has("Stroke 2: ") })
        try keys.write.writeAll(Array("\r".utf8))
        #expect(shown.eventually { shown.has("Recording stopped: 2 strokes") })
        handle.cancel()
        #expect(handle.wait() == .success(.emergencyStopped))
        #expect(device.lostFrames == 0)
    }

    @Test("The first instruction line comes after the device was opened and read, then \"Recording from\"")
    func instructionAfterTheFirstRead() throws {
        let rig = try AssistRig()
        let device = rig.drawing
        let (display, keys, handle) = try start(rig)
        defer { keys.write.close(); keys.read.close() }
        #expect(display.transcript.eventually { display.transcript.has("Recording from") })
        handle.cancel()
        #expect(handle.wait() == .success(.emergencyStopped))
        let notes = device.notes
        #expect(Array(notes.prefix(3)) == ["opened", "read", "Draw the first stroke. Each stroke you lift becomes a finger; they will play together. Recording starts when you touch."])
        #expect(notes.dropFirst(3).first?.hasPrefix("Recording from test touchscreen.") == true)
    }
}
