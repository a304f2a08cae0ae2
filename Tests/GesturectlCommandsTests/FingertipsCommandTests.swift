import Testing
import TestSupport

/// `gesturectl fingertips`, run as the built binary: its help and the
/// refusals that come before any device is opened or made.
@Suite struct FingertipsCommandTests {
    @Test func helpTeachesTheSourcesTheStatesAndTheEnd() throws {
        let result = try CLI.run(["help", "fingertips"])
        #expect(result.status == 0)
        for text in [
            "<count>", "--device <device>", "--layout <layout>", "--spacing <mm>", "--speed <factor>", "--absolute",
            "--idle <seconds>", "--as <kind>", "--clone <device>", "--to <output>", "--gadget <name>", "default: 5s",
            "values: touchscreen, touchpad", "head-pointer user operates the phone",
            "a click is an N-finger tap", "3 fingertips ready: move the pointer, hold the button to",
            "gesturectl fingertips 3 --device",
        ] {
            #expect(result.stdout.contains(text), "help fingertips shows \(text)")
        }
    }

    @Test func refusals() throws {
        func refused(_ arguments: [String]) throws -> String {
            let result = try CLI.run(["fingertips"] + arguments, environment: ["GESTURECTL_SOCKET": ""])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout == "")
            return result.stderr
        }
        #expect(try refused(["1"]).hasPrefix("gesturectl: error: <count>: 1 must be between 2 and 10"))
        #expect(try refused(["11"]).hasPrefix("gesturectl: error: <count>: 11 must be between 2 and 10"))
        #expect(try refused(["3", "--as", "mouse"]).contains("\"mouse\" is not one of touchscreen, touchpad"))
        #expect(try refused(["3", "--layout", "circle"]).contains("is not one of row, arc"))
        #expect(try refused(["3", "--speed", "0"]).contains("--speed"))
        #expect(try refused(["3", "--idle", "-1"]).contains("--idle"))
        #expect(try refused(["3", "--to", "bluetooth"]).contains("is not one of uinput, uhid, gadget"))
        #expect(try refused(["3", "--gadget", "g1"]).contains("--gadget names the gadget of --to gadget; add --to gadget"))
    }

    @Test func aSourceThatIsNoInputDeviceIsRefusedBeforeAnyDeviceIsMade() throws {
        let result = try CLI.run(["fingertips", "3", "--device", "/dev/null"], environment: ["GESTURECTL_SOCKET": ""])
        #expect(result.status == 3)
        #expect(result.stdout == "")  // no ready line
        #expect(result.stderr.contains("no input device matches \"/dev/null\""), "\(result.stderr)")
    }
}
