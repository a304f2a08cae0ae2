@testable import GestureAssist
import DeviceDiscovery
import GestureEngine
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem
import Synchronization
import TestSupport

/// The real engine over test doubles, for the assist sessions: a drawing
/// device and a switch the test works (``TestSupport/ListeningDevice``s,
/// read by the engine's recording and trigger-watch loops), virtual devices
/// that write to sinks on a clock that never waits, and a library in a
/// folder of its own.
final class AssistRig: Sendable {
    /// The device the create flow records from.
    let drawing = ListeningDevice()
    /// The switch (KEY_ENTER), read by the engine's trigger watches.
    let switchDevice = ListeningDevice()
    let folder: TemporaryFolder
    let library: GestureLibrary
    let engine: Engine
    /// The virtual devices' sinks, by kind (the latest of each).
    let sinks = Sinks()

    static let switchKey = EventCode.lookUp(codeName: "KEY_ENTER")!.code
    /// Press timings short enough for a test to hold the switch through them.
    static let scanning = ScanSettings(
        interval: Microseconds(300_000), firstItemHold: .zero, longPress: Microseconds(100_000),
        emergencyStop: Microseconds(250_000))

    init(drawing description: InputDeviceDescription = TestDevices.touchscreen, name: String = "test touchscreen") throws {
        folder = try TemporaryFolder()
        library = GestureLibrary(userDirectory: folder.path, builtinDirectory: nil)
        let sinks = self.sinks
        let drawing = self.drawing
        let switchDevice = self.switchDevice
        engine = Engine(
            devices: DeviceFactory(make: { profile, _, _ in
                let sink = RecordingSink()
                sinks.byKind.withLock { $0[profile.kind] = sink }
                return PlaybackSession(
                    profile: profile, sink: sink, devnode: "/dev/input/test-\(profile.kind.rawValue)", linger: .zero,
                    clock: ManualClock())
            }),
            inputs: InputFactory(
                openRecording: { _ in
                    OpenedInput(
                        source: try drawing.open(), description: description,
                        info: DeviceInfo(node: "/dev/input/test", name: name, kind: .touchscreen),
                        stableID: nil)
                },
                triggerDevices: { _ in SwitchDevices(device: switchDevice) }))
    }

    /// A create setup like the CLI's: plays on a kept touchscreen, saves in the rig's library.
    var createSetup: CreateSetup {
        CreateSetup(
            engine: engine, record: RecordRequest(details: RecordingDetails(name: "created")),
            play: { PlayRequest(gesture: $0, target: .kind(.touchscreen), leadIn: .zero, keepDevice: true) }, library: library)
    }

    /// A menu setup like the CLI's (its devices closed when it closes).
    var menuSetup: MenuSetup {
        MenuSetup(
            engine: engine, library: library,
            play: { PlayRequest(gesture: $0, target: .kind(.touchscreen), leadIn: .zero, keepDevice: true) },
            pressLeadIn: .zero, create: createSetup, playLabel: "Play on a virtual touchscreen", closesKeptDevices: true)
    }

    /// A switch setup on the rig's switch, with the rig's short timings.
    func switchSetup(stopsRecording: Bool = false) throws -> SwitchSetup {
        SwitchSetup(
            trigger: try TriggerRequest(device: "usb-test-switch", key: "KEY_ENTER"), scanning: Self.scanning,
            stopsRecording: stopsRecording)
    }

    /// Works the switch as a person would: a single press (down, up), a
    /// long one (released after the long-press time), or held down for the
    /// emergency stop (the watch's deadline reports it; nothing is released).
    func press(_ press: TriggerPress) {
        switch press {
        case .single: switchDevice.press(Self.switchKey)
        case .double: switchDevice.press(Self.switchKey, times: 2)
        case .long: switchDevice.press(Self.switchKey, held: Self.scanning.press.longPress + Microseconds(20_000))
        case .emergencyStop: switchDevice.press(Self.switchKey, held: nil)
        }
    }

    /// The keys the virtual keyboard pressed down, by code.
    var keysPressed: [UInt16] {
        (sinks.byKind.withLock { $0[.keyboard] }?.frames ?? []).flatMap(\.events).filter { $0.type == .key && $0.value == 1 }.map(\.code.rawValue)
    }

    /// Whether a virtual touchscreen played anything.
    var touchscreenPlayed: Bool { !(sinks.byKind.withLock { $0[.touchscreen] }?.frames.isEmpty ?? true) }
}

/// The rig's switch as a trigger watch finds it: always there, each open a
/// reader of its own.
private struct SwitchDevices: TriggerDevices {
    let device: ListeningDevice

    func open() throws -> (source: any EventSource, node: String, name: String)? {
        return (try device.open(), "/dev/input/test-switch", "test switch")
    }
    var hotplug: FileDescriptor? { nil }
    func hotplugAdded() -> Bool { false }
}

/// The sinks of the virtual devices a rig's engine made.
final class Sinks: Sendable {
    let byKind = Mutex<[DeviceKind: RecordingSink]>([:])
}
