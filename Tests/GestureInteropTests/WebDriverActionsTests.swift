import Foundation
import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureInterop

/// Issue 11 item 5: W3C WebDriver Actions payloads, written and read back.
@Suite("WebDriver actions")
struct WebDriverActionsTests {
    static func event(_ code: EventCode, _ value: Int32) -> InputEvent {
        InputEvent(type: .absolute, code: code, value: value)
    }

    /// Two fingers on the two-slot touchscreen (0…1000 × 0…600): finger 1
    /// down at 0 ms, finger 2 down at 17 ms while finger 1 moves, both
    /// move at 33 ms, finger 1 lifts at 50 ms, finger 2 at 67 ms.
    static let twoFingers: [InputFrame] = [
        InputFrame(time: 1_000_000, events: [
            event(.multitouchSlot, 0), event(.multitouchTrackingID, 1), event(.multitouchPositionX, 0),
            event(.multitouchPositionY, 600), .synchronizationReport(),
        ]),
        InputFrame(time: 1_016_667, events: [
            event(.multitouchPositionX, 100), event(.multitouchSlot, 1), event(.multitouchTrackingID, 2),
            event(.multitouchPositionX, 1000), event(.multitouchPositionY, 0), .synchronizationReport(),
        ]),
        InputFrame(time: 1_033_334, events: [
            event(.multitouchSlot, 0), event(.multitouchPositionX, 200), event(.multitouchSlot, 1),
            event(.multitouchPositionY, 300), .synchronizationReport(),
        ]),
        InputFrame(time: 1_050_000, events: [
            event(.multitouchSlot, 0), event(.multitouchTrackingID, -1), .synchronizationReport(),
        ]),
        InputFrame(time: 1_066_667, events: [
            event(.multitouchSlot, 1), event(.multitouchTrackingID, -1), .synchronizationReport(),
        ]),
    ]

    static let expected = """
        {"actions": [
         {"type": "pointer", "id": "finger1", "parameters": {"pointerType": "touch"}, "actions": [
          {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": 0, "y": 199},
          {"type": "pointerDown", "button": 0},
          {"type": "pause", "duration": 17},
          {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": 30, "y": 199},
          {"type": "pause", "duration": 0},
          {"type": "pause", "duration": 16},
          {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": 60, "y": 199},
          {"type": "pause", "duration": 17},
          {"type": "pointerUp", "button": 0},
          {"type": "pause", "duration": 17},
          {"type": "pause", "duration": 0}
         ]},
         {"type": "pointer", "id": "finger2", "parameters": {"pointerType": "touch"}, "actions": [
          {"type": "pause", "duration": 0},
          {"type": "pause", "duration": 0},
          {"type": "pause", "duration": 17},
          {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": 299, "y": 0},
          {"type": "pointerDown", "button": 0},
          {"type": "pause", "duration": 16},
          {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": 299, "y": 100},
          {"type": "pause", "duration": 17},
          {"type": "pause", "duration": 0},
          {"type": "pause", "duration": 17},
          {"type": "pointerUp", "button": 0}
         ]}
        ]}

        """

    @Test("The exact payload for a small two-finger gesture")
    func exactPayload() {
        let writer = WebDriverActionsWriter(
            description: TestDevices.twoSlotTouchscreen, viewport: WebDriverViewport(width: 300, height: 200))
        #expect(writer.document(frames: Self.twoFingers) == Self.expected)
    }

    /// WebDriver's rules, checked with Foundation's JSON parser: every
    /// source a touch pointer with the same number of actions (ticks);
    /// in each tick the actions that take time all take the same time,
    /// so the tick lasts exactly as the frame says; downs and ups
    /// alternate per source and end up. Returns the total duration.
    static func check(_ text: String, viewport: WebDriverViewport, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let payload = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        let sources = try #require(payload["actions"] as? [[String: Any]], sourceLocation: sourceLocation)
        let lists = try sources.map { source in
            #expect(source["type"] as? String == "pointer", sourceLocation: sourceLocation)
            #expect((source["parameters"] as? [String: Any])?["pointerType"] as? String == "touch", sourceLocation: sourceLocation)
            return try #require(source["actions"] as? [[String: Any]], sourceLocation: sourceLocation)
        }
        let ticks = lists.first?.count ?? 0
        #expect(lists.allSatisfy { $0.count == ticks }, sourceLocation: sourceLocation)
        var total = 0
        var down = [Bool](repeating: false, count: lists.count)
        for tick in 0..<ticks {
            let actions = lists.map { $0[tick] }
            let durations = Set(actions.compactMap { $0["type"] as? String == "pointerDown" || $0["type"] as? String == "pointerUp" ? nil : $0["duration"] as? Int })
            #expect(durations.count <= 1, "tick \(tick): \(durations)", sourceLocation: sourceLocation)
            total += durations.first ?? 0
            for (index, action) in actions.enumerated() {
                switch action["type"] as? String {
                case "pointerDown":
                    #expect(!down[index] && action["button"] as? Int == 0, sourceLocation: sourceLocation)
                    down[index] = true
                case "pointerUp":
                    #expect(down[index] && action["button"] as? Int == 0, sourceLocation: sourceLocation)
                    down[index] = false
                case "pointerMove":
                    #expect(action["origin"] as? String == "viewport", sourceLocation: sourceLocation)
                    let x = try #require(action["x"] as? Int, sourceLocation: sourceLocation)
                    let y = try #require(action["y"] as? Int, sourceLocation: sourceLocation)
                    #expect((0..<viewport.width).contains(x) && (0..<viewport.height).contains(y), sourceLocation: sourceLocation)
                case "pause": break
                default: Issue.record("unexpected action \(action)", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(!down.contains(true), "every finger lifted", sourceLocation: sourceLocation)
        return total
    }

    @Test("Ticks: the same count for every source, one time per tick, adding up to the gesture's time")
    func ticks() throws {
        let viewport = WebDriverViewport(width: 300, height: 200)
        let writer = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: viewport)
        #expect(try Self.check(writer.document(frames: Self.twoFingers), viewport: viewport) == 67)
    }

    @Test("At display rate: a move every frame period while the finger moves, on the line between the frames around it; none while it is still")
    func displayRate() throws {
        // x 0 → 1000 over 100 ms in one frame step, then still for 100 ms, then a lift.
        let frames = [
            InputFrame(time: 0, events: [
                Self.event(.multitouchTrackingID, 1), Self.event(.multitouchPositionX, 0), Self.event(.multitouchPositionY, 300),
                .synchronizationReport(),
            ]),
            InputFrame(time: 100_000, events: [Self.event(.multitouchPositionX, 1000), .synchronizationReport()]),
            InputFrame(time: 200_000, events: [Self.event(.multitouchTrackingID, -1), .synchronizationReport()]),
        ]
        let viewport = WebDriverViewport(width: 1001, height: 601)
        let writer = WebDriverActionsWriter(
            description: TestDevices.twoSlotTouchscreen, viewport: viewport, framePeriod: WebDriverActionsWriter.displayFrame)
        let text = writer.document(frames: frames)
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let actions = try #require((payload["actions"] as? [[String: Any]])?.first?["actions"] as? [[String: Any]])
        let xs = actions.filter { $0["type"] as? String == "pointerMove" }.compactMap { $0["x"] as? Int }
        // The move to the touch, then one every 16.667 ms up to 100 ms: 6, on the line.
        #expect(xs == [0, 167, 333, 500, 667, 833, 1000], "\(xs)")
        // The still 100 ms is one pause before the lift; the whole lasts the file's 200 ms.
        let pauses = actions.compactMap { $0["type"] as? String == "pause" ? $0["duration"] as? Int : nil }
        #expect(pauses.reduce(0, +) == 200, "\(pauses)")
        #expect(pauses.last == 100)
        // The sparse form writes the one move the straight line needs.
        let sparse = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: viewport).document(frames: frames)
        #expect(sparse.components(separatedBy: "\"pointerMove\"").count - 1 == 2)
    }

    @Test("A lift and a new touch in one slot in one frame: up, then a move and a down")
    func restartInOneFrame() throws {
        let frames = [
            InputFrame(time: 0, events: [Self.event(.multitouchTrackingID, 1), Self.event(.multitouchPositionX, 0), .synchronizationReport()]),
            InputFrame(time: 10_000, events: [
                Self.event(.multitouchTrackingID, -1), Self.event(.multitouchTrackingID, 2), Self.event(.multitouchPositionX, 1000),
                .synchronizationReport(),
            ]),
            InputFrame(time: 20_000, events: [Self.event(.multitouchTrackingID, -1), .synchronizationReport()]),
        ]
        let viewport = WebDriverViewport(width: 101, height: 61)
        let text = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: viewport).document(frames: frames)
        #expect(try Self.check(text, viewport: viewport) == 20)
        let recording = try WebDriverActionsReader.read(text, source: "r.json", viewport: viewport)
        let ids = recording.events.filter { (event: InputEvent) in event.code == EventCode.multitouchTrackingID }
        let downs: [Int64] = ids.filter { $0.value >= 0 }.map { $0.time.rawValue }
        let ups: [Int64] = ids.filter { $0.value < 0 }.map { $0.time.rawValue }
        #expect(downs == [0, 10_000])
        #expect(ups == [10_000, 20_000])
    }

    @Test("Write, read back: the same touches at the same times, positions within a pixel")
    func roundTrip() throws {
        let viewport = WebDriverViewport(width: 300, height: 200)
        let text = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: viewport)
            .document(frames: Self.twoFingers)
        #expect(InteropFormat.detect(text: text) == .webdriver)
        let recording = try WebDriverActionsReader.read(text, source: "two.json", viewport: viewport)
        #expect(recording.description == WebDriverActionsReader.touchscreen(viewport: viewport, slots: 2))
        #expect(recording.description.properties == [.direct])
        // Per frame: (time, slot, x, y) of every position, and the downs and ups.
        var positions: [[Int64]] = []
        var slot: Int32 = 0
        for event in recording.events where event.type == .absolute {
            switch event.code {
            case .multitouchSlot: slot = event.value
            case .multitouchPositionX: positions.append([event.time.rawValue, Int64(slot), Int64(event.value)])
            case .multitouchTrackingID: positions.append([event.time.rawValue, Int64(slot), event.value < 0 ? -1 : 1])
            default: break
            }
        }
        #expect(
            positions == [
                [0, 0, 1], [0, 0, 0], [17_000, 0, 30], [17_000, 1, 1], [17_000, 1, 299], [33_000, 0, 60], [33_000, 1, 299],
                [50_000, 0, -1], [67_000, 1, -1],
            ])
        // Without a viewport: the smallest holding every position.
        #expect(try WebDriverActionsReader.read(text, source: "two.json").viewport == WebDriverViewport(width: 300, height: 200))
        let either = try InteropReader.read(text, source: "two.json", viewport: viewport)
        #expect(either.format == .webdriver)
        #expect(either.events == recording.events)
    }

    @Test("Reads payloads as WebDriver runs them: uneven sources, key and none sources, relative moves, cancel, doubles")
    func spec() throws {
        let payload = """
            {"actions": [
              {"type": "key", "id": "keyboard", "actions": [{"type": "pause", "duration": 40}, {"type": "keyDown", "value": "a"}]},
              {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "x": 10.4, "y": 20.6},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "origin": "pointer", "x": 5, "y": -5, "duration": 100},
                {"type": "pointerCancel"},
                {"type": "pointerUp", "button": 0}
              ]},
              {"type": "none", "id": "idle", "actions": [{"type": "pause"}, {"type": "pause", "duration": 7}]}
            ], "extra": {"ignored": true}}
            """
        let recording = try WebDriverActionsReader.read(payload, source: "p.json", viewport: WebDriverViewport(width: 100, height: 100))
        #expect(recording.description.slotCount == 1)
        let expected: [InputEvent] = [
            // tick 0 (40 ms, the key source's pause): the move; tick 1 (7 ms): the down
            InputEvent(time: 47_000, type: .absolute, code: .multitouchSlot, value: 0),
            InputEvent(time: 47_000, type: .absolute, code: .multitouchTrackingID, value: 1),
            InputEvent(time: 47_000, type: .absolute, code: .multitouchPositionX, value: 10),
            InputEvent(time: 47_000, type: .absolute, code: .multitouchPositionY, value: 21),
            InputEvent(time: 47_000, type: .key, code: .buttonTouch, value: 1),
            .synchronizationReport(time: 47_000),
            InputEvent(time: 147_000, type: .absolute, code: .multitouchSlot, value: 0),
            InputEvent(time: 147_000, type: .absolute, code: .multitouchPositionX, value: 15),
            InputEvent(time: 147_000, type: .absolute, code: .multitouchPositionY, value: 16),
            .synchronizationReport(time: 147_000),
            // the cancel, at the same time: a frame of its own, so that the move is not lost
            InputEvent(time: 147_000, type: .absolute, code: .multitouchSlot, value: 0),
            InputEvent(time: 147_000, type: .absolute, code: .multitouchTrackingID, value: -1),
            InputEvent(time: 147_000, type: .key, code: .buttonTouch, value: 0),
            .synchronizationReport(time: 147_000),
        ]
        #expect(recording.events == expected)
    }

    @Test("Viewport sizes: WxH, 1 to 100000 a side")
    func viewport() {
        #expect(WebDriverViewport(parsing: "1080x1920") == WebDriverViewport(width: 1080, height: 1920))
        #expect(WebDriverViewport(parsing: "412X915") == WebDriverViewport(width: 412, height: 915))
        for bad in ["", "1080", "1080x", "x1920", "0x10", "10x0", "-1x10", "1e3x10", "100001x1", "10x10x10", "１0x10", " 10x10"] {
            #expect(WebDriverViewport(parsing: bad) == nil, "\(bad)")
        }
        // The 216 × 135 mm default surface at 96 px/in.
        #expect(WebDriverViewport(millimetresWide: 216, high: 135) == WebDriverViewport(width: 816, height: 510))
        #expect(WebDriverViewport(millimetresWide: .nan, high: 1e12) == WebDriverViewport(width: 1, height: 100_000))
        #expect(WebDriverViewport(width: 1080, height: 1920).description == "1080x1920")
    }

    static let pointer = "{\"type\": \"pointer\", \"id\": \"f\", \"actions\": "

    @Test(
        "Bad payloads: a precise error with the line, never a crash",
        arguments: [
            ("{}", InteropError.Kind.malformed, 1, "no \"actions\" in the payload"),
            ("[]", .malformed, 1, "the payload must be an object, not an array"),
            ("{\"actions\": {}}", .malformed, 1, "actions must be an array, not an object"),
            ("{\"actions\": [1]}", .malformed, 1, "actions[0] must be an object, not 1"),
            ("{\"actions\": [{\"id\": \"a\", \"actions\": []}]}", .malformed, 1, "actions[0] has no \"type\""),
            ("{\"actions\": [{\"type\": \"pointer\"}]}", .malformed, 1, "actions[0] has no \"actions\""),
            ("{\"actions\": [{\"type\": \"gamepad\", \"actions\": []}]}", .malformed, 1,
             "actions[0].type \"gamepad\": WebDriver knows pointer, key, wheel and none"),
            ("{\"actions\": [\(pointer)[{\"type\": \"fly\"}]}]}", .malformed, 1, "actions[0].actions[0].type \"fly\" is not a WebDriver action"),
            ("{\"actions\": [\(pointer)[{\"x\": 1}]}]}", .malformed, 1, "actions[0].actions[0] has no \"type\""),
            ("{\"actions\": [\(pointer)[{\"type\": \"pointerMove\", \"origin\": {\"element-6066-11e4-a52e-4f735466cecf\": \"x\"}}]}]}",
             .malformed, 1, "actions[0].actions[0].origin: an element cannot be resolved without the page; use \"viewport\" or \"pointer\""),
            ("{\"actions\": [\(pointer)[{\"type\": \"pointerMove\", \"origin\": \"screen\"}]}]}", .malformed, 1,
             "actions[0].actions[0].origin \"screen\": use \"viewport\" or \"pointer\""),
            ("{\"actions\": [\(pointer)[{\"type\": \"pause\", \"duration\": -1}]}]}", .outOfRange, 1,
             "actions[0].actions[0].duration -1 is out of range 0…86400000"),
            ("{\"actions\": [\(pointer)[{\"type\": \"pause\", \"duration\": \"5\"}]}]}", .malformed, 1,
             "actions[0].actions[0].duration must be an integer, not a string"),
            ("{\"actions\": [\(pointer)[{\"type\": \"pause\", \"duration\": 1e400}]}]}", .malformed, 1,
             "actions[0].actions[0].duration must be an integer, not 1e400"),
            ("{\"actions\": [\(pointer)[{\"type\": \"pointerMove\", \"x\": 1e300}]}]}", .outOfRange, 1,
             "actions[0].actions[0].x 1e300 is out of range -1000000000…1000000000"),
            ("{\"actions\": [\(pointer)[{\"type\": \"pointerMove\", \"x\": true}]}]}", .malformed, 1,
             "actions[0].actions[0].x must be a number, not true"),
            ("{\"actions\": [\(pointer)[]}, \(pointer)[]}]}", .malformed, 1, "two sources have the id \"f\""),
            ("{\"actions\": [{\"type\": \"key\", \"actions\": [{\"type\": \"pointerDown\"}]}]}", .malformed, 1,
             "actions[0]: a key source cannot have pointer actions"),
            ("{\"actions\": [{\"type\": \"pointer\", \"parameters\": {\"pointerType\": \"finger\"}, \"actions\": []}]}", .malformed, 1,
             "actions[0].parameters.pointerType \"finger\": WebDriver knows mouse, pen and touch"),
            ("{\"actions\": [\(pointer)[]}]}\n{}", .malformed, 2, "text after the payload's closing '}'"),
            ("{\"actions\": [\(pointer)[{\"type\": \"pause\", \"duration\": 86400000}, {\"type\": \"pause\", \"duration\": 1}]}]}",
             .tooLarge, 1, "the ticks add up to more than 24 hours, the longest gesture"),
            ("{\"actions\": \n" + String(repeating: "[", count: 40), .malformed, 2, "actions[0] must be an object, not an array"),
            ("{\"x\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}", .tooLarge, 1,
             "nesting is deeper than 32 levels"),
            ("{\"actions\": [\(pointer)[]}", .malformed, 1, "unexpected end of file"),
            // Issue 24 item 5: the sum of relative moves, not the clamp's limit.
            ("{\"actions\": [\(pointer)[{\"type\": \"pointerDown\"},\n"
                + String(repeating: "{\"type\": \"pointerMove\", \"origin\": \"pointer\", \"x\": 1000000000},\n", count: 3)
                + "{\"type\": \"pointerMove\", \"origin\": \"pointer\", \"x\": 500}]}]}", .outOfRange, 3,
             "actions[0].actions[2]: the relative moves add up to x = 2000000000, beyond ±1000000000"),
            ("{\"actions\": [\(pointer)[]}] // comment\n}", .malformed, 1, "expected ',' or '}', found '/'"),
        ] as [(String, InteropError.Kind, Int, String)])
    func badPayloads(text: String, kind: InteropError.Kind, line: Int, message: String) {
        #expect(throws: InteropError(kind: kind, source: "bad.json", line: line, message: message)) {
            try WebDriverActionsReader.read(text, source: "bad.json")
        }
    }

    /// Issue 24 item 5: a tap at 0, 0 or a swipe along the left edge gave
    /// an axis of one value (0…0), which the recorder refused.
    @Test(
        "Touches on one line or one point import: a side they do not span gets a surface",
        arguments: [
            ("[{\"type\": \"pointerDown\"}, {\"type\": \"pause\", \"duration\": 50}, {\"type\": \"pointerUp\"}]", 100, 100),
            ("[{\"type\": \"pointerMove\", \"x\": 0, \"y\": 100}, {\"type\": \"pointerDown\"},"
                + " {\"type\": \"pointerMove\", \"duration\": 200, \"x\": 0, \"y\": 699}, {\"type\": \"pointerUp\"}]", 700, 700),
            ("[{\"type\": \"pointerMove\", \"x\": 10, \"y\": 0}, {\"type\": \"pointerDown\"},"
                + " {\"type\": \"pointerMove\", \"duration\": 200, \"x\": 399, \"y\": 0}, {\"type\": \"pointerUp\"}]", 400, 400),
        ] as [(String, Int, Int)])
    func degenerateExtent(actions: String, width: Int, height: Int) throws {
        let recording = try WebDriverActionsReader.read("{\"actions\": [\(Self.pointer)\(actions)}]}", source: "edge.json")
        #expect(recording.viewport == WebDriverViewport(width: width, height: height))
        for code in [EventCode.multitouchPositionX, .multitouchPositionY] {
            let axis = try #require(recording.description.absoluteAxes[code])
            #expect(axis.minimum < axis.maximum)
        }
        #expect(recording.events.contains { $0.code == .multitouchTrackingID && $0.value == -1 })
    }

    @Test("More pointers than slots are refused; a gigantic payload reads in linear time")
    func limits() throws {
        let many = (0...64).map { "{\"type\": \"pointer\", \"id\": \"p\($0)\", \"actions\": []}" }.joined(separator: ",\n")
        #expect(
            throws: InteropError(kind: .tooLarge, source: "m.json", line: 66, message: "65 pointer sources; at most 64 fingers are read")
        ) {
            try WebDriverActionsReader.read("{\"actions\": [\n" + many + "]}", source: "m.json")
        }
        let moves = Array(repeating: "{\"type\": \"pointerMove\", \"duration\": 1, \"x\": 5, \"y\": 5}", count: 100_000)
        let text = "{\"actions\": [\(Self.pointer)[{\"type\": \"pointerDown\"}, " + moves.joined(separator: ",") + "]}]}"
        let recording = try WebDriverActionsReader.read(text, source: "big.json")
        #expect(recording.events.last?.time == Microseconds(100_000_000))
    }

    @Test("2,000 mutated payloads: a clear error or a recording, never a crash")
    func mutations() {
        let sample = Array(Self.expected.utf8)
        var generator = SplitMix64(seed: 0x7765_6264_7276)
        var read = 0
        var rejected = 0
        var findings = FuzzTests.Findings()
        for index in 0..<2_000 {
            let bytes = FuzzTests.mutate(sample, generator: &generator)
            _ = InteropFormat.detect(bytes)
            do {
                _ = try WebDriverActionsReader.read(bytes: bytes, source: "fuzz.json")
                read += 1
            } catch {
                rejected += 1
                FuzzTests.expectClearRejection(
                    error, source: "fuzz.json", text: String(decoding: bytes, as: UTF8.self), findings: &findings, "case \(index)")
            }
        }
        #expect(read > 5)
        #expect(rejected > 200)
        FuzzTests.expect(findings)
    }

    @Test("Detection: JSON by its first key; comments before it")
    func detection() {
        #expect(InteropFormat.detect(text: "{\"actions\": []}") == .webdriver)
        #expect(InteropFormat.detect(text: "\u{FEFF}  // x\n/* y */ {\"id\": 1, \"command\": \"register\"}") == .androidUinput)
        #expect(InteropFormat.detect(text: "{\"command\": \"x\", \"actions\": 1}") == .androidUinput)
        #expect(InteropFormat.detect(text: "{\"format\": \"gesturectl-gesture\"}") == .unknown)
        #expect(InteropFormat.detect(text: "[1]") == .unknown)
        // By the top-level keys, not by words inside values.
        #expect(InteropFormat.detect(text: "{\"format\": 1, \"description\": \"actions\", \"strokes\": []}") == .unknown)
        #expect(InteropFormat.detect(text: "{\"x\": {\"command\": 1}, \"actions\": []}") == .webdriver)
        // Cut short (or broken): the first of the keys written decides.
        #expect(InteropFormat.detect(text: "{\"id\": 0x1, \"command\": \"register\"") == .androidUinput)
        #expect(InteropFormat.detect(text: "{\"id\": @, \"actions\": [") == .webdriver)
        #expect(InteropFormat.androidUinput.rawValue == "android-uinput")
        #expect(InteropFormat.webdriver.rawValue == "webdriver")
    }

    // MARK: - Which frames are written (issue 24 item 1)

    /// One finger from `points` (pixels of a 1001 × 601 viewport on the
    /// two-slot touchscreen, whose axes are 0…1000 × 0…600), a frame every
    /// `step` µs from 0, then a lift one step after the last.
    static func stroke(_ points: [(Int32, Int32)], step: Int64 = 8_333) -> [InputFrame] {
        var frames: [InputFrame] = []
        for (index, point) in points.enumerated() {
            var events = index == 0 ? [event(.multitouchTrackingID, 1)] : []
            events += [event(.multitouchPositionX, point.0), event(.multitouchPositionY, point.1), .synchronizationReport()]
            frames.append(InputFrame(time: Microseconds(Int64(index) * step), events: events))
        }
        frames.append(
            InputFrame(time: Microseconds(Int64(points.count) * step), events: [event(.multitouchTrackingID, -1), .synchronizationReport()]))
        return frames
    }

    static let viewport1001 = WebDriverViewport(width: 1001, height: 601)

    /// The moves of a payload's first source: (time in ms, x, y).
    static func moves(_ text: String) throws -> [(Int, Int, Int)] {
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let sources = try #require(payload["actions"] as? [[String: Any]])
        let lists = try sources.map { try #require($0["actions"] as? [[String: Any]]) }
        var time = 0
        var result: [(Int, Int, Int)] = []
        for tick in 0..<(lists.first?.count ?? 0) {
            let actions = lists.map { $0[tick] }
            time += actions.compactMap { $0["duration"] as? Int }.max() ?? 0
            if let move = actions.first, move["type"] as? String == "pointerMove" {
                #expect(move["duration"] as? Int == 0, "moves take no time: the pause before them does")
                result.append((time, try #require(move["x"] as? Int), try #require(move["y"] as? Int)))
            }
        }
        return result
    }

    @Test("A straight, even swipe is its first and last position: two moves, the time in pauses")
    func straightLineMerges() throws {
        let points = (0...30).map { (Int32($0 * 30), Int32(300)) }
        let frames = Self.stroke(points)
        for tick in [Int64(0), 250] {
            let text = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: Self.viewport1001, minimumTick: tick)
                .document(frames: frames)
            #expect(try Self.check(text, viewport: Self.viewport1001) == 258)
            let moves = try Self.moves(text)
            #expect(moves.map(\.0) == [0, 250], "\(tick) ms: \(moves)")
            #expect(moves.map(\.1) == [0, 900])
        }
    }

    @Test("Gliding moves: a moving finger's pointerMove lasts until its point is due, in the tick of the time; the reader reads it back")
    func glidingMoves() throws {
        let points = (0...30).map { (Int32($0 * 30), Int32(300)) }
        let text = WebDriverActionsWriter(
            description: TestDevices.twoSlotTouchscreen, viewport: Self.viewport1001, minimumTick: 250, gliding: true
        ).document(frames: Self.stroke(points))
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let source = try #require((payload["actions"] as? [[String: Any]])?.first?["actions"] as? [[String: Any]])
        let moves = source.filter { $0["type"] as? String == "pointerMove" }
        // The move to the first position (instant), then one glide of the whole swipe.
        #expect(moves.map { $0["duration"] as? Int } == [0, 250], "\(moves)")
        #expect(moves.map { $0["x"] as? Int } == [0, 900])
        // Pauses only where the file's finger is still: the frame between its last move and its lift.
        let paused = source.filter { $0["type"] as? String == "pause" }.compactMap { $0["duration"] as? Int }.reduce(0, +)
        #expect(paused == 8, "\(source)")
        // Read back: the same touch, lifted at 250 ms where the file lifts.
        #expect(try Self.check(text, viewport: Self.viewport1001) == 258)
    }

    @Test("A swipe that slows down keeps the frames where its speed changes")
    func speedChangesAreKept() throws {
        // 15 frames fast (30 px a frame), then 15 slow (5 px a frame): a bend in time, not in space.
        var points: [(Int32, Int32)] = []
        var x: Int32 = 0
        for index in 0...30 {
            points.append((x, 300))
            x += index < 15 ? 30 : 5
        }
        let text = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: Self.viewport1001, minimumTick: 0)
            .document(frames: Self.stroke(points))
        let moves = try Self.moves(text)
        #expect(moves.map(\.0) == [0, 125, 250], "\(moves)")
        #expect(moves.map(\.1) == [0, 450, 525])
    }

    /// A half circle of radius 300 px around (500, 300), drawn in 1 s at
    /// 120 frames a second.
    static let halfCircle: [(Int32, Int32)] = (0...120).map { index in
        let angle = Double.pi * Double(index) / 120
        return (Int32((500 - 300 * cos(angle)).rounded()), Int32((300 - 300 * sin(angle)).rounded()))
    }

    @Test("A curve keeps its shape: every frame left out is within half a pixel of the line between the kept ones")
    func curveKeepsItsShape() throws {
        let frames = Self.stroke(Self.halfCircle)
        let text = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: Self.viewport1001, minimumTick: 0)
            .document(frames: frames)
        #expect(try Self.check(text, viewport: Self.viewport1001) == 1_008)
        let moves = try Self.moves(text)
        // A smooth 300 px arc needs a point every ~6.6° to stay within 0.5 px
        // (28 of the 121); these points, rounded to whole pixels, need more.
        #expect((15...100).contains(moves.count), "\(moves.count) moves")
        for (index, point) in Self.halfCircle.enumerated() {
            let time = Double(index) * 8.333
            let after = try #require(moves.firstIndex { Double($0.0) >= time - 0.5 })
            let before = moves[max(after - 1, 0)]
            let next = moves[after]
            let fraction = next.0 == before.0 ? 1 : (time - Double(before.0)) / Double(next.0 - before.0)
            let x = Double(before.1) + Double(next.1 - before.1) * fraction
            let y = Double(before.2) + Double(next.2 - before.2) * fraction
            // Half a pixel of tolerance, plus the rounding of each end to whole pixels and ms.
            #expect(hypot(x - Double(point.0), y - Double(point.1)) <= 1.5, "frame \(index) at (\(point.0), \(point.1)), the line at (\(x), \(y))")
        }
    }

    @Test("The shortest tick: moves kept for a bend come at least that far apart; touches and lifts keep their times")
    func minimumTick() throws {
        let text = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: Self.viewport1001)
            .document(frames: Self.stroke(Self.halfCircle))
        #expect(WebDriverActionsWriter.defaultMinimumTick == 250)
        #expect(try Self.check(text, viewport: Self.viewport1001) == 1_008)
        let times = try Self.moves(text).map(\.0)
        #expect(times.first == 0 && times.last == 1_000)
        // (The last move is the lift's position: kept whenever it comes.)
        for (earlier, later) in zip(times, times.dropFirst().dropLast()) { #expect(later - earlier >= 250, "\(times)") }
        #expect(times.count >= 4, "the half circle still bends: \(times)")
        // Clamped into 0…60 s.
        #expect(WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: Self.viewport1001, minimumTick: -5).minimumTick == 0)
    }

    @Test("Pauses between strokes keep their time: a double tap")
    func pausesBetweenStrokes() throws {
        // Tap 80 ms at (100, 100), nothing for 120 ms, tap 80 ms at (110, 100); frames every 8 ms while down.
        var frames: [InputFrame] = []
        for (start, id, x) in [(Int64(0), Int32(1), Int32(100)), (200_000, 2, 110)] {
            for index in 0...10 {
                var events: [InputEvent] = []
                if index == 0 { events += [Self.event(.multitouchTrackingID, id), Self.event(.multitouchPositionX, x), Self.event(.multitouchPositionY, 100)] }
                if index == 10 { events.append(Self.event(.multitouchTrackingID, -1)) }
                frames.append(InputFrame(time: Microseconds(start + Int64(index) * 8_000), events: events + [.synchronizationReport()]))
            }
        }
        let text = WebDriverActionsWriter(description: TestDevices.twoSlotTouchscreen, viewport: Self.viewport1001).document(frames: frames)
        #expect(try Self.check(text, viewport: Self.viewport1001) == 280)
        let recording = try WebDriverActionsReader.read(text, source: "d.json", viewport: Self.viewport1001)
        let ids = recording.events.filter { $0.code == .multitouchTrackingID }
        #expect(ids.map(\.time.rawValue) == [0, 80_000, 200_000, 280_000])
        #expect(ids.map { $0.value >= 0 } == [true, false, true, false])
        // Nothing moved: no pointerMove but the two touch-downs' own.
        #expect(try Self.moves(text).map(\.1) == [100, 110])
    }
}
