import GestureFormat

// The results and events of docs/PROTOCOL.md that DaemonMessages.swift does
// not declare, as types: the daemon encodes them, a client decodes them,
// and the member names are spelled here and nowhere else (issue 37: about
// 100 protocol words were bare literals in the daemon, and a client printed
// "?" for a member that was missing). Each type's `fields` are its members
// in the order they go on the wire (the golden transcript,
// Tests/GestureDaemonTests/Golden/wire.jsonl, holds them to it), and its
// `init(_:)` reads a reply or event, naming a member that is missing or of
// the wrong type.

/// The names of the results' and events' members.
package enum WireKey: String {
    case job, state, progress, kind, node, to, device, source, name, line, spoken, count, reason, message
    case events, trigger, press, action, replaced, bindings, file, triggers, key, mine, uid, version, jobs, held, stroke, frames
    case scanIntervalMilliseconds = "scan_interval_ms"
    case firstItemHoldMilliseconds = "first_item_hold_ms"
    case protocolVersion = "protocol"
}

/// Reads the members of a result or event, as the client does: a member
/// that is missing or of the wrong type is an error naming it, never a
/// stand-in value.
package struct WireReader {
    /// What is read, for messages (`the fingertips reply`).
    let what: String
    let value: JSONValue

    package init(_ value: JSONValue, what: String) throws(DaemonError) {
        guard case .object = value else { throw DaemonError(.internal, "\(what) is not a JSON object: \(ProtocolText.excerpt(value.jsonText))") }
        self.value = value
        self.what = what
    }

    private func problem(_ key: WireKey, _ wanted: String) -> DaemonError {
        DaemonError(.internal, value[key.rawValue] == nil ? "\(what) has no \"\(key.rawValue)\"" : "\(what): \"\(key.rawValue)\" is not \(wanted)")
    }

    package func member(_ key: WireKey) throws(DaemonError) -> JSONValue {
        guard let member = value[key.rawValue] else { throw problem(key, "there") }
        return member
    }

    package func string(_ key: WireKey) throws(DaemonError) -> String {
        guard case .string(let text)? = value[key.rawValue] else { throw problem(key, "a string") }
        return text
    }

    /// A string that may be absent or `null`.
    package func optionalString(_ key: WireKey) throws(DaemonError) -> String? {
        switch value[key.rawValue] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw problem(key, "a string")
        }
    }

    package func integer(_ key: WireKey) throws(DaemonError) -> Int {
        guard case .number(let text)? = value[key.rawValue], let number = Int(text) else { throw problem(key, "a whole number") }
        return number
    }

    /// A whole number that may be absent or `null`.
    package func optionalInteger(_ key: WireKey) throws(DaemonError) -> Int? {
        switch value[key.rawValue] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard let number = Int(text) else { throw problem(key, "a whole number") }
            return number
        default: throw problem(key, "a whole number")
        }
    }

    package func bool(_ key: WireKey) throws(DaemonError) -> Bool {
        guard case .bool(let flag)? = value[key.rawValue] else { throw problem(key, "true or false") }
        return flag
    }

    package func array(_ key: WireKey) throws(DaemonError) -> [JSONValue] {
        guard case .array(let items)? = value[key.rawValue] else { throw problem(key, "a list") }
        return items
    }

    package func strings(_ key: WireKey) throws(DaemonError) -> [String] {
        try array(key).map { item throws(DaemonError) in
            guard case .string(let text) = item else { throw problem(key, "a list of strings") }
            return text
        }
    }
}

private func member(_ key: WireKey, _ value: JSONValue) -> (String, JSONValue) { (key.rawValue, value) }
private func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

// MARK: Results

/// `version`'s result.
public struct VersionResult: Sendable, Hashable {
    /// The protocol's version (1).
    public var protocolVersion: Int
    /// The daemon's version.
    public var version: String

    /// Makes one.
    public init(protocolVersion: Int, version: String) {
        self.protocolVersion = protocolVersion
        self.version = version
    }

    /// Reads one.
    public init(_ json: JSONValue) throws(DaemonError) {
        let reader = try WireReader(json, what: "the version reply")
        protocolVersion = try reader.integer(.protocolVersion)
        version = try reader.string(.version)
    }

    /// {protocol, version}.
    public var json: JSONValue { .object([member(.protocolVersion, .integer(protocolVersion)), member(.version, .string(version))]) }
}

/// The result of `cancel`: the job cancelled.
public struct CancelResult: Sendable, Hashable {
    public var job: Int

    /// Makes one.
    public init(job: Int) { self.job = job }

    /// {job}.
    public var json: JSONValue { .object([member(.job, .integer(job))]) }
}

/// The result of a `play` or `press` that does not wait: the job, queued.
public struct QueuedResult: Sendable, Hashable {
    public var job: Int

    /// Makes one.
    public init(job: Int) { self.job = job }

    /// Reads one (`play` or `press` with `"wait": false`).
    public init(_ json: JSONValue) throws(DaemonError) {
        job = try WireReader(json, what: "the queued reply").integer(.job)
    }

    /// {job, state: "queued"}.
    public var json: JSONValue { .object([member(.job, .integer(job)), member(.state, .string(JobState.queued.rawValue))]) }
}

/// The result of `rm`: the gesture deleted.
public struct RemoveResult: Sendable, Hashable {
    public var name: String

    /// Makes one.
    public init(name: String) { self.name = name }

    /// {name}.
    public var json: JSONValue { .object([member(.name, .string(name))]) }
}

/// The result of `subscribe`: every event the client now hears, sorted.
public struct SubscribeResult: Sendable, Hashable {
    public var events: [String]

    /// Makes one.
    public init(events: [String]) { self.events = events }

    /// {events}.
    public var json: JSONValue { .object([member(.events, .array(events.map(JSONValue.string)))]) }
}

/// The result of `jobs`: the plays, presses and live fingertips running or
/// waiting, in job order.
public struct JobsResult: Sendable, Hashable {
    /// One job.
    public struct Entry: Sendable, Hashable {
        public var job: Int
        /// The kind of device it plays on.
        public var device: String
        /// `queued`, `running`.
        public var state: String
        /// `play`, `press` or `fingertips`.
        public var kind: String
        /// Live fingertips' source node, when the asker may see it.
        public var source: String?
        /// Whether the asker's user started it.
        public var mine: Bool
        /// Who started it, to an administrator only.
        public var uid: Int?

        /// Makes one.
        public init(job: Int, device: String, state: String, kind: String, source: String? = nil, mine: Bool, uid: Int? = nil) {
            self.job = job
            self.device = device
            self.state = state
            self.kind = kind
            self.source = source
            self.mine = mine
            self.uid = uid
        }

        /// Reads one.
        public init(_ json: JSONValue) throws(DaemonError) {
            let reader = try WireReader(json, what: "a job of the jobs reply")
            job = try reader.integer(.job)
            device = try reader.string(.device)
            state = try reader.string(.state)
            kind = try reader.string(.kind)
            source = try reader.optionalString(.source)
            mine = try reader.bool(.mine)
            uid = try reader.optionalInteger(.uid)
        }

        /// {job, device, state, kind, source (when shown), mine, uid (to an administrator)}.
        public var json: JSONValue {
            var members = [
                member(.job, .integer(job)), member(.device, .string(device)), member(.state, .string(state)), member(.kind, .string(kind)),
            ]
            if let source { members.append(member(.source, .string(source))) }
            members.append(member(.mine, .bool(mine)))
            if let uid { members.append(member(.uid, .integer(uid))) }
            return .object(members)
        }
    }

    public var jobs: [Entry]

    /// Makes one.
    public init(jobs: [Entry]) { self.jobs = jobs }

    /// Reads one.
    public init(_ json: JSONValue) throws(DaemonError) {
        jobs = try WireReader(json, what: "the jobs reply").array(.jobs).map { item throws(DaemonError) in try Entry(item) }
    }

    /// {jobs}.
    public var json: JSONValue { .object([member(.jobs, .array(jobs.map(\.json)))]) }
}

/// The result of a `press` that waited: the job, its device and frames,
/// the key, the action, and every key now held down on the keyboard.
public struct PressResult: Sendable, Hashable {
    public var job: Int
    public var state: JobState
    /// The keyboard's node, when known.
    public var device: String?
    public var frames: Int
    /// The key's kernel name (`KEY_MUTE`).
    public var key: String
    /// What the press did.
    public var action: PressAction
    /// The keys held down now, by kernel name.
    public var held: [String]

    /// Makes one.
    public init(job: Int, state: JobState, device: String?, frames: Int, key: String, action: PressAction, held: [String]) {
        self.job = job
        self.state = state
        self.device = device
        self.frames = frames
        self.key = key
        self.action = action
        self.held = held
    }

    /// {job, state, device, frames, key, action, held}.
    public var json: JSONValue {
        .object([
            member(.job, .integer(job)), member(.state, .string(state.rawValue)), member(.device, optional(device)),
            member(.frames, .integer(frames)), member(.key, .string(key)), member(.action, .string(action.rawValue)),
            member(.held, .array(held.map(JSONValue.string))),
        ])
    }
}

/// The result of a `fingertips` that started.
public struct FingertipsStartResult: Sendable, Hashable {
    public var job: Int
    /// The source's node and name.
    public var source: String
    public var name: String
    /// The virtual device's node, when known.
    public var device: String?
    /// The source's kind (`touchscreen`, `mouse`, …).
    public var kind: String

    /// Makes one.
    public init(job: Int, source: String, name: String, device: String?, kind: String) {
        self.job = job
        self.source = source
        self.name = name
        self.device = device
        self.kind = kind
    }

    /// Reads one.
    public init(_ json: JSONValue) throws(DaemonError) {
        let reader = try WireReader(json, what: "the daemon's fingertips reply")
        job = try reader.integer(.job)
        source = try reader.string(.source)
        name = try reader.string(.name)
        device = try reader.optionalString(.device)
        kind = try reader.string(.kind)
    }

    /// {job, source, name, device, kind}.
    public var json: JSONValue {
        .object([
            member(.job, .integer(job)), member(.source, .string(source)), member(.name, .string(name)), member(.device, optional(device)),
            member(.kind, .string(kind)),
        ])
    }
}

/// The result of `bind`: the binding in force, and whether it replaced one.
public struct BindResult: Sendable, Hashable {
    /// The trigger and action, as the bindings' file holds them.
    public var trigger: JSONValue
    public var action: JSONValue
    public var replaced: Bool

    /// Makes one.
    public init(trigger: JSONValue, action: JSONValue, replaced: Bool) {
        self.trigger = trigger
        self.action = action
        self.replaced = replaced
    }

    /// {trigger, action, replaced}.
    public var json: JSONValue { .object([member(.trigger, trigger), member(.action, action), member(.replaced, .bool(replaced))]) }
}

/// The result of `unbind`: the trigger no longer bound.
public struct UnbindResult: Sendable, Hashable {
    public var trigger: JSONValue

    /// Makes one.
    public init(trigger: JSONValue) { self.trigger = trigger }

    /// {trigger}.
    public var json: JSONValue { .object([member(.trigger, trigger)]) }
}

/// The result of `bindings`: the bindings in force, where they come from,
/// and what each watched trigger is doing.
public struct BindingsResult: Sendable, Hashable {
    /// One binding.
    public struct Entry: Sendable, Hashable {
        public var trigger: JSONValue
        public var action: JSONValue
        /// Whether it is the asker's.
        public var mine: Bool
        /// To an administrator, whose it is: `.some(nil)` for the configuration's.
        public var uid: Int??

        /// Makes one.
        public init(trigger: JSONValue, action: JSONValue, mine: Bool, uid: Int??) {
            self.trigger = trigger
            self.action = action
            self.mine = mine
            self.uid = uid
        }

        /// {trigger, action, mine, uid (to an administrator)}.
        public var json: JSONValue {
            var members = [member(.trigger, trigger), member(.action, action), member(.mine, .bool(mine))]
            if let uid { members.append(member(.uid, uid.map(JSONValue.integer) ?? .null)) }
            return .object(members)
        }
    }

    /// One watched trigger.
    public struct Trigger: Sendable, Hashable {
        public var device: String
        public var key: String
        /// ``TriggerWatchState``'s word.
        public var state: String
        public var node: String?
        public var reason: String?

        /// Makes one.
        public init(device: String, key: String, state: String, node: String?, reason: String?) {
            self.device = device
            self.key = key
            self.state = state
            self.node = node
            self.reason = reason
        }

        /// {device, key, state, node, reason}.
        public var json: JSONValue {
            .object([
                member(.device, .string(device)), member(.key, .string(key)), member(.state, .string(state)), member(.node, optional(node)),
                member(.reason, optional(reason)),
            ])
        }
    }

    public var bindings: [Entry]
    /// `saved` or `configuration`.
    public var source: String
    /// The bindings' file, when there is one.
    public var file: String?
    public var triggers: [Trigger]

    /// Makes one.
    public init(bindings: [Entry], source: String, file: String?, triggers: [Trigger]) {
        self.bindings = bindings
        self.source = source
        self.file = file
        self.triggers = triggers
    }

    /// {bindings, source, file, triggers}.
    public var json: JSONValue {
        .object([
            member(.bindings, .array(bindings.map(\.json))), member(.source, .string(source)), member(.file, optional(file)),
            member(.triggers, .array(triggers.map(\.json))),
        ])
    }
}

// MARK: Events

/// An event's members (after `"event": NAME`), in the order they go out.
public protocol DaemonEventMessage: Sendable {
    /// Which event it is.
    static var event: DaemonEvent { get }
    /// Its members.
    var fields: [(String, JSONValue)] { get }
}

/// A `job` event: a play's or press's state and the frames written.
public struct JobEvent: DaemonEventMessage, Hashable {
    public static var event: DaemonEvent { .job }
    public var job: Int
    public var state: JobState
    public var progress: Int

    /// Makes one.
    public init(job: Int, state: JobState, progress: Int) {
        self.job = job
        self.state = state
        self.progress = progress
    }

    /// Reads one (`nil`: another event, or another job's).
    public init?(_ json: JSONValue, job: JSONValue) throws(DaemonError) {
        guard json["event"] == .string(Self.event.rawValue), json[WireKey.job.rawValue] == job else { return nil }
        let reader = try WireReader(json, what: "a job event")
        self.job = try reader.integer(.job)
        let word = try reader.string(.state)
        guard let state = JobState(rawValue: word) else {
            throw DaemonError(.internal, "a job event's state \"\(ProtocolText.excerpt(word))\" is not one the client knows")
        }
        self.state = state
        progress = try reader.optionalInteger(.progress) ?? 0
    }

    /// Whether the job is over (done, cancelled or failed).
    public var isFinal: Bool { state == .done || state == .cancelled || state == .failed }

    /// job, state, progress.
    public var fields: [(String, JSONValue)] {
        [member(.job, .integer(job)), member(.state, .string(state.rawValue)), member(.progress, .integer(progress))]
    }
}

/// A `device` event: a ready device made, or made again.
public struct ReadyDeviceEvent: DaemonEventMessage, Hashable {
    public static var event: DaemonEvent { .device }
    public var kind: String
    public var node: String?
    /// The output's word, when it is not uinput.
    public var output: String?
    public var state: DeviceEventState

    /// Makes one.
    public init(kind: String, node: String?, output: String?, state: DeviceEventState) {
        self.kind = kind
        self.node = node
        self.output = output
        self.state = state
    }

    /// kind, node, to (not for uinput), state.
    public var fields: [(String, JSONValue)] {
        var fields = [member(.kind, .string(kind)), member(.node, optional(node))]
        if let output { fields.append(member(.to, .string(output))) }
        fields.append(member(.state, .string(state.rawValue)))
        return fields
    }
}

/// A `trigger` event: a bound key pressed.
public struct TriggerPressEvent: DaemonEventMessage, Hashable {
    public static var event: DaemonEvent { .trigger }
    public var device: String
    public var key: String
    /// `single`, `double`, `long`, `emergency-stop`.
    public var press: String

    /// Makes one.
    public init(device: String, key: String, press: String) {
        self.device = device
        self.key = key
        self.press = press
    }

    /// trigger {device, key}, press.
    public var fields: [(String, JSONValue)] {
        [member(.trigger, .object([member(.device, .string(device)), member(.key, .string(key))])), member(.press, .string(press))]
    }
}

/// A `screen-menu` event: a press of a trigger bound to the on-screen
/// button's menu (`{"screen-menu": {}}`), for the button to scan its menu
/// with: `single` (or `double`) picks the highlighted item or opens the
/// menu, `long` goes back, `emergency-stop` closes everything (the daemon
/// has already stopped every job). It carries the binding's scanning
/// timings, so every press says how to scan.
public struct ScreenMenuEvent: DaemonEventMessage, Hashable {
    public static var event: DaemonEvent { .screenMenu }
    /// The trigger: its device and key, as bound.
    public var device: String
    public var key: String
    /// `single`, `double`, `long` or `emergency-stop`.
    public var press: String
    /// How long each item stays highlighted, in milliseconds.
    public var scanIntervalMilliseconds: Int
    /// How much longer the first item stays highlighted, in milliseconds.
    public var firstItemHoldMilliseconds: Int

    /// Makes one.
    public init(device: String, key: String, press: String, scanIntervalMilliseconds: Int, firstItemHoldMilliseconds: Int) {
        self.device = device
        self.key = key
        self.press = press
        self.scanIntervalMilliseconds = scanIntervalMilliseconds
        self.firstItemHoldMilliseconds = firstItemHoldMilliseconds
    }

    /// Reads one (`nil`: another event).
    public init?(_ json: JSONValue) throws(DaemonError) {
        guard json["event"] == .string(Self.event.rawValue) else { return nil }
        let reader = try WireReader(json, what: "a screen-menu event")
        let trigger = try WireReader(try reader.member(.trigger), what: "a screen-menu event's trigger")
        device = try trigger.string(.device)
        key = try trigger.string(.key)
        press = try reader.string(.press)
        scanIntervalMilliseconds = try reader.integer(.scanIntervalMilliseconds)
        firstItemHoldMilliseconds = try reader.integer(.firstItemHoldMilliseconds)
    }

    /// trigger {device, key}, press, scan_interval_ms, first_item_hold_ms.
    public var fields: [(String, JSONValue)] {
        [
            member(.trigger, .object([member(.device, .string(device)), member(.key, .string(key))])), member(.press, .string(press)),
            member(.scanIntervalMilliseconds, .integer(scanIntervalMilliseconds)),
            member(.firstItemHoldMilliseconds, .integer(firstItemHoldMilliseconds)),
        ]
    }
}

/// A `record` event: a stroke the recording just finished.
public struct RecordEvent: DaemonEventMessage, Hashable {
    public static var event: DaemonEvent { .record }
    public var job: Int
    /// The stroke, as the file format writes one.
    public var stroke: JSONValue

    /// Makes one.
    public init(job: Int, stroke: JSONValue) {
        self.job = job
        self.stroke = stroke
    }

    /// Reads one (`nil`: another event, or another job's): the on-screen
    /// button draws each stroke as it comes.
    public init?(_ json: JSONValue, job: JSONValue) throws(DaemonError) {
        guard json["event"] == .string(Self.event.rawValue), json[WireKey.job.rawValue] == job else { return nil }
        let reader = try WireReader(json, what: "a record event")
        self.job = try reader.integer(.job)
        stroke = try reader.member(.stroke)
    }

    /// job, stroke.
    public var fields: [(String, JSONValue)] { [member(.job, .integer(job)), member(.stroke, stroke)] }
}

/// A `fingertips` event.
public struct FingertipsEventMessage: DaemonEventMessage, Hashable {
    public static var event: DaemonEvent { .fingertips }
    public var job: Int
    public var state: FingertipsEventState
    /// `ready`: how many, and the line to show.
    public var count: Int?
    public var line: String?
    /// `ended`: why, for programs and for people.
    public var reason: FingertipsEndCode?
    public var message: String?

    /// Makes one.
    public init(
        job: Int, state: FingertipsEventState, count: Int? = nil, line: String? = nil, reason: FingertipsEndCode? = nil, message: String? = nil
    ) {
        self.job = job
        self.state = state
        self.count = count
        self.line = line
        self.reason = reason
        self.message = message
    }

    /// Reads one (`nil`: another event, or another job's).
    public init?(_ json: JSONValue, job: JSONValue) throws(DaemonError) {
        guard json["event"] == .string(Self.event.rawValue), json[WireKey.job.rawValue] == job else { return nil }
        let reader = try WireReader(json, what: "a fingertips event")
        self.job = try reader.integer(.job)
        let word = try reader.string(.state)
        guard let state = FingertipsEventState(rawValue: word) else {
            throw DaemonError(.internal, "a fingertips event's state \"\(ProtocolText.excerpt(word))\" is not one the client knows")
        }
        self.state = state
        count = try reader.optionalInteger(.count)
        line = try reader.optionalString(.line)
        reason = try reader.optionalString(.reason).flatMap(FingertipsEndCode.init(rawValue:))
        message = try reader.optionalString(.message)
    }

    /// job, state, then count and line (ready) or reason and message (ended).
    public var fields: [(String, JSONValue)] {
        var fields = [member(.job, .integer(job)), member(.state, .string(state.rawValue))]
        if let count { fields.append(member(.count, .integer(count))) }
        if let line { fields.append(member(.line, .string(line))) }
        if let reason { fields.append(member(.reason, .string(reason.rawValue))) }
        if let message { fields.append(member(.message, .string(message))) }
        return fields
    }
}

/// A line of a create flow or a menu (`create` and `menu` events).
public struct AssistLineEvent: Sendable, Hashable {
    /// `create` or `menu`.
    public var event: DaemonEvent
    /// As shown, and as spoken.
    public var line: String
    public var spoken: String

    /// Makes one.
    public init(event: DaemonEvent, line: String, spoken: String) {
        self.event = event
        self.line = line
        self.spoken = spoken
    }

    /// Reads one (`nil`: another event).
    public init?(_ json: JSONValue) throws(DaemonError) {
        guard case .string(let name)? = json["event"], let event = DaemonEvent(rawValue: name), event == .create || event == .menu else {
            return nil
        }
        let reader = try WireReader(json, what: "a \(name) event")
        self.event = event
        line = try reader.string(.line)
        spoken = try reader.string(.spoken)
    }

    /// line, spoken.
    public var fields: [(String, JSONValue)] { [member(.line, .string(line)), member(.spoken, .string(spoken))] }
}

/// A `dropped` event: how many events a client that did not read missed.
public struct DroppedEvent: DaemonEventMessage, Hashable {
    public static var event: DaemonEvent { .dropped }
    public var count: Int

    /// Makes one.
    public init(count: Int) { self.count = count }

    /// count.
    public var fields: [(String, JSONValue)] { [member(.count, .integer(count))] }
}
