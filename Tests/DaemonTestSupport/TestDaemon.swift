import DeviceDiscovery
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import Foundation
import Glibc
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

// The one daemon harness of these tests: a daemon on a real socket, over
// the real engine with test doubles for its devices, its recordings and
// its trigger watches (TestDaemon); the doubles and log of any daemon or
// service (DaemonDoubles); a raw connection to the socket.

/// What a daemon under test makes and says: its ready devices as test
/// doubles (each a session over a recording sink, on a manual clock:
/// instant plays, or plays that wait until the test advances), collected
/// by kind and output, and its log lines.
package final class DaemonDoubles: Sendable {
    /// Doubles that have made nothing yet.
    package init() {}

    package let sinks = Mutex<[ReadyDevice: RecordingSink]>([:])
    package let clocks = Mutex<[ReadyDevice: ManualClock]>([:])
    package let sessions = Mutex<[ReadyDevice: PlaybackSession]>([:])
    /// Outputs whose devices cannot be made (as a gadget without its host).
    package let unavailableOutputs = Mutex<Set<String>>([])
    /// How many devices were made.
    package let made = Atomic<Int>(0)
    package let logLines = Mutex<[String]>([])
    /// Told of each line logged (a test waits for one with it, instead of
    /// sleeping in a loop).
    package let logged = Mutex<TestEvent?>(nil)

    /// A log whose lines are collected in ``logLines``.
    package var log: DaemonLog {
        DaemonLog(journal: false, minimum: .debug, write: { [self] line in
            logLines.withLock { $0.append(line) }
            logged.withLock { $0 }?.signal()
        })
    }

    /// The engine's factory of them, on clocks of `clockMode`.
    package func factory(clockMode: ManualClock.Mode = .advancesOnWait) -> DeviceFactory {
        DeviceFactory(
            make: { [self] profile, output, _ in
                let key = ReadyDevice(kind: profile.kind, output: output)
                if unavailableOutputs.withLock({ $0.contains(output.word) }) {
                    throw PlayOutputError.unavailable(output: output.word, reason: "no host has configured the gadget")
                }
                made.add(1, ordering: .relaxed)
                let sink = RecordingSink()
                let clock = ManualClock(mode: clockMode)
                sinks.withLock { $0[key] = sink }
                clocks.withLock { $0[key] = clock }
                let suffix = output == .uinput ? "" : "-\(output.word)"
                let session = PlaybackSession(
                    profile: profile, sink: sink, devnode: "/dev/input/test-\(profile.kind.rawValue)\(suffix)", linger: .zero,
                    clock: clock)
                sessions.withLock { $0[key] = session }
                return session
            },
            readyProfile: { kind, output in
                // A gadget's touchscreen has the geometry it was made with.
                if case .gadget = output, kind == .touchscreen {
                    var profile = VirtualDeviceProfile.touchscreen()
                    profile.description.name = "test gadget touchscreen"
                    profile.description.absoluteAxes[.multitouchPositionX] = AbsoluteAxisInfo(minimum: 0, maximum: 1_000, resolution: 10)
                    profile.description.absoluteAxes[.absoluteX] = AbsoluteAxisInfo(minimum: 0, maximum: 1_000, resolution: 10)
                    return profile
                }
                return DaemonServer.profile(for: kind)
            })
    }
}

extension DaemonConfiguration {
    /// A configuration for custom actions: a ready touchscreen and keyboard,
    /// and ``TestDaemon/shortPressTimings``.
    package static let withTriggers = DaemonConfiguration(devices: [.touchscreen, .keyboard], pressTimings: TestDaemon.shortPressTimings)
}

/// A daemon on a real Unix socket in a fresh folder (or a given one, to
/// restart on the same files), over the real engine: its ready devices are
/// ``FakeReadyDevices``, its recordings read `inputs`' (the system's unless
/// given), its trigger watches read ``TestSwitches`` the test presses, its
/// bindings are saved in the folder, and its log is collected.
package final class TestDaemon: Sendable {
    /// What the fake devices and the log collect, shared with the closures.
    package typealias Collected = DaemonDoubles

    /// Press timings short enough for a test to hold a switch through them.
    package static let shortPressTimings = PressTimings(
        doubleInterval: Microseconds(80_000), longPress: Microseconds(150_000), emergencyStop: Microseconds(300_000))

    package let folder: String
    package let socketPath: String
    package let bindingsPath: String
    package let server: DaemonServer
    package let collected = Collected()
    package let switches = TestSwitches()
    /// The daemon's engine (a test starts work on it as a menu would).
    package let engine: Engine
    /// The configuration's press timings (the watches').
    package let timings: PressTimings

    private static let counter = Atomic<Int>(0)

    /// The folder that holds every test daemon's folder in this process,
    /// removed with them when the process exits: a daemon's folder cannot
    /// go with the daemon, since a later daemon of the same test may reuse
    /// it (`folder:`), and thousands were left in /tmp run after run.
    private static let parent: TemporaryFolder? = {
        let folder = try? TemporaryFolder(prefix: "gesturectl-daemon-test")
        atexit { TestDaemon.removeParent() }
        return folder
    }()

    private static func removeParent() {
        guard let path = parent?.path else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    package init(
        configuration: DaemonConfiguration = DaemonConfiguration(devices: [.touchscreen, .touchpad]),
        clockMode: ManualClock.Mode = .advancesOnWait, blockingListener: Bool = false,
        inputs: InputFactory = .system, limits: DaemonServer.Limits = DaemonServer.Limits(),
        unavailableOutputs: Set<String> = [], folder existing: String? = nil, allowedGroup: UInt32? = nil,
        daemonUser: UInt32 = 0
    ) throws {
        collected.unavailableOutputs.withLock { $0 = unavailableOutputs }
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        folder = existing ?? "\(Self.parent?.path ?? "/tmp/gesturectl-daemon-test-\(getpid())")/\(number)"
        try? FileSystem.makeDirectory(folder, permissions: 0o700)
        socketPath = folder + "/d.sock"
        bindingsPath = folder + "/state/bindings.json"
        timings = configuration.pressTimings
        try? FileSystem.unlink(socketPath)
        let listening = try UnixSocket.listen(at: socketPath)
        // systemd hands over a blocking socket.
        if blockingListener { try listening.setNonBlocking(false) }
        let library = GestureLibrary(userDirectory: folder + "/library", builtinDirectory: nil)
        engine = Engine(devices: collected.factory(clockMode: clockMode), inputs: switches.inputs(recordings: inputs))
        server = try DaemonServer(
            setup: DaemonServer.Setup(
                listening: listening, createdSocketPath: socketPath, library: library, configuration: configuration,
                allowedGroup: allowedGroup, bindingsPath: bindingsPath, limits: limits, daemonUser: daemonUser),
            engine: engine,
            log: collected.log,
            version: "test")
        try server.start()
    }

    package func sink(_ kind: DeviceKind, output: PlayOutput = .uinput) -> RecordingSink? {
        collected.sinks.withLock { $0[ReadyDevice(kind: kind, output: output)] }
    }
    package func clock(_ kind: DeviceKind, output: PlayOutput = .uinput) -> ManualClock? {
        collected.clocks.withLock { $0[ReadyDevice(kind: kind, output: output)] }
    }
    package func session(_ kind: DeviceKind, output: PlayOutput = .uinput) -> PlaybackSession? {
        collected.sessions.withLock { $0[ReadyDevice(kind: kind, output: output)] }
    }
    package var logLines: [String] { collected.logLines.withLock { $0 } }

    package func client() throws -> DaemonClient { try DaemonClient(path: socketPath) }

    /// A raw connection, for sending lines the client would never send.
    package func raw() throws -> RawConnection { try RawConnection(path: socketPath) }

    /// The requests of the trigger watches running.
    package var liveWatches: [TriggerRequest] { switches.live }

    /// Presses `key` on `device` with the daemon's timings (see ``TestSwitches/press(_:on:key:timings:)``).
    package func press(_ press: TriggerPress, _ device: String = "/dev/input/by-id/usb-Switch-event-kbd", key: String = "BTN_0") throws {
        try switches.press(press, on: device, key: key, timings: timings)
    }

    package func stop() async {
        server.stop()
        _ = await server.stopped()
    }
}

/// The devices of a daemon's trigger watches, as the engine's inputs: each
/// device named is a ``TestSupport/ListeningDevice`` the test presses keys
/// on, plugged in unless the test unplugged it. Each watch the engine
/// starts is noted with its request; it is live until its thread lets its
/// devices go (cancelled, it ends soon after: wait for it).
package final class TestSwitches: Sendable {
    /// One watch's devices (used on its thread): found by name, with a
    /// hotplug pipe that ``plug(_:)`` makes readable.
    private final class Devices: TriggerDevices, @unchecked Sendable {
        package let request: TriggerRequest
        package let switches: TestSwitches
        package let pipe: (read: FileDescriptor, write: FileDescriptor)

        package init(request: TriggerRequest, switches: TestSwitches) throws(SystemError) {
            self.request = request
            self.switches = switches
            pipe = try FileDescriptor.pipe()
        }

        deinit {
            // Forgotten first, so that plug(_:) never writes to a closed pipe.
            switches.ended(ObjectIdentifier(self))
            pipe.read.close()
            pipe.write.close()
        }

        package func open() throws -> (source: any EventSource, node: String, name: String)? {
            guard let device = switches.pluggedDevice(request.device) else { return nil }
            return (try device.open(), "/dev/input/event9", "Switch")
        }
        package var hotplug: FileDescriptor? { pipe.read }
        package func hotplugAdded() -> Bool {
            // Harmless: the pipe is the test's; empty, it reads nothing.
            _ = try? pipe.read.read(upTo: 64)
            return true
        }
    }

    private struct State {
        package var devices: [String: ListeningDevice] = [:]
        package var unplugged: Set<String> = []
        package var watches: [(id: ObjectIdentifier, request: TriggerRequest, hotplug: FileDescriptor)] = []
    }

    private let state = Mutex(State())

    /// The engine's inputs: recordings from `recordings`, trigger watches on these switches.
    package func inputs(recordings: InputFactory) -> InputFactory {
        InputFactory(openRecording: recordings.openRecording, triggerDevices: { [self] request throws(SystemError) in
            let devices = try Devices(request: request, switches: self)
            state.withLock { $0.watches.append((ObjectIdentifier(devices), request, devices.pipe.write)) }
            return devices
        })
    }

    /// The requests of the watches whose threads still run.
    package var live: [TriggerRequest] { state.withLock { $0.watches.map(\.request) } }

    private func ended(_ devices: ObjectIdentifier) {
        state.withLock { current in current.watches.removeAll { $0.id == devices } }
    }

    /// The device called `name` (made on first use).
    package func device(_ name: String) -> ListeningDevice {
        state.withLock { current in
            if let device = current.devices[name] { return device }
            let device = ListeningDevice()
            current.devices[name] = device
            return device
        }
    }

    private func pluggedDevice(_ name: String) -> ListeningDevice? {
        if state.withLock({ $0.unplugged.contains(name) }) { return nil }
        return device(name)
    }

    /// Unplugs the device called `name` for the watches that open it from now on.
    package func unplug(_ name: String) { state.withLock { _ = $0.unplugged.insert(name) } }

    /// Plugs it back in: the watches hear of it (their hotplug pipes) and open it.
    package func plug(_ name: String) {
        state.withLock { current in
            current.unplugged.remove(name)
            for watch in current.watches where watch.request.device == name { watch.hotplug.writeAllIgnoringErrors([1]) }
        }
    }

    /// Presses `key` on `name` as a person would, with `timings` (the
    /// watch's): a single press (down, up: reported once the double-press
    /// interval passes), a double, a long one (released after the long-press
    /// time), or held down for the emergency stop (its watch reports a long
    /// press, then the stop). Waits until a watch reads the device first.
    package func press(_ press: TriggerPress, on name: String, key: String, timings: PressTimings) throws {
        let device = self.device(name)
        try waitUntil("a watch reads \(name)") { device.openReaders > 0 }
        let code = try #require(EventCode.lookUp(codeName: key)?.code)
        switch press {
        case .single: device.press(code)
        case .double: device.press(code, times: 2)
        case .long: device.press(code, held: timings.longPress + Microseconds(20_000))
        case .emergencyStop: device.press(code, held: nil)
        }
    }
}

/// Lines in and out of the socket, with nothing in between.
package final class RawConnection {
    package let socket: FileDescriptor
    private var buffer: [UInt8] = []

    package init(path: String) throws { socket = try UnixSocket.connect(to: path) }
    deinit { socket.close() }

    package func send(_ text: String) throws { try socket.writeAll(Array(text.utf8)) }

    /// The next line, as the daemon wrote it (without its newline), within
    /// `seconds`: a test waiting for a line that never comes fails, it does
    /// not hang (a golden test once waited for ever).
    package func receiveText(within seconds: Double = defaultWaitSeconds) throws -> String {
        let deadline = WaitDeadline(seconds)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self)
            }
            guard let remaining = deadline.remainingMilliseconds else { throw WaitTimedOut(what: "a line from the daemon") }
            guard try Poll.waitReadable(socket, timeoutMilliseconds: remaining) else { continue }
            guard let chunk = try socket.read(upTo: 65_536) else { continue }
            guard !chunk.isEmpty else { throw DaemonError(.internal, "the daemon closed the connection") }
            buffer.append(contentsOf: chunk)
        }
    }

    /// The next line, parsed.
    package func receive() throws -> JSONValue {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return try JSONValue.parse(line)
            }
            guard let chunk = try socket.read(upTo: 65_536), !chunk.isEmpty else {
                throw DaemonError(.internal, "the daemon closed the connection")
            }
            buffer.append(contentsOf: chunk)
        }
    }

    /// Whether the daemon closed the connection (after reading what is left).
    package func isClosedByDaemon() throws -> Bool {
        while true {
            guard let chunk = try socket.read(upTo: 65_536) else { return false }
            if chunk.isEmpty { return true }
        }
    }
}

