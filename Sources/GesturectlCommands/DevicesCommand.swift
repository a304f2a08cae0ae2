import CommandKit
import DeviceDiscovery
import GestureEngine
import GestureModel
import InputSystem
import OperatingSystem

/// `devices`: what input devices exist and what they are.
enum DevicesCommand {
    static let section = "Devices, recording and playing"

    /// The facts `devices --json` prints about one device.
    static func json(_ device: DeviceFacts) -> String { device.json.jsonText }

    /// Several lines of text about one device.
    static func text(_ device: DeviceFacts) -> String {
        var lines = ["\(shown(device.node))  \(device.kind)  \(shown(device.name))"]
        var facts: [String] = []
        if let slots = device.slots { facts.append(slots == 1 ? "1 slot" : "\(slots) slots") }
        if let x = device.x, let y = device.y {
            facts.append("x \(x.minimum)…\(x.maximum), y \(y.minimum)…\(y.maximum)")
            if x.resolution > 0 || y.resolution > 0 { facts.append("\(x.resolution)×\(y.resolution) units/mm") }
        }
        if let width = device.widthMM, let height = device.heightMM {
            facts.append("\(JSONText.number(width)) × \(JSONText.number(height)) mm")
        }
        if let id = device.vendorProduct { facts.append(id) }
        if !facts.isEmpty { lines.append("    " + facts.joined(separator: " · ")) }
        for link in device.links.filter({ $0.hasPrefix("/dev/input/by-id/") }) { lines.append("    \(shown(link))") }
        if let problem = device.problem { lines.append("    \(shown(problem))") }
        return lines.joined(separator: "\n")
    }

    private static let jsonFlag: TypedOption<Bool> = .flag("json", help: "Print JSON instead of text.")
    private static let watchFlag: TypedOption<Bool> = .flag("watch", help: "Keep running and report devices as they come and go.")

    static let command = Command(
        name: "devices", abstract: "List input devices: kind, slots, axes, resolution and size.",
        discussion: """
            Every evdev device udev knows, with what it is (touchscreen,
            touchpad, tablet/pen, mouse/pointer, keyboard/buttons), how many
            fingers it tracks (slots), its axis ranges and resolution, its
            physical size in mm, and its stable /dev/input/by-id links (use
            those, a name, or vendor:product with --device: they survive
            re-plugging). Reading a device's details needs read access to
            its node (the 'input' group).
            --watch keeps running and prints a line for each device added or
            removed (one JSON object per line with --json).
            """,
        section: section,
        options: [jsonFlag, watchFlag]
    ) { values, context in
        let devices: [DeviceFacts]
        if let client = try context.daemonClient(values) {
            if values[watchFlag] {
                throw CommandFailure.usage("--watch is not available through the daemon (it lists the input devices it sees once)")
            }
            devices = try DaemonCalls.devices(client)
        } else {
            devices = try InputDevices.list().map(DeviceFacts.init)
        }
        let asJSON = values[jsonFlag]
        if asJSON {
            context.print(JSONText.array(devices.map(json)))
        } else if devices.isEmpty {
            context.print("No input devices are visible.")
        } else {
            for device in devices { context.print(text(device)) }
        }
        guard values[watchFlag] else { return }
        try await watch(asJSON: asJSON, context: context)
    }

    /// Follows udev's hotplug events until interrupted (exit status 130).
    private static func watch(asJSON: Bool, context: CommandContext) async throws {
        let handle = try context.engine.startWatchingDevices()
        context.cancelledBySignals(handle)
        if !asJSON { context.note("watching for devices (Ctrl-C to stop)") }
        handle.observeProgress { event in
            if asJSON {
                context.print(JSONText.object([("event", JSONText.string(event.change.rawValue)), ("device", json(DeviceFacts(event.device)))]))
            } else {
                context.print("\(event.change.rawValue): " + text(DeviceFacts(event.device)))
            }
        }
        if let error = await context.untilFinished(handle) { throw error }
        throw CommandFailure.exit(.interrupted)
    }
}
