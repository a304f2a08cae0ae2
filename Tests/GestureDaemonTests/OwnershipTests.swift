import DaemonTestSupport
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureFormat
import GestureEngine
import GestureLibrary
import GestureSynth
import Glibc
import OperatingSystem
import Testing
import TestSupport

/// Issue 36: what a member makes is theirs. Two members (uids 65533 and
/// 65534, in the group the daemon lets in) talk to one daemon from
/// processes of their own, as the kernel's peer credentials say.
@Suite("Everything a member makes is theirs", .serialized, .enabled(if: geteuid() == 0, "needs root to run clients as other users"))
struct OwnershipTests {
    static let group: UInt32 = 65_534

    /// A client as user `uid`: sends each line and prints the reply to it
    /// (events skipped), one line each; a line "hold" waits for stdin's end.
    static let client = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
        for line in sys.argv[2:]:
            f.write(line.encode() + b"\\n"); f.flush()
            while True:
                reply = json.loads(f.readline())
                if "event" not in reply: break
            print(json.dumps(reply), flush=True)
        """

    static func run(as uid: UInt32, _ socket: String, _ lines: [String]) throws -> [JSONValue] {
        let outcome = try ProcessRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=\(uid)", "--regid=\(group)", "--clear-groups", "--", "/usr/bin/python3", "-c", client, socket] + lines)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try outcome.standardOutput.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
    }

    @Test("Another member can neither cancel a job nor stop or collect a recording; jobs hides their details; root may")
    func othersWork() async throws {
        let folder = try TemporaryFolder()
        #expect(chmod(folder.path, 0o755) == 0)
        let recordings = TestRecordings()
        let daemon = try TestDaemon(inputs: recordings.inputs, folder: folder.path + "/d", allowedGroup: Self.group)
        #expect(chmod(folder.path + "/d", 0o755) == 0 && chmod(daemon.socketPath, 0o666) == 0)
        // Member A (65533) starts a recording, from a connection that stays open.
        let ownerRecording = try RunningProgram(
            "/usr/bin/setpriv",
            ["--reuid=65533", "--regid=\(Self.group)", "--clear-groups", "--", "/usr/bin/python3", "-c",
             Self.client + "\nimport time\ntime.sleep(30)\n", daemon.socketPath, #"{"id": 1, "op": "record-start"}"#],
            environment: ["PATH=/usr/bin:/bin"])
        defer { ownerRecording.send(SIGKILL) }
        try waitUntil("the recording started") { daemon.logLines.contains { $0.contains("records from") } }
        let job = try #require(daemon.logLines.lazy.compactMap { line -> Int? in
            guard let range = line.range(of: ", job ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }.first)
        // Job ids are not sequential small numbers.
        #expect(job > 1_000_000)

        // Member B (65534) may not stop it, by record-stop or cancel.
        let other = try Self.run(as: 65_534, daemon.socketPath, [
            #"{"id": 1, "op": "record-stop"}"#, #"{"id": 2, "op": "cancel", "job": \#(job)}"#,
        ])
        #expect(other.count == 2)
        for reply in other { #expect(reply["error"]?["code"] == .string("permission-denied"), "\(reply.jsonText)") }
        // Root (an administrator) may.
        let root = try daemon.client()
        let stopped = try root.call("record-stop")
        #expect(stopped["job"] == .integer(job))
        await daemon.stop()
    }
}

/// Issue 36, part 2: bindings and saved gestures are their user's too.
@Suite("Bindings and saved gestures are their user's", .serialized, .enabled(if: geteuid() == 0, "needs root to run clients as other users"))
struct OwnedBindingsAndGesturesTests {
    static let switchKey = #"{"device": "/dev/input/by-id/usb-Switch-event-kbd", "key": "BTN_0", "press": "single"}"#
    static let otherKey = #"{"device": "/dev/input/by-id/usb-Switch-event-kbd", "key": "BTN_1", "press": "single"}"#

    /// A daemon whose socket members (group 65534) may reach.
    static func daemon(_ folder: TemporaryFolder, configuration: DaemonConfiguration = .withTriggers) throws -> TestDaemon {
        #expect(chmod(folder.path, 0o755) == 0)
        let daemon = try TestDaemon(configuration: configuration, folder: folder.path + "/d", allowedGroup: OwnershipTests.group)
        #expect(chmod(folder.path + "/d", 0o755) == 0 && chmod(daemon.socketPath, 0o666) == 0)
        return daemon
    }

    static func code(_ reply: JSONValue) -> JSONValue? { reply["error"]?["code"] }

    /// The first binding of a `bindings` result or file (`nil`: none).
    static func first(_ value: JSONValue?) -> JSONValue? {
        guard case .array(let items)? = value?["bindings"] else { return nil }
        return items.first
    }

    @Test("Another member can neither re-bind, unbind nor reset a member's binding; bindings says whose; root may")
    func bindings() async throws {
        let folder = try TemporaryFolder()
        let daemon = try Self.daemon(folder)
        let volume = #"{"press": "volume-up"}"#
        // Member A (65533) binds BTN_0.
        let bound = try OwnershipTests.run(as: 65_533, daemon.socketPath, [#"{"id": 1, "op": "bind", "trigger": \#(Self.switchKey), "action": \#(volume)}"#])
        #expect(bound.first?["ok"] == .bool(true), "\(bound.first?.jsonText ?? "")")
        // Member B (65534) may not replace it, remove it, or reset it away;
        // B's own binding is B's, and B's reset removes only that.
        let other = try OwnershipTests.run(as: 65_534, daemon.socketPath, [
            #"{"id": 1, "op": "bind", "trigger": \#(Self.switchKey), "action": {"press": "mute"}}"#,
            #"{"id": 2, "op": "unbind", "trigger": \#(Self.switchKey)}"#,
            #"{"id": 3, "op": "bind", "trigger": \#(Self.otherKey), "action": \#(volume)}"#,
            #"{"id": 4, "op": "bindings"}"#,
            #"{"id": 5, "op": "bindings", "reset": true}"#,
        ])
        try #require(other.count == 5)
        #expect(Self.code(other[0]) == .string("permission-denied"), "\(other[0].jsonText)")
        #expect(Self.code(other[1]) == .string("permission-denied"), "\(other[1].jsonText)")
        #expect(other[2]["ok"] == .bool(true))
        guard case .array(let seen)? = other[3]["result"]?["bindings"] else {
            Issue.record("no bindings: \(other[3].jsonText)")
            return
        }
        #expect(seen.map { $0["mine"] } == [.bool(false), .bool(true)])
        #expect(seen.allSatisfy { $0["uid"] == nil }, "a member sees no owner's uid")
        guard case .array(let afterReset)? = other[4]["result"]?["bindings"] else {
            Issue.record("no bindings: \(other[4].jsonText)")
            return
        }
        #expect(afterReset.count == 1 && afterReset.first?["trigger"]?["key"] == .string("BTN_0"), "\(other[4].jsonText)")
        // The file keeps each binding's owner.
        let file = try JSONValue.parse(try FileIO.read(path: daemon.bindingsPath, limit: 1 << 20))
        #expect(Self.first(file)?["owner"] == .integer(65_533), "\(file.jsonText)")
        // Root, an administrator, sees whose and may remove it.
        let root = try daemon.client()
        let listed = try root.call("bindings")
        #expect(Self.first(listed)?["uid"] == .integer(65_533))
        _ = try root.call("unbind", [("trigger", try JSONValue.parse(Array(Self.switchKey.utf8)))])
        await daemon.stop()
    }

    @Test("A member's on-screen menu switch drives only that member's button: another member subscribed hears none of its presses, as screen-menu or trigger events")
    func screenMenuEventsAreTheOwners() async throws {
        let folder = try TemporaryFolder()
        let daemon = try Self.daemon(folder)
        let bound = try OwnershipTests.run(
            as: 65_533, daemon.socketPath, [#"{"id": 1, "op": "bind", "trigger": \#(Self.switchKey), "action": {"screen-menu": {}}}"#])
        #expect(bound.first?["ok"] == .bool(true), "\(bound.first?.jsonText ?? "")")
        try waitUntil("the switch is watched") {
            (try? daemon.client().call("bindings"))?["triggers"]?.jsonText.contains("\"state\": \"connected\"") == true
        }
        // Each member's button: subscribes, says so, then tells every
        // screen-menu event it hears, until it is stopped. (No timeout of
        // its own: under load the owner's listener timed out while the
        // other member's Python was still starting.)
        let listener = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
            f.write(b'{"id": 1, "op": "subscribe", "events": ["screen-menu", "trigger"]}\\n'); f.flush()
            print("subscribed", json.loads(f.readline()).get("ok"), file=sys.stderr, flush=True)
            for line in f:
                event = json.loads(line)
                if event.get("event") in ("screen-menu", "trigger"):
                    print("heard", event["event"], event["press"], file=sys.stderr, flush=True)
            """
        let buttons = try [65_533, 65_534].map { uid in
            try RunningProgram(
                "/usr/bin/setpriv",
                ["--reuid=\(uid)", "--regid=\(OwnershipTests.group)", "--clear-groups", "--", "/usr/bin/python3", "-c", listener, daemon.socketPath],
                environment: ["PATH=/usr/bin:/bin"])
        }
        for button in buttons { #expect(try button.readStandardError(until: "subscribed True"), "\(button.standardError)") }
        try daemon.press(.single)
        #expect(try buttons[0].readStandardError(until: "heard screen-menu single"), "the owner's button: \(buttons[0].standardError)")
        #expect(try buttons[0].readStandardError(until: "heard trigger single"), "the owner's button: \(buttons[0].standardError)")
        // The owner's button heard both; the other member's had the same
        // time and half a second more to hear anything.
        try? MonotonicClock.sleep(untilMicroseconds: MonotonicClock.nowMicroseconds() + 500_000)
        for button in buttons { button.send(SIGTERM) }
        _ = try buttons[1].finish()
        #expect(!buttons[1].standardError.contains("heard"), "another member's button heard the switch: \(buttons[1].standardError)")
        _ = try buttons[0].finish()
        await daemon.stop()
    }

    @Test("A member's saved gesture is their file: another member can neither replace nor delete it; root may")
    func gestures() async throws {
        let folder = try TemporaryFolder()
        let daemon = try Self.daemon(folder)
        let tap = try inline(try GestureSynthesizer.tap()).jsonText
        let saved = try OwnershipTests.run(as: 65_533, daemon.socketPath, [#"{"id": 1, "op": "save", "name": "a-tap", "gesture": \#(tap)}"#])
        #expect(saved.first?["ok"] == .bool(true), "\(saved.first?.jsonText ?? "")")
        let path = daemon.folder + "/library/a-tap.gesture.json"
        #expect(try FileIO.status(of: path)?.userID == 65_533)
        let other = try OwnershipTests.run(as: 65_534, daemon.socketPath, [
            #"{"id": 1, "op": "save", "name": "a-tap", "gesture": \#(tap), "force": true}"#,
            #"{"id": 2, "op": "rm", "name": "a-tap"}"#,
            #"{"id": 3, "op": "save", "name": "b-tap", "gesture": \#(tap)}"#,
            #"{"id": 4, "op": "rm", "name": "b-tap"}"#,
        ])
        try #require(other.count == 4)
        #expect(Self.code(other[0]) == .string("permission-denied"), "\(other[0].jsonText)")
        #expect(Self.code(other[1]) == .string("permission-denied"), "\(other[1].jsonText)")
        #expect(other[2]["ok"] == .bool(true) && other[3]["ok"] == .bool(true), "their own: \(other[2].jsonText) \(other[3].jsonText)")
        #expect(FileIO.exists(path))
        // Its owner may replace it; root may delete it.
        let owner = try OwnershipTests.run(as: 65_533, daemon.socketPath, [#"{"id": 1, "op": "save", "name": "a-tap", "gesture": \#(tap), "force": true}"#])
        #expect(owner.first?["ok"] == .bool(true), "\(owner.first?.jsonText ?? "")")
        _ = try daemon.client().call("rm", [("name", .string("a-tap"))])
        #expect(!FileIO.exists(path))
        await daemon.stop()
    }

    @Test("A member of admin_group acts as an administrator: may unbind another member's binding and sees whose it is")
    func administratorGroup() async throws {
        let folder = try TemporaryFolder()
        var configuration = DaemonConfiguration.withTriggers
        configuration.adminGroup = "users"  // gid 100 on Debian
        let daemon = try Self.daemon(folder, configuration: configuration)
        _ = try OwnershipTests.run(as: 65_533, daemon.socketPath, [#"{"id": 1, "op": "bind", "trigger": \#(Self.switchKey), "action": {"press": "mute"}}"#])
        let outcome = try ProcessRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=\(OwnershipTests.group)", "--groups=100", "--", "/usr/bin/python3", "-c", OwnershipTests.client,
             daemon.socketPath, #"{"id": 1, "op": "bindings"}"#, #"{"id": 2, "op": "unbind", "trigger": \#(Self.switchKey)}"#])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let replies = try outcome.standardOutput.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        try #require(replies.count == 2)
        #expect(Self.first(replies[0]["result"])?["uid"] == .integer(65_533), "\(replies[0].jsonText)")
        #expect(replies[1]["ok"] == .bool(true), "\(replies[1].jsonText)")
        await daemon.stop()
    }
}

/// A user instance of the daemon serves its own user, whatever the groups
/// (issue 38's screen test found a user's daemon refusing that user when
/// there was no group `gesturectl`).
@Suite("A daemon serves its own user", .serialized, .enabled(if: geteuid() == 0, "needs root to run clients as other users"))
struct OwnUserTests {
    @Test("The daemon's own user is let in without the group, and acts as its administrator; another user is refused")
    func ownUser() async throws {
        let folder = try TemporaryFolder()
        #expect(chmod(folder.path, 0o755) == 0)
        // As a daemon run by uid 65533 with no group configured.
        let daemon = try TestDaemon(folder: folder.path + "/d", allowedGroup: nil, daemonUser: 65_533)
        #expect(chmod(folder.path + "/d", 0o755) == 0 && chmod(daemon.socketPath, 0o666) == 0)
        let own = try OwnershipTests.run(as: 65_533, daemon.socketPath, [#"{"id": 1, "op": "version"}"#, #"{"id": 2, "op": "jobs"}"#])
        #expect(own.first?["ok"] == .bool(true), "\(own.first?.jsonText ?? "")")
        // Refused at the door: the reply has no id, and the connection closes.
        let outcome = try ProcessRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/python3", "-c", """
                import socket, sys
                # Only reads: the refusal comes on its own, and a write after the
                # daemon closed would fail (EPIPE) before the reply is read.
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
                print(s.makefile("rb").readline().decode().strip())
                """, daemon.socketPath])
        #expect(outcome.standardOutput.contains("permission-denied"), "\(outcome.standardOutput) \(outcome.standardError)")
        await daemon.stop()
    }
}

/// Issue 37: what the engine plays for the daemon's own front ends (a
/// menu's play, a create flow's review) is in `jobs`, and `cancel` stops it.
@Suite("The engine's jobs through the daemon", .serialized)
struct EngineJobsThroughDaemonTests {
    @Test("A play the engine runs for no client is listed by jobs (not mine) and cancelled by its id")
    func menuPlayIsAJob() async throws {
        let daemon = try TestDaemon(clockMode: .waitsForAdvance)
        let client = try daemon.client()
        _ = try client.call("devices")
        let profile = try #require(daemon.session(.touchscreen)?.profile)
        // As the menu plays a saved gesture: on the ready touchscreen, through its queue.
        let job = try daemon.engine.startPlay(
            PlayRequest(gesture: try GestureSynthesizer.tap(), target: .profile(profile), leadIn: .zero, keepDevice: true))
        guard case .array(let jobs)? = try client.call("jobs")["jobs"] else {
            Issue.record("no jobs list")
            return
        }
        let listed = try #require(jobs.first { $0["job"] == .integer(job.id) })
        #expect(listed["kind"] == .string("play") && listed["mine"] == .bool(false) && listed["device"] == .string("touchscreen"))
        _ = try client.call("cancel", [("job", .integer(job.id))])
        guard case .cancelled = await job.finished().outcome else {
            Issue.record("not cancelled")
            return
        }
        await daemon.stop()
    }
}

@Suite("Connections are budgeted per user", .serialized)
struct ConnectionBudgetTests {
    @Test("Past a user's connections, another is refused busy and closed; one closed makes room")
    func perUser() async throws {
        let daemon = try TestDaemon(limits: DaemonServer.Limits(connectionsPerUser: 3, connections: 100))
        var held = try (0..<3).map { _ in try daemon.client() }
        for client in held { _ = try client.call("version") }
        let refused = try daemon.raw()
        let reply = try refused.receive()
        #expect(reply["error"]?["code"] == .string("busy"), "\(reply.jsonText)")
        #expect(reply["error"]?["message"]?.jsonText.contains("3 connections") == true)
        held.removeLast()
        // Room once the daemon has seen that connection close (refused until then).
        try waitUntil("a connection is let in again") { (try? daemon.client().call("version")) != nil }
        await daemon.stop()
    }
}
