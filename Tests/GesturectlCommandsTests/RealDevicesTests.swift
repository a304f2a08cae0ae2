import Foundation
import Testing
import TestSupport

/// Issue 7 item 14: real devices as they are (evemu recordings of the kinds
/// evemu's device-recordings collection holds).
@Suite struct RealDevicesTests {
    /// QEMU's "USB tablet": ABS_X/ABS_Y 0…32767 without resolution, three
    /// mouse buttons and a wheel, no BTN_TOUCH. A left-button drag from the
    /// middle to the right.
    static let qemuTablet = EvemuFixture(
        name: "QEMU QEMU USB Tablet", bus: 0x03, vendor: 0x0627, product: 0x0001, version: 0x0001,
        codes: [EvemuFixture.key: [0x110, 0x111, 0x112], EvemuFixture.relative: [0x8], EvemuFixture.misc: [0x4]],
        axes: [.init(0x00, 0, 32767), .init(0x01, 0, 32767)],
        events: """
            E: 0.000001 0003 0000 16384
            E: 0.000001 0003 0001 16384
            E: 0.000001 0000 0000 0000
            E: 0.100000 0004 0004 589825
            E: 0.100000 0001 0110 0001
            E: 0.100000 0000 0000 0000
            E: 0.200000 0003 0000 20000
            E: 0.200000 0000 0000 0000
            E: 0.300000 0003 0000 26000
            E: 0.300000 0000 0000 0000
            E: 0.400000 0004 0004 589825
            E: 0.400000 0001 0110 0000
            E: 0.400000 0000 0000 0000
            E: 0.500000 0003 0000 30000
            E: 0.500000 0000 0000 0000
            """).text

    @Test func anAbsolutePointerWithoutBTNTouchIsRecordedAsPointerStrokes() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("qemu.evemu", Self.qemuTablet)
        let imported = try CLI.run(["import", "qemu.evemu", "-o", "q.json"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let text = try scratch.read("q.json")
        #expect(text.contains("\"kind\": \"mouse\""))
        #expect(text.contains("\"kind\": \"pointer\",\n      \"button\": \"left\""))
        #expect(text.contains("[0, 16384, 16384],\n        [100000, 20000, 16384],\n        [200000, 26000, 16384],\n        [300000, 26000, 16384]\n"))
        let described = try CLI.run(["describe", "q.json"], in: scratch.path)
        #expect(described.stdout == "mouse drag · swipe right · 0.30 s · 29 % of the width\n")
    }

    /// A Cypress-like two-slot clickpad without resolution that says three
    /// fingers with BTN_TOOL_TRIPLETAP: a three-finger tap was "1 finger · tap".
    static let twoSlotPad = EvemuFixture(
        name: "Cypress APA Trackpad (cyapa)", bus: 0x18, vendor: 0x0000, product: 0x0000, version: 0x0000,
        properties: [0, 2],
        codes: [EvemuFixture.key: [0x110, 0x145, 0x148, 0x14a, 0x14d, 0x14e, 0x14f]],
        axes: [.init(0x00, 0, 1200), .init(0x01, 0, 800), .init(0x2f, 0, 1), .init(0x35, 0, 1200), .init(0x36, 0, 800), .init(0x39, 0, 65535)],
        events: """
            E: 0.000001 0003 002f 0000
            E: 0.000001 0003 0039 0010
            E: 0.000001 0003 0035 0400
            E: 0.000001 0003 0036 0400
            E: 0.000001 0003 002f 0001
            E: 0.000001 0003 0039 0011
            E: 0.000001 0001 014a 0001
            E: 0.000001 0001 014e 0001
            E: 0.000001 0000 0000 0000
            E: 0.060000 0003 002f 0000
            E: 0.060000 0003 0039 -001
            E: 0.060000 0003 002f 0001
            E: 0.060000 0003 0039 -001
            E: 0.060000 0001 014a 0000
            E: 0.060000 0001 014e 0000
            E: 0.060000 0000 0000 0000
            """).text

    @Test func untrackedFingersAreKeptAsEstimatedOnes() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("cyapa.evemu", Self.twoSlotPad)
        let imported = try CLI.run(["import", "cyapa.evemu", "-o", "c.json"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stderr.contains(
                "the device reported more fingers down (BTN_TOOL_DOUBLETAP…QUINTTAP, or a slot without a position) than it tracked: 2 fingers were placed beside the tracked ones and marked \"estimated\""))
        let text = try scratch.read("c.json")
        #expect(text.hasPrefix("{\n  \"format\": 2,\n"))
        #expect(text.components(separatedBy: "\"estimated\": true").count == 3)
        #expect(text.contains("\"slots\": 3"))
        let described = try CLI.run(["describe", "c.json"], in: scratch.path)
        #expect(described.stdout == "3 fingers · tap · 0.06 s\n")
        // The picture does not pass the estimated fingers off as measured.
        let picture = try CLI.run(["render", "c.json"], in: scratch.path)
        #expect(picture.stdout.components(separatedBy: "<g class=\"stroke estimated\"").count == 3)
        // It plays with three fingers.
        let played = try CLI.run(["play", "--print", "c.json", "--as", "touchpad"], in: scratch.path)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.contains("0001 014e 0001"))  // BTN_TOOL_TRIPLETAP down
    }
}
