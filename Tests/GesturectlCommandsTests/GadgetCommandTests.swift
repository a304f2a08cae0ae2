import Foundation
import Testing

/// `gadget up|down|status`: what is refused before configfs is touched,
/// and the help that teaches.
@Suite struct GadgetCommandTests {
    @Test func usageErrorsNameTheOption() throws {
        func refused(_ arguments: [String]) throws -> String {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout == "")
            return result.stderr
        }
        #expect(try refused(["gadget", "up", "--size", "216"]).hasPrefix("gesturectl: error: --size must be WIDTHxHEIGHT in millimetres"))
        #expect(try refused(["gadget", "up", "--size", "axb"]).hasPrefix("gesturectl: error: --size must be WIDTHxHEIGHT"))
        #expect(try refused(["gadget", "up", "--size", "5000x100"]).hasPrefix("gesturectl: error: --size: the width must be 1 to 2000 mm"))
        #expect(try refused(["gadget", "up", "--size", "100x0"]).hasPrefix("gesturectl: error: --size: the height must be 1 to 2000 mm"))
        #expect(try refused(["gadget", "up", "--contacts", "11"]).hasPrefix("gesturectl: error: --contacts"))
        #expect(try refused(["gadget", "up", "--contacts", "0"]).hasPrefix("gesturectl: error: --contacts"))
        #expect(try refused(["gadget", "up", "--vendor", "12345"]).hasPrefix("gesturectl: error: --vendor must be a hexadecimal id"))
        #expect(try refused(["gadget", "up", "--product", "0xg1"]).hasPrefix("gesturectl: error: --product must be a hexadecimal id"))
        #expect(try refused(["gadget", "up", "--name", "../x"]).hasPrefix("gesturectl: error: the gadget's name must be"))
        #expect(try refused(["gadget", "up", "--udc", "a/b"]).hasPrefix("gesturectl: error: the controller's name must be"))
        #expect(try refused(["gadget", "down", "--name", ""]).hasPrefix("gesturectl: error: the gadget's name must be"))
        #expect(try refused(["gadget", "status", "--name", "a b"]).hasPrefix("gesturectl: error: the gadget's name must be"))
        #expect(try refused(["gadget", "sideways"]).contains("sideways"))
    }

    @Test func helpTeachesBoardsModulesAndHosts() throws {
        let help = try CLI.run(["help", "gadget"]).stdout
        for phrase in ["Raspberry Pi 4/5", "modprobe libcomposite usb_f_hid", "Android", "iPadOS", "AssistiveTouch", "Needs root"] {
            #expect(help.contains(phrase), "\(phrase)")
        }
        let up = try CLI.run(["help", "gadget", "up"]).stdout
        for option in ["--name", "--udc", "--contacts", "--size", "--mouse", "--buttons", "--vendor", "--product"] {
            #expect(up.contains(option), "\(option)")
        }
        #expect(try CLI.run(["help", "gadget", "status"]).stdout.contains("--json"))
        #expect(try CLI.run(["--help"]).stdout.contains("\n  gadget "))
    }
}
