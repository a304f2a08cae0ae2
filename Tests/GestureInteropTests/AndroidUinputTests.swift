import Foundation
import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureInterop

/// Issue 11 item 5: the command file of Android's `uinput` shell command
/// (AOSP cmds/uinput/README.md), written and read back.
@Suite("Android uinput command files")
struct AndroidUinputTests {
    /// A one-slot touchscreen, small enough to pin the whole file.
    static let device = InputDeviceDescription(
        name: "Tiny \"screen\"", bus: 0x06, vendor: 0x4753, product: 1, version: 1, properties: [.direct],
        codes: [.key: [.buttonTouch]],
        absoluteAxes: [
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 0),
            .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 600, resolution: 10),
            .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65535),
        ])

    static let expected = """
        {"id": 1, "command": "register", "name": "Tiny \\"screen\\"", "vid": 18259, "pid": 1, "bus": "usb",
         "configuration": [
          {"type": 100, "data": [1, 3]},
          {"type": 101, "data": [330]},
          {"type": 103, "data": [47, 53, 54, 57]},
          {"type": 110, "data": [1]}
         ],
         "ff_effects_max": 0,
         "abs_info": [
          {"code": 47, "info": {"value": 0, "minimum": 0, "maximum": 0, "fuzz": 0, "flat": 0, "resolution": 0}},
          {"code": 53, "info": {"value": 0, "minimum": 0, "maximum": 1000, "fuzz": 0, "flat": 0, "resolution": 10}},
          {"code": 54, "info": {"value": 0, "minimum": 0, "maximum": 600, "fuzz": 0, "flat": 0, "resolution": 10}},
          {"code": 57, "info": {"value": 0, "minimum": 0, "maximum": 65535, "fuzz": 0, "flat": 0, "resolution": 0}}
         ]}
        {"id": 1, "command": "delay", "duration": 500}
        {"id": 1, "command": "inject", "events": [3, 57, 1, 3, 53, 500, 3, 54, 300, 1, 330, 1, 3, 0, 500, 3, 1, 300, 0, 0, 0]}
        {"id": 1, "command": "delay", "duration": 17}
        {"id": 1, "command": "inject", "events": [3, 53, 512, 3, 0, 512, 0, 0, 0]}
        {"id": 1, "command": "delay", "duration": 1016}
        {"id": 1, "command": "inject", "events": [3, 57, -1, 1, 330, 0, 0, 0, 0]}

        """

    @Test("The exact file for a small gesture")
    func exactFile() {
        #expect(AndroidUinputWriter.document(description: Self.device, frames: Fixtures.tapFrames) == Self.expected)
    }

    /// A checker written from AOSP's README, independent of the writer:
    /// every line one strictly valid JSON object (Foundation's parser);
    /// the `register` first, with every field the README lists and
    /// `UI_SET_PROPBIT` giving `INPUT_PROP_DIRECT`; then only `delay`
    /// (a positive integer `duration`, ms) and `inject` (integers in
    /// threes, each frame ending with `SYN_REPORT`) for the same `id`.
    /// Returns the sum of the delays after the first.
    static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", sourceLocation: sourceLocation)
        var objects: [[String: Any]] = []
        var pending = ""
        for line in lines.dropLast() {
            pending += line + "\n"
            // The register spans lines; every other command is one line.
            if let object = try? JSONSerialization.jsonObject(with: Data(pending.utf8)) as? [String: Any] {
                objects.append(object)
                pending = ""
            }
        }
        #expect(pending.isEmpty, "not JSON: \(pending)", sourceLocation: sourceLocation)
        let register = try #require(objects.first, sourceLocation: sourceLocation)
        #expect(register["command"] as? String == "register", sourceLocation: sourceLocation)
        for key in ["id", "name", "vid", "pid", "bus", "configuration", "ff_effects_max", "abs_info"] {
            #expect(register[key] != nil, "register needs \(key)", sourceLocation: sourceLocation)
        }
        #expect(["usb", "bluetooth"].contains(register["bus"] as? String), sourceLocation: sourceLocation)
        let configuration = try #require(register["configuration"] as? [[String: Any]], sourceLocation: sourceLocation)
        let types = configuration.compactMap { $0["type"] as? Int }
        #expect(types.allSatisfy { (100...110).contains($0) && $0 != 108 }, sourceLocation: sourceLocation)
        #expect(
            configuration.contains { $0["type"] as? Int == 110 && ($0["data"] as? [Int])?.contains(1) == true },
            "INPUT_PROP_DIRECT", sourceLocation: sourceLocation)
        let id = register["id"] as? Int
        var delays = 0
        for (index, object) in objects.enumerated().dropFirst() {
            #expect(object["id"] as? Int == id, sourceLocation: sourceLocation)
            switch object["command"] as? String {
            case "delay":
                let duration = try #require(object["duration"] as? Int, sourceLocation: sourceLocation)
                #expect(duration > 0, sourceLocation: sourceLocation)
                if index > 1 { delays += duration }
            case "inject":
                let events = try #require(object["events"] as? [Int], sourceLocation: sourceLocation)
                #expect(events.count % 3 == 0 && events.count >= 3, sourceLocation: sourceLocation)
                #expect(Array(events.suffix(3)) == [0, 0, 0], sourceLocation: sourceLocation)
                #expect(index > 1, "the delay after register comes first", sourceLocation: sourceLocation)
            default:
                Issue.record("unexpected command \(object)", sourceLocation: sourceLocation)
            }
        }
        return delays
    }

    @Test("Checked against AOSP's README: well formed, registered first, delays adding up to the gesture's time")
    func checker() throws {
        #expect(try Self.check(Self.expected) == 1_033)
        // Frames every 8.333 ms: the delays, rounded from the start, add
        // up to the last frame's time (rounded), never drifting.
        let frames = RoundTripTests.frames(count: 500)
        let text = AndroidUinputWriter.document(description: TestDevices.twoSlotTouchscreen, frames: frames)
        let last = frames.last!.time.rawValue - frames.first!.time.rawValue
        #expect(try Self.check(text) == Int((last + 500) / 1_000))
    }

    @Test("Write, read back: the same events at the same times (whole ms, after the 500 ms registration delay)")
    func roundTrip() throws {
        let text = AndroidUinputWriter.document(description: TestDevices.twoSlotTouchscreen, frames: Fixtures.tapFrames)
        let recording = try AndroidUinputReader.read(text, source: "tap.json")
        var expected = TestDevices.twoSlotTouchscreen
        expected.bus = 0x03  // written as "usb": Android takes no other virtual bus
        expected.version = 0  // not in the format
        #expect(recording.description == expected)
        let times: [Int64] = [500_000, 517_000, 1_533_000]
        let events = zip(Fixtures.tapFrames, times).flatMap { frame, time in
            frame.events.map { event in
                var copy = event
                copy.time = Microseconds(time)
                return copy
            }
        }
        #expect(recording.events == events)
        #expect(InteropFormat.detect(text: text) == .androidUinput)
        let either = try InteropReader.read(text, source: "tap.json")
        #expect(either.format == .androidUinput)
        #expect(either.events == events)
    }

    /// AOSP's README example with what its lenient reader takes: comments,
    /// hex, names for requests, types, codes and properties, several
    /// commands on a line, a sync.
    static let lenient = """
        // A hand-written file
        # with a shell-style comment too
        {
          "id": 1,
          "command": "register",
          "name": "Touch (Test)",
          "vid": 0x18d2,
          "pid": "0x2c42",
          "bus": "bluetooth",
          "unknown_key": {"skipped": [1, 2, {"deep": true}]},
          "configuration":[
                {"type":"UI_SET_EVBIT", "data":["EV_KEY", "EV_ABS"]},  // names
                {"type":101, "data":[0x14a]},   /* BTN_TOUCH */
                {"type":"UI_SET_ABSBIT", "data":["ABS_MT_SLOT", 53, 54, "ABS_MT_TRACKING_ID"]},
                {"type":"UI_SET_PROPBIT", "data":["INPUT_PROP_DIRECT"]}
          ],
          "ff_effects_max" : 0,
          "abs_info": [
                {"code":"ABS_MT_SLOT", "info": {"value":0, "minimum":0, "maximum":1, "fuzz":0, "flat":0, "resolution":0}},
                {"code":53, "info": {"minimum":0, "maximum":1079, "resolution":0}},
                {"code":54, "info": {"minimum":0, "maximum":2399}},
                {"code":0, "info": {"minimum":0, "maximum":5}}
          ]
        }
        {"id": 1, "command": "delay", "duration": 100}{"id": 1, "command": "inject", "events": ["EV_ABS", "ABS_MT_TRACKING_ID", 7,
          0x03, 0x35, 100, 3, 54, 0x64, "EV_KEY", "BTN_TOUCH", 1, "EV_SYN", "SYN_REPORT", 0]}
        {"id": 1, "command": "sync", "syncToken": "done"}
        {"id": 1, "command": "delay", "duration": 20}
        {"id": 1, "command": "inject", "events": [3, 57, -1, 1, 330, 0, 0, 0, 0]}
        """

    @Test("Reads what Android's lenient reader takes: comments, hex, names, unknown keys, sync")
    func lenientReading() throws {
        #expect(InteropFormat.detect(text: Self.lenient) == .androidUinput)
        let recording = try AndroidUinputReader.read(Self.lenient, source: "hand.json")
        #expect(
            recording.description
                == InputDeviceDescription(
                    name: "Touch (Test)", bus: 0x05, vendor: 0x18d2, product: 0x2c42, properties: [.direct],
                    codes: [.key: [.buttonTouch]],
                    absoluteAxes: [
                        .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 1),
                        .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 1079),
                        .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 2399),
                        .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 0),
                    ]))
        #expect(recording.events.count == 8)
        #expect(recording.events[0] == Fixtures.event(.absolute, .multitouchTrackingID, 7, at: 100_000))
        #expect(recording.events[2] == Fixtures.event(.absolute, .multitouchPositionY, 100, at: 100_000))
        #expect(recording.events.last == Fixtures.event(.synchronization, .synchronizationReport, 0, at: 120_000))
    }

    @Test("Java's Integer.decode forms")
    func decode() {
        #expect(JSONInput.decode("0x18d1") == 0x18d1)
        #expect(JSONInput.decode("0X1F") == 31)
        #expect(JSONInput.decode("#ff") == 255)
        #expect(JSONInput.decode("-0x10") == -16)
        #expect(JSONInput.decode("010") == 8)
        #expect(JSONInput.decode("0") == 0)
        #expect(JSONInput.decode("+5") == 5)
        #expect(JSONInput.decode("0x") == nil)
        #expect(JSONInput.decode("0x-1") == nil)
        #expect(JSONInput.decode("--1") == nil)
        #expect(JSONInput.decode("0x8000000000000000") == nil)
        #expect(JSONInput.decode("-0x8000000000000000") == Int64.min)
        #expect(JSONInput.decode("12a") == nil)
    }

    static let register = """
        {"id": 1, "command": "register", "name": "t", "vid": 1, "pid": 2, "bus": "usb",
         "configuration": [{"type": 100, "data": [3]}, {"type": 103, "data": [53]}],
         "abs_info": [{"code": 53, "info": {"minimum": 0, "maximum": 100}}]}

        """

    @Test(
        "Bad files: a precise error with the line, never a crash",
        arguments: [
            ("", InteropError.Kind.malformed, nil, "the file is empty: no commands"),
            ("  \n// only a comment\n", .malformed, nil, "the file is empty: no commands"),
            ("{\"id\": 1, \"command\": \"inject\", \"events\": [0, 0, 0]}\n", .malformed, 1,
             "\"inject\" before any \"register\": no device to send it to"),
            ("{\"id\": 1, \"command\": \"delay\", \"duration\": 5}\n", .malformed, 1,
             "\"delay\" before any \"register\": no device to send it to"),
            // A file that ends inside a comment was cut short or lacks its `*/`.
            (register + "/* the rest of the gesture\n{\"id\": 1, \"command\": \"delay\", \"duration\": 1}\n", .malformed, 4,
             "a /* comment is never closed: it runs to the end of the file"),
            ("/* nothing but an open comment", .malformed, 1, "a /* comment is never closed: it runs to the end of the file"),
            (register + "{\"id\": 1, \"command\": \"explode\"}\n", .malformed, 4,
             "unknown command \"explode\" (known: register, delay, inject, sync)"),
            (register + "{\"id\": 1}\n", .malformed, 4, "a command without \"command\""),
            (register + "{\"command\": \"delay\", \"duration\": 1}\n", .malformed, 4, "a command without \"id\""),
            (register + "{\"id\": 2, \"command\": \"delay\", \"duration\": 1}\n", .malformed, 4,
             "\"delay\" for id 2, but the registered device has id 1"),
            (register + register, .malformed, 4,
             "a second \"register\" (id 1); the file already registered \"t\" (id 1), and gesturectl imports one device"),
            (register + "{\"id\": 1, \"command\": \"delay\", \"duration\": 0}\n", .outOfRange, 4,
             "\"delay\" duration 0 ms: must be at least 1 (Android refuses 0 and less)"),
            (register + "{\"id\": 1, \"command\": \"delay\"}\n", .malformed, 4, "\"delay\" without \"duration\""),
            (register + "{\"id\": 1, \"command\": \"inject\", \"events\": [3, 53]}\n", .malformed, 4,
             "events has 2 numbers, not a multiple of three (type, code, value)"),
            (register + "{\"id\": 1, \"command\": \"inject\", \"events\": [3, 53, 99999999999]}\n", .outOfRange, 4,
             "events[2] (a value) 99999999999 is out of range -2147483648…2147483647"),
            (register + "{\"id\": 1, \"command\": \"inject\", \"events\": [3, 53, 123456789012345678901234567890]}\n",
             .outOfRange, 4, "events[2] (a value) 123456789012345678901234567890 is out of range -2147483648…2147483647"),
            (register + "{\"id\": 1, \"command\": \"inject\", \"events\": [32, 0, 0]}\n", .outOfRange, 4,
             "events[0] (a type) 32 is out of range 0…31"),
            (register + "{\"id\": 1, \"command\": \"inject\", \"events\": [3, 64, 0]}\n", .outOfRange, 4,
             "events[1] (a code of EV_ABS) 64 is out of range 0…63"),
            (register + "{\"id\": 1, \"command\": \"inject\", \"events\": [\"EV_NOPE\", 0, 0]}\n", .malformed, 4,
             "events[0] (a type) must be an integer or a known name, not \"EV_NOPE\""),
            (register + "{\"id\": 1, \"command\": \"inject\", \"events\": [3, 53, 1.5]}\n", .malformed, 4,
             "events[2] (a value) must be an integer, not 1.5"),
            (register + "{\"id\": 1, \"command\": \"inject\", \"events\": {\"a\": 1}}\n", .malformed, 4,
             "events must be an array, not an object"),
            (register + "{\"id\": 1, \"command\": \"inject\"}\n", .malformed, 4, "\"inject\" without \"events\""),
            (register + "[1, 2, 3]\n", .malformed, 4, "a command must be an object, not an array"),
            (register + "{\"id\": 1, \"command\": \"delay\", \"duration\": 5", .malformed, 4, "unexpected end of file"),
            (register + "{\"id\": 1, \"command\": \"sync\"}\n", .malformed, 4, "\"sync\" without \"syncToken\""),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\"}\n", .malformed, 1,
             "\"register\" without \"configuration\" (Android refuses it too)"),
            ("{\"id\": 1, \"command\": \"register\", \"configuration\": []}\n", .malformed, 1, "\"register\" without \"name\""),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\", \"vid\": 65536, \"configuration\": []}\n", .outOfRange, 1,
             "vid 65536 is out of range 0…65535"),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\", \"bus\": \"pci\", \"configuration\": []}\n", .malformed, 1,
             "bus \"pci\": Android knows \"usb\" and \"bluetooth\""),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\", \"configuration\": [{\"data\": [1], \"type\": 100}]}\n",
             .malformed, 1, "configuration[0]: \"type\" must come before \"data\" (as Android reads it)"),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\", \"configuration\": [{\"type\": 108, \"data\": [1]}]}\n",
             .malformed, 1, "configuration type 108 is not a UI_SET_* request (100–110)"),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\", \"configuration\": [{\"type\": 103, \"data\": [64]}]}\n",
             .outOfRange, 1, "UI_SET_ABSBIT: code 64 is beyond EV_ABS's largest, 63"),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\", \"configuration\": [], \"abs_info\": [{\"code\": 0, \"info\": {\"max\": 1}}]}\n",
             .malformed, 1, "abs_info[0].info: unknown key \"max\""),
            ("{\"id\": 1, \"command\": \"register\", \"name\": 7, \"configuration\": []}\n", .malformed, 1,
             "name must be a string, not 7"),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\", \"configuration\": [], \"x\": "
                + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}\n",
             .tooLarge, 1, "nesting is deeper than 32 levels"),
            ("{\"id\": 1, \"command\": \"register\", \"name\": \"t\", \"configuration\": []}\n"
                + "{\"id\": 1, \"command\": \"delay\", \"duration\": 2147483647}\n".repeated(8), .tooLarge, 2,
             "the delays add up to more than 24 hours, the longest gesture"),
        ] as [(String, InteropError.Kind, Int?, String)])
    func badFiles(text: String, kind: InteropError.Kind, line: Int?, message: String) {
        #expect(throws: InteropError(kind: kind, source: "bad.json", line: line, message: message)) {
            try AndroidUinputReader.read(text, source: "bad.json")
        }
    }

    @Test("A file with commands but no register says so")
    func noRegister() {
        #expect(throws: InteropError(kind: .malformed, source: "s.json", line: 1, message: "\"sync\" without \"syncToken\"")) {
            try AndroidUinputReader.read("{\"id\": 1, \"command\": \"sync\"}", source: "s.json")
        }
        #expect(
            throws: InteropError(
                kind: .malformed, source: "s.json", line: 2, message: "no \"register\" command: the device is never described")
        ) {
            try AndroidUinputReader.read("{\"id\": 1, \"command\": \"sync\", \"syncToken\": \"a\"}\n\n", source: "s.json")
        }
    }

    @Test("A gigantic inject is read in linear time (300 000 events)")
    func giganticInject() throws {
        var text = Self.register + "{\"id\": 1, \"command\": \"inject\", \"events\": ["
        text += Array(repeating: "3, 53, 7, 0, 0, 0", count: 150_000).joined(separator: ", ")
        text += "]}\n"
        let recording = try AndroidUinputReader.read(text, source: "big.json")
        #expect(recording.events.count == 300_000)
    }

    /// Issue 24 item 5: every inject reserved room for exactly its own
    /// events, so the list was copied whole at each of a 1 kHz gesture's
    /// inject commands (31.5 s for a minute of one). Counted, not timed:
    /// appending grows the list a logarithmic number of times.
    @Test("Many small injects grow the event list a logarithmic number of times, not once per inject")
    func manyInjectsGrowGeometrically() throws {
        var text = Self.register
        let injects = 20_000
        for value in 0..<injects {
            text += "{\"id\": 1, \"command\": \"delay\", \"duration\": 1}\n"
            text += "{\"id\": 1, \"command\": \"inject\", \"events\": [3, 53, \(value % 100), 0, 0, 0]}\n"
        }
        let (recording, growths) = try AndroidUinputReader.readCountingGrowths(bytes: Array(text.utf8), source: "many.json")
        #expect(recording.events.count == 2 * injects)
        #expect(recording.events.last?.time == Microseconds(Int64(injects) * 1_000))
        // log2(40 000) is about 15; once per inject would be 20 000.
        #expect(growths <= 40, "the event list was reallocated \(growths) times for \(injects) injects")
    }

    @Test("2,000 mutated command files: a clear error or a recording, never a crash")
    func mutations() {
        let sample = Array(Self.lenient.utf8)
        var generator = SplitMix64(seed: 0x7569_6e70_7574)
        var read = 0
        var rejected = 0
        var findings = FuzzTests.Findings()
        for index in 0..<2_000 {
            let bytes = FuzzTests.mutate(sample, generator: &generator)
            let text = String(decoding: bytes, as: UTF8.self)
            _ = InteropFormat.detect(bytes)
            do {
                _ = try AndroidUinputReader.read(bytes: bytes, source: "fuzz.json")
                read += 1
            } catch {
                rejected += 1
                FuzzTests.expectClearRejection(error, source: "fuzz.json", text: text, findings: &findings, "case \(index)")
            }
        }
        // Most mutations break a field's rules; some leave a readable file.
        #expect(read > 5)
        #expect(rejected > 200)
        FuzzTests.expect(findings)
    }
}

extension String {
    fileprivate func repeated(_ count: Int) -> String { String(repeating: self, count: count) }
}
