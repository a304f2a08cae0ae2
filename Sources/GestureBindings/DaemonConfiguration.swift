import GestureEngine
import GestureFormat
import GestureModel
import GestureProtocol
import OperatingSystem

/// What the daemon reads from its configuration file (JSON, every key
/// optional), e.g.:
///
/// ```json
/// {"group": "gesturectl", "devices": ["touchscreen", "touchpad"], "queue_limit": 64}
/// ```
///
/// - `group`: who may connect besides root (default `gesturectl`).
/// - `devices`: the virtual devices kept ready (default: touchscreen,
///   touchpad, mouse, tablet, keyboard; the keyboard is for `press`).
/// - `library`: the folder of named gestures (default: the system service's
///   `/var/lib/gesturectl/gestures`, or the user's library for a user instance).
/// - `admin_group`: the group whose members act as administrators, as root
///   does: they may stop and change every user's work, bindings and
///   gestures (default none: root alone).
/// - `queue_limit`: requests waiting per device before `busy` (default 64).
/// - `reply_limit_mib`: unread replies per client before it is disconnected
///   (default 256); `reply_user_mib` and `reply_total_mib`: one user's and
///   all clients' unread replies and events before the clients that do not
///   read and hold the most are disconnected (defaults 256, 512). Read at start.
/// - `bindings`: custom actions, a list of ``TriggerBinding``s (default
///   none); the bindings saved over the socket (`bindings.json`) override them.
/// - `double_press_ms`, `long_press_ms`, `emergency_stop_ms`: the press
///   recogniser's timings (defaults 300, 800, 3000; see ``GestureEngine/PressRecognizer``).
/// - `grab`: trigger devices are grabbed (default false: a key on a shared
///   keyboard must not take the keyboard away).
/// - `dedicated_keyboards`: devices (by the identity bindings name them
///   with) kept for triggers alone, on which a binding with `"grab": true`
///   may use a key people type with (default none; see ``TriggerKeys``).
/// - `outputs`: how the ready devices are made (default `["uinput"]`):
///   `"uinput"`, `"uhid"` (HID devices the kernel's HID drivers drive) and
///   `"gadget"` (the HID functions of the USB gadget `gesturectl gadget up`
///   made; its configfs name is `gadget`, default `gesturectl`). Each output
///   keeps ready the `devices` it can play (uhid and a gadget: touchscreen,
///   mouse, keyboard), created at start (a HID output's device that cannot
///   be made yet is made when a play asks for it); `play`'s `to` chooses one.
///
/// The daemon never writes this file.
public struct DaemonConfiguration: Hashable, Sendable {
    /// The largest `daemon.json` read: 1 MiB (a configuration is a few KB).
    public static let maximumFileBytes = 1 << 20
    /// The kinds of virtual device that play gestures (`play`'s `as`).
    public static let playableKinds: [DeviceKind] = [.touchscreen, .touchpad, .mouse, .tablet]
    /// The kinds of virtual device the daemon can keep ready: the playable
    /// ones and the keyboard that `press` uses.
    public static let readyKinds: [DeviceKind] = playableKinds + [.keyboard]

    /// The group whose members may connect (root always may).
    public var group: String
    /// The group whose members act as administrators (`admin_group`): they
    /// may see and stop every user's work, bindings and gestures, as root
    /// may. `nil`: root alone.
    public var adminGroup: String?
    /// The devices kept ready, in the order created.
    public var devices: [DeviceKind]
    /// The library folder, when the file names one.
    public var library: String?
    /// Requests waiting per device before the daemon answers `busy`.
    public var queueLimit: Int
    /// Unread replies per client (MiB) before it is disconnected.
    public var replyLimitMiB = 256
    /// One user's clients' unread replies and events (MiB) before the
    /// largest of those that do not read are disconnected.
    public var replyUserMiB = 256
    /// All clients' unread replies and events (MiB) before the largest of
    /// those that do not read are disconnected.
    public var replyTotalMiB = 512
    /// The custom actions the configuration defines.
    public var bindings: [TriggerBinding]
    /// The press recogniser's timings.
    public var pressTimings: PressTimings
    /// Whether trigger devices are grabbed.
    public var grab: Bool
    /// The devices on which a grabbed trigger may be a typing key
    /// (``TriggerKeys``), by the identity the bindings name them with.
    public var dedicatedKeyboards: [String]
    /// How ready devices are made, in the order created (`play`'s `to`).
    public var outputs: [PlayOutput]

    /// The words `outputs` and `to` take.
    public static let outputWords = ["uinput", "uhid", "gadget"]
    /// The kinds a HID output (uhid, a gadget) can play.
    public static let hidKinds: Set<DeviceKind> = [.touchscreen, .mouse, .keyboard]

    /// The devices kept ready: each output's share of ``devices``, outputs
    /// in order (a HID output plays only ``hidKinds``).
    public var readyDevices: [ReadyDevice] {
        outputs.flatMap { output in
            devices.filter { output == .uinput || Self.hidKinds.contains($0) }.map { ReadyDevice(kind: $0, output: output) }
        }
    }

    /// The output a word of `outputs` or `to` names (`gadget` with the
    /// configured gadget name); `nil` for another word.
    public func output(named word: String) -> PlayOutput? {
        switch word {
        case "uinput": .uinput
        case "uhid": .uhid
        case "gadget": outputs.first { if case .gadget = $0 { true } else { false } } ?? .gadget(name: nil)
        default: nil
        }
    }

    /// The defaults.
    public init(
        group: String = "gesturectl", devices: [DeviceKind] = DaemonConfiguration.readyKinds, library: String? = nil,
        queueLimit: Int = 64, bindings: [TriggerBinding] = [], pressTimings: PressTimings = PressTimings(), grab: Bool = false,
        outputs: [PlayOutput] = [.uinput], dedicatedKeyboards: [String] = []
    ) {
        self.dedicatedKeyboards = dedicatedKeyboards
        self.outputs = outputs
        self.group = group
        self.devices = devices
        self.library = library
        self.queueLimit = queueLimit
        self.bindings = bindings
        self.pressTimings = pressTimings
        self.grab = grab
    }

    /// Reads a configuration from the bytes of a file named `path`.
    /// - Throws: ``DaemonError`` (`bad-argument`) naming the file and the key.
    public static func parse(_ bytes: [UInt8], path: String) throws(DaemonError) -> DaemonConfiguration {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw DaemonError(.badArgument, "\(path): not JSON: \(error)")
        }
        guard case .object(let members, _) = value else { throw DaemonError(.badArgument, "\(path): must be a JSON object") }
        var configuration = DaemonConfiguration()
        var outputWordsGiven = ["uinput"]
        var gadgetName: String?
        for (key, member) in members {
            switch key {
            case "group":
                guard case .string(let group) = member, !group.isEmpty else {
                    throw DaemonError(.badArgument, "\(path): \"group\" must be a group name")
                }
                configuration.group = group
            case "admin_group":
                guard case .string(let group) = member, !group.isEmpty else {
                    throw DaemonError(.badArgument, "\(path): \"admin_group\" must be a group name")
                }
                configuration.adminGroup = group
            case "devices":
                guard case .array(let items) = member else {
                    throw DaemonError(.badArgument, "\(path): \"devices\" must be a list such as [\"touchscreen\", \"touchpad\"]")
                }
                var kinds: [DeviceKind] = []
                for item in items {
                    guard case .string(let name) = item, let kind = DeviceKind(rawValue: name),
                        readyKinds.contains(kind)
                    else {
                        throw DaemonError(
                            .badArgument,
                            "\(path): \"devices\": \(item.jsonText) is not one of \(readyKinds.map(\.rawValue).joined(separator: ", "))")
                    }
                    if !kinds.contains(kind) { kinds.append(kind) }
                }
                configuration.devices = kinds
            case "library":
                guard case .string(let folder) = member, folder.hasPrefix("/") else {
                    throw DaemonError(.badArgument, "\(path): \"library\" must be an absolute folder path")
                }
                configuration.library = folder
            case "queue_limit":
                guard case .number(let text) = member, let limit = Int(text), (1...10_000).contains(limit) else {
                    throw DaemonError(.badArgument, "\(path): \"queue_limit\" must be a whole number from 1 to 10000")
                }
                configuration.queueLimit = limit
            case "reply_limit_mib", "reply_user_mib", "reply_total_mib":
                guard case .number(let text) = member, let mebibytes = Int(text), (1...65_536).contains(mebibytes) else {
                    throw DaemonError(.badArgument, "\(path): \"\(key)\" must be a whole number of MiB from 1 to 65536")
                }
                switch key {
                case "reply_limit_mib": configuration.replyLimitMiB = mebibytes
                case "reply_user_mib": configuration.replyUserMiB = mebibytes
                default: configuration.replyTotalMiB = mebibytes
                }
            case "bindings":
                configuration.bindings = try TriggerBinding.parseList(member, what: "\(path): \"bindings\"")
            case "double_press_ms", "long_press_ms", "emergency_stop_ms":
                guard case .number(let text) = member, let milliseconds = Int(text), (1...600_000).contains(milliseconds) else {
                    throw DaemonError(.badArgument, "\(path): \"\(key)\" must be a whole number of milliseconds from 1 to 600000")
                }
                let time = Microseconds(Int64(milliseconds) * 1_000)
                switch key {
                case "double_press_ms": configuration.pressTimings.doubleInterval = time
                case "long_press_ms": configuration.pressTimings.longPress = time
                default: configuration.pressTimings.emergencyStop = time
                }
            case "outputs":
                let wanted = "a list of \(outputWords.joined(separator: ", ")) such as [\"uinput\", \"uhid\"]"
                guard case .array(let items) = member, !items.isEmpty else {
                    throw DaemonError(.badArgument, "\(path): \"outputs\" must be \(wanted)")
                }
                var words: [String] = []
                for item in items {
                    guard case .string(let word) = item, outputWords.contains(word) else {
                        throw DaemonError(.badArgument, "\(path): \"outputs\": \(item.jsonText) is not one of \(outputWords.joined(separator: ", "))")
                    }
                    if !words.contains(word) { words.append(word) }
                }
                outputWordsGiven = words
            case "gadget":
                guard case .string(let name) = member, !name.isEmpty, name.utf8.count <= 64,
                    name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
                else {
                    throw DaemonError(.badArgument, "\(path): \"gadget\" must be a gadget's configfs name (letters, digits, - and _)")
                }
                gadgetName = name
            case "grab":
                guard case .bool(let grab) = member else { throw DaemonError(.badArgument, "\(path): \"grab\" must be true or false") }
                configuration.grab = grab
            case "dedicated_keyboards":
                configuration.dedicatedKeyboards = try parseDedicatedKeyboards(member, what: "\(path): \"dedicated_keyboards\"")
            default:
                throw DaemonError(
                    .badArgument,
                    "\(path): unknown key \"\(DaemonLog.oneLine(key))\" (known: group, admin_group, devices, library, queue_limit, reply_limit_mib, reply_user_mib, reply_total_mib, bindings, double_press_ms, long_press_ms, emergency_stop_ms, grab, dedicated_keyboards, outputs, gadget)")
            }
        }
        if let problem = configuration.pressTimings.problem { throw DaemonError(.badArgument, "\(path): \(problem)") }
        for (index, binding) in configuration.bindings.enumerated() {
            if let refusal = TriggerKeys.refusal(of: binding.trigger, dedicatedKeyboards: configuration.dedicatedKeyboards) {
                throw DaemonError(.badArgument, "\(path): \"bindings\"[\(index)]: \"trigger\": \(refusal)")
            }
        }
        if gadgetName != nil && !outputWordsGiven.contains("gadget") {
            throw DaemonError(.badArgument, "\(path): \"gadget\" names the gadget of the \"gadget\" output; add \"gadget\" to \"outputs\"")
        }
        configuration.outputs = outputWordsGiven.compactMap { word in
            word == "gadget" ? .gadget(name: gadgetName) : configuration.output(named: word)
        }
        return configuration
    }

    /// Reads `dedicated_keyboards`: stable identities, as a trigger's `device`.
    private static func parseDedicatedKeyboards(_ value: JSONValue, what: String) throws(DaemonError) -> [String] {
        guard case .array(let items) = value, items.count <= BindingLimits.maximumCount else {
            throw DaemonError(
                .badArgument, "\(what) must be a list of at most \(BindingLimits.maximumCount) devices such as [\"/dev/input/by-id/usb-Macropad-event-kbd\"]")
        }
        var devices: [String] = []
        for item in items {
            guard case .string(let device) = item else { throw DaemonError(.badArgument, "\(what): every item must be a device's identity (a string)") }
            try BindingLimits.check(device, limit: BindingLimits.maximumIdentityBytes, what: what)
            do throws(TriggerError) {
                try TriggerRequest.checkIdentity(device)
            } catch {
                throw DaemonError(.badArgument, "\(what): \(error.message)")
            }
            if !devices.contains(device) { devices.append(device) }
        }
        return devices
    }
}

/// A device the daemon keeps ready: a kind, made through an output.
public struct ReadyDevice: Hashable, Sendable, CustomStringConvertible {
    /// What it plays as.
    public var kind: DeviceKind
    /// How it is made.
    public var output: PlayOutput

    /// Creates a key.
    public init(kind: DeviceKind, output: PlayOutput = .uinput) {
        self.kind = kind
        self.output = output
    }

    /// The keyboard through uinput (`press`).
    public static let keyboard = ReadyDevice(kind: .keyboard)

    /// `touchscreen`, or `touchscreen (uhid)` for another output than uinput.
    public var description: String { output == .uinput ? kind.rawValue : "\(kind.rawValue) (\(output.word))" }
}
