import Foundation
import Testing
import TestSupport

/// Issue 7 item 7: import never repairs silently. A recording whose times
/// go backwards or whose values lie beyond the device's axes is repaired
/// with a warning that counts the samples changed, or refused with --strict.
@Suite struct ImportRepairTests {
    /// A single-touch screen, x 0…1000 and y 0…500 (10 units/mm); one
    /// finger down, x beyond the maximum twice, time going back 5 ms once.
    static let evemu = EvemuFixture(
        name: "Hand-edited Touchscreen", bus: 0x03, vendor: 0x1234, product: 0x5678, version: 0x0001,
        properties: [1],
        codes: [EvemuFixture.key: [0x14a]],
        axes: [.init(0x00, 0, 1000, resolution: 10), .init(0x01, 0, 500, resolution: 10)],
        events: """
            E: 0.000001 0003 0000 0100
            E: 0.000001 0003 0001 0100
            E: 0.000001 0001 014a 0001
            E: 0.000001 0000 0000 0000
            E: 0.010000 0003 0000 1200
            E: 0.010000 0000 0000 0000
            E: 0.005000 0003 0000 1300
            E: 0.005000 0003 0001 0150
            E: 0.005000 0000 0000 0000
            E: 0.020000 0003 0000 0600
            E: 0.020000 0000 0000 0000
            E: 0.030000 0001 014a 0000
            E: 0.030000 0000 0000 0000
            """).text

    /// The same recording as `libinput record` writes it.
    static let libinput = """
        version: 1
        ndevices: 1
        libinput:
          version: "1.25.0"
        system:
          kernel: "6.1.0"
        devices:
        - node: /dev/input/event9
          evdev:
            name: "Hand-edited Touchscreen"
            id: [3, 4660, 22136, 1]
            codes:
              0: [0]
              1: [330]
              3: [0, 1]
            absinfo:
              0: [0, 1000, 0, 0, 10]
              1: [0, 500, 0, 0, 10]
            properties: [1]
          events:
          - evdev:
            - [  0,      1,   3,   0,     100]
            - [  0,      1,   3,   1,     100]
            - [  0,      1,   1, 330,       1]
            - [  0,      1,   0,   0,       0]
          - evdev:
            - [  0,  10000,   3,   0,    1200]
            - [  0,  10000,   0,   0,       0]
          - evdev:
            - [  0,   5000,   3,   0,    1300]
            - [  0,   5000,   3,   1,     150]
            - [  0,   5000,   0,   0,       0]
          - evdev:
            - [  0,  20000,   3,   0,     600]
            - [  0,  20000,   0,   0,       0]
          - evdev:
            - [  0,  30000,   1, 330,       0]
            - [  0,  30000,   0,   0,       0]

        """

    static let warnings = """
        gesturectl: warning: %@: the event times went backwards once (by up to 5 ms); 1 sample took the latest earlier time instead, so that time never decreases
        gesturectl: warning: %@: x of 2 samples lay outside the axis range 0…1000 (as far as 1300) and was clamped into it

        """

    @Test(arguments: [("bad.evemu", evemu), ("bad.yml", libinput)])
    func repairsAreCountedOrRefused(file: String, text: String) throws {
        let scratch = try TemporaryFolder()
        try scratch.write(file, text)
        let imported = try CLI.run(["import", file], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == Self.warnings.replacingOccurrences(of: "%@", with: file))
        // The repaired gesture is valid: clamped to the edge, time never going back.
        let described = try CLI.run(["describe", "-"], stdin: imported.stdout)
        #expect(described.stdout == "1 finger · swipe right · 0.03 s · 50 mm\n")

        let strict = try CLI.run(["import", file, "--strict", "-o", "out.gesture.json"], in: scratch.path)
        #expect(strict.status == 1)
        #expect(
            strict.stderr == "gesturectl: error: \(file): refused (--strict): the event times went backwards once (by up to 5 ms); "
                + "1 sample took the latest earlier time instead, so that time never decreases; "
                + "x of 2 samples lay outside the axis range 0…1000 (as far as 1300) and was clamped into it; nothing was written\n")
        #expect(!scratch.exists("out.gesture.json"))
    }

    @Test func aCleanRecordingImportsQuietlyEvenWhenStrict() throws {
        let scratch = try TemporaryFolder()
        #expect(try CLI.run(["export", "three-finger-swipe-left", "--format", "evemu", "-o", "ok.evemu"], in: scratch.path).status == 0)
        let strict = try CLI.run(["import", "ok.evemu", "--strict"], in: scratch.path)
        #expect(strict.status == 0)
        #expect(strict.stderr == "")
    }

    @Test func skippedEvemuLinesAreNamed() throws {
        let scratch = try TemporaryFolder()
        #expect(try CLI.run(["export", "tap", "--format", "evemu", "-o", "tap.evemu"], in: scratch.path).status == 0)
        let text = try scratch.read("tap.evemu")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        // A terminal's echo of Ctrl-C caught at the end, as evemu-record users see.
        try scratch.write("echo.evemu", text + "^C\n")
        let imported = try CLI.run(["import", "echo.evemu"], in: scratch.path)
        #expect(imported.status == 0)
        #expect(
            imported.stderr
                == "gesturectl: warning: echo.evemu: skipped line \(lines), which is neither an event nor a comment (as evemu-play does)\n")
        #expect(try CLI.run(["describe", "-"], stdin: imported.stdout).stdout == "1 finger · tap · 0.08 s\n")
    }
}
