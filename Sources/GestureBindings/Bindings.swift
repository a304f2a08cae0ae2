import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureProtocol
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
        /// The daemon takes the device for its watches alone (EVIOCGRAB)
        /// while the binding is in force: nothing else sees its keys. A key
        /// people type with may be a trigger only so, on a dedicated
        /// keyboard (``TriggerKeys``).
        public var grab: Bool

        /// Creates a trigger (unchecked: ``parse(_:what:)`` checks).
        public init(device: String, key: String, press: TriggerPress, grab: Bool = false) {
            self.device = device
            self.key = key
            self.press = press
            self.grab = grab
        }

        /// The device and key, which one watch serves.
        package var watched: WatchedKey { WatchedKey(device: device, key: key) }

        /// Whether `other` is the same press of the same key (whatever its
        /// `grab`): one binding each, and what `unbind` names.
        package func isSame(as other: Trigger) -> Bool { device == other.device && key == other.key && press == other.press }

        package var json: JSONValue {
            .object(
                [("device", .string(device)), ("key", .string(key)), ("press", .string(press.rawValue))]
                    + (grab ? [("grab", .bool(true))] : []))
        }

        /// The presses a binding may name.
        package static let bindable: [TriggerPress] = [.single, .double, .long]

        /// Reads `{"device": …, "key": …, "press": …}`; `what` names it in errors.
        package static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> Trigger {
            guard case .object(let members, _) = value else {
                throw DaemonError(.badArgument, "\(what) must be an object such as {\"device\": \"046d:c52b\", \"key\": \"KEY_F13\", \"press\": \"single\"}")
            }
            var device: String?
            var key: String?
            var press: TriggerPress?
            var grab = false
            for (name, member) in members {
                switch (name, member) {
                case ("device", .string(let text)):
                    try BindingLimits.check(text, limit: BindingLimits.maximumIdentityBytes, what: "\(what): \"device\"")
                    device = text
                case ("key", .string(let text)):
                    try BindingLimits.check(text, limit: BindingLimits.maximumKeyNameBytes, what: "\(what): \"key\"")
                    key = text
                case ("grab", .bool(let flag)): grab = flag
                case ("grab", _): throw DaemonError(.badArgument, "\(what): \"grab\" must be true or false")
                case ("press", .string(let text)):
                    guard let kind = TriggerPress(rawValue: text), bindable.contains(kind) else {
                        throw DaemonError(.badArgument, "\(what): \"press\" must be \"single\", \"double\" or \"long\"")
                    }
                    press = kind
                case ("device", _), ("key", _), ("press", _):
                    throw DaemonError(.badArgument, "\(what): \"\(name)\" must be a string")
                default:
                    throw DaemonError(.badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(name))\" (known: device, key, press, grab)")
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
            return Trigger(device: device, key: key, press: press, grab: grab)
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
        /// Starts live fingertips on a source; the next press of the same
        /// trigger stops them (``FingertipsAction``).
        case fingertips(FingertipsAction)
        /// Opens the on-screen button's menu (`gesturectl-button`), which
        /// the trigger then scans as one switch: each press of the trigger
        /// goes to the button as a `screen-menu` event (``ScreenMenuAction``).
        case screenMenu(ScreenMenuAction)

        /// The on-screen menu's scanning, when this opens it.
        package var screenMenu: ScreenMenuAction? { if case .screenMenu(let menu) = self { menu } else { nil } }

        package var json: JSONValue {
            switch self {
            case .fingertips(let fingertips): .object([(DaemonOperation.fingertips.rawValue, fingertips.json)])
            case .menu(let menu): .object([("menu", menu.json)])
            case .screenMenu(let menu): .object([(ScreenMenuAction.key, menu.json)])
            case .play(let name, let kind): .object([("play", .string(name)), ("as", .string(kind.rawValue))])
            case .create(let create): .object([("create", create.json)])
            case .press(let key, let force):
                .object([("press", .string(key))] + (force ? [("force", .bool(true))] : []))
            }
        }

        /// Reads `{"play": NAME, "as": KIND}`, `{"press": KEY, "force": BOOL}`
        /// or `{"create": {"device": DEVICE}}`.
        package static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> Action {
            guard case .object(let members, _) = value else {
                throw DaemonError(.badArgument, "\(what) must be {\"play\": NAME}, {\"press\": KEY} or {\"create\": {\"device\": DEVICE}}")
            }
            let keys = Set(members.map(\.key))
            let fingertipsKey = DaemonOperation.fingertips.rawValue
            if [
                keys.contains("play"), keys.contains("press"), keys.contains("create"), keys.contains("menu"), keys.contains(fingertipsKey),
                keys.contains(ScreenMenuAction.key),
            ]
            .filter({ $0 }).count != 1 {
                throw DaemonError(
                    .badArgument,
                    "\(what) must have one of \"play\" (a gesture's name), \"press\" (a button), \"create\" (the guided create flow), \"menu\" (the menu of actions), \"fingertips\" (live fingertips) or \"screen-menu\" (the on-screen button's menu)")
            }
            if let screenMenu = value[ScreenMenuAction.key] {
                if let unknown = keys.subtracting([ScreenMenuAction.key]).sorted().first {
                    throw DaemonError(.badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: \(ScreenMenuAction.key))")
                }
                return .screenMenu(try ScreenMenuAction.parse(screenMenu, what: "\(what): \"\(ScreenMenuAction.key)\""))
            }
            if let fingertips = value[fingertipsKey] {
                if let unknown = keys.subtracting([fingertipsKey]).sorted().first {
                    throw DaemonError(.badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: \(fingertipsKey))")
                }
                guard case .object(let options, _) = fingertips else {
                    throw DaemonError(.badArgument, "\(what): \"\(fingertipsKey)\" must be an object such as {\"count\": 3}")
                }
                let arguments = try Arguments(object: options, what: "\(what): \"\(fingertipsKey)\"", allowed: FingertipsAction.bindingFields)
                return .fingertips(try FingertipsAction(arguments))
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
            try BindingLimits.check(keyName, limit: BindingLimits.maximumKeyNameBytes, what: "\(what): \"press\"")
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
    /// The user who bound it over the socket (issue 36: only they, or an
    /// administrator, may change or remove it); `nil` for the
    /// configuration's, which only an administrator may change.
    public var owner: UInt32?

    /// Creates a binding.
    public init(trigger: Trigger, action: Action, owner: UInt32? = nil) {
        self.trigger = trigger
        self.action = action
        self.owner = owner
    }

    /// As `bindings.json` and the configuration hold it (with its `owner`).
    package var json: JSONValue {
        .object([("trigger", trigger.json), ("action", action.json)] + (owner.map { [("owner", JSONValue.integer(Int($0)))] } ?? []))
    }

    /// Reads `{"trigger": {...}, "action": {...}}`.
    package static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> TriggerBinding {
        guard case .object(let members, _) = value else {
            throw DaemonError(.badArgument, "\(what) must be an object {\"trigger\": {...}, \"action\": {...}}")
        }
        if let unknown = members.map(\.key).first(where: { $0 != "trigger" && $0 != "action" && $0 != "owner" }) {
            throw DaemonError(.badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: trigger, action, owner)")
        }
        guard let trigger = value["trigger"] else { throw DaemonError(.badArgument, "\(what): \"trigger\" is missing") }
        guard let action = value["action"] else { throw DaemonError(.badArgument, "\(what): \"action\" is missing") }
        var owner: UInt32?
        if let value = value["owner"] {
            guard case .number(let text) = value, let uid = UInt32(text) else {
                throw DaemonError(.badArgument, "\(what): \"owner\" must be a user id (a whole number from 0 to 4294967295)")
            }
            owner = uid
        }
        return TriggerBinding(
            trigger: try Trigger.parse(trigger, what: "\(what): \"trigger\""), action: try Action.parse(action, what: "\(what): \"action\""),
            owner: owner)
    }

    /// Reads a list of bindings; a trigger bound twice is an error.
    package static func parseList(_ value: JSONValue, what: String) throws(DaemonError) -> [TriggerBinding] {
        guard case .array(let items) = value else { throw DaemonError(.badArgument, "\(what) must be a list of bindings") }
        if items.count > BindingLimits.maximumCount {
            throw DaemonError(.badArgument, "\(what) has \(items.count) bindings; the most allowed is \(BindingLimits.maximumCount)")
        }
        var bindings: [TriggerBinding] = []
        for (index, item) in items.enumerated() {
            let binding = try parse(item, what: "\(what)[\(index)]")
            if bindings.contains(where: { $0.trigger.isSame(as: binding.trigger) }) {
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

    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("device", .string(device))]
        if stopsRecording { members.append(("stops_recording", .bool(true))) }
        members.append(("scan_interval_ms", .integer(Int(scanInterval.rawValue / 1_000))))
        members.append(("first_item_hold_ms", .integer(Int(firstItemHold.rawValue / 1_000))))
        return .object(members)
    }

    /// Reads `{"device": DEVICE, "stops_recording": BOOL, "scan_interval_ms": N, "first_item_hold_ms": N}`.
    package static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> CreateAction {
        guard case .object(let members, _) = value, case .string(let device)? = value["device"] else {
            throw DaemonError(.badArgument, "\(what) must be {\"device\": DEVICE} (the drawing device)")
        }
        try BindingLimits.check(device, limit: BindingLimits.maximumIdentityBytes, what: "\(what): \"device\"")
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
    package static func parseScanning(_ value: JSONValue, what: String) throws(DaemonError) -> (interval: Microseconds?, firstItemHold: Microseconds?) {
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

    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let configuration { members.append(("config", .string(configuration))) }
        if let drawingDevice { members.append(("device", .string(drawingDevice))) }
        members.append(("scan_interval_ms", .integer(Int(scanInterval.rawValue / 1_000))))
        members.append(("first_item_hold_ms", .integer(Int(firstItemHold.rawValue / 1_000))))
        return .object(members)
    }

    /// Reads `{"config": PATH, "device": DEVICE, "scan_interval_ms": N, "first_item_hold_ms": N}`, all optional.
    package static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> MenuAction {
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
            try BindingLimits.check(path, limit: BindingLimits.maximumPathBytes, what: "\(what): \"config\"")
            action.configuration = path
        }
        if let member = value["device"] {
            guard case .string(let device) = member else { throw DaemonError(.badArgument, "\(what): \"device\" must be a string") }
            try BindingLimits.check(device, limit: BindingLimits.maximumIdentityBytes, what: "\(what): \"device\"")
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

/// How a binding scans the on-screen button's menu: the same timings as
/// the daemon's menu (`scan_interval_ms`, default 1 s; `first_item_hold_ms`,
/// default 0.7 s), carried by each `screen-menu` event to the button.
public struct ScreenMenuAction: Hashable, Sendable {
    /// The action's key in a binding: `{"screen-menu": {}}`.
    public static let key = "screen-menu"
    /// How long scanning highlights each item (default 1 s).
    public var scanInterval = Microseconds(1_000_000)
    /// How much longer the first item stays highlighted (default 0.7 s).
    public var firstItemHold = Microseconds(700_000)

    /// Default timings.
    public init() {}

    package var json: JSONValue {
        .object([
            ("scan_interval_ms", .integer(Int(scanInterval.rawValue / 1_000))),
            ("first_item_hold_ms", .integer(Int(firstItemHold.rawValue / 1_000))),
        ])
    }

    /// Reads `{"scan_interval_ms": N, "first_item_hold_ms": N}`, both optional.
    package static func parse(_ value: JSONValue, what: String) throws(DaemonError) -> ScreenMenuAction {
        guard case .object(let members, _) = value else {
            throw DaemonError(.badArgument, "\(what) must be an object such as {} or {\"scan_interval_ms\": 1500}")
        }
        let known: Set<String> = ["scan_interval_ms", "first_item_hold_ms"]
        if let unknown = Set(members.map(\.key)).subtracting(known).sorted().first {
            throw DaemonError(
                .badArgument, "\(what): unknown key \"\(DaemonLog.oneLine(unknown))\" (known: \(known.sorted().joined(separator: ", ")))")
        }
        var action = ScreenMenuAction()
        let timing = try CreateAction.parseScanning(value, what: what)
        action.scanInterval = timing.interval ?? action.scanInterval
        action.firstItemHold = timing.firstItemHold ?? action.firstItemHold
        return action
    }

    /// The event a press of its trigger pushes.
    package func event(_ key: WatchedKey, press: TriggerPress) -> ScreenMenuEvent {
        ScreenMenuEvent(
            device: key.device, key: key.key, press: press.rawValue, scanIntervalMilliseconds: Int(scanInterval.rawValue / 1_000),
            firstItemHoldMilliseconds: Int(firstItemHold.rawValue / 1_000))
    }
}

/// Live fingertips as the `fingertips` operation and a binding's action
/// ask for them: `count` (2 to 10), and optionally the source `device`,
/// `layout` (`row`, `arc`), `spacing_mm`, `speed`, `idle_ms` (0: never),
/// `absolute` and `as` (`touchscreen`, `touchpad`).
public struct FingertipsAction: Hashable, Sendable {
    /// The fields a binding's action takes (the operation's, but `on_disconnect`).
    package static let bindingFields = DaemonOperation.fingertips.fields.subtracting([.onDisconnect])
    /// The longest idle time, in milliseconds (a day).
    public static let maximumIdleMilliseconds = 86_400_000
    /// The widest spacing, in millimetres.
    public static let maximumSpacingMillimetres = 500.0

    /// How many fingertips.
    public var count: Int
    /// The source (a node, link, name or vendor:product); `nil`: the only touch or pointer device.
    public var device: String?
    /// `row` or `arc`; `nil`: a row.
    public var layout: String?
    public var spacingMillimetres: Double?
    public var speed: Double?
    /// The idle time (0: never); `nil`: 5 s.
    public var idleMilliseconds: Int?
    public var absolute = false
    /// Whether a hover pen shows where they will land (``GestureEngine/FingertipsRequest/hover``).
    public var hover = true
    /// The target's kind (a touchscreen or a touchpad); `nil`: as `fingertips` chooses.
    public var kind: DeviceKind?

    /// Fingertips with the defaults.
    public init(count: Int) { self.count = count }

    /// Reads one from a request's arguments (or a binding's object), checking each.
    package init(_ arguments: Arguments) throws(DaemonError) {
        let what = arguments.op
        guard let count = try arguments.integer(.count, in: FingertipsOptions.countRange) else {
            throw DaemonError(.badArgument, "\(what): \"\(DaemonField.count.rawValue)\" is missing (how many fingertips, 2 to 10)")
        }
        self.count = count
        if let device = try arguments.string(.device) {
            try BindingLimits.check(device, limit: BindingLimits.maximumIdentityBytes, what: "\(what): \"\(DaemonField.device.rawValue)\"")
            self.device = device
        }
        if let layout = try arguments.string(.layout) {
            guard FingertipsOptions.layoutNames.contains(layout) else {
                throw DaemonError(
                    .badArgument,
                    "\(what): \"\(DaemonField.layout.rawValue)\" must be one of \(FingertipsOptions.layoutNames.joined(separator: ", "))")
            }
            self.layout = layout
        }
        spacingMillimetres = try arguments.number(.spacingMillimetres, in: 0.1...Self.maximumSpacingMillimetres)
        speed = try arguments.number(.speed, in: FingertipsOptions.speedRange)
        idleMilliseconds = try arguments.integer(.idleMilliseconds, in: 0...Self.maximumIdleMilliseconds)
        absolute = try arguments.bool(.absolute, default: false)
        hover = try arguments.bool(.hover, default: true)
        if let kindName = try arguments.string(.kind) {
            guard let kind = DeviceKind(rawValue: kindName), kind == .touchscreen || kind == .touchpad else {
                throw DaemonError(.badArgument, "\(what): \"\(DaemonField.kind.rawValue)\" must be touchscreen or touchpad")
            }
            self.kind = kind
        }
    }

    /// The engine's request.
    package var request: FingertipsRequest {
        var options = FingertipsOptions(count: count, absolute: absolute)
        if let layout { _ = options.setLayout(named: layout) }
        if let spacingMillimetres { options.spacingMM = spacingMillimetres }
        if let speed { options.speed = speed }
        if let idleMilliseconds { options.idle = idleMilliseconds == 0 ? nil : Microseconds(Int64(idleMilliseconds) * 1_000) }
        return FingertipsRequest(device: device, options: options, target: kind.map { .kind($0) } ?? .automatic, hover: hover)
    }

    /// {count, then each option given}.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [(DaemonField.count.rawValue, .integer(count))]
        if let device { members.append((DaemonField.device.rawValue, .string(device))) }
        if let layout { members.append((DaemonField.layout.rawValue, .string(layout))) }
        if let spacingMillimetres { members.append((DaemonField.spacingMillimetres.rawValue, .decimal(spacingMillimetres))) }
        if let speed { members.append((DaemonField.speed.rawValue, .decimal(speed))) }
        if let idleMilliseconds { members.append((DaemonField.idleMilliseconds.rawValue, .integer(idleMilliseconds))) }
        if absolute { members.append((DaemonField.absolute.rawValue, .bool(true))) }
        if !hover { members.append((DaemonField.hover.rawValue, .bool(false))) }
        if let kind { members.append((DaemonField.kind.rawValue, .string(kind.rawValue))) }
        return .object(members)
    }
}

/// One watched key on one device: the presses of every binding of that
/// key are recognised by one watch.
package struct WatchedKey: Hashable, Sendable, Comparable {
    package var device: String
    package var key: String

    package static func < (lhs: WatchedKey, rhs: WatchedKey) -> Bool { (lhs.device, lhs.key) < (rhs.device, rhs.key) }
}

/// The limits on what a binding holds, checked wherever bindings are read
/// (`bind`, the configuration's `bindings`, `bindings.json`), so that the
/// largest set the daemon accepts always fits the file it reads back
/// (``BindingsFile/readLimit``): at most 256 bindings of at most three
/// strings of 4 KiB (a trigger's device, a menu's `config` and `device`),
/// none with a control character, so that JSON at most doubles them.
public enum BindingLimits {
    /// The most bindings in force (`bind` of one more is `bad-argument`).
    public static let maximumCount = 256
    /// The longest device identity (a trigger's, a create flow's or a menu's
    /// drawing device), in UTF-8 bytes.
    public static let maximumIdentityBytes = 4096
    /// The longest `menu.json` path, in UTF-8 bytes (Linux's `PATH_MAX`).
    public static let maximumPathBytes = 4096
    /// The longest key name (a trigger's `KEY_*`/`BTN_*`, a `press` key);
    /// the names themselves are far shorter.
    public static let maximumKeyNameBytes = 64

    /// Refuses `text` when it is longer than `limit` bytes or has a control
    /// character; `what` names the field.
    package static func check(_ text: String, limit: Int, what: String) throws(DaemonError) {
        if text.utf8.count > limit {
            throw DaemonError(.badArgument, "\(what) is \(text.utf8.count) bytes long; the most allowed is \(limit)")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw DaemonError(.badArgument, "\(what) \"\(DaemonLog.excerpt(text))\" has a control character")
        }
    }
}

/// Which keys may be triggers. The daemon runs with the `input` group and
/// pushes a `trigger` event for each press of a bound key to every
/// subscriber, and whoever may connect (the `gesturectl` group) may bind:
/// a trigger on a key people type with, on a keyboard that is not grabbed,
/// would let them read what is typed. So by default a trigger must be a key
/// that types nothing: a switch's or mouse's `BTN_*`, F13–F24, media and
/// system keys. A **typing key** is:
///
/// - any key of a PC keyboard's own block, codes 0–127 (`KEY_ESC` …
///   `KEY_COMPOSE`: letters, digits, punctuation, Enter, Space, Tab,
///   Backspace, the modifiers, F1–F12, arrows and editing keys, the
///   keypad), except the ones among them that `press` has as buttons
///   (`KEY_SYSRQ`, `KEY_MUTE`, `KEY_VOLUMEDOWN`, `KEY_VOLUMEUP`,
///   `KEY_POWER`: ``GesturePlayback/VirtualKeyboard/buttons``);
/// - and the keys beyond it that type or modify: the keypad's parentheses,
///   `KEY_ALTERASE`, `KEY_DOLLAR`, `KEY_EURO`, `KEY_FN` and the `KEY_FN_*`
///   combinations, the Braille dots, the numeric keys of phone and remote
///   keypads (`KEY_NUMERIC_*`) and the input-assist keys.
///
/// A typing key may be bound only on a **dedicated keyboard**: a device the
/// configuration lists in `dedicated_keyboards` (by the identity the
/// trigger names it with), and only with `"grab": true`, so that the
/// keyboard serves the triggers alone and nothing typed on it goes anywhere
/// else.
public enum TriggerKeys {
    /// The codes above the keyboard block that are typing keys.
    package static let typingRanges: [ClosedRange<UInt16>] = [
        179...180,  // KEY_KPLEFTPAREN, KEY_KPRIGHTPAREN
        222...222,  // KEY_ALTERASE
        0x1b2...0x1b3,  // KEY_DOLLAR, KEY_EURO
        0x1d0...0x1e5,  // KEY_FN … KEY_FN_RIGHT_SHIFT
        0x1f1...0x1fa,  // KEY_BRL_DOT1 … KEY_BRL_DOT10
        0x200...0x20f,  // KEY_NUMERIC_0 … KEY_NUMERIC_D
        0x260...0x265,  // KEY_KBDINPUTASSIST_*
        0x26c...0x26d,  // KEY_NUMERIC_11, KEY_NUMERIC_12
    ]

    /// Whether a key is one people type with (see the type's notes).
    public static func isTypingKey(_ code: EventCode) -> Bool {
        if code.rawValue <= 127 { return !VirtualKeyboard.buttons.contains { $0.code == code } }
        return typingRanges.contains { $0.contains(code.rawValue) }
    }

    /// Why `trigger` may not be watched with these dedicated keyboards, or
    /// `nil` when it may.
    public static func refusal(of trigger: TriggerBinding.Trigger, dedicatedKeyboards: [String]) -> String? {
        // Harmless: a key name that is no key is refused by Trigger.parse (and a watch), saying so; it types nothing.
        guard let code = try? TriggerRequest.keyCode(named: trigger.key), isTypingKey(code) else { return nil }
        let device = DaemonLog.excerpt(trigger.device)
        if dedicatedKeyboards.contains(trigger.device) {
            if trigger.grab { return nil }
            return "\(trigger.key) is a key people type with, and \"\(device)\" is a dedicated keyboard: add \"grab\": true to the trigger, so that the keyboard serves the triggers alone"
        }
        return "\(trigger.key) is a key people type with (letters, digits, punctuation, modifiers, Enter, Space, F1–F12, arrows, keypads): a trigger on it would show what is typed to every subscriber. Bind a key that types nothing (a switch's BTN_*, F13–F24, a media key), or keep a keyboard for triggers alone: list \"\(device)\" in the configuration's \"dedicated_keyboards\" and add \"grab\": true to the trigger"
    }
}

/// The bindings changed over the socket, in their file (`bindings.json`):
/// `{"bindings": [...]}`, written atomically, overriding the
/// configuration's bindings while it exists.
///
/// The file is never lost to damage: before the daemon replaces a file it
/// can read, it keeps it as `bindings.json.bak` (the last good one); a file
/// it cannot read is never overwritten, but moved to
/// `bindings.json.damaged`, and at the start the last good file takes its
/// place (``recover(_:)``).
package enum BindingsFile {
    /// The largest file read; the largest set of bindings allowed
    /// (``BindingLimits``) takes well under half of it.
    package static let readLimit = 16 << 20

    /// Where the last good file is kept.
    package static func lastGoodPath(_ path: String) -> String { path + ".bak" }
    /// Where a file that cannot be read is moved.
    package static func damagedPath(_ path: String) -> String { path + ".damaged" }

    /// The bindings saved at `path`, or `nil` when there is no file.
    /// - Throws: ``DaemonError`` naming the file when it cannot be read or has errors.
    package static func load(_ path: String) throws(DaemonError) -> [TriggerBinding]? {
        guard FileIO.exists(path) else { return nil }
        return try parse(read(path), path: path)
    }

    private static func read(_ path: String) throws(DaemonError) -> [UInt8] {
        do {
            return try FileIO.read(path: path, limit: readLimit, regularOnly: true)
        } catch {
            throw DaemonError(.internal, "\(path): \(error)")
        }
    }

    private static func parse(_ bytes: [UInt8], path: String) throws(DaemonError) -> [TriggerBinding] {
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

    /// The file's bytes for `bindings`.
    package static func encode(_ bindings: [TriggerBinding]) -> [UInt8] {
        Array((JSONValue.object([("bindings", .array(bindings.map(\.json)))]).jsonText + "\n").utf8)
    }

    /// Writes `bindings` to `path` atomically (making its folder if
    /// needed), after keeping the file there as the last good one (or
    /// moving it aside when it cannot be read).
    package static func save(_ bindings: [TriggerBinding], to path: String) throws(DaemonError) {
        let bytes = encode(bindings)
        // Cannot happen within BindingLimits; a file too large to read back is never written.
        guard bytes.count <= readLimit else {
            throw DaemonError(.internal, "cannot save the bindings: \(bytes.count) bytes, more than the \(readLimit) the daemon reads back")
        }
        do {
            try FileIO.createDirectories(FileIO.directoryName(path))
            try keepPrevious(path)
            try FileIO.writeAtomically(bytes, to: path, permissions: 0o640)
        } catch {
            throw DaemonError(.internal, "cannot save the bindings: \(error)")
        }
    }

    /// The file at `path` becomes the last good one when it can be read,
    /// else is moved aside.
    private static func keepPrevious(_ path: String) throws {
        guard FileIO.exists(path) else { return }
        let bytes: [UInt8]
        do throws(DaemonError) {
            bytes = try read(path)
            _ = try parse(bytes, path: path)
        } catch {
            try FileSystem.rename(path, to: damagedPath(path))
            return
        }
        try FileIO.writeAtomically(bytes, to: lastGoodPath(path), permissions: 0o640)
    }

    /// What to do at the start when the file at `path` cannot be used:
    /// it is moved to ``damagedPath(_:)``, and the last good file, if it can
    /// be read, takes its place. Returns its bindings (`nil`: there is no
    /// good one, the configuration's apply) and what was done, for the log.
    package static func recover(_ path: String) -> (bindings: [TriggerBinding]?, report: String) {
        let damaged = damagedPath(path)
        do {
            try FileSystem.rename(path, to: damaged)
        } catch {
            return (nil, "it cannot be moved to \(damaged) (\(error)); the configuration's bindings apply")
        }
        let lastGood = lastGoodPath(path)
        guard FileIO.exists(lastGood) else {
            return (nil, "it is kept as \(damaged); there is no last good file \(lastGood): the configuration's bindings apply")
        }
        do {
            let bytes = try read(lastGood)
            let bindings = try parse(bytes, path: lastGood)
            try FileIO.writeAtomically(bytes, to: path, permissions: 0o640)
            return (bindings, "it is kept as \(damaged); the \(bindings.count) binding(s) of the last good file \(lastGood) take its place")
        } catch {
            return (nil, "it is kept as \(damaged); the last good file cannot be used either (\(error)): the configuration's bindings apply")
        }
    }

    /// Deletes the file, after keeping it as the last good one (a reset
    /// can be undone by moving `bindings.json.bak` back; issue 36: it
    /// deleted the backup too); a missing file is no error.
    package static func remove(_ path: String) throws(DaemonError) {
        do {
            try keepPrevious(path)
            if FileIO.exists(path) { try FileIO.remove(path) }
        } catch {
            throw DaemonError(.internal, "cannot delete the saved bindings: \(error)")
        }
    }
}
