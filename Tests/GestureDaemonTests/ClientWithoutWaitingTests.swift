@testable import GestureDaemon
import DaemonTestSupport
import GestureFormat
import GestureProtocol
import GestureSynth
import Testing

@Suite("A client that starts a play without waiting (the on-screen button's way)")
struct ClientWithoutWaitingTests {
    @Test("play with wait false says so on the wire; the queued reply and job events are read typed")
    func typedMessages() throws {
        #expect(
            DaemonCall.play(.name("tap"), kind: "touchscreen", at: (.percent(75), .percent(25)), wait: false).line(id: 1)
                == "{\"id\": 1, \"op\": \"play\", \"name\": \"tap\", \"as\": \"touchscreen\", \"at\": [\"75%\", \"25%\"], \"wait\": false}\n")
        #expect(!DaemonCall.play(.name("tap"), kind: "touchscreen").has(.wait), "waiting is the default, not sent")
        #expect(try QueuedResult(QueuedResult(job: 12).json).job == 12)
        #expect(throws: DaemonError.self) { try QueuedResult(.object([])) }
        let event = try JSONValue.parse(Array("{\"event\": \"job\", \"job\": 7, \"state\": \"cancelled\", \"progress\": 3}".utf8))
        let read = try #require(try JobEvent(event, job: .integer(7)))
        #expect(read == JobEvent(job: 7, state: .cancelled, progress: 3))
        #expect(read.isFinal)
        #expect(try JobEvent(event, job: .integer(8)) == nil, "another job's")
        let odd = try JSONValue.parse(Array("{\"event\": \"job\", \"job\": 7, \"state\": \"sideways\"}".utf8))
        #expect(throws: DaemonError.self) { try JobEvent(odd, job: .integer(7)) }
    }

    @Test("Subscribed, a play without waiting gets its job, and none of the job's events is lost before the reply")
    func eventsBeforeTheReplyAreKept() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        client.keepsEvents = true
        _ = try client.call(.subscribe([.job]))
        let gesture = try inline(try GestureSynthesizer.tap())
        let job = try QueuedResult(
            try client.call(.play(.inline(gesture), kind: "touchscreen", at: (.percent(75), .percent(25)), wait: false))
        ).job
        var states: [JobState] = []
        while true {
            guard let event = try JobEvent(try client.nextEvent(), job: .integer(job)) else { continue }
            states.append(event.state)
            if event.isFinal { break }
        }
        #expect(states.first == .queued)
        #expect(states.last == .done)
        await daemon.stop()
    }
}
