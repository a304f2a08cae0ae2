import GestureModel
import InputSystem
import Testing

@testable import GestureInterop

@Suite("libinput record reader")
struct LibinputRecordReaderTests {
    /// Modelled on `libinput record --with-libinput` output (libinput 1.22)
    /// of an i2c touchscreen: header blocks, the commented summary, a
    /// multi-line `hid:` descriptor, udev properties, quirks, the libinput
    /// device block, wall-clock comments, libinput events inside and
    /// between frames, and the neutral-state comment.
    static let touchscreenRecording = """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.22.1"
          git: "unknown"
        system:
          os: "debian:12"
          kernel: "6.1.0-18-amd64"
          dmi: "dmi:bvnLENOVO:bvrN2HET77W(1.60):bd02/06/2024:svnLENOVO:pn20QDCTO1WW:"
        devices:
        - node: /dev/input/event7
          evdev:
            # Name: ELAN9008:00 04F3:2C82
            # ID: bus 0x0018 (i2c) vendor 0x04f3 product 0x2c82 version 0x0100
            # Size in mm: 346x194
            # Supported Events:
            # Event type 0 (EV_SYN)
            # Event type 1 (EV_KEY)
            #   Event code 330 (BTN_TOUCH)
            # Properties:
            #    Property 1 (INPUT_PROP_DIRECT)
            name: "ELAN9008:00 04F3:2C82"
            id: [24, 1267, 11394, 256]
            codes:
              0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
              1: [330] # EV_KEY
              3: [0, 1, 47, 48, 52, 53, 54, 57] # EV_ABS
              4: [5] # EV_MSC
            absinfo:
              0: [0, 3808, 0, 0, 11]
              1: [0, 2144, 0, 0, 11]
              47: [0, 9, 0, 0, 0]
              48: [0, 31, 0, 0, 0]
              52: [0, 1, 0, 0, 0]
              53: [0, 3808, 0, 0, 11]
              54: [0, 2144, 0, 0, 11]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          hid: [
            0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0x85, 0x01, 0x09, 0x22, 0xa1, 0x02, 0x09, 0x42, 0x15, 0x00,
            0x25, 0x01, 0x75, 0x01, 0x95, 0x01, 0x81, 0x02
          ]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHSCREEN=1
            - ID_INPUT_WIDTH_MM=346
            - ID_INPUT_HEIGHT_MM=194
            - LIBINPUT_DEVICE_GROUP=18/4f3/2c82:i2c-ELAN9008:00
            - DRIVER=hid-multitouch
            virtual: false
          quirks:
          - ModelTabletModeNoSuspend=1
          libinput:
            size: [346, 194]
            capabilities: [touch]
          events:
          # Current time is 10:41:07
          - evdev:
            - [  0,      0,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                0
            - [  0,      0,   3,  57,     113] # EV_ABS / ABS_MT_TRACKING_ID       113
            - [  0,      0,   3,  53,    1902] # EV_ABS / ABS_MT_POSITION_X      1902 (+1902)
            - [  0,      0,   3,  54,    1071] # EV_ABS / ABS_MT_POSITION_Y      1071 (+1071)
            - [  0,      0,   1, 330,       1] # EV_KEY / BTN_TOUCH                 1
            - [  0,      0,   3,   0,    1902] # EV_ABS / ABS_X                  1902 (+1902)
            - [  0,      0,   3,   1,    1071] # EV_ABS / ABS_Y                  1071 (+1071)
            - [  0,      0,   4,   5,   31200] # EV_MSC / MSC_TIMESTAMP         31200
            - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
            libinput:
            - {time: 0.000000, type: TOUCH_DOWN, slot: 0, seat_slot: 0, point: [172.08, 96.76], transformed: [ 49.96,  49.95]}
            - {time: 0.000000, type: TOUCH_FRAME}
          - evdev:
            - [  0,   7411,   3,  53,    1910] # EV_ABS / ABS_MT_POSITION_X      1910 (+8)
            - [  0,   7411,   3,   0,    1910] # EV_ABS / ABS_X                  1910 (+8)
            - [  0,   7411,   4,   5,   38600] # EV_MSC / MSC_TIMESTAMP         38600
            - [  0,   7411,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +7ms
          # Current time is 10:41:12
          - evdev:
            - [  5,  14823,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID        -1
            - [  5,  14823,   1, 330,       0] # EV_KEY / BTN_TOUCH                 0
            - [  5,  14823,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +5007ms
                                               # Touch device in neutral state
          - libinput:
            - {time: 5.014823, type: TOUCH_UP, slot: 0, seat_slot: 0}

        """

    static func event(_ time: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Microseconds(time), type: EventType(rawValue: type), code: EventCode(rawValue: code), value: value)
    }

    @Test("A libinput record file: description, evdev events only, node, udev properties")
    func touchscreenRecording() throws {
        let recording = try LibinputRecordReader.read(Self.touchscreenRecording, source: "touch.yaml")
        #expect(recording.description == InputDeviceDescription(
            name: "ELAN9008:00 04F3:2C82", bus: 24, vendor: 1267, product: 11394, version: 256,
            properties: [.direct],
            codes: [.key: [.buttonTouch], .miscellaneous: [.miscellaneousTimestamp]],
            absoluteAxes: [
                .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 3808, resolution: 11),
                .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 2144, resolution: 11),
                .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 9),
                .multitouchTouchMajor: AbsoluteAxisInfo(minimum: 0, maximum: 31),
                EventCode(rawValue: 52): AbsoluteAxisInfo(minimum: 0, maximum: 1),
                .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 3808, resolution: 11),
                .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 2144, resolution: 11),
                .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65535),
            ]))
        #expect(recording.node == "/dev/input/event7")
        #expect(recording.deviceCount == 1)
        #expect(recording.udevProperties == [
            "ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1", "ID_INPUT_WIDTH_MM=346", "ID_INPUT_HEIGHT_MM=194",
            "LIBINPUT_DEVICE_GROUP=18/4f3/2c82:i2c-ELAN9008:00", "DRIVER=hid-multitouch",
        ])
        #expect(recording.events == [
            Self.event(0, 3, 47, 0), Self.event(0, 3, 57, 113), Self.event(0, 3, 53, 1902), Self.event(0, 3, 54, 1071),
            Self.event(0, 1, 330, 1), Self.event(0, 3, 0, 1902), Self.event(0, 3, 1, 1071), Self.event(0, 4, 5, 31200),
            Self.event(0, 0, 0, 0),
            Self.event(7411, 3, 53, 1910), Self.event(7411, 3, 0, 1910), Self.event(7411, 4, 5, 38600),
            Self.event(7411, 0, 0, 0),
            Self.event(5_014_823, 3, 57, -1), Self.event(5_014_823, 1, 330, 0), Self.event(5_014_823, 0, 0, 0),
        ])
        let (description, events) = try LibinputRecordReader.parse(Self.touchscreenRecording, source: "touch.yaml")
        #expect(description == recording.description)
        #expect(events == recording.events)
    }

    static let twoDevices = """
        version: 1
        ndevices: 2
        devices:
        - node: /dev/input/event1
          evdev:
            name: "Mouse"
            id: [3, 1, 2, 3]
            codes:
              1: [272]
              2: [0, 1]
            properties: []
          events:
          - evdev:
            - [  0,      0,   2,   0,       1]
            - [  0,      0,   0,   0,       0]
        - node: /dev/input/event2
          evdev:
            name: 'Key''s board'
            id: [17, 1, 1, 43907]
            codes:
              1: [1, 2]
              2: []
            properties: []
          events:

        """

    @Test("Multi-device recordings: choose the device; quoted names with '' escapes; empty lists")
    func multipleDevices() throws {
        let first = try LibinputRecordReader.read(Self.twoDevices, source: "two.yaml")
        #expect(first.deviceCount == 2)
        #expect(first.description == InputDeviceDescription(
            name: "Mouse", bus: 3, vendor: 1, product: 2, version: 3,
            codes: [.key: [.buttonLeft], .relative: [.relativeX, .relativeY]]))
        #expect(first.events == [Self.event(0, 2, 0, 1), Self.event(0, 0, 0, 0)])
        let second = try LibinputRecordReader.read(Self.twoDevices, source: "two.yaml", deviceIndex: 1)
        #expect(second.description == InputDeviceDescription(
            name: "Key's board", bus: 17, vendor: 1, product: 1, version: 43907,
            codes: [.key: [EventCode(rawValue: 1), EventCode(rawValue: 2)]]))
        #expect(second.events.isEmpty)
        #expect(second.node == "/dev/input/event2")
        #expect(throws: InteropError(
            kind: .malformed, source: "two.yaml", line: 1, message: "the recording holds 2 devices; there is no device 3")) {
            try LibinputRecordReader.read(Self.twoDevices, source: "two.yaml", deviceIndex: 2)
        }
    }

    static let minimalHeader = "version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event0\n  evdev:\n"
    static let minimalDevice = minimalHeader + "    name: \"x\"\n    id: [1, 2, 3, 4]\n    codes:\n      1: [330]\n"

    static let errorCases: [(text: String, kind: InteropError.Kind, description: String)] = [
        ("", .malformed, "y.yaml: the file is empty"),
        ("# only a comment\n\n", .malformed, "y.yaml: the file is empty"),
        ("version: 2\ndevices: []\n", .unsupportedVersion,
         "y.yaml:1: libinput record file version 2 is not supported (this reader knows version 1)"),
        ("ndevices: 1\ndevices: []\n", .unknownFormat, "y.yaml:1: no 'version:' key: this is not a libinput record file"),
        ("version: one\n", .malformed, "y.yaml:1: version should be a whole number, not 'one'"),
        ("version: \"1\"\n", .malformed, "y.yaml:1: version should be a whole number"),
        ("version: 1\n", .malformed, "y.yaml:1: the 'devices:' key is missing"),
        ("version: 1\ndevices: []\n", .malformed, "y.yaml:1: 'devices:' lists no device"),
        ("version: 1\ndevices: x\n", .malformed, "y.yaml:2: devices should be a list"),
        ("version: 1\ndevices:\n- node: x\n", .malformed, "y.yaml:3: the 'evdev:' key is missing"),
        (minimalHeader + "    name: \"x\"\n    id: [1, 2, 3]\n", .malformed,
         "y.yaml:7: 'id:' should be [bus, vendor, product, version], found 3 numbers"),
        (minimalHeader + "    name: \"x\"\n    id: [a, 2, 3, 4]\n", .malformed,
         "y.yaml:7: the bus id should be a whole number, not 'a'"),
        (minimalHeader + "    name: \"x\"\n    id: [1, 65536, 3, 4]\n", .outOfRange,
         "y.yaml:7: the vendor id 65536 is outside 0…65535"),
        (minimalHeader + "    name: [x]\n", .malformed, "y.yaml:6: name should be text"),
        (minimalDevice + "      3: [0, 53]\n    absinfo:\n      0: [0, 100, 0, 0, 1]\n", .malformed,
         "y.yaml:10: axis ABS_MT_POSITION_X is listed under codes but has no absinfo entry"),
        (minimalDevice + "      3: [0]\n    absinfo:\n      0: [0, 100, 0, 0]\n", .malformed,
         "y.yaml:12: absinfo 0 should be [min, max, fuzz, flat, resolution], found 4 numbers"),
        (minimalDevice + "      3: [0]\n    absinfo:\n      0: [0, 4294967296, 0, 0, 0]\n", .outOfRange,
         "y.yaml:12: an absinfo value 4294967296 is outside -2147483648…2147483647"),
        (minimalDevice + "      99: [1]\n", .outOfRange, "y.yaml:10: an event type 99 is outside 0…31"),
        (minimalDevice + "      2: [16]\n", .outOfRange, "y.yaml:10: a EV_REL code 16 is outside 0…15"),
        (minimalDevice + "      22: [0]\n", .outOfRange, "y.yaml:10: event type 22 has no codes in libevdev"),
        (minimalDevice + "    properties: [32]\n", .outOfRange, "y.yaml:10: a property 32 is outside 0…31"),
        (minimalDevice + "  events:\n  - evdev:\n    - [0, 1000000, 0, 0, 0]\n", .outOfRange,
         "y.yaml:12: the event's microseconds 1000000 is outside 0…999999"),
        (minimalDevice + "  events:\n  - evdev:\n    - [0, 0, 3, 0, 2147483648]\n", .outOfRange,
         "y.yaml:12: the event value 2147483648 is outside -2147483648…2147483647"),
        (minimalDevice + "  events:\n  - evdev:\n    - [0, 0, 3, 0]\n", .malformed,
         "y.yaml:12: an evdev event should be [sec, usec, type, code, value], found 4 numbers"),
        (minimalDevice + "  events:\n  - just text\n", .malformed,
         "y.yaml:11: an events entry (- evdev: …) should be a mapping ('key: value' lines)"),
        // The YAML subset.
        ("version: 1\n\tdevices: []\n", .malformed, "y.yaml:2: a tab in the indentation (YAML indents with spaces only)"),
        ("version: 1\nname: |\n  text\n", .malformed, "y.yaml:2: '|' uses YAML beyond the subset libinput record writes"),
        ("version: &v 1\n", .malformed, "y.yaml:1: '&v 1' uses YAML beyond the subset libinput record writes"),
        ("version: 1\nid: [1, 2,\n  3,\n", .malformed, "y.yaml:2: a '[' that is never closed"),
        ("version: 1\nid: [1, 2] x\n", .malformed, "y.yaml:2: unexpected text after a flow collection: 'x'"),
        ("version: 1\nid: [1 2 3}\n", .malformed,
         "y.yaml:2: expected ',' or ']' in a flow collection, found '}'"),
        ("version: 1\nid: [1, , 2]\n", .malformed, "y.yaml:2: a value is missing before ','"),
        ("version: 1\nname: \"open\n", .malformed,
         "y.yaml:2: a quoted string is not closed on its line (multi-line strings are not supported)"),
        ("version: 1\nname: \"bad \\q\"\n", .malformed, "y.yaml:2: unknown escape '\\q' in a quoted string"),
        ("version: 1\nversion: 1\n", .malformed, "y.yaml:2: the key 'version' appears twice"),
        ("version: 1\njust text\n", .malformed, "y.yaml:2: expected 'key: value', found 'just text'"),
        ("version: 1\nname: x\n  more\n", .malformed,
         "y.yaml:3: unexpected indentation: 'more' (multi-line values are not supported)"),
        ("version: 1\ndevices:\n- - x\n", .malformed,
         "y.yaml:3: a sequence starting on the line of its parent item ('- - …') is not supported"),
        ("version: 1\n? complex\n", .malformed, "y.yaml:2: expected 'key: value', found '? complex'"),
        ("--- \nversion: 1\n...\n", .malformed, "y.yaml:3: YAML directives and document markers are not supported here"),
        ("version: 1\nx: {a 1}\n", .malformed, "y.yaml:2: expected 'key: value' in a flow mapping, found '}'"),
    ]

    @Test("Errors name the source, the line and what is wrong", arguments: errorCases.indices)
    func errors(index: Int) {
        let (text, kind, description) = Self.errorCases[index]
        do {
            let recording = try LibinputRecordReader.read(text, source: "y.yaml")
            Issue.record("expected an error, read \(recording)")
        } catch {
            #expect(error.kind == kind)
            #expect(error.description == description)
        }
    }

    @Test("Nesting bombs are refused, not recursed into")
    func nestingLimits() {
        let flow = "version: 1\nx: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        #expect(throws: InteropError(kind: .tooLarge, source: "y", line: 2, message: "nesting deeper than 64 levels")) {
            try LibinputRecordReader.read(flow, source: "y")
        }
        var block = "version: 1\n"
        for level in 0..<2_000 { block += String(repeating: " ", count: level) + "k:\n" }
        #expect(throws: InteropError.self) { try LibinputRecordReader.read(block, source: "y") }
        let items = "version: 1\nx:\n" + (0..<2_000).map { String(repeating: " ", count: $0) + "-\n" }.joined()
        #expect(throws: InteropError.self) { try LibinputRecordReader.read(items, source: "y") }
    }

    /// Reads `text` through ``LibinputRecordReader/Stream`` in pieces of
    /// `size` bytes, taking the events as they come.
    static func streamed(_ text: String, pieces size: Int, source: String = "y.yaml") throws(InteropError) -> LibinputRecording {
        let bytes = Array(text.utf8)
        var stream = LibinputRecordReader.Stream(source: source)
        var events: [InputEvent] = []
        var start = 0
        while start < bytes.count {
            try stream.feed(Array(bytes[start..<min(start + size, bytes.count)]))
            if stream.description != nil { events += stream.takeEvents() }
            start += size
        }
        var recording = try stream.finish()
        events += stream.takeEvents()
        recording.events = events
        return recording
    }

    /// Issue 24 item 8: the reader import uses for files of any size, which
    /// holds no tree of the events.
    @Test("Read in pieces of any size, a recording is the same as read whole, errors and all")
    func streamedPieces() throws {
        for (text, name) in [(Self.touchscreenRecording, "touchscreen"), (Self.twoDevices, "two devices")] {
            let whole = try LibinputRecordReader.read(text, source: "r.yml")
            for size in [1, 5, 64, 1 << 20] {
                #expect(try Self.streamed(text, pieces: size, source: "r.yml") == whole, "\(name), pieces of \(size)")
            }
        }
        for (text, _, description) in Self.errorCases {
            for size in [1, 1 << 20] {
                do {
                    let recording = try Self.streamed(text, pieces: size)
                    Issue.record("expected an error, read \(recording)")
                } catch {
                    #expect(error.description == description, "pieces of \(size)")
                }
            }
        }
    }

    @Test("Event lines read directly give what the YAML reading gives; anything else falls back to it")
    func plainEvents() {
        #expect(
            LibinputRecordReader.Stream.plainEvent(Array("- [  1,      2,   3,  53,    -7] # EV_ABS".utf8)[...])
                == InputEvent(time: Microseconds(1_000_002), type: .absolute, code: .multitouchPositionX, value: -7))
        for text in ["- [1, 2, 3, 4]", "- [1, 1000000, 3, 4, 5]", "- [1, 2, 3, 4, 5] x", "- [1, 2, 3, 4, 4294967296]", "- {a: 1}"] {
            #expect(LibinputRecordReader.Stream.plainEvent(Array(text.utf8)[...]) == nil, "\(text)")
        }
    }
}
