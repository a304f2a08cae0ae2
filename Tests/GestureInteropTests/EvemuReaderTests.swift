import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureInterop

@Suite("evemu reader")
struct EvemuReaderTests {
    /// Modelled on `evemu-record` output of a laptop clickpad: header with
    /// kernel and DMI, the readable summary (shortened), masks, axes, the
    /// banner, events, and a terminal's echo of a key press caught in the
    /// middle (evemu-play skips such lines).
    static let clickpadRecording = """
        # EVEMU 1.3
        # Kernel: 6.1.0-18-amd64
        # DMI: dmi:bvnLENOVO:bvrN2HET77W(1.60):bd02/06/2024:svnLENOVO:pn20QDCTO1WW:
        # Input device name: "SYNA8004:00 06CB:CD8B Touchpad"
        # Input device ID: bus 0x18 vendor 0x6cb product 0xcd8b version 0x100
        # Size in mm: 102x60
        # Supported events:
        #   Event type 0 (EV_SYN)
        #     Event code 0 (SYN_REPORT)
        #   Event type 1 (EV_KEY)
        #     Event code 272 (BTN_LEFT)
        # Properties:
        #   Property  type 0 (INPUT_PROP_POINTER)
        #   Property  type 2 (INPUT_PROP_BUTTONPAD)
        N: SYNA8004:00 06CB:CD8B Touchpad
        I: 0018 06cb cd8b 0100
        P: 05 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 01 00 00 00 00 00
        B: 01 20 e5 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        B: 03 03 00 00 01 00 80 e0 06
        B: 04 00 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 14 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        A: 00 0 1224 0 0 12
        A: 01 0 720 0 0 12
        A: 18 0 255 0 0 0
        A: 2f 0 4 0 0 0
        A: 35 0 1224 0 0 12
        A: 36 0 720 0 0 12
        A: 37 0 2 0 0 0
        A: 39 0 65535 0 0 0
        A: 3a 0 255 0 0 0
        ################################
        #      Waiting for events      #
        ################################
        E: 0.000001 0003 0039 0452\t# EV_ABS / ABS_MT_TRACKING_ID   452
        E: 0.000001 0003 0035 0612\t# EV_ABS / ABS_MT_POSITION_X    612
        E: 0.000001 0003 0036 0360\t# EV_ABS / ABS_MT_POSITION_Y    360
        E: 0.000001 0003 003a 0041\t# EV_ABS / ABS_MT_PRESSURE      41
        E: 0.000001 0001 014a 0001\t# EV_KEY / BTN_TOUCH            1
        E: 0.000001 0001 0145 0001\t# EV_KEY / BTN_TOOL_FINGER      1
        E: 0.000001 0003 0000 0612\t# EV_ABS / ABS_X                612
        E: 0.000001 0003 0001 0360\t# EV_ABS / ABS_Y                360
        E: 0.000001 0003 0018 0041\t# EV_ABS / ABS_PRESSURE         41
        E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
        \u{1B}OPE: 0.007012 0003 0035 0615\t# EV_ABS / ABS_MT_POSITION_X    615
        E: 0.007012 0003 0000 0615\t# EV_ABS / ABS_X                615
        E: 0.007012 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +7ms
        E: 0.014110 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1
        E: 0.014110 0001 014a 0000\t# EV_KEY / BTN_TOUCH            0
        E: 0.014110 0001 0145 0000\t# EV_KEY / BTN_TOOL_FINGER      0
        E: 0.014110 0003 0018 0000\t# EV_ABS / ABS_PRESSURE         0
        E: 0.014110 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +7ms

        """

    static let clickpad = InputDeviceDescription(
        name: "SYNA8004:00 06CB:CD8B Touchpad", bus: 0x18, vendor: 0x06cb, product: 0xcd8b, version: 0x0100,
        properties: [.pointer, .buttonPad],
        codes: [
            .key: [
                .buttonLeft, .buttonToolFinger, .buttonToolQuintTap, .buttonTouch, .buttonToolDoubleTap,
                .buttonToolTripleTap, .buttonToolQuadTap,
            ]
        ],
        absoluteAxes: [
            .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1224, resolution: 12),
            .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 720, resolution: 12),
            .absolutePressure: AbsoluteAxisInfo(minimum: 0, maximum: 255),
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: 4),
            .multitouchPositionX: AbsoluteAxisInfo(minimum: 0, maximum: 1224, resolution: 12),
            .multitouchPositionY: AbsoluteAxisInfo(minimum: 0, maximum: 720, resolution: 12),
            .multitouchToolType: AbsoluteAxisInfo(minimum: 0, maximum: 2),
            .multitouchTrackingID: AbsoluteAxisInfo(minimum: 0, maximum: 65535),
            .multitouchPressure: AbsoluteAxisInfo(minimum: 0, maximum: 255),
        ])

    static func event(_ time: Int64, _ type: EventType, _ code: EventCode, _ value: Int32) -> InputEvent {
        InputEvent(time: Microseconds(time), type: type, code: code, value: value)
    }

    @Test("An evemu-record file: description, events, skipped echo line, version")
    func clickpadRecording() throws {
        let recording = try EvemuReader.read(Self.clickpadRecording, source: "clickpad.evemu")
        #expect(recording.description == Self.clickpad)
        #expect(recording.formatVersion == EvemuRecording.Version(major: 1, minor: 3))
        #expect(recording.ignoredLines == [62])
        #expect(recording.events.count == 17)
        #expect(recording.events.prefix(2) == [
            Self.event(1, .absolute, .multitouchTrackingID, 452), Self.event(1, .absolute, .multitouchPositionX, 612),
        ])
        #expect(recording.events[9] == Self.event(1, .synchronization, .synchronizationReport, 0))
        #expect(recording.events[10] == Self.event(7012, .absolute, .absoluteX, 615))
        #expect(recording.events[12] == Self.event(14110, .absolute, .multitouchTrackingID, -1))
        #expect(recording.events.last == Self.event(14110, .synchronization, .synchronizationReport, 0))
        let (description, events) = try EvemuReader.parse(Self.clickpadRecording, source: "clickpad.evemu")
        #expect(description == recording.description)
        #expect(events == recording.events)
    }

    @Test("A bare description (evemu-describe) has no events")
    func bareDescription() throws {
        let recording = try EvemuReader.read(EvemuWriter.description(TestDevices.twoSlotTouchscreen), source: "d")
        #expect(recording.description == TestDevices.twoSlotTouchscreen)
        #expect(recording.events.isEmpty)
        #expect(recording.ignoredLines.isEmpty)
    }

    @Test("Format 1.0 (no header) and 1.1 accept axes without resolution; CRLF line ends")
    func oldFormats() throws {
        let old = "N: Old Pad\r\nI: 0011 0002 0007 01b1\r\nB: 03 03 00 00 00 00 00 00 00\r\nA: 00 1 5000 8 0\r\nA: 01 2 4000 8 0 40\r\n"
        let recording = try EvemuReader.read(old, source: "old.evemu")
        #expect(recording.formatVersion == EvemuRecording.Version(major: 1, minor: 0))
        #expect(recording.description == InputDeviceDescription(
            name: "Old Pad", bus: 0x11, vendor: 2, product: 7, version: 0x1b1,
            absoluteAxes: [
                .absoluteX: AbsoluteAxisInfo(minimum: 1, maximum: 5000, fuzz: 8),
                .absoluteY: AbsoluteAxisInfo(minimum: 2, maximum: 4000, fuzz: 8, resolution: 40),
            ]))
        let versionOneOne = try EvemuReader.read("# EVEMU 1.1\n" + old, source: "old.evemu")
        #expect(versionOneOne.formatVersion == EvemuRecording.Version(major: 1, minor: 1))
        #expect(versionOneOne.description == recording.description)
    }

    @Test("evemu's leniencies: A: without a B: bit is ignored, a B: bit without A: gets 0…1, L: and S: are read and ignored")
    func evemuLeniencies() throws {
        let text = """
            # EVEMU 1.2
            N: Quirky
            I: 0003 0001 0002 0003
            B: 03 01 00 00 00 00 00 00 00
            A: 01 0 100 0 0 0
            L: 00 1
            S: 05 0
            """
        let recording = try EvemuReader.read(text, source: "q")
        #expect(recording.description == InputDeviceDescription(
            name: "Quirky", bus: 3, vendor: 1, product: 2, version: 3,
            absoluteAxes: [.absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1)]))
        #expect(recording.formatVersion == EvemuRecording.Version(major: 1, minor: 2))
    }

    @Test("A newer minor version of format 1 is read; format 2 is refused")
    func versions() throws {
        let body = "N: x\nI: 0001 0002 0003 0004\n"
        #expect(try EvemuReader.read("# EVEMU 1.7\n" + body, source: "v").formatVersion.minor == 7)
        #expect(throws: InteropError(
            kind: .unsupportedVersion, source: "v", line: 1,
            message: "evemu format 2.0 is not supported (this reader knows 1.0 to 1.3)")) {
            try EvemuReader.read("# EVEMU 2.0\n" + body, source: "v")
        }
    }

    static let errorCases: [(text: String, kind: InteropError.Kind, description: String)] = [
        ("", .malformed, "bad.evemu: the file is empty: no evemu device description (N: NAME)"),
        ("# only\n# comments\n\n", .malformed, "bad.evemu: the file is empty: no evemu device description (N: NAME)"),
        ("# EVEMU 1.3\nI: 0003 0001 0002 0003\n", .malformed,
         "bad.evemu:2: expected the device name ('N: NAME'), found 'I: 0003 0001 0002 0003'"),
        ("# EVEMU one\nN: x\n", .malformed, "bad.evemu:1: the header should read '# EVEMU MAJOR.MINOR', e.g. '# EVEMU 1.3'"),
        ("N:   \n", .malformed, "bad.evemu:1: the device name after 'N:' is empty"),
        ("N: x\n", .malformed, "bad.evemu:1: the description ends before its I: BUS VENDOR PRODUCT VERSION line"),
        ("N: x\nI: 0003 0001\n", .malformed,
         "bad.evemu:2: expected 'I: BUS VENDOR PRODUCT VERSION' (four hex numbers), found 'I: 0003 0001'"),
        ("N: x\nI: 1 2 3 4\nN: y\n", .malformed, "bad.evemu:3: a second 'N:' line in the description"),
        ("N: x\nI: 1 2 3 4\nP: 00 00 00 00 01 00 00 00\n", .outOfRange,
         "bad.evemu:3: property bit 32 is beyond INPUT_PROP_MAX"),
        ("N: x\nI: 1 2 3 4\nP: 00 00\n", .malformed,
         "bad.evemu:3: expected 'P: 00 00 00 00 00 00 00 00' with 8 two-digit hex bytes"),
        ("N: x\nI: 1 2 3 4\nB: 02 00 00 01 00 00 00 00 00\n", .outOfRange,
         "bad.evemu:3: code 16 is beyond the largest code of EV_REL"),
        ("N: x\nI: 1 2 3 4\nB: 20 00 00 00 00 00 00 00 00\n", .outOfRange,
         "bad.evemu:3: event type 0x20 is beyond EV_MAX"),
        ("N: x\nI: 1 2 3 4\nB: 16 01 00 00 00 00 00 00 00\n", .outOfRange,
         "bad.evemu:3: event type EV_PWR has no codes in libevdev"),
        ("# EVEMU 1.2\nN: x\nI: 1 2 3 4\nB: 03 01 00 00 00 00 00 00 00\nA: 00 0 100 0 0\n", .malformed,
         "bad.evemu:5: expected 'A: CODE MIN MAX FUZZ FLAT RESOLUTION': 5 numbers after the code in format 1.2, found 4"),
        ("N: x\nI: 1 2 3 4\nA: 00 0 4294967296 0 0\n", .outOfRange, "bad.evemu:3: axis value 4294967296 does not fit 32 bits"),
        ("N: x\nI: 1 2 3 4\nA: 40 0 1 0 0\n", .outOfRange, "bad.evemu:3: axis 0x40 is beyond ABS_MAX"),
        ("N: x\nI: 1 2 3 4\nA: 00 0 1 0 0 0 0\n", .malformed,
         "bad.evemu:3: expected 'A: CODE MIN MAX FUZZ FLAT RESOLUTION', found 'A: 00 0 1 0 0 0 0'"),
        ("N: x\nI: 1 2 3 4\nL: zz\n", .malformed, "bad.evemu:3: expected 'L: CODE STATE'"),
        ("N: x\nI: 1 2 3 4\nX: what\n", .malformed,
         "bad.evemu:3: expected a description line (P:, B:, A:, L:, S:) or an event (E:), found 'X: what'"),
        ("N: x\nI: 1 2 3 4\nE: 0.1 zz\n", .malformed,
         "bad.evemu:3: expected 'E: SECONDS.MICROSECONDS TYPE CODE VALUE', found 'E: 0.1 zz'"),
        ("N: x\nI: 1 2 3 4\nE: 0.0000012 0003 0000 1\n", .malformed,
         "bad.evemu:3: expected 'E: SECONDS.MICROSECONDS TYPE CODE VALUE', found 'E: 0.0000012 0003 0000 1'"),
        ("N: x\nI: 1 2 3 4\nE: 0.000001 0003 0035 99999999999\n", .outOfRange,
         "bad.evemu:3: event value 99999999999 does not fit 32 bits"),
        ("N: x\nI: 1 2 3 4\nE: 99999999999999 0003 0035 1\n", .malformed,
         "bad.evemu:3: expected 'E: SECONDS.MICROSECONDS TYPE CODE VALUE', found 'E: 99999999999999 0003 0035 1'"),
        ("N: x\nI: 1 2 3 4\nE: 99999999999999.000000 0003 0035 1\n", .outOfRange,
         "bad.evemu:3: event time 99999999999999 s is too large"),
    ]

    @Test("Errors name the source, the line and what is wrong", arguments: errorCases.indices)
    func errors(index: Int) {
        let (text, kind, description) = Self.errorCases[index]
        do {
            let recording = try EvemuReader.read(text, source: "bad.evemu")
            Issue.record("expected an error, read \(recording)")
        } catch {
            #expect(error.kind == kind)
            #expect(error.description == description)
        }
    }

    /// Reads `text` through ``EvemuReader/Stream`` in pieces of `size`
    /// bytes, taking the events as they come.
    static func streamed(_ text: String, pieces size: Int, source: String = "bad.evemu") throws(InteropError) -> EvemuRecording {
        let bytes = Array(text.utf8)
        var stream = EvemuReader.Stream(source: source)
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

    /// Issue 24 item 8: the reader import uses for files of any size.
    @Test("Read in pieces of any size, a recording is the same as read whole, errors and all")
    func streamedPieces() throws {
        let whole = try EvemuReader.read(Self.clickpadRecording, source: "c.evemu")
        for size in [1, 2, 7, 64, 1 << 20] {
            #expect(try Self.streamed(Self.clickpadRecording, pieces: size, source: "c.evemu") == whole, "pieces of \(size)")
            let crlf = Self.clickpadRecording.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
            #expect(try Self.streamed(crlf, pieces: size, source: "c.evemu") == whole, "CRLF, pieces of \(size)")
        }
        for (text, kind, description) in Self.errorCases {
            for size in [1, 3, 1 << 20] {
                do {
                    let recording = try Self.streamed(text, pieces: size)
                    Issue.record("expected an error, read \(recording)")
                } catch {
                    #expect(error.kind == kind)
                    #expect(error.description == description, "pieces of \(size)")
                }
            }
        }
    }

    @Test("A line longer than 1 MiB is refused with its line, without holding more of it")
    func endlessLine() {
        var stream = EvemuReader.Stream(source: "long.evemu")
        #expect(
            throws: InteropError(
                kind: .tooLarge, source: "long.evemu", line: 2,
                message: "the line is longer than 1048576 bytes: not a text recording")
        ) {
            try stream.feed(Array("N: x\n".utf8))
            for _ in 0..<20 { try stream.feed([UInt8](repeating: 0x41, count: 65_536)) }
        }
    }
}
