import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem

/// A custom action: a press of a trigger (a key or button on an input
/// device) bound to playing a gesture or pressing a button.
///
/// As JSON (the `bind` request, the configuration's `bindings`, and
/// `bindings.json`):
///
/// ```json
/// {"trigger": {"device": "/dev/input/by-id/usb-Switch-event-kbd", "key": "BTN_0", "press": "double"},
///  "action": {"play": "three-finger-swipe-up", "as": "touchpad"}}
/// {"trigger": {"device": "046d:c52b", "key": "KEY_F13", "press": "single"}, "action": {"press": "volume-up"}}
/// ```
public struct TriggerBinding: Hashable, Sendable {
    /// Which key on which device, pressed how.
    public struct Trigger: Hashable, Sendable {
        /// The device's stable identity (never `eventN`).
        public var device: String
        /// The `KEY_*` or `BTN_*` name.
        public var key: String
        /// `single`, `double` or `long` (the emergency stop is not bindable).
        public var press: TriggerPress

        /// Creates a trigger (unchecked: ``parse(_:what:)`` checks).
        public init(device: String, key: String, press: TriggerPress) {
            self.device = device
            self.key = key
            self.press = press
        }

        /// The device and key, which one watch serves.
        var watched: WatchedKey { WatchedKey(device: device, key: key) }

        var json: JSONValue {
            .object([("device", .string(device)), ("key", .string(key)), ("press", .string(press.rawValue))])
        }

        /// The presses a binding may name.
        static let bindable: [TriggerPress] = [.single, .double, .long]

        /// Reads `{"device": …, "key": …, "press": …}`; `what` names it in errors.
        static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> Trigger {
            guard case .object(let members, _) = value else {
                throw DaemonError(.badArgument, "\(what) must be an object such as {\"device\": \"046d:c52b\", \"key\": \"KEY_F13\", \"press\": \"single\"}")
            }
            var device: String?
            var key: String?
            var press: TriggerPress?
            for (name, member) in members {
                switch (name, member) {
                case ("device", .string(let text)): device = text
                case ("key", .string(let text)): key = text
                case ("press", .string(let text)):
                    guard let kind = TriggerPress(rawValue: text), bindable.contains(kind) else {
                        throw DaemonError(.badArgument, "\(what): \"press\" must be \"single\", \"double\" or \"long\"")
                    }
                    press = kind
                case ("device", _), ("key", _), ("press", _):
                    throw DaemonError(.badArgument, "\(what): \"\(name)\" must be a string")
                default:
                    throw DaemonError(.badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(name))\" (known: device, key, press)")
                }
            }
            guard let device else { throw DaemonError(.badArgument, "\(what): \"device\" is missing") }
            guard let key else { throw DaemonError(.badArgument, "\(what): \"key\" is missing") }
            guard let press else { throw DaemonError(.badArgument, "\(what): \"press\" is missing") }
            do throws(TriggerError) {
                try TriggerRequest.checkIdentity(device)
                _ = try TriggerRequest.keyCode(named: key)
            } catch {
                throw DaemonError(.badArgument, "\(what): \(error.message)")
            }
            return Trigger(device: device, key: key, press: press)
        }
    }

    /// What a press of the trigger does.
    public enum Action: Hashable, Sendable {
        /// Plays a gesture of the library on a ready device.
        case play(name: String, on: DeviceKind)
        /// Taps a button on the ready keyboard (`force`: the binding may press `power`).
        case press(key: String, force: Bool)
        /// Starts the guided create flow (GestureAssist's ``GestureAssist/CreateFlow``)
        /// drawing on this device (a stable identity), operated by the
        /// trigger's switch; its lines go to `create` subscribers.
        case create(CreateAction)
        /// Opens the menu of actions (GestureAssist's ``GestureAssist/ActionMenu``),
        /// operated by the trigger's switch; its lines go to `menu` subscribers.
        case menu(MenuAction)

        var json: JSONValue {
            switch self {
            case .menu(let menu): .object([("menu", menu.json)])
            case .play(let name, let kind): .object([("play", .string(name)), ("as", .string(kind.rawValue))])
            case .create(let create): .object([("create", create.json)])
            case .press(let key, let force):
                .object([("press", .string(key))] + (force ? [("force", .bool(true))] : []))
            }
        }

        /// Reads `{"play": NAME, "as": KIND}`, `{"press": KEY, "force": BOOL}`
        /// or `{"create": {"device": DEVICE}}`.
        static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> Action {
            guard case .object(let members, _) = value else {
                throw DaemonError(.badArgument, "\(what) must be {\"play\": NAME}, {\"press\": KEY} or {\"create\": {\"device\": DEVICE}}")
            }
            let keys = Set(members.map(\.key))
            if [keys.contains("play"), keys.contains("press"), keys.contains("create"), keys.contains("menu")].filter({ $0 }).count != 1 {
                throw DaemonError(
                    .badArgument,
                    "\(what) must have one of \"play\" (a gesture's name), \"press\" (a button), \"create\" (the guided create flow) or \"menu\" (the menu of actions)")
            }
            if let menu = value["menu"] {
                if let unknown = keys.subtracting(["menu"]).sorted().first {
                    throw DaemonError(.badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: menu)")
                }
                return .menu(try MenuAction.parse(menu, what: "\(what): \"menu\""))
            }
            if let create = value["create"] {
                if let unknown = keys.subtracting(["create"]).sorted().first {
                    throw DaemonError(.badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: create)")
                }
                return .create(try CreateAction.parse(create, what: "\(what): \"create\""))
            }
            let allowed: Set<String> = keys.contains("play") ? ["play", "as"] : ["press", "force"]
            if let unknown = keys.subtracting(allowed).sorted().first {
                throw DaemonError(
                    .badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: \(allowed.sorted().joined(separator: ", ")))")
            }
            if case .string(let name)? = value["play"] {
                if let problem = GestureName.problem(with: name) {
                    throw DaemonError(.badArgument, "\(what): \"play\": \(problem)")
                }
                var kind = DeviceKind.touchscreen
                if let member = value["as"] {
                    guard case .string(let text) = member, let named = DeviceKind(rawValue: text),
                        DaemonConfiguration.playableKinds.contains(named)
                    else {
                        throw DaemonError(
                            .badArgument, "\(what): \"as\" must be one of \(DaemonConfiguration.playableKinds.map(\.rawValue).joined(separator: ", "))")
                    }
                    kind = named
                }
                return .play(name: name, on: kind)
            }
            guard case .string(let keyName)? = value["press"] else {
                throw DaemonError(.badArgument, "\(what): \"\(keys.contains("play") ? "play" : "press")\" must be a string")
            }
            var force = false
            if let member = value["force"] {
                guard case .bool(let flag) = member else { throw DaemonError(.badArgument, "\(what): \"force\" must be true or false") }
                force = flag
            }
            let key: VirtualKeyboard.Key
            do throws(KeyNameError) {
                key = try VirtualKeyboard.key(named: keyName)
            } catch {
                throw DaemonError(.badArgument, "\(what): \"press\": \(error)")
            }
            if VirtualKeyboard.needsForce.contains(key.code) && !force {
                throw DaemonError(
                    .badArgument, "\(what): \(key.name) (\(key.kernelName)) can switch the machine off; add \"force\": true to bind it")
            }
            return .press(key: keyName, force: force)
        }
    }

    /// The trigger.
    public var trigger: Trigger
    /// The action.
    public var action: Action

    /// Creates a binding.
    public init(trigger: Trigger, action: Action) {
        self.trigger = trigger
        self.action = action
    }

    var json: JSONValue { .object([("trigger", trigger.json), ("action", action.json)]) }

    /// Reads `{"trigger": {...}, "action": {...}}`.
    static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> TriggerBinding {
        guard case .object(let members, _) = value else {
            throw DaemonError(.badArgument, "\(what) must be an object {\"trigger\": {...}, \"action\": {...}}")
        }
        if let unknown = members.map(\.key).first(where: { $0 != "trigger" && $0 != "action" }) {
            throw DaemonError(.badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: trigger, action)")
        }
        guard let trigger = value["trigger"] else { throw DaemonError(.badArgument, "\(what): \"trigger\" is missing") }
        guard let action = value["action"] else { throw DaemonError(.badArgument, "\(what): \"action\" is missing") }
        return TriggerBinding(
            trigger: try Trigger.parse(trigger, what: "\(what): \"trigger\""), action: try Action.parse(action, what: "\(what): \"action\""))
    }

    /// Reads a list of bindings; a trigger bound twice is an error.
    static func parseList(_ value: JSONValue, what: String) throws(DaemonError) -> [TriggerBinding] {
        guard case .array(let items) = value else { throw DaemonError(.badArgument, "\(what) must be a list of bindings") }
        var bindings: [TriggerBinding] = []
        for (index, item) in items.enumerated() {
            let binding = try parse(item, what: "\(what)[\(index)]")
            if bindings.contains(where: { $0.trigger == binding.trigger }) {
                throw DaemonError(.badArgument, "\(what)[\(index)]: this trigger is bound already")
            }
            bindings.append(binding)
        }
        return bindings
    }
}

/// How a binding's create flow runs: the drawing device, and how its
/// switch (the binding's trigger) scans.
public struct CreateAction: Hashable, Sendable {
    /// The drawing device, by a stable identity (never `eventN`).
    public var device: String
    /// A press during recording stops it (default: the recording ends 3 s
    /// after the last lift).
    public var stopsRecording = false
    /// How long scanning highlights each item (default 1 s).
    public var scanInterval = Microseconds(1_000_000)
    /// How much longer the first item stays highlighted (default 0.7 s).
    public var firstItemHold = Microseconds(700_000)

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("device", .string(device))]
        if stopsRecording { members.append(("stops_recording", .bool(true))) }
        members.append(("scan_interval_ms", .integer(Int(scanInterval.rawValue / 1_000))))
        members.append(("first_item_hold_ms", .integer(Int(firstItemHold.rawValue / 1_000))))
        return .object(members)
    }

    /// Reads `{"device": DEVICE, "stops_recording": BOOL, "scan_interval_ms": N, "first_item_hold_ms": N}`.
    static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> CreateAction {
        guard case .object(let members, _) = value, case .string(let device)? = value["device"] else {
            throw DaemonError(.badArgument, "\(what) must be {\"device\": DEVICE} (the drawing device)")
        }
        let known: Set<String> = ["device", "stops_recording", "scan_interval_ms", "first_item_hold_ms"]
        if let unknown = Set(members.map(\.key)).subtracting(known).sorted().first {
            throw DaemonError(
                .badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: \(known.sorted().joined(separator: ", ")))")
        }
        do throws(TriggerError) {
            try TriggerRequest.checkIdentity(device)
        } catch {
            throw DaemonError(.badArgument, "\(what): \"device\": \(error.message)")
        }
        var action = CreateAction(device: device)
        if let member = value["stops_recording"] {
            guard case .bool(let flag) = member else { throw DaemonError(.badArgument, "\(what): \"stops_recording\" must be true or false") }
            action.stopsRecording = flag
        }
        let timing = try parseScanning(value, what: what)
        action.scanInterval = timing.interval ?? action.scanInterval
        action.firstItemHold = timing.firstItemHold ?? action.firstItemHold
        return action
    }

    /// `scan_interval_ms` (300–10000) and `first_item_hold_ms` (0–10000), when given.
    static func parseScanning(_ value: JSONValue, what: String) throws(DaemonError) -> (interval: Microseconds?, firstItemHold: Microseconds?) {
        func milliseconds(_ key: String, in range: ClosedRange<Int>) throws(DaemonError) -> Microseconds? {
            guard let member = value[key] else { return nil }
            guard case .number(let text) = member, let number = Int(text), range.contains(number) else {
                throw DaemonError(
                    .badArgument, "\(what): \"\(key)\" must be a whole number of milliseconds from \(range.lowerBound) to \(range.upperBound)")
            }
            return Microseconds(Int64(number) * 1_000)
        }
        return (try milliseconds("scan_interval_ms", in: 300...10_000), try milliseconds("first_item_hold_ms", in: 0...10_000))
    }
}

/// How a binding's menu runs: its configuration (`gesturectl menu`'s
/// `menu.json` format; default: the built-in top level), the drawing device
/// of its Create New Gesture, and how its switch scans.
public struct MenuAction: Hashable, Sendable {
    /// A `menu.json` to read when the menu opens; `nil`: the defaults.
    public var configuration: String?
    /// The drawing device for Create New Gesture (a stable identity);
    /// `nil`: the only touch or pointer device.
    public var drawingDevice: String?
    /// How long scanning highlights each item (default 1 s).
    public var scanInterval = Microseconds(1_000_000)
    /// How much longer the first item stays highlighted (default 0.7 s).
    public var firstItemHold = Microseconds(700_000)

    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let configuration { members.append(("config", .string(configuration))) }
        if let drawingDevice { members.append(("device", .string(drawingDevice))) }
        members.append(("scan_interval_ms", .integer(Int(scanInterval.rawValue / 1_000))))
        members.append(("first_item_hold_ms", .integer(Int(firstItemHold.rawValue / 1_000))))
        return .object(members)
    }

    /// Reads `{"config": PATH, "device": DEVICE, "scan_interval_ms": N, "first_item_hold_ms": N}`, all optional.
    static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> MenuAction {
        guard case .object(let members, _) = value else {
            throw DaemonError(.badArgument, "\(what) must be an object such as {} or {\"config\": \"/etc/gesturectl/menu.json\"}")
        }
        let known: Set<String> = ["config", "device", "scan_interval_ms", "first_item_hold_ms"]
        if let unknown = Set(members.map(\.key)).subtracting(known).sorted().first {
            throw DaemonError(
                .badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: \(known.sorted().joined(separator: ", ")))")
        }
        var action = MenuAction()
        if let member = value["config"] {
            guard case .string(let path) = member, path.hasPrefix("/") else {
                throw DaemonError(.badArgument, "\(what): \"config\" must be an absolute path")
            }
            action.configuration = path
        }
        if let member = value["device"] {
            guard case .string(let device) = member else { throw DaemonError(.badArgument, "\(what): \"device\" must be a string") }
            do throws(TriggerError) {
                try TriggerRequest.checkIdentity(device)
            } catch {
                throw DaemonError(.badArgument, "\(what): \"device\": \(error.message)")
            }
            action.drawingDevice = device
        }
        let timing = try CreateAction.parseScanning(value, what: what)
        action.scanInterval = timing.interval ?? action.scanInterval
        action.firstItemHold = timing.firstItemHold ?? action.firstItemHold
        return action
    }
}

/// One watched key on one device: the presses of every binding of that
/// key are recognised by one watch.
struct WatchedKey: Hashable, Sendable, Comparable {
    var device: String
    var key: String

    static func < (lhs: WatchedKey, rhs: WatchedKey) -> Bool { (lhs.device, lhs.key) < (rhs.device, rhs.key) }
}

/// The bindings changed over the socket, in their file (`bindings.json`):
/// `{"bindings": [...]}`, written atomically, overriding the
/// configuration's bindings while it exists.
enum BindingsFile {
    /// The bindings saved at `path`, or `nil` when there is no file.
    /// - Throws: ``DaemonError`` naming the file when it cannot be read or has errors.
    static func load(_ path: String) throws(DaemonError) -> [TriggerBinding]? {
        guard FileIO.exists(path) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path: path, limit: 16 << 20)
        } catch {
            throw DaemonError(.internal, "\(path): \(error)")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw DaemonError(.badArgument, "\(path): not JSON: \(error)")
        }
        guard case .object(let members, _) = value, members.count == 1, let list = value["bindings"] else {
            throw DaemonError(.badArgument, "\(path): must be {\"bindings\": [...]}")
        }
        return try TriggerBinding.parseList(list, what: "\(path): \"bindings\"")
    }

    /// Writes `bindings` to `path` atomically (making its folder if needed).
    static func save(_ bindings: [TriggerBinding], to path: String) throws(DaemonError) {
        let text = JSONValue.object([("bindings", .array(bindings.map(\.json)))]).jsonText + "\n"
        do {
            try FileIO.createDirectories(FileIO.directoryName(path))
            try FileIO.writeAtomically(Array(text.utf8), to: path, permissions: 0o640)
        } catch {
            throw DaemonError(.internal, "cannot save the bindings: \(error)")
        }
    }

    /// Deletes the file; a missing file is no error.
    static func remove(_ path: String) throws(DaemonError) {
        guard FileIO.exists(path) else { return }
        do {
            try FileIO.remove(path)
        } catch {
            throw DaemonError(.internal, "cannot delete the saved bindings: \(error)")
        }
    }
}
