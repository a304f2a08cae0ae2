import CommandKit
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureLibrary
import HIDOutput
import OperatingSystem

/// The systemd drop-in that opens the service's device policy to what the
/// configuration's `outputs` need (`gesturectl daemon --write-dropin`).
///
/// The shipped unit (systemd/gesturectl.service) has `DevicePolicy=closed`
/// and allows /dev/uinput and reading input devices only: the `uinput`
/// output. The drop-in adds `/dev/uhid` for `uhid` and the character major
/// the kernel registers as `hidg` (/dev/hidgN) for `gadget`, and nothing
/// for outputs that are not configured.
enum DaemonDropIn {
    /// Where systemd reads the system service's drop-ins from.
    static let defaultFolder = "/etc/systemd/system/gesturectl.service.d"
    /// The drop-in's name in that folder.
    static let fileName = "outputs.conf"
    /// The unit that makes the gadget at boot, as docs/GADGET.md describes it.
    static let gadgetUnit = "gesturectl-gadget.service"

    /// The drop-in's text for `outputs`, read from `source` (a file's path,
    /// or a sentence saying where the defaults came from).
    static func text(outputs: [PlayOutput], source: String) -> String {
        var lines = [
            "# Written by 'gesturectl daemon --write-dropin' for the outputs of",
            "# \(source): \(outputs.map(\.word).joined(separator: ", ")).",
            "# Write it again after changing \"outputs\", then:",
            "#   systemctl daemon-reload && systemctl restart gesturectl.service",
        ]
        let hasGadget = outputs.contains { if case .gadget = $0 { true } else { false } }
        if hasGadget {
            lines += [
                "[Unit]",
                "# The gadget's HID functions must exist when the service starts (below):",
                "# after the unit that makes the gadget at boot, when there is one.",
                "After=\(gadgetUnit)",
                "",
            ]
        }
        lines.append("[Service]")
        if outputs.contains(.uhid) {
            lines += [
                "# uhid: HID devices made through /dev/uhid. The node is the kernel's static",
                "# one (kmod-static-nodes); opening it loads the uhid module, which nothing",
                "# loads at boot.",
                "DeviceAllow=/dev/uhid rw",
            ]
        }
        if hasGadget {
            lines += [
                "# gadget: the USB gadget's HID functions, /dev/hidgN. systemd looks up the",
                "# major number of \"hidg\" when the service starts: make the gadget first",
                "# (gesturectl gadget up), or restart the service after making it.",
                "DeviceAllow=char-hidg rw",
            ]
        }
        if !outputs.contains(.uhid) && !hasGadget {
            lines.append("# uinput needs nothing beyond the unit's own DeviceAllow=.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether the shipped udev rule gives the group `gesturectl` the
    /// /dev/hidgN nodes of the gadget `name`: gadgets named `gesturectl` or
    /// `gesturectl-…` (udev-rules/70-gesturectl-uinput.rules).
    static func udevRuleCovers(gadget name: String) -> Bool {
        name == GadgetSpecification.defaultName || name.hasPrefix(GadgetSpecification.defaultName + "-")
    }

    /// `daemon --write-dropin`: reads the configuration (`--config`, else
    /// /etc/gesturectl/daemon.json, whose absence means the defaults) and
    /// writes the drop-in atomically into `--dropin-dir`; an up-to-date
    /// drop-in is left alone.
    static func write(_ values: ParsedValues, context: CommandContext) throws {
        let given = values[DaemonCommand.Options.config]
        let configurationPath = given ?? DaemonPaths.systemConfiguration
        let configuration: DaemonConfiguration
        let source: String
        if given == nil && !Paths.exists(configurationPath) {
            configuration = DaemonConfiguration()
            source = "the defaults (there is no \(configurationPath))"
        } else {
            let bytes = try context.readFile(configurationPath, limit: 1 << 20)
            do {
                configuration = try DaemonConfiguration.parse(bytes, path: configurationPath)
            } catch {
                throw DaemonFailure.failure(for: error)
            }
            source = context.resolve(configurationPath)
        }
        let text = Array(Self.text(outputs: configuration.outputs, source: source).utf8)
        let folder = context.resolve(values[DaemonCommand.Options.dropInFolder])
        let path = folder + "/" + fileName
        let outputs = configuration.outputs.map(\.word).joined(separator: ", ")
        for output in configuration.outputs {
            if case .gadget(let name) = output, let name, !udevRuleCovers(gadget: name) {
                context.warn(
                    "the shipped udev rule gives the group gesturectl the /dev/hidgN of gadgets named"
                        + " \(GadgetSpecification.defaultName) or \(GadgetSpecification.defaultName)-…;"
                        + " the gadget \(name) needs a rule of its own (docs/GADGET.md)")
            }
        }
        // Harmless: a drop-in that cannot be read counts as different and is written again; writing says why it fails.
        if Paths.exists(path), (try? FileIO.read(path: path, limit: 1 << 16)) == text {
            context.print("\(path) is up to date (outputs: \(outputs)): nothing to do")
            return
        }
        try FileIO.createDirectories(folder)
        try FileIO.writeAtomically(text, to: path, permissions: 0o644)
        context.print("wrote \(path) (outputs: \(outputs))")
        context.print("Now run: systemctl daemon-reload && systemctl restart gesturectl.service")
    }
}
