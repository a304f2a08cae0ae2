import Foundation
import GestureEngine
import Testing
import TestSupport

@testable import GesturectlCommands

/// `daemon --write-dropin`: the drop-in allows the devices of the
/// configured outputs and nothing else, is written atomically where asked,
/// and a second run changes nothing. (SystemdUnitsTests checks it with
/// systemd-analyze.)
@Suite struct DaemonDropInTests {
    /// The lines systemd reads (no comments, no blank lines).
    static func settings(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    @Test func uinputAloneAllowsNothingMore() {
        let text = DaemonDropIn.text(outputs: [.uinput], source: "/etc/gesturectl/daemon.json")
        #expect(Self.settings(text) == ["[Service]"])
        #expect(text.hasPrefix("# Written by 'gesturectl daemon --write-dropin' for the outputs of\n# /etc/gesturectl/daemon.json: uinput.\n"))
        #expect(text.contains("systemctl daemon-reload && systemctl restart gesturectl.service"))
    }

    @Test func uhidAllowsDevUhidOnly() {
        let text = DaemonDropIn.text(outputs: [.uinput, .uhid], source: "f")
        #expect(Self.settings(text) == ["[Service]", "DeviceAllow=/dev/uhid rw"])
    }

    @Test func gadgetAllowsTheHidgMajorOnlyAndStartsAfterTheGadgetUnit() {
        let text = DaemonDropIn.text(outputs: [.gadget(name: nil)], source: "f")
        #expect(Self.settings(text) == ["[Unit]", "After=gesturectl-gadget.service", "[Service]", "DeviceAllow=char-hidg rw"])
    }

    @Test func everyOutput() {
        let text = DaemonDropIn.text(outputs: [.uinput, .uhid, .gadget(name: "gesturectl-2")], source: "f")
        #expect(
            Self.settings(text) == [
                "[Unit]", "After=gesturectl-gadget.service", "[Service]", "DeviceAllow=/dev/uhid rw", "DeviceAllow=char-hidg rw",
            ])
        #expect(!text.contains("modules-load") && !text.contains("char-misc") && !text.contains("DevicePolicy"))
    }

    @Test func theUdevRuleCoversGesturectlsGadgetNamesOnly() {
        #expect(DaemonDropIn.udevRuleCovers(gadget: "gesturectl"))
        #expect(DaemonDropIn.udevRuleCovers(gadget: "gesturectl-2"))
        #expect(!DaemonDropIn.udevRuleCovers(gadget: "kvm"))
        #expect(!DaemonDropIn.udevRuleCovers(gadget: "gesturectl2"))
    }

    @Test func writesTheDropInOnceAndSaysWhatToRun() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("daemon.json", #"{"outputs": ["uinput", "uhid"]}"#)
        let arguments = ["daemon", "--write-dropin", "--config", scratch.file("daemon.json"), "--dropin-dir", scratch.file("conf.d/gesturectl.service.d")]
        let first = try CLI.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let path = scratch.file("conf.d/gesturectl.service.d/outputs.conf")
        #expect(first.stdout == "wrote \(path) (outputs: uinput, uhid)\nNow run: systemctl daemon-reload && systemctl restart gesturectl.service\n")
        let written = try scratch.read("conf.d/gesturectl.service.d/outputs.conf")
        #expect(written == DaemonDropIn.text(outputs: [.uinput, .uhid], source: scratch.file("daemon.json")))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        let inode = attributes[.systemFileNumber] as? Int

        let second = try CLI.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "\(path) is up to date (outputs: uinput, uhid): nothing to do\n")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int) == inode, "not rewritten")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("conf.d/gesturectl.service.d")) == ["outputs.conf"])

        // Outputs changed: rewritten, uhid no longer allowed.
        try scratch.write("daemon.json", #"{"outputs": ["uinput"]}"#)
        let third = try CLI.run(arguments)
        #expect(third.status == 0 && third.stdout.hasPrefix("wrote \(path) (outputs: uinput)\n"), "\(third.stdout)\(third.stderr)")
        #expect(Self.settings(try scratch.read("conf.d/gesturectl.service.d/outputs.conf")) == ["[Service]"])
    }

    @Test func aGadgetTheRuleDoesNotCoverIsWarnedAbout() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("daemon.json", #"{"outputs": ["gadget"], "gadget": "kvm"}"#)
        let result = try CLI.run(["daemon", "--write-dropin", "--config", scratch.file("daemon.json"), "--dropin-dir", scratch.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: the shipped udev rule gives the group gesturectl the /dev/hidgN of gadgets named gesturectl or gesturectl-…; the gadget kvm needs a rule of its own"))
        #expect(scratch.exists("outputs.conf"))
    }

    @Test func badInputIsRefusedAndNothingIsWritten() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("daemon.json", #"{"outputs": ["uinput", "hdmi"]}"#)
        let bad = try CLI.run(["daemon", "--write-dropin", "--config", scratch.file("daemon.json"), "--dropin-dir", scratch.path])
        #expect(bad.status == 2, "\(bad.stderr)")
        #expect(bad.stderr.contains("\(scratch.file("daemon.json")): \"outputs\": \"hdmi\" is not one of uinput, uhid, gadget"), "\(bad.stderr)")
        let missing = try CLI.run(["daemon", "--write-dropin", "--config", scratch.file("none.json"), "--dropin-dir", scratch.path])
        #expect(missing.status != 0 && missing.stderr.contains("none.json"), "\(missing.stderr)")
        #expect(!scratch.exists("outputs.conf"))
        let alone = try CLI.run(["daemon", "--dropin-dir", scratch.path])
        #expect(alone.status == 2 && alone.stderr.contains("--dropin-dir says where --write-dropin writes; add --write-dropin"), "\(alone.stderr)")
    }
}
