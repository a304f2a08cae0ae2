import GestureModel
import InputSystem

/// Reads an Android `uinput` command file (AOSP `cmds/uinput`, README
/// "JSON-like format") back into a device description and events.
///
/// Accepted as Android's lenient reader accepts it: command objects one
/// after the other (no separators needed), `//` and `/* */` comments,
/// integers in hexadecimal (`0x18d2`, bare or in a string), names for
/// types, codes, properties and `UI_SET_*` requests (`"EV_ABS"`,
/// `"ABS_MT_SLOT"`, `"INPUT_PROP_DIRECT"`, `"UI_SET_EVBIT"`), unknown keys
/// of a command (skipped), and `sync` commands (ignored). The `register`
/// command gives the description, each `inject` events at the time the
/// `delay`s before it add up to.
///
/// Refused, with the line: anything that is not such a command, a
/// command without `id` or `command`, an unknown command, an `inject`
/// or `delay` before the `register` or for another `id`, a second device,
/// numbers beyond their field's range (a type above `EV_MAX`, a code above
/// its type's largest, a value beyond 32 bits, a `vid` beyond 16 bits),
/// `events` whose count is not a multiple of three, a `delay` of 0 or
/// less (Android refuses it too), delays adding up to more than
/// ``GestureModel/GestureLimits/maximumDuration``.
public enum AndroidUinputReader {
    /// What the file describes.
    public struct Recording: Hashable, Sendable {
        /// The registered device.
        public var description: InputDeviceDescription
        /// The injected events, each with the time (µs) the delays before
        /// it add up to.
        public var events: [InputEvent]
    }

    /// `bus` names Android's reader takes, and their `BUS_*` numbers.
    static let buses: [String: UInt16] = ["usb": 0x03, "bluetooth": 0x05]

    /// Reads the file's bytes.
    public static func read(bytes: [UInt8], source: String) throws(InteropError) -> Recording {
        try readCountingGrowths(bytes: bytes, source: source).recording
    }

    /// Reads the file's bytes, and says how often the event list was
    /// reallocated on the way (for tests: a count that grows faster than
    /// the logarithm of the events is reading in more than linear time).
    static func readCountingGrowths(bytes: [UInt8], source: String) throws(InteropError) -> (recording: Recording, growths: Int) {
        let result: Result<(Recording, Int), InteropError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(InteropError) {
                var reader = Reader(input: JSONInput(bytes: buffer, source: source, lenient: true))
                let recording = try reader.read()
                return .success((recording, reader.storageGrowths))
            } catch {
                return .failure(error)
            }
        }
        let (recording, growths) = try result.get()
        return (recording, growths)
    }

    /// Reads a text; see ``read(bytes:source:)``.
    public static func read(_ text: String, source: String) throws(InteropError) -> Recording {
        try read(bytes: Array(text.utf8), source: source)
    }

    /// One command as read, before it is checked.
    private struct Command {
        var offset: Int
        var id: (value: Int64, offset: Int)?
        var command: (value: String, offset: Int)?
        var name: String?
        var vendor: Int64?
        var product: Int64?
        var bus: (value: String, offset: Int)?
        var configuration: [(request: Int64, data: [Int64], offset: Int)]?
        var axes: [(code: Int64, info: AbsoluteAxisInfo)]?
        var duration: (value: Int64, offset: Int)?
        var events: (values: [Int32], offset: Int)?
        var syncToken: String?
    }

    private struct Reader {
        var input: JSONInput
        var description: InputDeviceDescription?
        var deviceID: Int64 = 0
        var events: [InputEvent] = []
        /// The time the delays so far add up to, in µs.
        var time: Int64 = 0
        /// How often the event list was reallocated: logarithmic in the
        /// event count when reading takes linear time (tests check it).
        var storageGrowths = 0

        mutating func read() throws(InteropError) -> Recording {
            var sawCommand = false
            while true {
                input.scanner.skipWhitespace()
                if let start = input.scanner.unclosedCommentStart {
                    // The end came inside a comment: the file was cut short
                    // there, or a `*/` is missing; either way not all of it was read.
                    throw input.error(.malformed, "a /* comment is never closed: it runs to the end of the file", at: start)
                }
                if input.scanner.isAtEnd { break }
                let command = try readCommand()
                sawCommand = true
                try apply(command)
            }
            guard sawCommand else {
                throw InteropError(kind: .malformed, source: input.source, message: "the file is empty: no commands")
            }
            guard let description else {
                throw input.error(.malformed, "no \"register\" command: the device is never described")
            }
            return Recording(description: description, events: events)
        }

        // MARK: Reading a command

        mutating func readCommand() throws(InteropError) -> Command {
            var command = Command(offset: input.scanner.position)
            try input.object("a command") { (input, key, offset) throws(InteropError) in
                switch key {
                case "id":
                    let at = input.valueOffset()
                    command.id = (try input.integer("id", in: Int64(Int32.min)...Int64(Int32.max)), at)
                case "command":
                    let at = input.valueOffset()
                    command.command = (try input.string("command"), at)
                case "name": command.name = try input.string("name")
                case "vid": command.vendor = try input.integer("vid", in: 0...0xFFFF)
                case "pid": command.product = try input.integer("pid", in: 0...0xFFFF)
                case "bus":
                    let at = input.valueOffset()
                    command.bus = (try input.string("bus"), at)
                case "configuration": command.configuration = try Self.readConfiguration(&input)
                case "abs_info": command.axes = try Self.readAxes(&input)
                case "ff_effects_max": _ = try input.integer("ff_effects_max", in: 0...Int64(Int32.max))
                case "duration":
                    let at = input.valueOffset()
                    command.duration = (try input.integer("duration", in: Int64(Int32.min)...Int64(Int32.max)), at)
                case "events":
                    let at = input.valueOffset()
                    command.events = (try Self.readEvents(&input), at)
                case "port": _ = try input.string("port")
                case "syncToken": command.syncToken = try input.string("syncToken")
                default: try input.skipValue()  // as Android's reader does
                }
            }
            return command
        }

        static func readConfiguration(_ input: inout JSONInput) throws(InteropError) -> [(Int64, [Int64], Int)] {
            var entries: [(Int64, [Int64], Int)] = []
            try input.array("configuration") { (input, index) throws(InteropError) in
                let at = input.scanner.position
                var request: Int64?
                var data: [Int64]?
                try input.object("configuration[\(index)]") { (input, key, keyOffset) throws(InteropError) in
                    switch key {
                    case "type":
                        request = try input.integer("configuration[\(index)].type", in: 0...255) { name in
                            requestNames[name]
                        }
                    case "data":
                        guard let request else {
                            throw input.error(
                                .malformed, "configuration[\(index)]: \"type\" must come before \"data\" (as Android reads it)",
                                at: keyOffset)
                        }
                        var values: [Int64] = []
                        try input.array("configuration[\(index)].data") { (input, item) throws(InteropError) in
                            values.append(
                                try input.integer("configuration[\(index)].data[\(item)]", in: 0...0xFFFF) { name in
                                    label(name, request: request)
                                })
                        }
                        data = values
                    default:
                        throw input.error(.malformed, "configuration[\(index)]: unknown key \"\(key)\" (only \"type\" and \"data\")", at: keyOffset)
                    }
                }
                guard let request, let data else {
                    throw input.error(.malformed, "configuration[\(index)] needs both \"type\" and \"data\"", at: at)
                }
                entries.append((request, data, at))
            }
            return entries
        }

        static func readAxes(_ input: inout JSONInput) throws(InteropError) -> [(Int64, AbsoluteAxisInfo)] {
            var axes: [(Int64, AbsoluteAxisInfo)] = []
            let maximumAxis = Int64(EventType.absolute.maximumCode?.rawValue ?? 0x3f)
            try input.array("abs_info") { (input, index) throws(InteropError) in
                let at = input.scanner.position
                var code: Int64?
                var info: AbsoluteAxisInfo?
                try input.object("abs_info[\(index)]") { (input, key, keyOffset) throws(InteropError) in
                    switch key {
                    case "code":
                        code = try input.integer("abs_info[\(index)].code", in: 0...maximumAxis) { name in
                            EventCode(name: name, type: .absolute).map { Int64($0.rawValue) }
                        }
                    case "info":
                        var axis = AbsoluteAxisInfo(minimum: 0, maximum: 0)
                        try input.object("abs_info[\(index)].info") { (input, field, fieldOffset) throws(InteropError) in
                            let what = "abs_info[\(index)].info.\(field)"
                            let range = Int64(Int32.min)...Int64(Int32.max)
                            switch field {
                            case "value": _ = try input.integer(what, in: range)
                            case "minimum": axis.minimum = Int32(try input.integer(what, in: range))
                            case "maximum": axis.maximum = Int32(try input.integer(what, in: range))
                            case "fuzz": axis.fuzz = Int32(try input.integer(what, in: range))
                            case "flat": axis.flat = Int32(try input.integer(what, in: range))
                            case "resolution": axis.resolution = Int32(try input.integer(what, in: range))
                            default:
                                throw input.error(.malformed, "abs_info[\(index)].info: unknown key \"\(field)\"", at: fieldOffset)
                            }
                        }
                        info = axis
                    default:
                        throw input.error(.malformed, "abs_info[\(index)]: unknown key \"\(key)\" (only \"code\" and \"info\")", at: keyOffset)
                    }
                }
                guard let code, let info else {
                    throw input.error(.malformed, "abs_info[\(index)] needs both \"code\" and \"info\"", at: at)
                }
                axes.append((code, info))
            }
            return axes
        }

        /// `[type, code, value, …]`, each number checked for its place.
        static func readEvents(_ input: inout JSONInput) throws(InteropError) -> [Int32] {
            var values: [Int32] = []
            var type = EventType.synchronization
            try input.array("events") { (input, index) throws(InteropError) in
                switch index % 3 {
                case 0:
                    let raw = try input.integer("events[\(index)] (a type)", in: 0...Int64(KernelTables.eventTypeCount - 1)) { name in
                        EventType(name: name).map { Int64($0.rawValue) }
                    }
                    type = EventType(rawValue: UInt16(raw))
                    guard KernelTables.maximumCode(of: type) != nil else {
                        throw input.error(.outOfRange, "events[\(index)]: event type \(raw) has no codes")
                    }
                    values.append(Int32(raw))
                case 1:
                    let maximum = Int64(KernelTables.maximumCode(of: type)?.rawValue ?? 0)
                    let eventType = type
                    values.append(
                        Int32(
                            try input.integer("events[\(index)] (a code of \(type))", in: 0...maximum) { name in
                                EventCode(name: name, type: eventType).map { Int64($0.rawValue) }
                            }))
                default:
                    values.append(Int32(try input.integer("events[\(index)] (a value)", in: Int64(Int32.min)...Int64(Int32.max))))
                }
            }
            guard values.count % 3 == 0 else {
                throw input.error(
                    .malformed, "events has \(values.count) numbers, not a multiple of three (type, code, value)")
            }
            return values
        }

        // MARK: Applying a command

        mutating func apply(_ command: Command) throws(InteropError) {
            guard let id = command.id else {
                throw input.error(.malformed, "a command without \"id\"", at: command.offset)
            }
            guard let (name, nameOffset) = command.command else {
                throw input.error(.malformed, "a command without \"command\"", at: command.offset)
            }
            switch name {
            case "register":
                if let description {
                    throw input.error(
                        .malformed,
                        "a second \"register\" (id \(id.value)); the file already registered \"\(description.name)\" "
                            + "(id \(deviceID)), and gesturectl imports one device",
                        at: command.offset)
                }
                guard let configuration = command.configuration else {
                    throw input.error(.malformed, "\"register\" without \"configuration\" (Android refuses it too)", at: command.offset)
                }
                deviceID = id.value
                description = try makeDescription(command, configuration: configuration)
            case "delay":
                try requireDevice(id, for: name)
                guard let duration = command.duration else {
                    throw input.error(.malformed, "\"delay\" without \"duration\"", at: command.offset)
                }
                guard duration.value > 0 else {
                    throw input.error(
                        .outOfRange, "\"delay\" duration \(duration.value) ms: must be at least 1 (Android refuses 0 and less)",
                        at: duration.offset)
                }
                time += duration.value * 1_000
                if time > GestureLimits.maximumDuration.rawValue {
                    throw input.error(
                        .tooLarge, "the delays add up to more than \(GestureLimits.maximumDuration.rawValue / 3_600_000_000) hours, "
                            + "the longest gesture", at: duration.offset)
                }
            case "inject":
                try requireDevice(id, for: name)
                guard let injected = command.events else {
                    throw input.error(.malformed, "\"inject\" without \"events\"", at: command.offset)
                }
                let at = Microseconds(time)
                var index = 0
                // No reserveCapacity here: reserving exactly what each inject
                // adds reallocates the whole list every time (quadratic in
                // the file); appending grows it geometrically.
                let capacity = events.capacity
                defer { if events.capacity != capacity { storageGrowths += 1 } }
                while index + 2 < injected.values.count {
                    events.append(
                        InputEvent(
                            time: at, type: EventType(rawValue: UInt16(injected.values[index])),
                            code: EventCode(rawValue: UInt16(injected.values[index + 1])), value: injected.values[index + 2]))
                    index += 3
                }
            case "sync":
                guard command.syncToken != nil else {
                    throw input.error(.malformed, "\"sync\" without \"syncToken\"", at: command.offset)
                }
            default:
                throw input.error(
                    .malformed, "unknown command \"\(name)\" (known: register, delay, inject, sync)", at: nameOffset)
            }
        }

        func requireDevice(_ id: (value: Int64, offset: Int), for command: String) throws(InteropError) {
            guard description != nil else {
                throw input.error(.malformed, "\"\(command)\" before any \"register\": no device to send it to", at: id.offset)
            }
            guard id.value == deviceID else {
                throw input.error(
                    .malformed, "\"\(command)\" for id \(id.value), but the registered device has id \(deviceID)", at: id.offset)
            }
        }

        func makeDescription(
            _ command: Command, configuration: [(request: Int64, data: [Int64], offset: Int)]
        ) throws(InteropError) -> InputDeviceDescription {
            guard let name = command.name else {
                throw input.error(.malformed, "\"register\" without \"name\"", at: command.offset)
            }
            var bus: UInt16 = 0
            if let (busName, busOffset) = command.bus {
                guard let number = buses[busName.lowercased()] else {
                    throw input.error(.malformed, "bus \"\(busName)\": Android knows \"usb\" and \"bluetooth\"", at: busOffset)
                }
                bus = number
            }
            var description = InputDeviceDescription(
                name: name, bus: bus, vendor: UInt16(command.vendor ?? 0), product: UInt16(command.product ?? 0))
            var types: Set<EventType> = []
            for entry in configuration {
                switch entry.request {
                case Int64(AndroidUinputWriter.setEventBit):
                    for raw in entry.data {
                        guard raw < Int64(KernelTables.eventTypeCount) else {
                            throw input.error(.outOfRange, "UI_SET_EVBIT: event type \(raw) is beyond EV_MAX", at: entry.offset)
                        }
                        types.insert(EventType(rawValue: UInt16(raw)))
                    }
                case Int64(AndroidUinputWriter.setPropertyBit):
                    for raw in entry.data {
                        guard raw < Int64(KernelTables.propertyCount) else {
                            throw input.error(.outOfRange, "UI_SET_PROPBIT: property \(raw) is beyond INPUT_PROP_MAX", at: entry.offset)
                        }
                        description.properties.insert(InputProperty(rawValue: UInt16(raw)))
                    }
                default:
                    guard let type = Self.type(forRequest: entry.request) else {
                        throw input.error(.malformed, "configuration type \(entry.request) is not a UI_SET_* request (100–110)", at: entry.offset)
                    }
                    let maximum = Int64(KernelTables.maximumCode(of: type)?.rawValue ?? 0)
                    for raw in entry.data {
                        guard raw <= maximum else {
                            throw input.error(.outOfRange, "\(Self.requestName(entry.request)): code \(raw) is beyond \(type)'s largest, \(maximum)", at: entry.offset)
                        }
                        description.codes[type, default: []].insert(EventCode(rawValue: UInt16(raw)))
                    }
                }
            }
            // A type's codes count when the type is enabled, as for the kernel.
            description.codes = description.codes.filter { types.contains($0.key) }
            for (code, info) in command.axes ?? [] {
                let eventCode = EventCode(rawValue: UInt16(code))
                // As evemu: a range for an axis that is not enabled is ignored.
                if description.codes[.absolute]?.contains(eventCode) == true { description.absoluteAxes[eventCode] = info }
            }
            for code in description.codes[.absolute] ?? [] where description.absoluteAxes[code] == nil {
                description.absoluteAxes[code] = AbsoluteAxisInfo(minimum: 0, maximum: 0)
            }
            return description
        }

        static func type(forRequest request: Int64) -> EventType? {
            AndroidUinputWriter.setBitRequests.first { Int64($0.value) == request }.map { EventType(rawValue: $0.key) }
        }

        static func requestName(_ request: Int64) -> String {
            requestNames.first { $0.value == request }?.key ?? String(request)
        }

        /// `UI_SET_*` names Android's reader takes for a configuration `type`.
        static let requestNames: [String: Int64] = [
            "UI_SET_EVBIT": 100, "UI_SET_KEYBIT": 101, "UI_SET_RELBIT": 102, "UI_SET_ABSBIT": 103, "UI_SET_MSCBIT": 104,
            "UI_SET_LEDBIT": 105, "UI_SET_SNDBIT": 106, "UI_SET_FFBIT": 107, "UI_SET_SWBIT": 109, "UI_SET_PROPBIT": 110,
        ]

        /// A name in a configuration's `data`: a type, code or property, by the request.
        static func label(_ name: String, request: Int64) -> Int64? {
            switch request {
            case 100: return EventType(name: name).map { Int64($0.rawValue) }
            case 110: return InputProperty(name: name).map { Int64($0.rawValue) }
            default: return type(forRequest: request).flatMap { EventCode(name: name, type: $0) }.map { Int64($0.rawValue) }
            }
        }
    }
}
