@testable import GestureAssist
import GestureEngine
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Synchronization
import TestSupport
import Testing

/// Menu services with a keyboard that writes to a sink, plays that are
/// only noted, a switch the test presses, and a create flow on ``FakeServices``.
final class FakeMenuServices: MenuServices, Sendable {
    let engine = Engine()
    let keyboardSink = RecordingSink()
    let played = Mutex<[String]>([])
    let watches = Mutex<[TriggerHandle]>([])
    let closed = Mutex(false)
    let create = FakeServices()

    var createServices: any CreateServices { create }
    func createFlow() -> CreateFlow { CreateFlow(library: FakeLibrary()) }
    func gestureNames() throws -> [String] { ["three-finger-swipe-up", "pinch"] }
    func close() { closed.withLock { $0 = true } }
    func prepare() throws {}

    func startPress(_ key: VirtualKeyboard.Key) throws -> PlayJob {
        let session = PlaybackSession(profile: .keyboard(), sink: keyboardSink, devnode: nil, linger: .zero)
        return try engine.startPress(KeyPress(key: key.code, action: .tap), on: session, closesSession: true)
    }

    func startPlay(named name: String) throws -> PlayJob {
        played.withLock { $0.append(name) }
        // Any short play will do: a tap on a keyboard no one reads.
        let session = PlaybackSession(profile: .keyboard(), sink: RecordingSink(), devnode: nil, linger: .zero)
        return try engine.startPress(KeyPress(key: VirtualKeyboard.buttons[0].code, action: .tap), on: session, closesSession: true)
    }

    func watchSwitch(_ request: TriggerRequest) throws -> TriggerHandle {
        // Like the engine's watch: it ends when cancelled; each watch its own handle.
        let handle = TriggerHandle()
        let cancelled = try handle.cancellation.fileDescriptor
        try DedicatedThread.start(ThreadOptions(name: "test-switch")) {
            _ = try? Poll.wait([(cancelled, .readable)], timeoutMilliseconds: nil)
            handle.finish(nil)
        }
        watches.withLock { $0.append(handle) }
        return handle
    }

    func press(_ press: TriggerPress) { watches.withLock { $0.last }?.report(.press(press, time: SystemClock().now())) }

    /// The keys the keyboard pressed down, by code.
    var keysPressed: [UInt16] {
        keyboardSink.frames.flatMap(\.events).filter { $0.type == .key && $0.value == 1 }.map(\.code.rawValue)
    }
}

@Suite("A menu session end to end (a switch the test presses, keys from a pipe)", .serialized)
struct MenuSessionTests {
    @Test("One switch only: scanning reaches Volume up (the key is pressed) and a saved gesture (played); a long press goes back; holding stops")
    func switchOnly() throws {
        let services = FakeMenuServices()
        let display = try TranscriptDisplay()
        let trigger = try TriggerRequest(device: "usb-test-switch", key: "KEY_ENTER")
        let scanning = ScanSettings(interval: Microseconds(300_000), firstItemHold: .zero)
        let handle = try MenuSession.start(
            ActionMenu(configuration: .defaults, library: services), services: services, display: display, keyboard: nil,
            switchSetup: SwitchSetup(trigger: trigger, scanning: scanning))
        #expect(display.eventually { display.all.last == "HIGHLIGHT Volume up" })
        services.press(.single)
        #expect(display.eventually { display.has("Pressed volume up.") })
        #expect(services.keysPressed == [115])
        // The menu is open again, scanning from the top.
        #expect(display.eventually { display.all.last == "HIGHLIGHT Gestures menu" })
        services.press(.single)
        #expect(display.eventually { display.has("MENU Gestures. Choose one, or go back. three-finger-swipe-up · pinch") })
        #expect(display.eventually { display.all.last == "HIGHLIGHT pinch" })
        services.press(.single)
        #expect(display.eventually { display.has("Played pinch.") })
        #expect(services.played.withLock { $0 } == ["pinch"])
        // A long press goes back to the top level.
        let menus = display.all.filter { $0.hasPrefix("MENU Main menu") }.count
        services.press(.long)
        #expect(display.eventually { display.all.filter { $0.hasPrefix("MENU Main menu") }.count == menus + 1 })
        services.press(.emergencyStop)
        #expect(handle.wait() == .success(.emergencyStopped))
        #expect(display.has("Emergency stop"))
        #expect(services.watches.withLock { $0.allSatisfy(\.isCancelled) })
        #expect(services.closed.withLock { $0 })
    }

    @Test("Keys: Create New Gesture runs the create flow, saves, and comes back to the menu; Escape closes it")
    func createAndComeBack() throws {
        let services = FakeMenuServices()
        let display = try TranscriptDisplay()
        let keys = try FileDescriptor.pipe()
        defer { keys.write.close(); keys.read.close() }
        let handle = try MenuSession.start(
            ActionMenu(configuration: .defaults, library: services), services: services, display: display,
            keyboard: KeyboardInput(fileDescriptor: keys.read), switchSetup: nil)
        #expect(display.eventually { display.has("MENU Main menu") })
        try keys.write.writeAll(Array("7".utf8))
        #expect(display.eventually { display.has("Recording from test touchscreen") })
        services.create.source?.stroke(id: 1, x: 1_000, y: 1_000)
        #expect(display.eventually { display.has("Stroke 1: ") })
        try keys.write.writeAll(Array("\r".utf8))
        #expect(display.eventually { display.has("MENU ") && display.all.last?.hasPrefix("HIGHLIGHT Review") == true })
        try keys.write.writeAll(Array("2".utf8))
        #expect(display.eventually { display.has("NAME? ") })
        try keys.write.writeAll(Array("mine\r".utf8))
        #expect(display.eventually { display.has("Back in the menu.") })
        #expect(services.create.saved.withLock { $0.map(\.1) } == ["mine"])
        try keys.write.writeAll([0x1B])
        #expect(handle.wait() == .success(.closed))
        #expect(display.has("Menu closed."))
    }
}
