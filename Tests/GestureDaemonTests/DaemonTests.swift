import DaemonTestSupport
import DeviceDiscovery
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureSynth
import Glibc
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport

func errorCode(_ body: () throws -> Any) -> DaemonErrorCode? {
    do {
        _ = try body()
        return nil
    } catch let error as DaemonError {
        return error.code
    } catch {
        return .internal
    }
}

func inline(_ gesture: Gesture) throws -> JSONValue { try JSONValue.parse(GestureFileFormat.encodeUTF8(gesture)) }

@Suite("The daemon's protocol", .serialized)
struct DaemonProtocolTests {
    @Test("version answers the protocol version; the daemon sends nothing unasked")
    func version() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let result = try client.call("version")
        #expect(result["protocol"] == .integer(1))
        #expect(result["version"] == .string("test"))
        await daemon.stop()
    }

    @Test("A blocking listening socket (as socket activation hands over) serves one client after another")
    func blockingListener() async throws {
        let daemon = try TestDaemon(blockingListener: true)
        for _ in 0..<3 {
            let client = try daemon.client()
            #expect(try client.call("version")["protocol"] == .integer(1))
        }
        await daemon.stop()
    }

    @Test("Malformed lines, unknown operations and bad arguments get their stable codes, and the connection goes on")
    func errors() async throws {
        let daemon = try TestDaemon()
        let raw = try daemon.raw()
        try raw.send("this is not json\n")
        var reply = try raw.receive()
        #expect(reply["ok"] == .bool(false))
        #expect(reply["id"] == .null)
        #expect(reply["error"]?["code"] == .string("malformed-json"))
        try raw.send("{\"id\": 7, \"op\": \"fly\"}\n")
        reply = try raw.receive()
        #expect(reply["id"] == .integer(7))
        #expect(reply["error"]?["code"] == .string("unknown-op"))
        try raw.send("{\"id\": \"a\", \"op\": \"play\", \"name\": \"tap\", \"volume\": 11}\n")
        reply = try raw.receive()
        #expect(reply["id"] == .string("a"))
        #expect(reply["error"]?["code"] == .string("bad-argument"))
        if case .string(let message)? = reply["error"]?["message"] { #expect(message.contains("\"volume\"")) }
        try raw.send("{\"id\": 8, \"op\": \"play\", \"name\": \"tap\", \"speed\": \"fast\"}\n")
        #expect(try raw.receive()["error"]?["code"] == .string("bad-argument"))
        try raw.send("{\"id\": 9, \"op\": \"show\", \"name\": \"nosuch\"}\n")
        #expect(try raw.receive()["error"]?["code"] == .string("not-found"))
        try raw.send("[1, 2]\n{\"id\": 1, \"id\": 2, \"op\": \"version\"}\n")
        #expect(try raw.receive()["error"]?["code"] == .string("malformed-json"))
        #expect(try raw.receive()["error"]?["code"] == .string("malformed-json"))
        try raw.send("{\"id\": 10, \"op\": \"version\"}\n")
        #expect(try raw.receive()["ok"] == .bool(true))
        await daemon.stop()
    }

    @Test("save, list, show and rm: the library through the socket, inline gestures byte for byte")
    func library() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let gesture = try GestureSynthesizer.swipe(direction: .up, fingers: 2)
        let saved = try client.call("save", [("name", .string("two-up")), ("gesture", try inline(gesture))])
        #expect(saved["hides_builtin"] == .bool(false))
        #expect(errorCode { try client.call("save", [("name", .string("two-up")), ("gesture", try inline(gesture))]) } == .exists)
        let list = try client.call("list")
        guard case .array(let items)? = list["gestures"] else {
            Issue.record("no gestures in \(list.jsonText)")
            return
        }
        #expect(items.map { $0["name"] } == [.string("two-up")])
        #expect(items.map { $0["hides_builtin"] } == [.bool(false)])
        let shown = try client.call("show", [("name", .string("two-up"))])
        #expect(shown["gesture"]?["strokes"] == (try inline(gesture))["strokes"])
        #expect(shown["summary"] == .string("2 fingers · swipe up · 0.25 s · 40 mm"))
        // A file that cannot be read is listed as unreadable, saying why (as
        // `gesturectl list` does).
        try FileIO.writeAtomically(Array("{\"format\": 1, \"strokes\": \n".utf8), to: daemon.folder + "/library/broken.gesture.json")
        guard case .array(let withBroken)? = try client.call("list")["gestures"],
            case .string(let brokenSummary)? = withBroken.first(where: { $0["name"] == .string("broken") })?["summary"]
        else {
            Issue.record("broken.gesture.json is not listed")
            return
        }
        #expect(brokenSummary.hasPrefix("unreadable: "))
        #expect(brokenSummary.contains("broken.gesture.json"))
        #expect(!brokenSummary.contains("\n"))
        _ = try client.call("rm", [("name", .string("two-up"))])
        #expect(errorCode { try client.call("show", [("name", .string("two-up"))]) } == .notFound)
        await daemon.stop()
    }

    @Test("play waits for the play and reports it; the frames reach the device of the kind asked for")
    func playWaits() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let gesture = try GestureSynthesizer.tap(fingers: 2)
        let result = try client.call("play", [("gesture", try inline(gesture)), ("as", .string("touchpad"))])
        #expect(result["state"] == .string("done"))
        #expect(result["device"] == .string("/dev/input/test-touchpad"))
        let expected = try FrameBuilder(target: .touchpad(), options: PlaybackOptions()).frames(for: gesture)
        #expect(result["frames"] == .integer(expected.count))
        #expect(daemon.sink(.touchpad)?.frames.count == expected.count)
        #expect(daemon.sink(.touchscreen)?.frames.isEmpty == true)
        // A kind the configuration does not keep ready:
        let oneFinger = try inline(try GestureSynthesizer.tap())
        #expect(errorCode { try client.call("play", [("gesture", oneFinger), ("as", .string("mouse"))]) } == .notFound)
        await daemon.stop()
    }

    @Test("A play that does not wait gets a job; jobs lists it; cancel lifts every finger and the job ends cancelled")
    func cancel() async throws {
        let daemon = try TestDaemon(clockMode: .waitsForAdvance)
        let client = try daemon.client()
        let gesture = try GestureSynthesizer.longPress(fingers: 3)
        let started = try client.call("play", [("gesture", try inline(gesture)), ("wait", .bool(false))])
        guard case .number(let text)? = started["job"], let job = Int(text) else {
            Issue.record("no job in \(started.jsonText)")
            return
        }
        // Wait until the play is under way: its first frame is due.
        let clock = try #require(daemon.clock(.touchscreen))
        #expect(clock.nextWaitingDeadline() != nil)
        clock.advance(by: Microseconds(1))  // lets the first frame (three fingers down) out
        #expect(clock.nextWaitingDeadline() != nil)
        let jobs = try client.call("jobs")
        // The asker's own (`mine`), and its user, shown to root.
        #expect(
            jobs["jobs"]
                == .array([
                    .object([
                        ("job", .integer(job)), ("device", .string("touchscreen")), ("state", .string("running")), ("kind", .string("play")),
                        ("mine", .bool(true)), ("uid", .integer(0)),
                    ])
                ]))
        _ = try client.call("cancel", [("job", .integer(job))])
        #expect(errorCode { try client.call("cancel", [("job", .integer(9_999))]) } == .notFound)
        await daemon.stop()
        let frames = try #require(daemon.sink(.touchscreen)?.frames)
        #expect(frames.count == 2)  // the touch-down, then one frame lifting all three
        var state = DeviceState(description: VirtualDeviceProfile.touchscreen().description)
        for frame in frames { state.apply(frame) }
        #expect(state.isReleased)
    }

    @Test("A client that disconnects mid-play has its play cancelled (on_disconnect: cancel), nothing left pressed")
    func disconnectCancels() async throws {
        let daemon = try TestDaemon(clockMode: .waitsForAdvance)
        let gesture = try GestureSynthesizer.longPress(fingers: 2)
        do {
            let raw = try daemon.raw()
            try raw.send(JSONValue.object([("id", .integer(1)), ("op", .string("play")), ("gesture", try inline(gesture))]).jsonText + "\n")
            let clock = try #require(daemon.clock(.touchscreen))
            #expect(clock.nextWaitingDeadline() != nil)
            clock.advance(by: Microseconds(1))
            #expect(clock.nextWaitingDeadline() != nil)
        }  // the connection closes here
        let client = try daemon.client()
        // Wait (bounded) until the daemon has finished the job: only its answers tell.
        _ = try waitUntil {
            if case .array(let jobs)? = try client.call("jobs")["jobs"] { return jobs.isEmpty }
            return false
        }
        #expect(try client.call("jobs")["jobs"] == .array([]))
        var state = DeviceState(description: VirtualDeviceProfile.touchscreen().description)
        for frame in daemon.sink(.touchscreen)?.frames ?? [] { state.apply(frame) }
        #expect(state.isReleased)
        await daemon.stop()
    }

    @Test("A full queue answers busy")
    func busy() async throws {
        let daemon = try TestDaemon(
            configuration: DaemonConfiguration(devices: [.touchscreen], queueLimit: 1), clockMode: .waitsForAdvance)
        let client = try daemon.client()
        let gesture = try inline(try GestureSynthesizer.longPress())
        let first = try client.call("play", [("gesture", gesture), ("wait", .bool(false))])
        #expect(first["state"] == .string("queued"))
        #expect(daemon.clock(.touchscreen)?.nextWaitingDeadline() != nil)  // the first is running
        _ = try client.call("play", [("gesture", gesture), ("wait", .bool(false))])  // waits in the queue
        #expect(errorCode { try client.call("play", [("gesture", gesture), ("wait", .bool(false))]) } == .busy)
        await daemon.stop()
    }

    @Test("A client waiting for a play when the daemon stops gets its cancelled reply before the daemon goes")
    func stopRepliesFirst() async throws {
        let daemon = try TestDaemon(clockMode: .waitsForAdvance)
        let gesture = try inline(try GestureSynthesizer.longPress())
        let outcome = JobHandle<DaemonErrorCode?, Never>()
        let path = daemon.socketPath
        try DedicatedThread.start(ThreadOptions(name: "test-client")) {
            let client = try? DaemonClient(path: path)
            outcome.finish(errorCode { try client?.call("play", [("gesture", gesture)]) as Any })
        }
        #expect(daemon.clock(.touchscreen)?.nextWaitingDeadline() != nil)  // it plays
        await daemon.stop()
        #expect(await outcome.finished() == .cancelled)
    }

    @Test("Stopping cancels every job and removes the socket it made")
    func stop() async throws {
        let daemon = try TestDaemon(clockMode: .waitsForAdvance)
        let client = try daemon.client()
        _ = try client.call("play", [("gesture", try inline(try GestureSynthesizer.longPress())), ("wait", .bool(false))])
        #expect(daemon.clock(.touchscreen)?.nextWaitingDeadline() != nil)
        await daemon.stop()
        #expect(!Paths.exists(daemon.socketPath))
        #expect(daemon.logLines.contains { $0.contains("stopped") })
    }

    @Test("The daemon's threads have names the kernel keeps whole, for every device it can keep ready")
    func threadNames() throws {
        let names = [DaemonServer.ioThread.name, RemoteRecording.waitingThread.name, RemoteRecording.stoppingThread.name]
            + DeviceKind.allCases.map { DaemonServer.workerThread(for: ReadyDevice(kind: $0)).name }
        for name in names { #expect(name.utf8.count <= DedicatedThread.maximumNameLength, "\(name)") }
        #expect(Set(names).count == names.count)
    }

    @Test("Every kind the daemon keeps ready (the playable ones and the keyboard) can be kept ready at once")
    func allDevices() async throws {
        let daemon = try TestDaemon(configuration: DaemonConfiguration())
        let client = try daemon.client()
        let ready = try client.call("devices")["ready"]
        #expect(ready == .array(DaemonConfiguration.readyKinds.map {
            .object([("kind", .string($0.rawValue)), ("node", .string("/dev/input/test-\($0.rawValue)"))])
        }))
        await daemon.stop()
    }

    @Test("Who may connect: root always; others only as members of the group")
    func access() {
        let member = PeerCredentials(processID: 1, userID: 1000, groupID: 100, supplementaryGroups: [27, 990])
        #expect(member.isRootOrMember(of: 990))
        #expect(member.isRootOrMember(of: 100))
        #expect(!member.isRootOrMember(of: 991))
        #expect(!member.isRootOrMember(of: nil))
        #expect(PeerCredentials(processID: 1, userID: 0, groupID: 0, supplementaryGroups: []).isRootOrMember(of: nil))
    }

    @Test("Both ends find the same socket")
    func socketPaths() throws {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(try DaemonPaths.serverSocket(option: nil, environment: environment, isRoot: false, isSocketActivated: false) == "/run/user/1000/gesturectl.sock")
        #expect(DaemonPaths.clientSocket(option: nil, environment: environment, exists: { _ in true }) == "/run/user/1000/gesturectl.sock")
        #expect(try DaemonPaths.serverSocket(option: nil, environment: environment, isRoot: true, isSocketActivated: false) == DaemonPaths.systemSocket)
        #expect(DaemonPaths.clientSocket(option: nil, environment: environment, exists: { _ in false }) == DaemonPaths.systemSocket)
        #expect(DaemonPaths.clientSocket(option: "/x.sock", environment: ["GESTURECTL_SOCKET": "/y.sock"]) == "/x.sock")
        #expect(try DaemonPaths.serverSocket(option: nil, environment: ["GESTURECTL_SOCKET": "/y.sock"], isRoot: true, isSocketActivated: true) == "/y.sock")
        #expect(throws: DaemonError.self) { try DaemonPaths.serverSocket(option: nil, environment: [:], isRoot: false, isSocketActivated: false) }
    }

    @Test("The configuration file: defaults, each key checked, unknown keys named")
    func configuration() throws {
        #expect(try DaemonConfiguration.parse(Array("{}".utf8), path: "c.json") == DaemonConfiguration())
        let parsed = try DaemonConfiguration.parse(
            Array("{\"group\": \"rig\", \"devices\": [\"mouse\"], \"queue_limit\": 3}".utf8), path: "c.json")
        #expect(parsed == DaemonConfiguration(group: "rig", devices: [.mouse], queueLimit: 3))
        for bad in ["[]", "{\"devices\": [\"other\"]}", "{\"queue_limit\": 0}", "{\"colour\": 1}", "{\"library\": \"relative\"}"] {
            #expect(throws: DaemonError.self) { try DaemonConfiguration.parse(Array(bad.utf8), path: "c.json") }
        }
    }
}
