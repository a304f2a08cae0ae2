import DaemonTestSupport
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureModel
import GesturePlayback
import GestureSynth
import Glibc
import InputSystem
import OperatingSystem
import Synchronization
import Testing
import TestSupport
import GestureFormat

/// A connection to the daemon whose every wait is bounded: reads poll with a
/// deadline, so a daemon that stalls fails the test instead of hanging it.
final class TimedConnection {
    let socket: FileDescriptor
    private var buffer: [UInt8] = []
    private var scanned = 0
    private(set) var closedByDaemon = false

    init(path: String) throws { socket = try UnixSocket.connect(to: path) }
    deinit { socket.close() }

    func send(_ text: String) throws { try socket.writeAll(Array(text.utf8)) }
    func send(_ bytes: [UInt8]) throws { try socket.writeAll(bytes) }

    /// Sends one request object as a line.
    func request(_ id: JSONValue, _ op: String, _ arguments: [(String, JSONValue)] = []) throws {
        try send(JSONValue.object([("id", id), ("op", .string(op))] + arguments).jsonText + "\n")
    }

    /// Reads what has arrived, without waiting; false once the daemon closed.
    @discardableResult
    func pump() throws -> Bool {
        while !closedByDaemon, try Poll.waitReadable(socket, timeoutMilliseconds: 0) {
            guard let chunk = try socket.read(upTo: 1 << 16) else { break }
            if chunk.isEmpty { closedByDaemon = true } else { buffer.append(contentsOf: chunk) }
        }
        return !closedByDaemon
    }

    /// A complete line already read, parsed; `nil` when none is there yet.
    func nextBufferedLine() throws -> JSONValue? {
        guard let newline = buffer[scanned...].firstIndex(of: 0x0A) else {
            scanned = buffer.count
            return nil
        }
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        scanned = 0
        return try JSONValue.parse(line)
    }

    /// The next line, within `seconds`; `nil` when the daemon closed the connection first.
    func receive(within seconds: Double = 20) throws -> JSONValue? {
        let deadline = Deadline(seconds)
        while true {
            if let line = try nextBufferedLine() { return line }
            if closedByDaemon { return nil }
            guard let remaining = deadline.remainingMilliseconds else { throw TimedOut(what: "a line from the daemon") }
            if try Poll.waitReadable(socket, timeoutMilliseconds: remaining) { try pump() }
        }
    }

    /// The next reply (pushed events skipped and returned apart).
    func reply(within seconds: Double = 20, events: inout [JSONValue]) throws -> JSONValue? {
        while let line = try receive(within: seconds) {
            if line["event"] != nil { events.append(line) } else { return line }
        }
        return nil
    }

    /// Whether the daemon closes the connection within `seconds` (lines before that are skipped).
    func closes(within seconds: Double = 20) throws -> Bool {
        let deadline = Deadline(seconds)
        while true {
            while try nextBufferedLine() != nil {}
            if closedByDaemon { return true }
            guard let remaining = deadline.remainingMilliseconds else { return false }
            if try Poll.waitReadable(socket, timeoutMilliseconds: remaining) { try pump() }
        }
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// A point in time on CLOCK_MONOTONIC, `seconds` from now.
struct Deadline {
    let end: Double
    init(_ seconds: Double) { end = Self.now() + seconds }
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    /// What is left, at least 1 ms; `nil` when it has passed.
    var remainingMilliseconds: Int32? {
        let left = end - Self.now()
        return left > 0 ? Int32(max(1, min(left * 1000, 60_000))) : nil
    }
    var passed: Bool { Self.now() >= end }
}

/// The plays in a touchscreen's frames: each from all fingers up to all
/// fingers up again; how many contacts each started.
func contactsPerPlay(_ frames: [InputFrame]) -> [Int] {
    var state = DeviceState(description: VirtualDeviceProfile.touchscreen().description)
    var plays: [Int] = []
    var contacts = 0
    for frame in frames {
        state.apply(frame)
        contacts += frame.events.filter { $0.code == .multitouchTrackingID && $0.type == .absolute && $0.value >= 0 }.count
        if state.isReleased && contacts > 0 {
            plays.append(contacts)
            contacts = 0
        }
    }
    if contacts > 0 { plays.append(contacts) }
    return plays
}

@Suite("The daemon under load and abuse", .serialized)
struct DaemonLoadTests {
    @Test("100 clients at once, several requests each: every reply matched by id, plays on one device one after another")
    func hundredClients() async throws {
        let daemon = try TestDaemon(configuration: DaemonConfiguration(devices: [.touchscreen], queueLimit: 1_000))
        let swipe = try inline(try GestureSynthesizer.swipe(direction: .right, fingers: 1, distanceMM: 10))
        let framesPerPlay = try FrameBuilder(target: .touchscreen(), options: PlaybackOptions())
            .frames(for: try GestureSynthesizer.swipe(direction: .right, fingers: 1, distanceMM: 10)).count
        let clientCount = 100, playsEach = 2
        var connections: [TimedConnection] = []
        for _ in 0..<clientCount { connections.append(try TimedConnection(path: daemon.socketPath)) }
        // Every client sends all its requests at once, so all 100 are in
        // flight together; the replies are read as they come, on any client.
        var expected: [[String]] = []
        for (index, connection) in connections.enumerated() {
            var ids = ["v\(index)", "l\(index)", "j\(index)"]
            var lines = JSONValue.object([("id", .string("v\(index)")), ("op", .string("version"))]).jsonText + "\n"
            lines += JSONValue.object([("id", .string("l\(index)")), ("op", .string("list"))]).jsonText + "\n"
            for play in 0..<playsEach {
                ids.append("p\(index)-\(play)")
                lines += JSONValue.object([("id", .string("p\(index)-\(play)")), ("op", .string("play")), ("gesture", swipe)]).jsonText + "\n"
            }
            lines += JSONValue.object([("id", .string("j\(index)")), ("op", .string("jobs"))]).jsonText + "\n"
            try connection.send(lines)
            expected.append(ids.sorted())
        }
        var received: [[String]] = Array(repeating: [], count: clientCount)
        let deadline = Deadline(60)
        while zip(received, expected).contains(where: { $0.count < $1.count }) {
            if deadline.passed { throw TimedOut(what: "the replies of 100 clients") }
            let waiting = connections.indices.filter { received[$0].count < expected[$0].count }
            let ready = try Poll.wait(waiting.map { (connections[$0].socket, .readable) }, timeoutMilliseconds: 100)
            for (slot, index) in waiting.enumerated() where !ready[slot].isEmpty {
                let connection = connections[index]
                #expect(try connection.pump(), "client \(index) was closed")
                while let reply = try connection.nextBufferedLine() {
                    guard case .string(let id)? = reply["id"] else {
                        Issue.record("client \(index): a reply without a string id: \(reply.jsonText)")
                        continue
                    }
                    #expect(reply["ok"] == .bool(true), "\(reply.jsonText)")
                    switch id.first {
                    case "v": #expect(reply["result"]?["protocol"] == .integer(1))
                    case "l": #expect(reply["result"]?["gestures"] != nil)
                    case "p":
                        #expect(reply["result"]?["state"] == .string("done"))
                        #expect(reply["result"]?["frames"] == .integer(framesPerPlay))
                    default: #expect(reply["result"]?["jobs"] != nil)
                    }
                    received[index].append(id)
                }
            }
        }
        for index in 0..<clientCount { #expect(received[index].sorted() == expected[index], "client \(index)") }
        // One contact per play, each play's frames together: never two plays at once.
        let frames = try #require(daemon.sink(.touchscreen)?.frames)
        #expect(frames.count == clientCount * playsEach * framesPerPlay)
        let plays = contactsPerPlay(frames)
        #expect(plays.count == clientCount * playsEach)
        #expect(plays.allSatisfy { $0 == 1 })
        await daemon.stop()
    }

    @Test("A client that never reads: the daemon serves others promptly, drops its events, counts them and says so when it reads")
    func slowReader() async throws {
        let limits = DaemonServer.Limits(eventBufferBytes: 4_096)
        let daemon = try TestDaemon(configuration: DaemonConfiguration(devices: [.touchscreen], queueLimit: 100_000), limits: limits)
        let tap = try inline(try GestureSynthesizer.tap())
        let slow = try TimedConnection(path: daemon.socketPath)
        let other = try TimedConnection(path: daemon.socketPath)
        var events: [JSONValue] = []
        try other.request(.integer(0), "save", [("name", .string("t")), ("gesture", tap)])
        #expect(try other.reply(events: &events)?["ok"] == .bool(true))
        try slow.request(.integer(0), "subscribe", [("events", .array([.string("job")]))])
        #expect(try slow.reply(events: &events)?["ok"] == .bool(true))
        // Plays that do not wait, in batches, without reading, until the
        // kernel's socket buffer is full (what waits unread stops growing)
        // and the daemon drops the slow client's events.
        var sent = 0
        let deadline = Deadline(60)
        var slowest = 0.0
        var unread: [Int32] = []
        while unread.count < 4 || unread[unread.count - 1] > unread[unread.count - 4]
            || !daemon.logLines.contains(where: { $0.contains("does not read") })
        {
            if deadline.passed { throw TimedOut(what: "the slow client's socket to fill") }
            var batch = ""
            for _ in 0..<100 {
                sent += 1
                batch += "{\"id\": \(sent), \"op\": \"play\", \"name\": \"t\", \"wait\": false}\n"
            }
            try slow.send(batch)
            // Meanwhile, another client is answered at once.
            let asked = Deadline.now()
            try other.request(.integer(sent), "version")
            // The slow client reads nothing all along: a daemon blocked on
            // it would never answer, so any answer shows it is not. No bound
            // on how fast: on a loaded 2-core machine a prompt answer can
            // take seconds (a bound of 2 s failed for the wrong reason).
            let answer = try other.reply(within: 30, events: &events)
            slowest = max(slowest, Deadline.now() - asked)
            #expect(answer?["id"] == .integer(sent))
            var waiting: Int32 = 0
            _ = ioctl(slow.socket.rawValue, UInt(FIONREAD), &waiting)
            unread.append(waiting)
        }
        #expect(slowest < 30, "the other client waited \(slowest) s")
        // Every play ends; the slow client's events about them are dropped.
        try waitUntil("every play to end") {
            try other.request(.string("jobs"), "jobs")
            var ignored: [JSONValue] = []
            return try other.reply(events: &ignored)?["result"]?["jobs"] == .array([])
        }
        // Now it reads: every reply (replies are never dropped), and every
        // event of its plays (queued, running, done) either received or
        // counted in a `dropped` event, though no event happens after it reads.
        var replies = 0
        var dropped = 0
        var received = 0
        let reading = Deadline(30)
        while replies < sent || received + dropped < 3 * sent {
            if reading.passed {
                throw TimedOut(what: "the slow client's replies (\(replies) of \(sent)) and events (\(received) + \(dropped) dropped of \(3 * sent))")
            }
            guard let line = try slow.receive(within: 10) else {
                Issue.record("the daemon closed the slow client")
                break
            }
            if line["event"] == .string("dropped") {
                if case .number(let text)? = line["count"], let count = Int(text) { dropped += count }
            } else if line["event"] == .string("job") {
                received += 1
            } else {
                #expect(line["ok"] == .bool(true), "\(line.jsonText)")
                replies += 1
            }
        }
        #expect(received + dropped == 3 * sent)
        #expect(dropped > 0)
        #expect(replies == sent)
        await daemon.stop()
    }

    @Test("A burst of replies and events over the event limit, which the socket takes whole, loses no event")
    func burstUnderSocketBuffer() async throws {
        let daemon = try TestDaemon(
            configuration: DaemonConfiguration(devices: [.touchscreen], queueLimit: 1_000),
            limits: DaemonServer.Limits(eventBufferBytes: 1_024))
        let client = try TimedConnection(path: daemon.socketPath)
        var events: [JSONValue] = []
        try client.request(.integer(0), "save", [("name", .string("t")), ("gesture", try inline(try GestureSynthesizer.tap()))])
        #expect(try client.reply(events: &events)?["ok"] == .bool(true))
        try client.request(.integer(0), "subscribe", [("events", .array([.string("job")]))])
        #expect(try client.reply(events: &events)?["ok"] == .bool(true))
        // 20 plays in one write: one read, whose replies and "queued" events
        // (over 1 KiB) are queued before the next write to the socket, which
        // has room for all of them and what follows.
        let count = 20
        try client.send((1...count).map { "{\"id\": \($0), \"op\": \"play\", \"name\": \"t\", \"wait\": false}\n" }.joined())
        var replies = 0
        var jobEvents = 0
        var dropped = 0
        while replies < count || jobEvents + dropped < 3 * count {
            guard let line = try client.receive(within: 20) else { break }
            if line["event"] == .string("dropped") {
                if case .number(let text)? = line["count"], let n = Int(text) { dropped += n }
            } else if line["event"] == .string("job") {
                jobEvents += 1
            } else {
                replies += 1
            }
        }
        #expect(replies == count)
        #expect(dropped == 0)
        #expect(jobEvents == 3 * count)
        await daemon.stop()
    }

    @Test("A client that never reads its replies is disconnected once they pass the limit; others are served")
    func replyOverflow() async throws {
        let daemon = try TestDaemon(configuration: DaemonConfiguration(devices: [.touchscreen]), limits: DaemonServer.Limits(replyBufferBytes: 16_384))
        let greedy = try TimedConnection(path: daemon.socketPath)
        let other = try TimedConnection(path: daemon.socketPath)
        let batch = String(repeating: "{\"id\": 1, \"op\": \"version\"}\n", count: 500)
        let deadline = Deadline(60)
        while !daemon.logLines.contains(where: { $0.contains("does not read its replies") }) {
            if deadline.passed { throw TimedOut(what: "the daemon to cut the client off") }
            do { try greedy.send(batch) } catch { break }  // cut off: broken pipe
        }
        #expect(try greedy.closes())
        var events: [JSONValue] = []
        try other.request(.integer(1), "version")
        #expect(try other.reply(events: &events)?["ok"] == .bool(true))
        await daemon.stop()
    }

    @Test("A flood of plays on one device: the queue holds queue_limit, the rest are busy, every request answered")
    func flood() async throws {
        let daemon = try TestDaemon(
            configuration: DaemonConfiguration(devices: [.touchscreen], queueLimit: 4), clockMode: .waitsForAdvance)
        let press = try inline(try GestureSynthesizer.longPress())
        let client = try TimedConnection(path: daemon.socketPath)
        var lines = ""
        for id in 1...200 {
            lines += JSONValue.object([("id", .integer(id)), ("op", .string("play")), ("gesture", press), ("wait", .bool(false))]).jsonText + "\n"
        }
        try client.send(lines)
        var ids: Set<Int> = []
        var queued = 0
        var busy = 0
        var events: [JSONValue] = []
        for _ in 1...200 {
            let reply = try #require(try client.reply(events: &events))
            if case .number(let text)? = reply["id"], let id = Int(text) { ids.insert(id) }
            if reply["ok"] == .bool(true) { queued += 1 } else if reply["error"]?["code"] == .string("busy") { busy += 1 }
        }
        #expect(ids == Set(1...200))
        // 4 waiting, and perhaps one already taken by the worker.
        #expect((4...5).contains(queued), "\(queued) queued")
        #expect(queued + busy == 200)
        try client.request(.integer(0), "jobs")
        guard case .array(let jobs)? = try client.reply(events: &events)?["result"]?["jobs"] else {
            Issue.record("no jobs")
            return
        }
        #expect(jobs.count == queued)
        await daemon.stop()
    }

    @Test("Malformed lines get their codes, short replies, and the connection goes on")
    func malformed() async throws {
        let daemon = try TestDaemon(configuration: DaemonConfiguration(devices: [.touchscreen]))
        let raw = try TimedConnection(path: daemon.socketPath)
        var events: [JSONValue] = []
        func expectError(_ bytes: [UInt8], _ codes: Set<String>, _ what: String) throws {
            try raw.send(bytes + [0x0A])
            let reply = try #require(try raw.reply(events: &events), "\(what): no reply")
            guard case .string(let code)? = reply["error"]?["code"] else {
                Issue.record("\(what): \(reply.jsonText.prefix(200))")
                return
            }
            #expect(codes.contains(code), "\(what): \(code)")
            #expect(reply.jsonText.utf8.count < 4_096, "\(what): a reply of \(reply.jsonText.utf8.count) bytes")
        }
        // Binary garbage (every byte but the newline).
        try expectError((0...255).filter { $0 != 0x0A }.map(UInt8.init), ["malformed-json"], "binary")
        // Invalid UTF-8 in a string, and as the op.
        try expectError(Array("{\"id\": 1, \"op\": \"".utf8) + [0xFF, 0xFE, 0xC0] + Array("\"}".utf8), ["malformed-json"], "invalid UTF-8")
        // 10 000 levels of nesting.
        try expectError(Array(String(repeating: "[", count: 10_000).utf8) + Array(String(repeating: "]", count: 10_000).utf8), ["malformed-json"], "nested arrays")
        try expectError(Array((String(repeating: "{\"a\": ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)).utf8), ["malformed-json"], "nested objects")
        // A key a megabyte long, and an op as long.
        let long = String(repeating: "k", count: 1 << 20)
        try expectError(Array("{\"id\": 2, \"op\": \"version\", \"\(long)\": 1}".utf8), ["bad-argument"], "a long key")
        try expectError(Array("{\"id\": 3, \"op\": \"\(long)\"}".utf8), ["unknown-op"], "a long op")
        // Thousands of empty lines: no reply at all; then a request is answered.
        try raw.send(String(repeating: "\n", count: 5_000) + String(repeating: "  \r\n", count: 1_000))
        try raw.request(.integer(4), "version")
        #expect(try raw.reply(events: &events)?["id"] == .integer(4))
        await daemon.stop()
    }

    @Test("A line over the limit gets too-large (and is not run), the connection is closed, others are served")
    func oversize() async throws {
        let daemon = try TestDaemon(
            configuration: DaemonConfiguration(devices: [.touchscreen]), limits: DaemonServer.Limits(lineBytes: 1_024))
        let other = try TimedConnection(path: daemon.socketPath)
        var events: [JSONValue] = []
        // A complete request over the limit, after one under it, in one write.
        let big = try TimedConnection(path: daemon.socketPath)
        try big.send("{\"id\": 1, \"op\": \"version\"}\n{\"id\": 2, \"op\": \"version\"" + String(repeating: " ", count: 2_000) + "}\n{\"id\": 3, \"op\": \"version\"}\n")
        #expect(try big.reply(events: &events)?["id"] == .integer(1))
        let refused = try #require(try big.reply(events: &events))
        #expect(refused["id"] == .null)
        #expect(refused["error"]?["code"] == .string("too-large"))
        #expect(try big.closes())
        // An incomplete line over the limit.
        let endless = try TimedConnection(path: daemon.socketPath)
        try endless.send(String(repeating: "x", count: 3_000))
        #expect(try endless.reply(events: &events)?["error"]?["code"] == .string("too-large"))
        #expect(try endless.closes())
        // A line exactly at the limit is read.
        let exact = try TimedConnection(path: daemon.socketPath)
        let head = "{\"id\": 5, \"op\": \"version\""
        try exact.send(head + String(repeating: " ", count: 1_024 - head.utf8.count - 1) + "}\n")
        #expect(try exact.reply(events: &events)?["ok"] == .bool(true))
        try other.request(.integer(4), "version")
        #expect(try other.reply(events: &events)?["ok"] == .bool(true))
        await daemon.stop()
    }

    @Test("Half a line then a disconnect, and a request closed before its reply: the daemon forgets them and goes on")
    func earlyClose() async throws {
        let daemon = try TestDaemon(configuration: DaemonConfiguration(devices: [.touchscreen]))
        do {
            let half = try TimedConnection(path: daemon.socketPath)
            try half.send("{\"id\": 1, \"op\": \"ver")
            try waitUntil("the half line to be read") { daemon.server.bufferedInputBytes > 0 }
        }
        do {
            let hasty = try TimedConnection(path: daemon.socketPath)
            try hasty.request(.integer(1), "play", [("gesture", try inline(try GestureSynthesizer.swipe(direction: .up))), ("on_disconnect", .string("finish"))])
            try hasty.request(.integer(2), "list")
        }
        let other = try TimedConnection(path: daemon.socketPath)
        var events: [JSONValue] = []
        try waitUntil("both to be forgotten") {
            daemon.logLines.filter { $0.contains("disconnected") }.count >= 2 && daemon.server.bufferedInputBytes == 0
        }
        try waitUntil("the play to end") {
            try other.request(.string("jobs"), "jobs")
            return try other.reply(events: &events)?["result"]?["jobs"] == .array([])
        }
        try other.request(.integer(3), "version")
        #expect(try other.reply(events: &events)?["ok"] == .bool(true))
        await daemon.stop()
    }

    @Test("Many clients sending long lines at once: the daemon's unread input stays within its budget, and every line is answered")
    func inputBudget() async throws {
        let limits = DaemonServer.Limits(lineBytes: 1 << 20, freeInputBytes: 16_384, inputBudgetBytes: 65_536)
        let daemon = try TestDaemon(configuration: DaemonConfiguration(devices: [.touchscreen]), limits: limits)
        let clientCount = 6
        let lineLength = 900_000
        var connections: [TimedConnection] = []
        var remaining: [[UInt8]] = []
        for index in 0..<clientCount {
            let connection = try TimedConnection(path: daemon.socketPath)
            try connection.socket.setNonBlocking()
            connections.append(connection)
            // A request with a long string: bad-argument once it is all read.
            let head = Array("{\"id\": \(index), \"op\": \"version\", \"x\": \"".utf8)
            remaining.append(head + [UInt8](repeating: 0x61, count: lineLength - head.count - 2) + Array("\"}\n".utf8))
        }
        // First all but the end of every line, as far as the daemon takes it
        // (until no socket has taken anything for a moment): all six long
        // lines are incomplete at once.
        func sendSome(upTo keep: Int) throws -> Bool {
            let writers = connections.indices.filter { remaining[$0].count > keep }
            if writers.isEmpty { return false }
            let ready = try Poll.wait(writers.map { (connections[$0].socket, .writable) }, timeoutMilliseconds: 200)
            var progressed = false
            for (slot, index) in writers.enumerated() where ready[slot].contains(.writable) {
                let sent = try remaining[index].withUnsafeBytes { bytes throws(SystemError) in
                    try UnixSocket.sendAvailable(connections[index].socket, UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - keep)]))
                }
                remaining[index].removeFirst(sent)
                progressed = progressed || sent > 0
            }
            return progressed
        }
        let filling = Deadline(60)
        while try sendSome(upTo: 100) {
            if filling.passed { throw TimedOut(what: "the daemon to stop taking input") }
        }
        let held = daemon.server.bufferedInputBytes
        // The budget, one line, and a free share (plus one read) per client.
        let bound = limits.inputBudgetBytes + limits.lineBytes + clientCount * (limits.freeInputBytes + 65_536)
        #expect(held <= bound, "\(held) bytes held, bound \(bound)")
        #expect(held < clientCount * lineLength / 2, "\(held) bytes held")
        // Then the rest: every line completes, one after another.
        var answered = Set<Int>()
        let deadline = Deadline(120)
        while answered.count < clientCount {
            if deadline.passed { throw TimedOut(what: "all long lines answered (\(answered.count) of \(clientCount))") }
            _ = try sendSome(upTo: 0)
            for (index, connection) in connections.enumerated() {
                try connection.pump()
                while let reply = try connection.nextBufferedLine() {
                    #expect(reply["error"]?["code"] == .string("bad-argument"))
                    #expect(reply["id"] == .integer(index))
                    answered.insert(index)
                }
            }
            #expect(daemon.server.bufferedInputBytes <= bound)
        }
        #expect(daemon.server.bufferedInputBytes == 0)
        await daemon.stop()
    }
}
