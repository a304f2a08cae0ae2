import GestureDaemon
import GestureFormat
import InputSystem
import Synchronization
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureSynth
import Glibc
import OperatingSystem
import Testing
import TestSupport

/// A one-finger gesture (format 1) of about `bytes` bytes: a stroke of
/// that many bytes of samples, valid, so a daemon reads all of it.
private func bigGestureJSON(bytes: Int) -> String {
    var samples = ""
    samples.reserveCapacity(bytes + 64)
    var time = 0
    while samples.utf8.count < bytes {
        samples += "[\(time),10800,6750],"
        time += 1_000
    }
    samples.removeLast()
    return "{\"format\":1,\"name\":\"big\",\"device\":{\"kind\":\"touchscreen\",\"x\":{\"min\":0,\"max\":21600,\"resolution\":100},"
        + "\"y\":{\"min\":0,\"max\":13500,\"resolution\":100},\"width_mm\":216,\"height_mm\":135,\"slots\":10},"
        + "\"strokes\":[{\"kind\":\"finger\",\"samples\":[\(samples)]}]}"
}

/// A `save` request line of about `megabytes` MiB.
private func bigSaveLine(id: Int, megabytes: Int) -> String {
    "{\"id\":\(id),\"op\":\"save\",\"name\":\"big\",\"force\":true,\"gesture\":\(bigGestureJSON(bytes: megabytes << 20))}\n"
}

@Suite("Fair service: no client holds up another's cancel, memory bounded, bind saves coalesced", .serialized)
struct FairServiceTests {
    @Test("A client's 8 MiB save and another's 1,000 pipelined binds never hold up a third client's cancel")
    func cancelJumpsTheQueues() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers, clockMode: .waitsForAdvance)
        let player = try daemon.client()
        let started = try player.call(
            "play", [("gesture", try inline(try GestureSynthesizer.longPress(fingers: 3))), ("wait", .bool(false))])
        let job = try #require(started["job"])
        let clock = try #require(daemon.clock(.touchscreen))
        #expect(clock.nextWaitingDeadline() != nil)
        clock.advance(by: Microseconds(1))  // three fingers down
        #expect(clock.nextWaitingDeadline() != nil)

        let saver = try TimedConnection(path: daemon.socketPath)
        try saver.send(bigSaveLine(id: 1, megabytes: 8))
        let binder = try TimedConnection(path: daemon.socketPath)
        var binds = ""
        for index in 0..<1_000 {
            binds += JSONValue.object([
                ("id", .integer(index)), ("op", .string("bind")),
                ("trigger", trigger(key: "KEY_F13", press: "single")),
                ("action", .object([("press", .string(index % 2 == 0 ? "volume-up" : "mute"))])),
            ]).jsonText + "\n"
        }
        try binder.send(binds)

        let canceller = try TimedConnection(path: daemon.socketPath)
        try canceller.request(.integer(7), "cancel", [("job", job)])
        var events: [JSONValue] = []
        let reply = try #require(try canceller.reply(within: 20, events: &events))
        #expect(reply["ok"] == .bool(true), "\(reply.jsonText)")
        // Answered while the save is still being read: its reply comes later.
        try saver.pump()
        #expect(try saver.nextBufferedLine() == nil, "the save was answered before another client's cancel")
        let saved = try #require(try saver.reply(within: 60, events: &events))
        #expect(saved["ok"] == .bool(true), "\(saved.jsonText)")

        // Every bind answered, and their writes shared: far fewer than 1,000.
        var answered = 0
        while answered < 1_000, let line = try binder.reply(within: 60, events: &events) {
            #expect(line["ok"] == .bool(true), "\(line.jsonText)")
            answered += 1
        }
        #expect(answered == 1_000)
        let writes = daemon.collected.logLines.withLock { $0 }.filter { $0.contains("bindings saved:") }.count
        #expect(writes >= 1 && writes < 100, "\(writes) writes for 1,000 binds")
        let file = try FileIO.read(path: daemon.bindingsPath, limit: 1 << 20)
        #expect(String(decoding: file, as: UTF8.self).contains("\"mute\""))  // the last bind's action
        await daemon.stop()
        var state = DeviceState(description: VirtualDeviceProfile.touchscreen().description)
        for frame in try #require(daemon.sink(.touchscreen)?.frames) { state.apply(frame) }
        #expect(state.isReleased)
    }

    @Test("A request written just before the client closes is still served (a save piped through socat)")
    func writeAndClose() async throws {
        let daemon = try TestDaemon()
        do {
            let raw = try daemon.raw()
            try raw.send(
                JSONValue.object([("id", .integer(1)), ("op", .string("save")), ("name", .string("piped")), ("gesture", try inline(try GestureSynthesizer.tap()))])
                    .jsonText + "\n")
        }  // closed here, before the reply
        let client = try daemon.client()
        try waitUntil(within: 20, "the piped save") { (try? client.call("show", [("name", .string("piped"))])) != nil }
        await daemon.stop()
    }

    @Test("Stopping with thousands of requests waiting and a long one being read ends at once, answering what waited busy")
    func stopWithQueuedWork() async throws {
        let daemon = try TestDaemon(configuration: .withTriggers)
        let saver = try TimedConnection(path: daemon.socketPath)
        try saver.send(bigSaveLine(id: 1, megabytes: 20))
        let binder = try TimedConnection(path: daemon.socketPath)
        var lines = ""
        for index in 0..<3_000 {
            lines += JSONValue.object([("id", .integer(index)), ("op", .string("list"))]).jsonText + "\n"
        }
        try binder.send(lines)
        let begun = Deadline.now()
        await daemon.stop()
        let took = Deadline.now() - begun
        // A bound for a hang, not a timing: on a host 3× overcommitted a
        // stop that waits for nothing took 5.0 s. The 5 s promise is kept
        // by case 35 in the VM, with the package's release binary.
        #expect(took < 60, "stopping took \(took) s")
        // What the binder's lines got: served, or busy for what still
        // waited; then the daemon closes (lines it never read go unanswered).
        var served = 0
        var busy = 0
        var other: [String] = []
        while let line = try binder.receive(within: 20) {
            if line["ok"] == .bool(true) {
                served += 1
            } else if line["error"]?["code"] == .string("busy") {
                busy += 1
            } else {
                other.append(line.jsonText)
            }
        }
        #expect(other.isEmpty, "replies neither served nor busy: \(other.prefix(3))")
        #expect(served + busy <= 3_000)
        #expect(try saver.closes(within: 20), "the saver's connection stays open after the stop")
    }

    @Test("Replies nobody reads: a client over its bound is cut off; past the total, requests are busy but cancel is served")
    func boundedReplies() async throws {
        let limits = DaemonServer.Limits(replyBufferBytes: 4 << 20, totalReplyBytes: 2 << 20)
        let daemon = try TestDaemon(limits: limits)
        let client = try daemon.client()
        // A gesture of about 200 KB.
        _ = try client.call("save", [("name", .string("big")), ("gesture", try JSONValue.parse(Array(bigGestureJSON(bytes: 200_000).utf8)))])

        // Two clients ask for it many times and never read.
        let show = JSONValue.object([("id", .integer(1)), ("op", .string("show")), ("name", .string("big"))]).jsonText + "\n"
        let first = try TimedConnection(path: daemon.socketPath)
        let second = try TimedConnection(path: daemon.socketPath)
        try first.send(String(repeating: show, count: 40))
        try second.send(String(repeating: show, count: 40))
        // A third, reading, is answered busy while they hold over the total.
        try waitUntil(within: 60, "the unread replies are over the total") { daemon.server.pendingOutputBytes > limits.totalReplyBytes }
        #expect(errorCode { try client.call("show", [("name", .string("big"))]) } == .busy)
        #expect(errorCode { try client.call("cancel", [("job", .integer(99))]) } == .notFound)  // served, not busy
        #expect(daemon.server.pendingOutputBytes <= limits.totalReplyBytes + 2 * (1 << 20))
        #expect(try first.pump())
        #expect(try second.pump())
        await daemon.stop()
    }
}
