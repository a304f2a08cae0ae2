import Foundation
import Testing
import TestSupport

/// The device commands' behaviour that needs no kernel: --print, export and
/// import round trips, and clear errors where devices or uinput are missing.
/// (Their behaviour on a real kernel is checked by Tests/Integration.)
@Suite struct DeviceCommandTests {
    static let hasUinput = FileManager.default.fileExists(atPath: "/dev/uinput")

    @Test func printWritesAnEvemuRecording() throws {
        let result = try CLI.run(["play", "two-finger-tap", "--print"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("# EVEMU 1.3\n# Input device name: \"gesturectl virtual touchscreen\"\n"))
        #expect(result.stdout.contains("\nN: gesturectl virtual touchscreen\n"))
        #expect(result.stdout.contains("\nI: 0006 4753 0001 0001\n"))
        // Both fingers go down in the first frame.
        let firstFrame = result.stdout.components(separatedBy: "\nE: ").dropFirst().prefix { !$0.contains("SYN_REPORT") }
        #expect(firstFrame.filter { $0.contains("ABS_MT_TRACKING_ID") }.count == 2)
    }

    @Test(arguments: ["evemu", "libinput"])
    func exportThenImportGivesTheSameGesture(format: String) throws {
        let scratch = try TemporaryFolder()
        let exported = try CLI.run(["export", "three-finger-swipe-left", "--format", format, "-o", "out.txt"], in: scratch.path)
        #expect(exported.status == 0)
        let imported = try CLI.run(["import", "out.txt"], in: scratch.path)
        #expect(imported.status == 0)
        let described = try CLI.run(["describe", "-"], stdin: imported.stdout)
        #expect(described.stdout == "3 fingers · swipe left · 0.25 s · 40 mm\n")
    }

    @Test func importRefusesOtherFiles() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("x.txt", "hello\n")
        let result = try CLI.run(["import", "x.txt"], in: scratch.path)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("gesturectl: error: x.txt"))
        #expect(result.stderr.contains("not an evemu recording"))
    }

    @Test(.enabled(if: !hasUinput)) func playWithoutUinputSaysWhatToDo() throws {
        let result = try CLI.run(["play", "tap"])
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "gesturectl: error: open /dev/uinput failed: No such file or directory (errno 2); this kernel has no uinput: load it with 'modprobe uinput' (or use 'gesturectl play --print' to write evemu text instead)\n"
        )
    }

    @Test func recordWithAnUnknownDeviceIsNotFound() throws {
        let result = try CLI.run(["record", "--device", "/dev/input/no-such-device", "-o", "x.json"])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("gesturectl: error: no input device matches \"/dev/input/no-such-device\""))
    }

    @Test func devicesJSONIsAnArray() throws {
        let result = try CLI.run(["devices", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("["))
    }
}

@Suite struct RecordOptionTests {
    @Test func aBadLibraryNameIsRefusedBeforeRecording() throws {
        let result = try CLI.run(["record", "--save", "a/b"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: gesture name \"a/b\" contains \"/\"\n"))
    }

    @Test func aBadScreenSizeIsAUsageError() throws {
        let result = try CLI.run(["record", "--screen", "big"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: --screen: \"big\" is not a screen size like 1920x1080\n"))
    }
}
