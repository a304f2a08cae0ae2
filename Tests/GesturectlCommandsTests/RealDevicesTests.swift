import Foundation
import Testing
import TestSupport

/// Issue 7 item 14: real devices as they are (evemu recordings of the kinds
/// evemu's device-recordings collection holds).
@Suite struct RealDevicesTests {
    /// QEMU's "USB tablet": ABS_X/ABS_Y 0…32767 without resolution, three
    /// mouse buttons and a wheel, no BTN_TOUCH. A left-button drag from the
    /// middle to the right.
    static let qemuTablet = """
        # EVEMU 1.3
        N: QEMU QEMU USB Tablet
        I: 0003 0627 0001 0001
        P: 00 00 00 00 00 00 00 00
        B: 00 1f 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 07 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 01 00 00 00 00 00 00
        B: 03 03 00 00 00 00 00 00 00
        B: 04 10 00 00 00 00 00 00 00
        A: 00 0 32767 0 0 0
        A: 01 0 32767 0 0 0
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

        """

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
}
