import Foundation
import Testing
import TestSupport

/// The shipped udev rule gives uinput, uhid and gesturectl's gadget's HID
/// nodes to the gesturectl group only and leaves input event nodes alone.
/// (The integration tier also installs it in the VM and checks the nodes'
/// owner and mode: cases 17 and 40.)
@Suite struct UdevRulesTests {
    static let folder = CLI.checkout + "/udev-rules"

    static func ruleLines(_ file: String) throws -> [String] {
        try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The hidg line: the group gets a /dev/hidgN only when configfs shows
    /// it is a HID function of gesturectl's gadget.
    static let hidgLine =
        "SUBSYSTEM==\"hidg\", KERNEL==\"hidg[0-9]*\", PROGRAM=\"/bin/sh -c '/bin/grep -qsxF %M:%m"
        + " /sys/kernel/config/usb_gadget/gesturectl/functions/hid.*/dev"
        + " /sys/kernel/config/usb_gadget/gesturectl-*/functions/hid.*/dev'\", GROUP=\"gesturectl\", MODE=\"0660\""

    @Test func uinputGoesToTheGesturectlGroupOnly() throws {
        let lines = try Self.ruleLines("70-gesturectl-uinput.rules")
        #expect(
            lines == [
                "KERNEL==\"uinput\", SUBSYSTEM==\"misc\", OPTIONS+=\"static_node=uinput\", GROUP=\"gesturectl\", MODE=\"0660\"",
                "KERNEL==\"uhid\", SUBSYSTEM==\"misc\", OPTIONS+=\"static_node=uhid\", GROUP=\"gesturectl\", MODE=\"0660\"",
                Self.hidgLine,
            ])
        for line in lines {
            #expect(!line.contains("0666"))
            #expect(!line.contains("event"), "input event nodes keep their group")
            #expect(!line.contains("uaccess"))
        }
        // No line hands out every HID gadget node.
        #expect(lines.filter { $0.contains("hidg") }.allSatisfy { $0.contains("PROGRAM=") })
    }

    /// The rule's PROGRAM, run as udev runs it (`%M:%m` the node's numbers)
    /// against a stand-in for configfs: it succeeds for the HID functions of
    /// gadgets named gesturectl and gesturectl-…, and for nothing else.
    @Test func theHidgRuleMatchesOnlyGesturectlsGadgets() throws {
        let line = Self.hidgLine
        let start = try #require(line.range(of: "PROGRAM=\"/bin/sh -c '"))
        let end = try #require(line.range(of: "'\"", range: start.upperBound..<line.endIndex))
        let script = String(line[start.upperBound..<end.lowerBound])
        let configfs = try TemporaryFolder()
        let functions: [(gadget: String, function: String, dev: String)] = [
            ("gesturectl", "hid.touchscreen", "237:0"), ("gesturectl", "hid.mouse", "237:1"),
            ("gesturectl-2", "hid.touchscreen", "237:2"), ("kvm", "hid.keyboard", "237:3"), ("gesturectl2", "hid.usb0", "237:4"),
        ]
        for entry in functions {
            try FileManager.default.createDirectory(
                atPath: configfs.file("usb_gadget/\(entry.gadget)/functions/\(entry.function)"), withIntermediateDirectories: true)
            try configfs.write("usb_gadget/\(entry.gadget)/functions/\(entry.function)/dev", entry.dev + "\n")
        }
        func matches(_ numbers: String) throws -> Bool {
            let command = script.replacingOccurrences(of: "%M:%m", with: numbers)
                .replacingOccurrences(of: "/sys/kernel/config/", with: configfs.path + "/")
            return try ProcessRunner.run("/bin/sh", ["-c", command], environment: [:]).status == 0
        }
        #expect(try matches("237:0") && matches("237:1") && matches("237:2"))
        #expect(try !matches("237:3"), "another gadget's keyboard")
        #expect(try !matches("237:4"), "a gadget whose name only starts like gesturectl")
        #expect(try !matches("237:9") && !matches("23:0") && !matches("37:0"))
        try FileManager.default.removeItem(atPath: configfs.file("usb_gadget/gesturectl"))
        try FileManager.default.removeItem(atPath: configfs.file("usb_gadget/gesturectl-2"))
        #expect(try !matches("237:0"), "no gadget of gesturectl's")
    }

    @Test func modulesLoadSnippetLoadsUinputNotUhid() throws {
        // uhid is loaded when /dev/uhid is opened (its static node), not at every boot.
        #expect(try Self.ruleLines("gesturectl-uinput.conf") == ["uinput"])
    }
}
