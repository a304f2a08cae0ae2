import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureInterop

@Suite("libinput record writer and reader")
struct LibinputRecordTests {
    /// Checked against libinput replay's own loader (PeerToolTests).
    static let touchscreenDocument = """
        # libinput record
        # Written by gesturectl, not by libinput; replay it with: libinput replay FILE
        version: 1
        ndevices: 1
        libinput:
          version: "unknown"
          git: "unknown"
        system:
          kernel: "unknown"
          dmi: "unknown"
        devices:
        - node: unknown
          evdev:
            # Name: gesturectl touchscreen
            # ID: bus 0x0006 vendor 0x1d6b product 0x0104 version 0x0001
            # Size in mm: 100x60
            # Supported Events:
            # Event type 0 (EV_SYN)
            # Event type 1 (EV_KEY)
            #   Event code 330 (BTN_TOUCH)
            # Event type 3 (EV_ABS)
            #   Event code 0 (ABS_X)
            #       Value           0
            #       Min             0
            #       Max          1000
            #       Fuzz            0
            #       Flat            0
            #       Resolution     10
            #   Event code 1 (ABS_Y)
            #       Value           0
            #       Min             0
            #       Max           600
            #       Fuzz            0
            #       Flat            0
            #       Resolution     10
            #   Event code 47 (ABS_MT_SLOT)
            #       Value           0
            #       Min             0
            #       Max             1
            #       Fuzz            0
            #       Flat            0
            #       Resolution      0
            #   Event code 53 (ABS_MT_POSITION_X)
            #       Value           0
            #       Min             0
            #       Max          1000
            #       Fuzz            0
            #       Flat            0
            #       Resolution     10
            #   Event code 54 (ABS_MT_POSITION_Y)
            #       Value           0
            #       Min             0
            #       Max           600
            #       Fuzz            0
            #       Flat            0
            #       Resolution     10
            #   Event code 57 (ABS_MT_TRACKING_ID)
            #       Value           0
            #       Min             0
            #       Max         65535
            #       Fuzz            0
            #       Flat            0
            #       Resolution      0
            # Properties:
            #    Property 1 (INPUT_PROP_DIRECT)
            name: "gesturectl touchscreen"
            id: [6, 7531, 260, 1]
            codes:
              0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
              1: [330] # EV_KEY
              3: [0, 1, 47, 53, 54, 57] # EV_ABS
            absinfo:
              0: [0, 1000, 0, 0, 10]
              1: [0, 600, 0, 0, 10]
              47: [0, 1, 0, 0, 0]
              53: [0, 1000, 0, 0, 10]
              54: [0, 600, 0, 0, 10]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHSCREEN=1
            - ID_INPUT_WIDTH_MM=100
            - ID_INPUT_HEIGHT_MM=60
          events:
          - evdev:
            - [  0,      0,   3,  57,       1] # EV_ABS / ABS_MT_TRACKING_ID        1
            - [  0,      0,   3,  53,     500] # EV_ABS / ABS_MT_POSITION_X       500
            - [  0,      0,   3,  54,     300] # EV_ABS / ABS_MT_POSITION_Y       300
            - [  0,      0,   1, 330,       1] # EV_KEY / BTN_TOUCH                 1
            - [  0,      0,   3,   0,     500] # EV_ABS / ABS_X                   500
            - [  0,      0,   3,   1,     300] # EV_ABS / ABS_Y                   300
            - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
          - evdev:
            - [  0,  16667,   3,  53,     512] # EV_ABS / ABS_MT_POSITION_X       512
            - [  0,  16667,   3,   0,     512] # EV_ABS / ABS_X                   512
            - [  0,  16667,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +16ms
          - evdev:
            - [  1,  33334,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID       -1
            - [  1,  33334,   1, 330,       0] # EV_KEY / BTN_TOUCH                 0
            - [  1,  33334,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +1016ms

        """

    @Test("A touchscreen and three frames, exactly as written")
    func touchscreenDocumentText() {
        let text = LibinputRecordWriter.document(description: TestDevices.twoSlotTouchscreen, frames: Fixtures.tapFrames)
        #expect(text == Self.touchscreenDocument)
    }

    @Test("Comments for protocol A, SYN_DROPPED and unnamed codes; empty frames left out; earlier frames at 0")
    func oddEvents() throws {
        let text = LibinputRecordWriter.document(
            description: TestDevices.mouse, frames: Fixtures.oddFrames, node: "/dev/input/event3",
            udevProperties: ["ID_INPUT=1", "ID_INPUT_MOUSE=1", "ODD=a: b"])
        let events = String(try #require(text.split(separator: "  events:\n", maxSplits: 1).last))
        #expect(events == """
              - evdev:
                - [  0,      0,   3,  53, -2147483648] # EV_ABS / ABS_MT_POSITION_X    -2147483648
                - [  0,      0,   0,   2,       0] # ++++++++++++ SYN_MT_REPORT (0) ++++++++++
                - [  0,      0,   3,  53, 2147483647] # EV_ABS / ABS_MT_POSITION_X    2147483647
                - [  0,      0,   0,   2,       0] # ++++++++++++ SYN_MT_REPORT (0) ++++++++++
                - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
              - evdev:
                - [  0,    999,   0,   3,       0] # ------------ SYN_DROPPED (0) ---------- +0ms
                - [  0,    999,  30, 767,       7] # (null) / (null)                    7
                - [  0,    999,   1, 766,       2] # EV_KEY / (null)                    2
                - [  0,    999,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
              - evdev:
                - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms

            """)
        #expect(text.contains("- node: /dev/input/event3\n"))
        #expect(text.contains("    - ID_INPUT_MOUSE=1\n    - \"ODD=a: b\"\n  events:\n"))
        #expect(text.contains("    # ID: bus 0x0003 (usb) vendor 0x046d product 0xc077 version 0x0111\n"))
        #expect(text.contains("      2: [0, 1, 8, 11] # EV_REL\n      4: [4] # EV_MSC\n    properties: []\n"))
        #expect(!text.contains("absinfo:"))
        #expect(!text.contains("# Size in mm"))
    }

    @Test("Names are double-quoted with escapes; nodes that need it are quoted")
    func quoting() throws {
        #expect(LibinputRecordWriter.quoted("AT \"Translated\" \\ 100%: #1\n\u{7f}é") == "\"AT \\\"Translated\\\" \\\\ 100%: #1\\x0a\\x7fé\"")
        let text = LibinputRecordWriter.document(description: TestDevices.keyboard, frames: [], node: "- odd node")
        #expect(text.contains("    name: \"AT \\\"Translated\\\" Set 2 keyboard \\\\ 100%: #1\"\n"))
        #expect(text.contains("- node: \"- odd node\"\n"))
        #expect(text.hasSuffix("  events:\n"))
        let recording = try LibinputRecordReader.read(text, source: "k.yaml")
        #expect(recording.description == TestDevices.keyboard)
        #expect(recording.node == "- odd node")
        #expect(recording.events.isEmpty)
    }

    @Test("udev properties as input_id would set them, per device class")
    func udevProperties() {
        #expect(LibinputRecordWriter.udevProperties(for: TestDevices.twoSlotTouchscreen) == [
            "ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1", "ID_INPUT_WIDTH_MM=100", "ID_INPUT_HEIGHT_MM=60",
        ])
        #expect(LibinputRecordWriter.udevProperties(for: TestDevices.centredClickpad) == [
            "ID_INPUT=1", "ID_INPUT_TOUCHPAD=1", "ID_INPUT_WIDTH_MM=142", "ID_INPUT_HEIGHT_MM=95",
        ])
        #expect(LibinputRecordWriter.udevProperties(for: TestDevices.mouse) == ["ID_INPUT=1", "ID_INPUT_MOUSE=1"])
        #expect(LibinputRecordWriter.udevProperties(for: TestDevices.keyboard) == [
            "ID_INPUT=1", "ID_INPUT_KEY=1", "ID_INPUT_KEYBOARD=1",
        ])
        #expect(LibinputRecordWriter.udevProperties(for: TestDevices.pen) == [
            "ID_INPUT=1", "ID_INPUT_TABLET=1", "ID_INPUT_WIDTH_MM=152", "ID_INPUT_HEIGHT_MM=95",
        ])
    }
}
