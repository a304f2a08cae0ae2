import GestureFormat
import GestureModel

// The protocol's names (docs/PROTOCOL.md), typed: the operations, the
// arguments of requests, the events, and the words results carry. Both the
// server and the client spell them only through these types, and this file
// and DaemonProtocol.swift are the only places that spell them at all
// (scripts/check-architecture keeps it so).

/// The operations of the protocol, by their names on the wire.
public enum DaemonOperation: String, CaseIterable, Hashable, Sendable {
    case version, devices, list, jobs, show, play, cancel, save, rm, press
    case recordStart = "record-start"
    case recordStop = "record-stop"
    case subscribe, bind, unbind, bindings
    /// Starts live fingertips on a source; `cancel` of its job stops them.
    case fingertips

    /// The arguments the operation takes; any other is refused (`bad-argument`).
    public var fields: Set<DaemonField> {
        switch self {
        case .version, .devices, .list, .jobs: []
        case .show: [.name]
        case .play:
            [.name, .gesture, .kind, .output, .speed, .repeatCount, .at, .scale, .rotate, .wait, .onDisconnect]
        case .cancel: [.job]
        case .save: [.name, .gesture, .force]
        case .rm: [.name, .force]
        case .press: [.key, .action, .holdMilliseconds, .force]
        case .recordStart: [.device, .sequential, .idleTimeoutMilliseconds, .maximumDurationMilliseconds, .grab, .name]
        case .recordStop: [.save, .force, .wait]
        case .subscribe: [.events]
        case .bind: [.trigger, .action]
        case .unbind: [.trigger]
        case .bindings: [.reset]
        case .fingertips:
            [.count, .device, .layout, .spacingMillimetres, .speed, .idleMilliseconds, .absolute, .hover, .kind, .onDisconnect]
        }
    }
}

/// The arguments of requests, by their names on the wire.
public enum DaemonField: String, CaseIterable, Hashable, Sendable {
    case name, gesture
    /// `play`'s device kind.
    case kind = "as"
    /// `play`'s output (uinput, uhid, gadget).
    case output = "to"
    case speed
    case repeatCount = "repeat"
    case at, scale, rotate, wait
    case onDisconnect = "on_disconnect"
    case job, force, key, action
    case holdMilliseconds = "hold_ms"
    case device, sequential
    case idleTimeoutMilliseconds = "idle_timeout_ms"
    case maximumDurationMilliseconds = "max_duration_ms"
    case grab, save, events, trigger, reset
    /// `fingertips`' number of fingertips, arrangement and distance apart.
    case count, layout
    case spacingMillimetres = "spacing_mm"
    /// `fingertips`' idle time (0: never).
    case idleMilliseconds = "idle_ms"
    case absolute
    /// `fingertips`' hover pen (`false`: none, as `--no-hover`).
    case hover
}

/// The pushed events, by their names on the wire.
public enum DaemonEvent: String, CaseIterable, Hashable, Sendable {
    case job, device, record, trigger, create, menu, fingertips
    /// A press of a trigger bound to the on-screen button's menu (``ScreenMenuEvent``).
    case screenMenu = "screen-menu"
    /// How many events a client that did not read lost (never subscribed to: every client gets it).
    case dropped

    /// The events a client may subscribe to.
    public static let subscribable: Set<DaemonEvent> = [.job, .device, .record, .trigger, .create, .menu, .fingertips, .screenMenu]
}

/// `play`'s `on_disconnect`: what becomes of a play when its client goes away.
public enum DisconnectPolicy: String, Hashable, Sendable {
    case cancel, finish
}

/// `fingertips`' `on_disconnect`: whether live fingertips end when their client goes away.
public enum FingertipsDisconnectPolicy: String, Hashable, Sendable {
    case cancel, keep
}

/// A `fingertips` event's `state`.
public enum FingertipsEventState: String, Hashable, Sendable {
    /// The source is grabbed and read, the device made (with the `line` to say).
    case ready
    /// The fingertips touched, or lifted.
    case down, up
    /// They went away (with the `reason`).
    case ended
}

/// Why live fingertips ended, for programs (a `fingertips` event's `reason`).
public enum FingertipsEndCode: String, Hashable, Sendable {
    /// No input for the idle time.
    case idle
    /// A `cancel`, the emergency stop, the binding's next press, the client's disconnect, the daemon stopping.
    case cancelled
    /// The source was unplugged.
    case sourceVanished = "source-vanished"
    /// Reading the source or writing the device failed.
    case failed
}

/// Where the bindings in force come from (`bindings`' `source`).
public enum BindingsSource: String, Hashable, Sendable {
    /// Changed over the socket, from the bindings' file.
    case saved
    /// The configuration's.
    case configuration
}

/// What a job in `jobs` is.
public enum JobKind: String, Hashable, Sendable {
    case play, press, fingertips
}

/// A job's state (a `job` event's, `jobs`' and a play's result's `state`).
public enum JobState: String, Hashable, Sendable {
    case queued, running, done, cancelled, failed
}

/// A `device` event's `state`.
public enum DeviceEventState: String, Hashable, Sendable {
    case added, recreated
}

/// The `state` of a watched trigger in `bindings`' result.
public enum TriggerWatchState: String, Hashable, Sendable {
    /// Until its device is found.
    case waiting
    case connected, disconnected
    /// A saved binding the configuration no longer lets be watched (``TriggerKeys``).
    case refused
}

/// Why a recording stopped, for programs (`record-stop`'s `stop_reason`).
/// What `press` does with its key (`action`).
public enum PressAction: String, Hashable, Sendable, CaseIterable {
    /// Down, then up after the hold.
    case tap
    /// Down, and kept down.
    case down
    /// Up (of a key a `down` pressed).
    case up
}

public enum RecordingStopCode: String, Hashable, Sendable {
    case stopped, enter
    case idleTimeout = "idle-timeout"
    case maximumDuration = "max-duration"
    case noContactTimeout = "no-contact-timeout"
    case limit
    case deviceVanished = "device-vanished"
    case readFailed = "read-failed"

    /// Whether the recording stopped because reading failed (not by a rule or a request).
    public var isFailure: Bool { self == .deviceVanished || self == .readFailed }
}

// MARK: Requests

/// One request as a client sends it: the operation and its arguments, in
/// the order they go on the wire. Made by the static functions, which take
/// each operation's arguments typed.
public struct DaemonCall: Sendable {
    /// The operation.
    public let operation: DaemonOperation
    /// The arguments, in order.
    public let arguments: [(DaemonField, JSONValue)]

    /// A request of `operation` with `arguments` (see the static functions
    /// for each operation's).
    public init(_ operation: DaemonOperation, _ arguments: [(DaemonField, JSONValue)] = []) {
        self.operation = operation
        self.arguments = arguments
    }

    /// A gesture a request names or carries.
    public enum GestureArgument: Sendable {
        /// A gesture in the daemon's library.
        case name(String)
        /// A gesture sent inline: the file format's JSON object.
        case inline(JSONValue)

        var member: (DaemonField, JSONValue) {
            switch self {
            case .name(let name): (.name, .string(name))
            case .inline(let gesture): (.gesture, gesture)
            }
        }
    }

    /// `version`.
    public static let version = DaemonCall(.version)
    /// `devices`.
    public static let devices = DaemonCall(.devices)
    /// `list`.
    public static let list = DaemonCall(.list)

    /// `show` {name}.
    public static func show(name: String) -> DaemonCall { DaemonCall(.show, [(.name, .string(name))]) }

    /// `save` {name, gesture (inline), force}.
    public static func save(name: String, gesture: JSONValue, force: Bool) -> DaemonCall {
        DaemonCall(.save, [(.name, .string(name)), (.gesture, gesture), (.force, .bool(force))])
    }

    /// `rm` {name, force}.
    public static func remove(name: String, force: Bool) -> DaemonCall {
        DaemonCall(.rm, [(.name, .string(name)), (.force, .bool(force))])
    }

    /// `cancel` {job}.
    public static func cancel(job: JSONValue) -> DaemonCall { DaemonCall(.cancel, [(.job, job)]) }

    /// A coordinate of `play`'s `at`.
    public enum Coordinate: Sendable {
        /// Millimetres from the top-left corner.
        case millimetres(Double)
        /// Percents of the surface.
        case percent(Double)
    }

    /// `play` {name or gesture, as, to, speed, repeat, at, scale, rotate,
    /// wait}; the optional arguments only when given, `wait` only when
    /// false (reply at once with the job, a ``QueuedResult``).
    public static func play(
        _ gesture: GestureArgument, kind: String, output: String? = nil, speed: Double? = nil, repeatCount: Int? = nil,
        at: (x: Coordinate, y: Coordinate)? = nil, scale: Double? = nil, rotate: Double? = nil, wait: Bool = true
    ) -> DaemonCall {
        var arguments = [gesture.member, (DaemonField.kind, JSONValue.string(kind))]
        if let output { arguments.append((.output, .string(output))) }
        if let speed { arguments.append((.speed, .decimal(speed))) }
        if let repeatCount { arguments.append((.repeatCount, .integer(repeatCount))) }
        if let at { arguments.append((.at, .array([coordinate(at.x), coordinate(at.y)]))) }
        if let scale { arguments.append((.scale, .decimal(scale))) }
        if let rotate { arguments.append((.rotate, .decimal(rotate))) }
        if !wait { arguments.append((.wait, .bool(false))) }
        return DaemonCall(.play, arguments)
    }

    /// A placement's `at` coordinate as the daemon takes it: a number of mm,
    /// or a string `N%`.
    private static func coordinate(_ coordinate: Coordinate) -> JSONValue {
        switch coordinate {
        case .millimetres(let value): .decimal(value)
        case .percent(let value): .string("\(JSONValue.decimal(value).jsonText)%")
        }
    }

    /// `press` {key, action, hold_ms, force}; `hold_ms` when given, `force` when true.
    public static func press(key: String, action: PressAction, holdMilliseconds: Double? = nil, force: Bool = false) -> DaemonCall {
        var arguments: [(DaemonField, JSONValue)] = [(.key, .string(key)), (.action, .string(action.rawValue))]
        if let holdMilliseconds { arguments.append((.holdMilliseconds, .decimal(holdMilliseconds))) }
        if force { arguments.append((.force, .bool(true))) }
        return DaemonCall(.press, arguments)
    }

    /// `record-start` {name, device, sequential, grab, idle_timeout_ms,
    /// max_duration_ms}; the flags only when true, the others when given.
    public static func recordStart(
        name: String, device: String? = nil, sequential: Bool = false, grab: Bool = false,
        idleTimeoutMilliseconds: Double? = nil, maximumDurationMilliseconds: Double? = nil
    ) -> DaemonCall {
        var arguments: [(DaemonField, JSONValue)] = [(.name, .string(name))]
        if let device { arguments.append((.device, .string(device))) }
        if sequential { arguments.append((.sequential, .bool(true))) }
        if grab { arguments.append((.grab, .bool(true))) }
        if let idleTimeoutMilliseconds { arguments.append((.idleTimeoutMilliseconds, .decimal(idleTimeoutMilliseconds))) }
        if let maximumDurationMilliseconds { arguments.append((.maximumDurationMilliseconds, .decimal(maximumDurationMilliseconds))) }
        return DaemonCall(.recordStart, arguments)
    }

    /// `record-stop` {wait, save, force}; each only when given (true).
    public static func recordStop(wait: Bool = false, save: String? = nil, force: Bool = false) -> DaemonCall {
        var arguments: [(DaemonField, JSONValue)] = []
        if wait { arguments.append((.wait, .bool(true))) }
        if let save { arguments.append((.save, .string(save))) }
        if force { arguments.append((.force, .bool(true))) }
        return DaemonCall(.recordStop, arguments)
    }

    /// `subscribe` {events}.
    public static func subscribe(_ events: [DaemonEvent]) -> DaemonCall {
        DaemonCall(.subscribe, [(.events, .array(events.map { .string($0.rawValue) }))])
    }

    /// `fingertips` {count, device, layout, spacing_mm, speed, idle_ms,
    /// absolute, as, on_disconnect}; each but `count` only when given.
    public static func fingertips(
        count: Int, device: String? = nil, layout: String? = nil, spacingMillimetres: Double? = nil, speed: Double? = nil,
        idleMilliseconds: Double? = nil, absolute: Bool = false, kind: String? = nil, keep: Bool = false, hover: Bool = true
    ) -> DaemonCall {
        var arguments: [(DaemonField, JSONValue)] = [(.count, .integer(count))]
        if let device { arguments.append((.device, .string(device))) }
        if let layout { arguments.append((.layout, .string(layout))) }
        if let spacingMillimetres { arguments.append((.spacingMillimetres, .decimal(spacingMillimetres))) }
        if let speed { arguments.append((.speed, .decimal(speed))) }
        if let idleMilliseconds { arguments.append((.idleMilliseconds, .decimal(idleMilliseconds))) }
        if absolute { arguments.append((.absolute, .bool(true))) }
        if !hover { arguments.append((.hover, .bool(false))) }
        if let kind { arguments.append((.kind, .string(kind))) }
        if keep { arguments.append((.onDisconnect, .string(FingertipsDisconnectPolicy.keep.rawValue))) }
        return DaemonCall(.fingertips, arguments)
    }

    /// Whether the request has `field`.
    public func has(_ field: DaemonField) -> Bool { arguments.contains { $0.0 == field } }
}

// MARK: Results

/// Reading a result's members: `nil` when absent or of another type.
extension JSONValue {
    var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    var integerValue: Int? { if case .number(let text) = self { Int(text) } else { nil } }
}

/// A library entry as `save`'s result and `record-stop`'s `saved` carry it.
public struct SavedEntry: Sendable, Hashable {
    /// The name saved as.
    public var name: String?
    /// Where (`record-stop`'s `saved` only).
    public var path: String?
    /// Whether it hides a built-in gesture of the same name.
    public var hidesBuiltin: Bool

    /// An entry.
    public init(name: String?, path: String? = nil, hidesBuiltin: Bool) {
        self.name = name
        self.path = path
        self.hidesBuiltin = hidesBuiltin
    }

    /// Reads one from a result.
    public init(_ json: JSONValue) {
        name = json["name"]?.stringValue
        path = json["path"]?.stringValue
        hidesBuiltin = json["hides_builtin"] == .bool(true)
    }

    /// {name, path (when known), hides_builtin}.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("name", name.map(JSONValue.string) ?? .null)]
        if let path { members.append(("path", .string(path))) }
        members.append(("hides_builtin", .bool(hidesBuiltin)))
        return .object(members)
    }
}

/// `record-start`'s result: the recording's job and the device it reads.
public struct RecordStartResult: Sendable {
    /// The job, for `cancel` (kept as the daemon sent it).
    public var job: JSONValue?
    /// The device's node and name.
    public var device: String?
    public var name: String?

    /// Reads one.
    public init(_ json: JSONValue) {
        job = json["job"]
        device = json["device"]?.stringValue
        name = json["name"]?.stringValue
    }

    /// Makes one.
    public init(job: Int, device: String, name: String) {
        self.job = .integer(job)
        self.device = device
        self.name = name
    }

    /// {job, device, name, state: "recording"}.
    public var json: JSONValue {
        .object([
            ("job", job ?? .null), ("device", device.map(JSONValue.string) ?? .null), ("name", name.map(JSONValue.string) ?? .null),
            ("state", .string("recording")),
        ])
    }
}

/// `record-stop`'s result: why the recording stopped and what it recorded.
public struct RecordStopResult: Sendable {
    public var job: Int?
    /// The node recorded from.
    public var device: String?
    /// `stop_reason` as sent (a ``RecordingStopCode`` from this daemon).
    public var stopReason: String?
    /// `stopped`: the reason for people.
    public var stopped: String?
    /// The gesture (the file format's object); `nil` when none was recorded.
    public var gesture: JSONValue?
    /// Why there is no gesture.
    public var message: String?
    public var warnings: [String]
    /// Where it was saved (with `save`).
    public var saved: SavedEntry?

    /// The stop reason's code, when it is one this client knows.
    public var stopCode: RecordingStopCode? { stopReason.flatMap(RecordingStopCode.init(rawValue:)) }

    /// Makes one.
    public init(
        job: Int, device: String, stopCode: RecordingStopCode, stopped: String, gesture: JSONValue?, message: String?,
        warnings: [String], saved: SavedEntry?
    ) {
        self.job = job
        self.device = device
        stopReason = stopCode.rawValue
        self.stopped = stopped
        self.gesture = gesture
        self.message = message
        self.warnings = warnings
        self.saved = saved
    }

    /// Reads one.
    public init(_ json: JSONValue) {
        job = json["job"]?.integerValue
        device = json["device"]?.stringValue
        stopReason = json["stop_reason"]?.stringValue
        stopped = json["stopped"]?.stringValue
        gesture = json["gesture"].flatMap { $0 == .null ? nil : $0 }
        message = json["message"]?.stringValue
        if case .array(let items)? = json["warnings"] { warnings = items.compactMap(\.stringValue) } else { warnings = [] }
        saved = json["saved"].map(SavedEntry.init)
    }

    /// {job, device, stop_reason, stopped, then gesture null, message,
    /// warnings; or gesture, warnings, saved}.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("job", job.map(JSONValue.integer) ?? .null), ("device", device.map(JSONValue.string) ?? .null),
            ("stop_reason", stopReason.map(JSONValue.string) ?? .null), ("stopped", stopped.map(JSONValue.string) ?? .null),
        ]
        if let gesture {
            fields += [("gesture", gesture), ("warnings", .array(warnings.map(JSONValue.string)))]
            if let saved { fields.append(("saved", saved.json)) }
        } else {
            fields += [("gesture", .null), ("message", .string(message ?? "")), ("warnings", .array(warnings.map(JSONValue.string)))]
        }
        return .object(fields)
    }
}

/// A play's result, when it has completed.
public struct PlayResult: Sendable {
    public var job: Int?
    /// `done`.
    public var state: String?
    /// The node of the device it played on.
    public var device: String?
    /// The frames written, and how late they were (µs), as the daemon wrote
    /// the numbers.
    public var frames: String?
    public var latenessMaximum: String?
    public var latenessMedian: String?
    public var latenessPercentile99: String?

    /// Makes one.
    public init(job: Int, state: String, device: String?, frames: Int, latenessMaximum: Int64, latenessMedian: Int64, latenessPercentile99: Int64) {
        self.job = job
        self.state = state
        self.device = device
        self.frames = String(frames)
        self.latenessMaximum = String(latenessMaximum)
        self.latenessMedian = String(latenessMedian)
        self.latenessPercentile99 = String(latenessPercentile99)
    }

    /// Reads one.
    public init(_ json: JSONValue) {
        func number(_ key: String) -> String? { if case .number(let text)? = json[key] { text } else { nil } }
        job = json["job"]?.integerValue
        state = json["state"]?.stringValue
        device = json["device"]?.stringValue
        frames = number("frames")
        latenessMaximum = number("lateness_max_us")
        latenessMedian = number("lateness_p50_us")
        latenessPercentile99 = number("lateness_p99_us")
    }

    /// {job, state, device, frames, lateness_max_us, lateness_p50_us, lateness_p99_us}.
    public var json: JSONValue {
        func number(_ text: String?) -> JSONValue { text.map(JSONValue.number) ?? .null }
        return .object([
            ("job", job.map(JSONValue.integer) ?? .null), ("state", state.map(JSONValue.string) ?? .null),
            ("device", device.map(JSONValue.string) ?? .null), ("frames", number(frames)),
            ("lateness_max_us", number(latenessMaximum)), ("lateness_p50_us", number(latenessMedian)),
            ("lateness_p99_us", number(latenessPercentile99)),
        ])
    }
}

/// `show`'s result.
public struct ShowResult: Sendable {
    public var name: String?
    public var summary: String?
    /// The gesture: the file format's object.
    public var gesture: JSONValue?

    /// Makes one.
    public init(name: String, summary: String, gesture: JSONValue) {
        self.name = name
        self.summary = summary
        self.gesture = gesture
    }

    /// Reads one.
    public init(_ json: JSONValue) {
        name = json["name"]?.stringValue
        summary = json["summary"]?.stringValue
        gesture = json["gesture"]
    }

    /// {name, summary, gesture}.
    public var json: JSONValue {
        .object([
            ("name", name.map(JSONValue.string) ?? .null), ("summary", summary.map(JSONValue.string) ?? .null),
            ("gesture", gesture ?? .null),
        ])
    }
}

/// `list`'s result: the library's folder and its gestures.
public struct ListResult: Sendable {
    /// One gesture.
    public struct Entry: Sendable {
        public var name: String
        /// `user` or `builtin`.
        public var source: String
        public var path: String
        public var summary: String
        public var hidesBuiltin: Bool

        /// Makes one.
        public init(name: String, source: String, path: String, summary: String, hidesBuiltin: Bool) {
            self.name = name
            self.source = source
            self.path = path
            self.summary = summary
            self.hidesBuiltin = hidesBuiltin
        }

        var json: JSONValue {
            .object([
                ("name", .string(name)), ("source", .string(source)), ("path", .string(path)),
                ("summary", .string(summary)), ("hides_builtin", .bool(hidesBuiltin)),
            ])
        }
    }

    /// The user's library folder.
    public var folder: String?
    /// The gestures; `nil` when the result has no list. An entry without a
    /// name, source or path is left out.
    public var gestures: [Entry]?

    /// Makes one.
    public init(folder: String, gestures: [Entry]) {
        self.folder = folder
        self.gestures = gestures
    }

    /// Reads one.
    public init(_ json: JSONValue) {
        folder = json["folder"]?.stringValue
        if case .array(let items)? = json["gestures"] {
            gestures = items.compactMap { item in
                guard let name = item["name"]?.stringValue, let source = item["source"]?.stringValue,
                    let path = item["path"]?.stringValue
                else { return nil }
                return Entry(
                    name: name, source: source, path: path, summary: item["summary"]?.stringValue ?? "",
                    hidesBuiltin: item["hides_builtin"] == .bool(true))
            }
        }
    }

    /// {folder, gestures: [{name, source, path, summary, hides_builtin}]}.
    public var json: JSONValue {
        .object([("folder", folder.map(JSONValue.string) ?? .null), ("gestures", .array((gestures ?? []).map(\.json)))])
    }
}

/// `devices`' result: the ready devices and the input devices the daemon sees.
public struct DevicesResult: Sendable {
    /// A ready device.
    public struct Ready: Sendable {
        public var kind: String
        public var node: String?
        /// The output, when not uinput.
        public var output: String?

        /// Makes one.
        public init(kind: String, node: String?, output: String?) {
            self.kind = kind
            self.node = node
            self.output = output
        }

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("kind", .string(kind)), ("node", node.map(JSONValue.string) ?? .null)]
            if let output { fields.append(("to", .string(output))) }
            return .object(fields)
        }
    }

    public var ready: [Ready]
    /// The input devices, each as ``DeviceDiscovery``'s facts JSON; `nil`
    /// when the result has no list.
    public var devices: [JSONValue]?

    /// Makes one.
    public init(ready: [Ready], devices: [JSONValue]) {
        self.ready = ready
        self.devices = devices
    }

    /// Reads one (the input devices only: the client shows those).
    public init(_ json: JSONValue) {
        ready = []
        if case .array(let items)? = json["devices"] { devices = items }
    }

    /// An input device of the list as far as a client draws what it
    /// records: its node, name, kind and position axes.
    public struct InputDevice: Sendable, Hashable {
        public var node: String
        public var name: String
        /// `touchscreen`, `touchpad`, `tablet`, `mouse/pointer`, … (DeviceDiscovery's kinds).
        public var kind: String
        /// The position axes; `nil` for a relative pointer, which has none.
        public var x: AxisRange?
        public var y: AxisRange?

        /// Makes one.
        public init(node: String, name: String, kind: String, x: AxisRange?, y: AxisRange?) {
            self.node = node
            self.name = name
            self.kind = kind
            self.x = x
            self.y = y
        }
    }

    /// The input devices (entries without a node or name are left out).
    public var inputDevices: [InputDevice] {
        (devices ?? []).compactMap { item in
            guard let node = item["node"]?.stringValue, let name = item["name"]?.stringValue else { return nil }
            func axis(_ key: String) -> AxisRange? {
                guard let axis = item[key], case .number(let minimum)? = axis["min"], case .number(let maximum)? = axis["max"],
                    let low = Int(minimum), let high = Int(maximum), low < high
                else { return nil }
                var resolution = 0
                if case .number(let text)? = axis["resolution"], let value = Int(text) { resolution = max(0, value) }
                return AxisRange(minimum: low, maximum: high, resolution: resolution)
            }
            return InputDevice(node: node, name: name, kind: item["kind"]?.stringValue ?? "", x: axis("x"), y: axis("y"))
        }
    }

    /// {ready: [{kind, node, to}], devices}.
    public var json: JSONValue {
        .object([("ready", .array(ready.map(\.json))), ("devices", .array(devices ?? []))])
    }
}
