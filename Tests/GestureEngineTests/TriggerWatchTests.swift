@testable import GestureEngine
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

/// Devices for a trigger watch from a script: each `open` takes the next
/// entry (a source, `nil` for "not plugged in", or an error); a hotplug
/// pipe that is always readable says "something was added" at every wake-up,
/// so the watch tries again at once without waiting for its retry interval.
private final class ScriptedTriggerDevices: TriggerDevices {
    enum Entry {
        case present(any EventSource)
        case absent
        case failing(String)
    }

    private var entries: [Entry]
    private let pipe = TestPipe()

    init(_ entries: [Entry]) {
        self.entries = entries
        pipe.send("x")
    }

    deinit {
        FileDescriptor(rawValue: pipe.read).close()
        FileDescriptor(rawValue: pipe.write).close()
    }

    var hotplug: FileDescriptor? { FileDescriptor(rawValue: pipe.read) }
    func hotplugAdded() -> Bool { true }

    func open() throws -> (source: any EventSource, node: String, name: String)? {
        guard !entries.isEmpty else { return nil }
        switch entries.removeFirst() {
        case .present(let source): return (source, "/dev/input/event42", "test switch")
        case .absent: return nil
        case .failing(let message): throw TriggerError(message)
        }
    }
}

@Suite("Watching a trigger")
struct TriggerWatchTests {
    private static let key = EventCode.lookUp(codeName: "KEY_F13")!.code

    private func key(_ value: Int32, at milliseconds: Int64, code: EventCode = TriggerWatchTests.key) -> FakeSource.Step {
        .outcome(.event(InputEvent(time: Microseconds(milliseconds * 1_000), type: .key, code: code, value: value)))
    }

    private func sync(at milliseconds: Int64) -> FakeSource.Step {
        .outcome(.event(.synchronizationReport(time: Microseconds(milliseconds * 1_000))))
    }

    /// Runs a watch over `entries` until `expected` events were reported
    /// (or 10 s pass), then cancels it; returns every event reported.
    private func watch(
        _ makeEntries: (ManualClock, TriggerHandle) -> [ScriptedTriggerDevices.Entry], until expected: Int
    ) throws -> [TriggerEvent] {
        let clock = ManualClock()
        let handle = TriggerHandle()
        let seen = Mutex<[TriggerEvent]>([])
        let enough = CancellationSignal()
        handle.observeProgress { event in
            let count = seen.withLock { $0.append(event); return $0.count }
            if count >= expected { enough.cancel() }
        }
        let request = try TriggerRequest(device: "test switch", key: "KEY_F13")
        let devices = ScriptedTriggerDevices(makeEntries(clock, handle))
        _ = try Engine.startWatchingTrigger(
            request, devices: devices, clock: clock, retryInterval: Microseconds(1_000), handle: handle)
        _ = try Poll.wait([(try enough.fileDescriptor, .readable)], timeoutMilliseconds: 10_000)
        handle.cancel()
        #expect(handle.wait() == nil)
        return seen.withLock { $0 }
    }

    private func presses(_ events: [TriggerEvent]) -> [TriggerPress] {
        events.compactMap { if case .press(let press, _) = $0 { press } else { nil } }
    }

    @Test("Presses on the device are recognised and reported; other keys and repeats are ignored")
    func recognisesPresses() throws {
        let other = EventCode.lookUp(codeName: "KEY_A")!.code
        let events = try watch({ clock, _ in
            [.present(FakeSource(clock: clock, steps: [
                // A double: down, up, down within 300 ms, up.
                key(1, at: 1_000), sync(at: 1_000), key(0, at: 1_080), key(1, at: 1_200), key(0, at: 1_260),
                // Another key held in between changes nothing.
                key(1, at: 2_000, code: other), key(2, at: 2_100, code: other), key(0, at: 2_200, code: other),
                // A long press with auto-repeats.
                key(1, at: 3_000), key(2, at: 3_500), key(0, at: 4_500),
                // A single, reported once the idle clock passes 300 ms after the release.
                key(1, at: 6_000), key(0, at: 6_050),
            ]))]
        }, until: 4)
        #expect(events.first == .connected(node: "/dev/input/event42", name: "test switch"))
        #expect(presses(events) == [.double, .long, .single])
        // The long press came at 800 ms after its down (the repeat at 3.5 s
        // moved the clock; the next event at 4.5 s reached the deadline first).
        if case .press(_, let time) = events[2] { #expect(time >= Microseconds(3_800_000)) }
    }

    @Test("Events the source read but holds back are read without waiting for its descriptor")
    func heldBackEvents() throws {
        let events = try watch({ clock, _ in
            let outcomes: [ReadOutcome] = [key(1, at: 100), key(0, at: 150), key(1, at: 2_000, code: .buttonLeft)].compactMap {
                if case .outcome(let outcome) = $0 { outcome } else { nil }
            }
            return [.present(try! HeldBackSource(outcomes, clock: clock))]
        }, until: 2)
        #expect(presses(events) == [.single])
    }

    @Test("Held 3 s: long, then the emergency stop, reported while the key is still down")
    func emergencyStop() throws {
        let events = try watch({ clock, _ in
            [.present(FakeSource(clock: clock, steps: [key(1, at: 100)]))]
        }, until: 3)
        #expect(presses(events) == [.long, .emergencyStop])
        if case .press(_, let time) = events[2] { #expect(time >= Microseconds(3_100_000)) }
    }

    @Test("A device unplugged mid-press forgets the press, and is found again when plugged back in")
    func replug() throws {
        let gone = SystemError(call: "read", errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished, detail: "unplugged")
        let events = try watch({ clock, _ in
            [
                .absent,
                .present(FakeSource(clock: clock, steps: [key(1, at: 100), .fail(gone)])),
                .absent,
                .failing("no access"),
                .present(FakeSource(clock: clock, steps: [key(1, at: 5_000), key(0, at: 5_100)])),
            ]
        }, until: 7)
        #expect(events.count == 7)
        guard events.count == 7 else { return }
        #expect(events[0] == .disconnected(reason: "test switch is not plugged in"))
        #expect(events[1] == .connected(node: "/dev/input/event42", name: "test switch"))
        #expect(events[2] == .disconnected(reason: "test switch was unplugged"))
        #expect(events[3] == .disconnected(reason: "test switch is not plugged in"))
        #expect(events[4] == .disconnected(reason: "no access"))
        #expect(events[5] == .connected(node: "/dev/input/event42", name: "test switch"))
        // The press held when it vanished was never reported (no long press).
        #expect(presses(events) == [.single])
    }

    @Test("Through udev: a device that is not there is reported as waited for, and the watch ends when cancelled")
    func realDeviceMissing() throws {
        let request = try TriggerRequest(device: "ffff:fffe", key: "KEY_F13")
        let handle = TriggerHandle()
        let first = Mutex<TriggerEvent?>(nil)
        let reported = CancellationSignal()
        handle.observeProgress { event in
            first.withLock { if $0 == nil { $0 = event } }
            reported.cancel()
        }
        // Without udev (some containers) there is nothing to watch with: a
        // loud skip, and a failure under CI, where udev is part of the set-up.
        do {
            try Engine().startWatchingTrigger(request, handle: handle)
        } catch {
            if TestEnvironment.isContinuousIntegration { Issue.record("no trigger watch through udev under CI: \(error)") }
            print("SKIPPED LOUDLY: realDeviceMissing: no udev to watch with (\(error))")
            return
        }
        _ = try Poll.wait([(try reported.fileDescriptor, .readable)], timeoutMilliseconds: 10_000)
        if case .disconnected = first.withLock({ $0 }) {} else { Issue.record("first report: \(String(describing: first.withLock { $0 }))") }
        handle.cancel()
        #expect(handle.wait() == nil)
    }

    @Test("An engine's watch finds its device through the engine's inputs")
    func watchThroughInputs() throws {
        let asked = Mutex<[TriggerRequest]>([])
        let inputs = InputFactory(
            openRecording: { _ in throw TriggerError("no recordings here") },
            triggerDevices: { request in
                asked.withLock { $0.append(request) }
                return ScriptedTriggerDevices([.present(FakeSource(clock: ManualClock(), steps: []))])
            })
        let request = try TriggerRequest(device: "test switch", key: "KEY_F13")
        let handle = TriggerHandle()
        let first = Mutex<TriggerEvent?>(nil)
        let reported = CancellationSignal()
        handle.observeProgress { event in
            first.withLock { if $0 == nil { $0 = event } }
            reported.cancel()
        }
        _ = try Engine(inputs: inputs).startWatchingTrigger(request, handle: handle)
        _ = try Poll.wait([(try reported.fileDescriptor, .readable)], timeoutMilliseconds: 10_000)
        handle.cancel()
        #expect(handle.wait() == nil)
        #expect(asked.withLock { $0 } == [request])
        #expect(first.withLock { $0 } == .connected(node: "/dev/input/event42", name: "test switch"))
    }

    @Test("The device is reported connected (\"the switch is ready\") only once the watch has read it; a press right after is recognised")
    func connectedWhenRead() throws {
        let device = ListeningDevice()
        let source = try device.open()
        let handle = TriggerHandle()
        let notesAtConnect = Mutex<[String]?>(nil)
        let pressed = CancellationSignal()
        handle.observeProgress { event in
            switch event {
            case .connected:
                notesAtConnect.withLock { $0 = device.notes }
                // Pressed as soon as it is said to be ready.
                device.frame([(.key, TriggerWatchTests.key, 1)])
                device.frame([(.key, TriggerWatchTests.key, 0)])
            case .press: pressed.cancel()
            case .disconnected: break
            }
        }
        let request = try TriggerRequest(device: "test switch", key: "KEY_F13")
        _ = try Engine.startWatchingTrigger(request, devices: ScriptedTriggerDevices([.present(source)]), handle: handle)
        _ = try Poll.wait([(try pressed.fileDescriptor, .readable)], timeoutMilliseconds: 10_000)
        handle.cancel()
        #expect(handle.wait() == nil)
        #expect(notesAtConnect.withLock { $0 } == ["opened", "read"])
        #expect(pressed.isCancelled)
    }

    @Test("Event nodes, non-keys and impossible timings are refused; links, names and ids are not")
    func requests() throws {
        #expect(throws: TriggerError.self) { try TriggerRequest(device: "/dev/input/event3", key: "KEY_F13") }
        #expect(throws: TriggerError.self) { try TriggerRequest(device: "event3", key: "KEY_F13") }
        #expect(throws: TriggerError.self) { try TriggerRequest(device: "", key: "KEY_F13") }
        #expect(throws: TriggerError.self) { try TriggerRequest(device: "0001:0002", key: "ABS_X") }
        #expect(throws: TriggerError.self) { try TriggerRequest(device: "0001:0002", key: "KEY_NOPE") }
        #expect(throws: TriggerError.self) { try TriggerRequest(device: "0001:0002", key: "f13") }
        #expect(throws: TriggerError.self) {
            try TriggerRequest(device: "0001:0002", key: "KEY_F13", timings: PressTimings(longPress: Microseconds(5_000_000)))
        }
        let link = try TriggerRequest(device: "/dev/input/by-id/usb-Switch-event-kbd", key: "BTN_0", grab: true)
        #expect(link.key == EventCode.lookUp(codeName: "BTN_0")!.code)
        #expect(link.grab)
        _ = try TriggerRequest(device: "/dev/input/by-path/platform-i8042-serio-0-event-kbd", key: "KEY_F13")
        _ = try TriggerRequest(device: "AT Translated Set 2 keyboard", key: "KEY_F13")
        _ = try TriggerRequest(device: "046d:c52b", key: "KEY_VOLUMEUP")
    }
}
