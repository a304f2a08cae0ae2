import Foundation
import Testing

/// The shipped udev rule gives uinput and uhid to the gesturectl group only and
/// leaves input event nodes alone. (The integration tier also installs it
/// in the VM and checks the node's owner and mode.)
@Suite struct UdevRulesTests {
    static let folder = CLI.checkout + "/udev-rules"

    static func ruleLines(_ file: String) throws -> [String] {
        try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    @Test func uinputGoesToTheGesturectlGroupOnly() throws {
        let lines = try Self.ruleLines("70-gesturectl-uinput.rules")
        #expect(
            lines == [
                "KERNEL==\"uinput\", SUBSYSTEM==\"misc\", OPTIONS+=\"static_node=uinput\", GROUP=\"gesturectl\", MODE=\"0660\"",
                "KERNEL==\"uhid\", SUBSYSTEM==\"misc\", OPTIONS+=\"static_node=uhid\", GROUP=\"gesturectl\", MODE=\"0660\"",
                "KERNEL==\"hidg[0-9]*\", GROUP=\"gesturectl\", MODE=\"0660\"",
            ])
        for line in lines {
            #expect(!line.contains("0666"))
            #expect(!line.contains("event"), "input event nodes keep their group")
            #expect(!line.contains("uaccess"))
        }
    }

    @Test func modulesLoadSnippetLoadsUinputAndUhid() throws {
        #expect(try Self.ruleLines("gesturectl-uinput.conf") == ["uinput", "uhid"])
    }
}
