import CommandKit
import GestureModel
import GesturePlayback
import HIDOutput
import InputSystem

/// `gadget up|down|status`: this board as a USB touchscreen (issue 11).
enum GadgetCommand {
    static let command = Command(
        name: "gadget", abstract: "Make this board a USB touchscreen for another device: up, down, status.",
        discussion: """
            A USB gadget is what a Linux board with a USB device controller
            (a UDC: Raspberry Pi 4/5 on its USB-C port, Pi Zero on its USB port,
            most boards with an OTG port) presents to the host its port is
            plugged into. 'gadget up' builds one through configfs: a HID
            multitouch digitizer (the host's own touchscreen driver drives it,
            no software on the host), optionally a mouse and buttons; then
            'gesturectl play NAME --to gadget' plays gestures on the host.

            What hosts do with it: Android, ChromeOS, Linux (hid-multitouch) and
            Windows take the digitizer as a touchscreen. iPadOS does not take a
            HID touchscreen as direct touch: add --mouse and turn on
            AssistiveTouch (Accessibility > Touch > AssistiveTouch, with a
            pointer device), and play gestures '--as mouse'.

            Needs root (configfs belongs to root) and the kernel modules
            libcomposite and usb_f_hid ('modprobe libcomposite usb_f_hid'; on a
            Raspberry Pi also dtoverlay=dwc2 and the dwc2 module). configfs is
            mounted when it is not. A machine without a UDC cannot be a gadget
            ('modprobe dummy_hcd' makes a loopback one for trying it).
            Playing needs only write access to /dev/hidgN (udev-rules/ gives
            it to the group 'gesturectl' for a gadget named gesturectl or
            gesturectl-…, and no other). See docs/GADGET.md.
            """,
        section: DevicesCommand.section,
        subcommands: [up, down, status]
    )

    static let nameOption: TypedOption<String> = .string(
        "name", valueName: "name", help: "The gadget's configfs name (/sys/kernel/config/usb_gadget/NAME).",
        default: OptionDefault.gadgetName)

    /// `gadget up`'s options.
    enum UpOptions {
        static let controller: TypedOption<String?> = .string(
            "udc", valueName: "name", help: "The USB device controller to bind to (a name in /sys/class/udc; default: the first).")
        static let contacts: TypedOption<Int> = .integer(
            "contacts", valueName: "n", help: "How many fingers the touchscreen reports.",
            type: .integer(in: 1...HIDTouchscreenLayout.maximumContacts), default: HIDTouchscreenLayout.maximumContacts)
        static let size: TypedOption<String> = .string(
            "size", valueName: "WxH", help: "The touchscreen's surface in millimetres.", default: "216x135")
        static let mouse: TypedOption<Bool> = .flag(
            "mouse", help: "Add a mouse (hid.mouse): for iPadOS's AssistiveTouch, and any host.")
        static let buttons: TypedOption<Bool> = .flag(
            "buttons", help: "Add consumer-control and keyboard buttons (hid.buttons): volume, home, lock…")
        /// Without it, the Linux Foundation's (the gadget plan's default).
        static let vendor: TypedOption<String?> = .string(
            "vendor", valueName: "id", help: "USB vendor id, hexadecimal (default 1d6b, the Linux Foundation).")
        /// Without it, the Multifunction Composite Gadget (the gadget plan's default).
        static let product: TypedOption<String?> = .string(
            "product", valueName: "id", help: "USB product id, hexadecimal (default 0104, Multifunction Composite Gadget).")
    }

    private static let jsonFlag: TypedOption<Bool> = .flag("json", help: "Print JSON instead of text.")

    static let up = Command(
        name: "up", abstract: "Build the gadget and bind it to a USB device controller.",
        discussion: """
            Builds /sys/kernel/config/usb_gadget/NAME with one configuration and
            a HID function per device (hid.touchscreen, hid.mouse, hid.buttons),
            and binds it to the first controller in /sys/class/udc (or --udc).
            The host sees the device once the board's device port is plugged
            into it; 'gadget status' then says "configured".

            The digitizer reports --contacts contacts on a --size surface at
            100 units/mm; the host derives the size from the descriptor.
            Gestures played '--to gadget' are fitted to that surface.

            Examples:
              sudo gesturectl gadget up
              sudo gesturectl gadget up --contacts 5 --size 155x87 --mouse
              gesturectl play pinch-in --to gadget
            """,
        options: [
            nameOption,
            UpOptions.controller, UpOptions.contacts, UpOptions.size, UpOptions.mouse, UpOptions.buttons, UpOptions.vendor,
            UpOptions.product,
        ]
    ) { values, context in
        let size = try parseSize(values[UpOptions.size])
        let layout: HIDTouchscreenLayout
        do throws(GadgetPlan.Failure) {
            layout = try GadgetPlan.touchscreen(
                contacts: values[UpOptions.contacts], widthMM: size.width, heightMM: size.height)
        } catch {
            throw CommandFailure.usage(error.description)
        }
        let specification = GadgetPlan.specification(
            name: values[nameOption], touchscreen: layout,
            mouse: values[UpOptions.mouse], buttons: values[UpOptions.buttons], controller: values[UpOptions.controller],
            vendor: try hexadecimal(values, UpOptions.vendor), product: try hexadecimal(values, UpOptions.product))
        let status = try USBGadget().up(specification)
        context.print("gadget \(status.name) is up: \(binding(status))")
        for function in status.functions { context.print("  " + describe(function)) }
        if !status.isConfigured {
            context.print("Plug the board's USB device port into the host; 'gesturectl gadget status' says when the host has it.")
        }
    }

    static let down = Command(
        name: "down", abstract: "Unbind the gadget and remove it from configfs.",
        discussion: """
            Unbinds it (the host sees the device unplugged), then removes its
            links, configuration, functions and strings, and its folder. A
            gadget that is not there is not an error.

            Example: sudo gesturectl gadget down
            """,
        options: [nameOption]
    ) { values, context in
        let name = values[nameOption]
        if try USBGadget().down(name: name) {
            context.print("gadget \(name) is down")
        } else {
            context.note("there is no gadget \(name): nothing to remove")
        }
    }

    static let status = Command(
        name: "status", abstract: "Whether the gadget exists, where it is bound, whether a host has it.",
        discussion: """
            Prints the controller it is bound to and that controller's state
            (/sys/class/udc/X/state: "configured" once a host has taken the
            device, "not attached" without a cable), and each function's
            /dev/hidgN and geometry. Exit status 0 whether or not it exists.

            --json prints one object: name, exists, path, udc, state,
            configured, controllers (the machine's UDCs), functions (name,
            devnode, linked, kind, and for the touchscreen contacts, width_mm,
            height_mm, resolution) and, when this machine cannot have a
            gadget now, problem (why: no UDC, configfs or libcomposite missing).
            """,
        options: [nameOption, jsonFlag]
    ) { values, context in
        let name = values[nameOption]
        let gadget = USBGadget()
        // Harmless: controllers() throws only when there is none, which the problem below says.
        let controllers = (try? gadget.controllers()) ?? []
        // Without configfs or libcomposite no gadget exists: say why, as a fact.
        var problem: String?
        var status: GadgetStatus?
        do {
            status = try gadget.status(name: name)
        } catch let error as GadgetError where error.kind == .kernelSupportMissing {
            problem = error.message
        }
        if controllers.isEmpty {
            problem = [problem, "no USB device controller: this machine cannot be a USB gadget; a Raspberry Pi 4/5 or Zero can"]
                .compactMap { $0 }.joined(separator: "; ")
        }
        if values[jsonFlag] {
            context.print(json(name: name, status: status, controllers: controllers, problem: problem))
            return
        }
        guard let status else {
            context.print("no gadget \(name) (make it with: sudo gesturectl gadget up\(name == GadgetSpecification.defaultName ? "" : " --name \(name)"))")
            if let problem { context.print(problem) }
            return
        }
        context.print("gadget \(status.name): \(status.path)")
        context.print("  \(binding(status))")
        for function in status.functions { context.print("  " + describe(function)) }
    }

    // MARK: Text

    static func binding(_ status: GadgetStatus) -> String {
        guard let controller = status.controller else { return "not bound to a USB device controller" }
        // The controller's state file may be unreadable (a controller going away).
        return "bound to \(controller) (\(status.controllerState ?? "state unknown"))"
    }

    static func describe(_ function: GadgetFunctionStatus) -> String {
        // A function the host has not configured, or not ours, has no /dev/hidgN yet.
        var parts = [function.instance + ":", function.devnode ?? "no device node"]
        if let layout = function.touchscreenLayout {
            parts.append(
                "touchscreen, \(layout.contacts) contacts, \(millimetres(layout.x)) x \(millimetres(layout.y)) mm,"
                    + " \(layout.x.resolution) units/mm")
        } else if function.isMouse {
            parts.append("mouse")
        } else if function.isButtons {
            parts.append("buttons (consumer control, keyboard)")
        } else {
            parts.append("HID function gesturectl did not make")
        }
        if !function.isLinked { parts.append("(not in a configuration: the host does not see it)") }
        return DisplayText.escaped(parts.joined(separator: " "))
    }

    static func millimetres(_ axis: AbsoluteAxisInfo) -> String {
        guard axis.resolution > 0 else { return "?" }
        let units = Double(Int(axis.maximum) - Int(axis.minimum))
        return JSONText.number(units / Double(axis.resolution))
    }

    static func json(name: String, status: GadgetStatus?, controllers: [String], problem: String?) -> String {
        var members: [(String, String)] = [("name", JSONText.string(name)), ("exists", status == nil ? "false" : "true")]
        if let status {
            members += [
                ("path", JSONText.string(status.path)),
                ("udc", JSONText.stringOrNull(status.controller)),
                ("state", JSONText.stringOrNull(status.controllerState)),
                ("configured", status.isConfigured ? "true" : "false"),
            ]
        }
        members.append(("controllers", JSONText.array(controllers.map(JSONText.string))))
        if let status {
            members.append(("functions", JSONText.array(status.functions.map(json))))
        }
        if let problem { members.append(("problem", JSONText.string(problem))) }
        return JSONText.object(members)
    }

    static func json(_ function: GadgetFunctionStatus) -> String {
        var members: [(String, String)] = [
            ("name", JSONText.string(function.instance)),
            ("devnode", JSONText.stringOrNull(function.devnode)),
            ("linked", function.isLinked ? "true" : "false"),
        ]
        if let layout = function.touchscreenLayout {
            members += [
                ("kind", JSONText.string("touchscreen")), ("contacts", "\(layout.contacts)"),
                ("width_mm", millimetres(layout.x)), ("height_mm", millimetres(layout.y)),
                ("resolution", "\(layout.x.resolution)"),
            ]
        } else {
            members.append(("kind", JSONText.string(function.isMouse ? "mouse" : function.isButtons ? "buttons" : "other")))
        }
        return JSONText.object(members)
    }

    // MARK: Parsing

    /// `WxH` in millimetres, e.g. `216x135` or `154.5x86.9`.
    static func parseSize(_ text: String) throws -> (width: Double, height: Double) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width.isFinite, height.isFinite
        else {
            throw CommandFailure.usage("--size must be WIDTHxHEIGHT in millimetres, e.g. 216x135; got '\(DisplayText.escaped(text))'")
        }
        return (width, height)
    }

    /// A 16-bit hexadecimal id (`1d6b` or `0x1d6b`), or `nil` when not given.
    static func hexadecimal(_ values: ParsedValues, _ option: TypedOption<String?>) throws -> UInt16? {
        guard let text = values[option] else { return nil }
        let name = option.name
        let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        guard !digits.isEmpty, digits.count <= 4, let value = UInt16(digits, radix: 16) else {
            throw CommandFailure.usage("--\(name) must be a hexadecimal id from 0000 to ffff; got '\(DisplayText.escaped(text))'")
        }
        return value
    }
}
