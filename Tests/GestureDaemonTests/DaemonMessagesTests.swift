import GestureFormat
import GestureModel
import Testing

import GestureBindings
@testable import GestureDaemon
import GestureProtocol

@Suite("The protocol's typed messages")
struct DaemonMessagesTests {
    @Test("Typed requests make the lines the command line always sent: members in order, optional ones only when given")
    func requestLines() {
        #expect(DaemonCall.version.line(id: 1) == "{\"id\": 1, \"op\": \"version\"}\n")
        #expect(
            DaemonCall.play(.name("tap"), kind: "touchscreen", speed: 2, at: (.percent(80), .millimetres(12.5)), rotate: 90).line(id: 2)
                == "{\"id\": 2, \"op\": \"play\", \"name\": \"tap\", \"as\": \"touchscreen\", \"speed\": 2, \"at\": [\"80%\", 12.5], \"rotate\": 90}\n")
        #expect(
            DaemonCall.recordStart(name: "r", device: "/dev/input/event3", sequential: true, idleTimeoutMilliseconds: 1500).line(id: 3)
                == "{\"id\": 3, \"op\": \"record-start\", \"name\": \"r\", \"device\": \"/dev/input/event3\", \"sequential\": true, \"idle_timeout_ms\": 1500}\n")
        #expect(
            DaemonCall.recordStop(wait: true, save: "s").line(id: 4)
                == "{\"id\": 4, \"op\": \"record-stop\", \"wait\": true, \"save\": \"s\"}\n")
        #expect(
            DaemonCall.press(key: "volume-up", action: .tap, holdMilliseconds: 40).line(id: 5)
                == "{\"id\": 5, \"op\": \"press\", \"key\": \"volume-up\", \"action\": \"tap\", \"hold_ms\": 40}\n")
        #expect(DaemonCall.remove(name: "x", force: true).line(id: 6) == "{\"id\": 6, \"op\": \"rm\", \"name\": \"x\", \"force\": true}\n")
    }

    @Test("Every argument a typed request sends is one its operation takes")
    func requestsTakeTheirOperationsFields() {
        let calls: [DaemonCall] = [
            .version, .devices, .list, .show(name: "a"), .save(name: "a", gesture: .object([]), force: true), .remove(name: "a", force: false),
            .cancel(job: .integer(1)),
            .play(.inline(.object([])), kind: "mouse", output: "uhid", speed: 1, repeatCount: 2, at: (.millimetres(1), .millimetres(2)), scale: 2, rotate: 1),
            .press(key: "a", action: .down, holdMilliseconds: 1, force: true),
            .recordStart(name: "a", device: "d", sequential: true, grab: true, idleTimeoutMilliseconds: 1, maximumDurationMilliseconds: 2),
            .recordStop(wait: true, save: "a", force: true),
        ]
        for call in calls {
            for (field, _) in call.arguments { #expect(call.operation.fields.contains(field), "\(call.operation.rawValue): \(field.rawValue)") }
        }
    }

    @Test("A reply line reads back as its result, its error, or an event")
    func replyLines() throws {
        let success = DaemonReply.success(id: .integer(7), result: .object([("job", .integer(3))]))
        guard case .reply(let id, .success(let result)) = try DaemonReplyLine.parse(Array(success.utf8.dropLast())) else {
            Issue.record("not a success: \(success)")
            return
        }
        #expect(id == .integer(7) && result["job"] == .integer(3))
        let failure = DaemonReply.failure(id: .string("a"), error: DaemonError(.busy, "full"))
        guard case .reply(_, .failure(let error)) = try DaemonReplyLine.parse(Array(failure.utf8.dropLast())) else {
            Issue.record("not a failure: \(failure)")
            return
        }
        #expect(error == DaemonError(.busy, "full"))
        guard case .event = try DaemonReplyLine.parse(Array(DaemonReply.event(.dropped, [("count", .integer(2))]).utf8.dropLast())) else {
            Issue.record("not an event")
            return
        }
        #expect(throws: DaemonError.self) { try DaemonReplyLine.parse(Array("{".utf8)) }
    }

    @Test("Results read back what the daemon wrote")
    func resultsRoundTrip() {
        let stopped = RecordStopResult(
            job: 4, device: "/dev/input/event5", stopCode: .deviceVanished, stopped: "the device vanished",
            gesture: nil, message: "no contact was recorded", warnings: [], saved: nil)
        #expect(
            stopped.json.jsonText
                == "{\"job\": 4, \"device\": \"/dev/input/event5\", \"stop_reason\": \"device-vanished\", \"stopped\": \"the device vanished\", \"gesture\": null, \"message\": \"no contact was recorded\", \"warnings\": []}")
        let read = RecordStopResult(stopped.json)
        #expect(read.stopCode == .deviceVanished && read.stopCode?.isFailure == true && read.gesture == nil && read.message == "no contact was recorded")
        let saved = RecordStopResult(
            job: 5, device: "d", stopCode: .idleTimeout, stopped: "idle", gesture: .object([]), message: nil, warnings: ["w"],
            saved: SavedEntry(name: "n", path: "/p/n.gesture.json", hidesBuiltin: true))
        #expect(
            saved.json.jsonText
                == "{\"job\": 5, \"device\": \"d\", \"stop_reason\": \"idle-timeout\", \"stopped\": \"idle\", \"gesture\": {}, \"warnings\": [\"w\"], \"saved\": {\"name\": \"n\", \"path\": \"/p/n.gesture.json\", \"hides_builtin\": true}}")
        #expect(RecordStopResult(saved.json).saved == SavedEntry(name: "n", path: "/p/n.gesture.json", hidesBuiltin: true))
        let played = PlayResult(job: 1, state: "done", device: nil, frames: 10, latenessMaximum: 3, latenessMedian: 1, latenessPercentile99: 2)
        #expect(
            played.json.jsonText
                == "{\"job\": 1, \"state\": \"done\", \"device\": null, \"frames\": 10, \"lateness_max_us\": 3, \"lateness_p50_us\": 1, \"lateness_p99_us\": 2}")
        #expect(PlayResult(played.json).frames == "10")
    }

    @Test("A record event reads back its job's stroke; another job's, or another event, is nil")
    func recordEventReadBack() throws {
        let stroke = JSONValue.object([("kind", .string("finger")), ("samples", .array([.array([.integer(0), .integer(1), .integer(2)])]))])
        let line = JSONValue.object([("event", .string(DaemonEvent.record.rawValue))] + RecordEvent(job: 21, stroke: stroke).fields).jsonText
        guard case .event(let event) = try DaemonReplyLine.parse(Array(line.utf8)) else {
            Issue.record("not an event: \(line)")
            return
        }
        #expect(try RecordEvent(event, job: .integer(21)) == RecordEvent(job: 21, stroke: stroke))
        #expect(try RecordEvent(event, job: .integer(22)) == nil)
        #expect(try RecordEvent(.object([("event", .string("job")), ("job", .integer(21))]), job: .integer(21)) == nil)
        #expect(throws: DaemonError.self) { try RecordEvent(.object([("event", .string("record")), ("job", .integer(21))]), job: .integer(21)) }
    }

    @Test("The devices result's input devices with their axes; a relative pointer has none")
    func inputDevicesWithAxes() throws {
        let json = try JSONValue.parse(Array(#"""
            {"ready": [], "devices": [
              {"node": "/dev/input/event5", "name": "ELAN Touchscreen", "kind": "touchscreen", "links": [], "vendor_product": "04f3:2d4a",
               "slots": 10, "x": {"min": 0, "max": 3200, "resolution": 12}, "y": {"min": 0, "max": 1800, "resolution": 12},
               "width_mm": 266.7, "height_mm": 150, "problem": null},
              {"node": "/dev/input/event3", "name": "Mouse", "kind": "mouse/pointer", "links": [], "vendor_product": null,
               "slots": 1, "x": null, "y": null, "width_mm": null, "height_mm": null, "problem": null},
              {"name": "no node"}
            ]}
            """#.utf8))
        let devices = DevicesResult(json).inputDevices
        #expect(devices.map(\.node) == ["/dev/input/event5", "/dev/input/event3"])
        #expect(devices[0].kind == "touchscreen" && devices[0].x == AxisRange(minimum: 0, maximum: 3200, resolution: 12))
        #expect(devices[0].y == AxisRange(minimum: 0, maximum: 1800, resolution: 12))
        #expect(devices[1].x == nil && devices[1].y == nil && devices[1].name == "Mouse")
    }
}
