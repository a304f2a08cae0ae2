@testable import GestureAssist
import GestureEngine
import GestureModel
import GesturePlayback
import GestureSynth
import InputSystem
import OperatingSystem
import Synchronization
import TestSupport
import Testing

@Suite("A menu session end to end (the engine over test doubles: a switch the test presses, keys from a pipe)", .serialized)
struct MenuSessionTests {
    @Test("One switch only: scanning reaches Volume up (the key is pressed) and a saved gesture (played); a long press goes back; holding stops")
    func switchOnly() throws {
        let rig = try AssistRig()
        for name in ["three-finger-swipe-up", "pinch"] { _ = try rig.library.save(try GestureSynthesizer.tap(), as: name, overwrite: false) }
        let display = try TranscriptDisplay()
        let handle = try MenuSession.start(
            ActionMenu(configuration: .defaults, library: LibraryNames(rig.library)), setup: rig.menuSetup, display: display,
            keyboard: nil, switchSetup: try rig.switchSetup())
        #expect(display.eventually { display.has("The switch is ready") }, "\(display.all)")
        #expect(display.eventually { display.all.last == "HIGHLIGHT Volume up" })
        rig.press(.single)
        #expect(display.eventually { display.has("Pressed volume up.") })
        #expect(rig.keysPressed == [115])
        // The menu is open again, scanning from the top.
        #expect(display.eventually { display.all.last == "HIGHLIGHT Saved gestures menu" })
        rig.press(.single)
        #expect(display.eventually { display.has("MENU Saved gestures. Choose one, or go back.") })
        let gestures = display.all.first { $0.hasPrefix("MENU Saved gestures.") } ?? ""
        #expect(gestures.contains("three-finger-swipe-up") && gestures.contains("pinch"))
        #expect(display.eventually { display.all.last == "HIGHLIGHT pinch" })
        rig.press(.single)
        #expect(display.eventually { display.has("Played pinch.") })
        #expect(rig.touchscreenPlayed)
        // A long press goes back to the top level.
        let menus = display.all.filter { $0.hasPrefix("MENU Main menu") }.count
        rig.press(.long)
        #expect(display.eventually { display.all.filter { $0.hasPrefix("MENU Main menu") }.count == menus + 1 })
        // Held: a long press (back, at the top level), then the emergency stop.
        rig.press(.emergencyStop)
        #expect(handle.wait() == .success(.emergencyStopped))
        #expect(display.has("Emergency stop"))
        // The switch's watch let its device go, and the menu closed the devices it kept.
        #expect(waitUntil { rig.switchDevice.openReaders == 0 })
        #expect(rig.engine.keptDevices.isEmpty)
    }

    @Test("Keys: Create New Gesture runs the create flow, saves, and comes back to the menu; Escape closes it")
    func createAndComeBack() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.write.close(); keys.read.close() }
        let handle = try MenuSession.start(
            ActionMenu(configuration: .defaults, library: LibraryNames(rig.library)), setup: rig.menuSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("MENU Main menu") })
        try keys.write.writeAll(Array("7".utf8))
        #expect(display.eventually { display.has("Recording from test touchscreen") })
        rig.drawing.stroke(id: 1, x: 1_000, y: 1_000)
        #expect(display.eventually { display.has("Stroke 1: ") })
        try keys.write.writeAll(Array("\r".utf8))
        #expect(display.eventually { display.has("MENU ") && display.all.last?.hasPrefix("HIGHLIGHT Review") == true })
        try keys.write.writeAll(Array("2".utf8))
        #expect(display.eventually { display.has("NAME? ") })
        try keys.write.writeAll(Array("mine\r".utf8))
        #expect(display.eventually { display.has("Back in the menu.") })
        #expect(try rig.library.list().map(\.name) == ["mine"])
        try keys.write.writeAll([0x1B])
        #expect(handle.wait() == .success(.closed))
        #expect(display.has("Menu closed."))
    }

    @Test("Keys that end inside Create New Gesture (no switch) end create, then close the menu at once, not back in a menu no one can use")
    func keysEndInsideCreate() throws {
        let rig = try AssistRig()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.read.close() }
        let handle = try MenuSession.start(
            ActionMenu(configuration: .defaults, library: LibraryNames(rig.library)), setup: rig.menuSetup, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("MENU Main menu") })
        try keys.write.writeAll(Array("7".utf8))
        #expect(display.eventually { display.has("Recording from test touchscreen") })
        rig.drawing.stroke(id: 1, x: 1_000, y: 1_000)
        #expect(display.eventually { display.has("Stroke 1: ") })
        keys.write.close()
        #expect(handle.wait() == .success(.closed))
        let all = display.all
        let created = try #require(all.firstIndex { $0.contains("The keys ended and there is no switch, so nothing can operate the flow.") }, "\(all)")
        let after = Array(all[(created + 1)...])
        #expect(!after.contains("Back in the menu."), "\(after)")
        #expect(!after.contains { $0.hasPrefix("MENU ") }, "\(after)")
        #expect(after.contains("The keys ended and there is no switch, so nothing can operate the menu."))
        #expect(after.filter { $0 != "END" }.last == "Menu closed.", "\(after)")
    }
}
