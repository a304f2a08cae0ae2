import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureInterop

@Suite("evemu writer")
struct EvemuWriterTests {
    /// Checked byte for byte against evemu's own `evemu_write` (PeerToolTests).
    static let touchscreenDescription = """
        # EVEMU 1.3
        # Input device name: "gesturectl touchscreen"
        # Input device ID: bus 0x06 vendor 0x1d6b product 0x104 version 0x01
        # Size in mm: 100x60
        # Supported events:
        #   Event type 0 (EV_SYN)
        #     Event code 0 (SYN_REPORT)
        #     Event code 1 (SYN_CONFIG)
        #     Event code 2 (SYN_MT_REPORT)
        #     Event code 3 (SYN_DROPPED)
        #     Event code 4 ((null))
        #     Event code 5 ((null))
        #     Event code 6 ((null))
        #     Event code 7 ((null))
        #     Event code 8 ((null))
        #     Event code 9 ((null))
        #     Event code 10 ((null))
        #     Event code 11 ((null))
        #     Event code 12 ((null))
        #     Event code 13 ((null))
        #     Event code 14 ((null))
        #     Event code 15 (SYN_MAX)
        #   Event type 1 (EV_KEY)
        #     Event code 330 (BTN_TOUCH)
        #   Event type 3 (EV_ABS)
        #     Event code 0 (ABS_X)
        #       Value        0
        #       Min          0
        #       Max       1000
        #       Fuzz         0
        #       Flat         0
        #       Resolution  10
        #     Event code 1 (ABS_Y)
        #       Value        0
        #       Min          0
        #       Max        600
        #       Fuzz         0
        #       Flat         0
        #       Resolution  10
        #     Event code 47 (ABS_MT_SLOT)
        #       Value        0
        #       Min          0
        #       Max          1
        #       Fuzz         0
        #       Flat         0
        #       Resolution   0
        #     Event code 53 (ABS_MT_POSITION_X)
        #       Value        0
        #       Min          0
        #       Max       1000
        #       Fuzz         0
        #       Flat         0
        #       Resolution  10
        #     Event code 54 (ABS_MT_POSITION_Y)
        #       Value        0
        #       Min          0
        #       Max        600
        #       Fuzz         0
        #       Flat         0
        #       Resolution  10
        #     Event code 57 (ABS_MT_TRACKING_ID)
        #       Value        0
        #       Min          0
        #       Max      65535
        #       Fuzz         0
        #       Flat         0
        #       Resolution   0
        # Properties:
        #   Property  type 1 (INPUT_PROP_DIRECT)
        N: gesturectl touchscreen
        I: 0006 1d6b 0104 0001
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        B: 04 00 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 14 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        A: 00 0 1000 0 0 10
        A: 01 0 600 0 0 10
        A: 2f 0 1 0 0 0
        A: 35 0 1000 0 0 10
        A: 36 0 600 0 0 10
        A: 39 0 65535 0 0 0

        """

    @Test("A touchscreen description, exactly as evemu-describe writes it")
    func touchscreenDescriptionText() {
        #expect(EvemuWriter.description(TestDevices.twoSlotTouchscreen) == Self.touchscreenDescription)
    }

    @Test("Events: evemu-record's layout, times from the first frame plus 1 µs, frame-end comments")
    func tapEvents() {
        let expected = """
            E: 0.000001 0003 0039 0001\t# EV_ABS / ABS_MT_TRACKING_ID   1
            E: 0.000001 0003 0035 0500\t# EV_ABS / ABS_MT_POSITION_X    500
            E: 0.000001 0003 0036 0300\t# EV_ABS / ABS_MT_POSITION_Y    300
            E: 0.000001 0001 014a 0001\t# EV_KEY / BTN_TOUCH            1
            E: 0.000001 0003 0000 0500\t# EV_ABS / ABS_X                500
            E: 0.000001 0003 0001 0300\t# EV_ABS / ABS_Y                300
            E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
            E: 0.016668 0003 0035 0512\t# EV_ABS / ABS_MT_POSITION_X    512
            E: 0.016668 0003 0000 0512\t# EV_ABS / ABS_X                512
            E: 0.016668 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +16ms
            E: 1.033335 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1
            E: 1.033335 0001 014a 0000\t# EV_KEY / BTN_TOUCH            0
            E: 1.033335 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +1017ms

            """
        #expect(EvemuWriter.events(Fixtures.tapFrames) == expected)
    }

    @Test("Protocol A markers, SYN_DROPPED, unnamed codes, extreme values, frames out of order")
    func oddEvents() {
        let expected = """
            E: 0.000001 0003 0035 -2147483648\t# EV_ABS / ABS_MT_POSITION_X    -2147483648
            E: 0.000001 0000 0002 0000\t# ++++++++++++ SYN_MT_REPORT (0) ++++++++++
            E: 0.000001 0003 0035 2147483647\t# EV_ABS / ABS_MT_POSITION_X    2147483647
            E: 0.000001 0000 0002 0000\t# ++++++++++++ SYN_MT_REPORT (0) ++++++++++
            E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
            E: 0.001000 0000 0003 0000\t# ------------ SYN_DROPPED (0) ---------- +1ms
            E: 0.001000 001e 02ff 0007\t# (null) / (null)               7
            E: 0.001000 0001 02fe 0002\t# EV_KEY / (null)               2
            E: 0.001000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
            E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- -1ms

            """
        #expect(EvemuWriter.events(Fixtures.oddFrames) == expected)
    }

    @Test("No frames, no events")
    func noFrames() {
        #expect(EvemuWriter.events([]) == "")
    }

    @Test("A recording is the description, the banner and the events")
    func recording() {
        let text = EvemuWriter.recording(description: TestDevices.twoSlotTouchscreen, frames: Fixtures.tapFrames)
        #expect(text == Self.touchscreenDescription + EvemuWriter.eventsBanner + EvemuWriter.events(Fixtures.tapFrames))
        #expect(EvemuWriter.eventsBanner.hasPrefix("################################\n#      Waiting for events      #\n"))
    }

    @Test("IDs of zero print as 0000, as C's %#04x does; line breaks in names become spaces")
    func identityAndName() {
        let device = InputDeviceDescription(name: "two\nlines\r", bus: 0, vendor: 0x1234, product: 0, version: 0xbcde)
        let text = EvemuWriter.description(device)
        #expect(text.contains("# Input device name: \"two lines \"\n"))
        #expect(text.contains("# Input device ID: bus 0000 vendor 0x1234 product 0000 version 0xbcde\n"))
        #expect(text.contains("\nN: two lines \nI: 0000 1234 0000 bcde\nP: 00 00 00 00 00 00 00 00\n"))
        #expect(!text.contains("# Size in mm"))
        #expect(!text.contains("A: "))
    }

    @Test("Keys, LEDs and key repeat: masks, state comments, no EV_SYN beyond the fixed line")
    func keyboardMasks() {
        let text = EvemuWriter.description(TestDevices.keyboard)
        let masks = text.split(separator: "\n").filter { $0.hasPrefix("B: ") }
        #expect(masks.count == 22)
        #expect(masks[0] == "B: 00 0b 00 00 00 00 00 00 00")
        // KEY_ESC (1) … 120: bits 1–120 of the key mask.
        #expect(masks[1] == "B: 01 fe ff ff ff ff ff ff ff")
        #expect(masks[2] == "B: 01 ff ff ff ff ff ff ff 01")
        #expect(masks[3] == "B: 01 00 00 00 00 00 00 00 00")
        #expect(masks[15] == "B: 04 10 00 00 00 00 00 00 00")
        #expect(masks[17] == "B: 11 07 00 00 00 00 00 00 00")
        #expect(masks[19] == "B: 14 03 00 00 00 00 00 00 00")
        #expect(text.contains("#   Event type 17 (EV_LED)\n#     Event code 0 (LED_NUML)\n#        State 0\n"))
        #expect(text.contains("#   Event type 20 (EV_REP)\n#     Event code 0 (REP_DELAY)\n#     Event code 1 (REP_PERIOD)\n"))
    }

    @Test("Codes and properties outside libevdev's tables are left out")
    func outOfTableCodes() {
        let device = InputDeviceDescription(
            name: "odd", properties: [InputProperty(rawValue: 0x40)],
            codes: [EventType(rawValue: 0x1e): [EventCode(rawValue: 1)], .relative: [EventCode(rawValue: 0x40)]])
        let text = EvemuWriter.description(device)
        #expect(text.contains("P: 00 00 00 00 00 00 00 00\n"))
        #expect(text.contains("B: 02 00 00 00 00 00 00 00 00\n"))
        #expect(!text.contains("B: 1e"))
        #expect(!text.contains("Event type 30"))
    }
}
