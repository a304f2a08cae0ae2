import GestureFormat
import GestureModel

/// The stable error codes of the protocol (docs/PROTOCOL.md): scripts act on
/// them, so they never change meaning.
public enum DaemonErrorCode: String, Hashable, Sendable, CaseIterable {
    /// The line is not JSON, or not a JSON object.
    case malformedJSON = "malformed-json"
    /// `op` names no operation.
    case unknownOp = "unknown-op"
    /// An argument is missing, of the wrong type, out of range, or unknown.
    case badArgument = "bad-argument"
    /// No such gesture, device, job or binding.
    case notFound = "not-found"
    /// The name is taken (and `force` was not given).
    case exists
    /// The device's queue is full, or the thing is in use.
    case busy
    /// The peer may not use the daemon, or the daemon may not do it.
    case permissionDenied = "permission-denied"
    /// The request line is longer than the limit (the connection is then closed).
    case tooLarge = "too-large"
    /// The job was cancelled before it completed.
    case cancelled
    /// A `record-stop` asked to `save` a recording in which no contact was
    /// recorded: nothing was saved (the result stays to be collected).
    case nothingRecorded = "nothing-recorded"
    /// Anything else: the daemon's fault, or the system's.
    case `internal`
}

/// A failed request: a code for programs, a message for people.
public struct DaemonError: KindedError, Hashable {
    /// The stable code.
    public var code: DaemonErrorCode
    /// What went wrong, in the user's terms.
    public var message: String

    /// Creates an error.
    public init(_ code: DaemonErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code, as every ``GestureModel/KindedError``'s kind.
    public var kind: DaemonErrorCode { code }

    /// `CODE: MESSAGE`.
    public var description: String { "\(code.rawValue): \(message)" }
}

/// One request line: `{"id": <scalar>, "op": "<operation>", ...arguments}`.
public struct DaemonRequest: Sendable {
    /// The client's id for the request, echoed in the reply (any JSON scalar).
    public var id: JSONValue
    /// The operation.
    public var op: String
    /// The request object itself (its other members are the arguments).
    public var object: JSONValue
    /// The line the request came in, for arguments read byte for byte (inline gestures).
    public var line: [UInt8]

    /// The longest request line accepted: 64 MiB (a ten-minute ten-finger
    /// inline gesture is 20–30 MB).
    public static let maximumLineBytes = 64 << 20

    /// The operation a request line names in its top-level `"op"`, found
    /// within its first `limit` bytes by a walk that builds nothing but
    /// keys; `nil` when not found there or not an operation. It chooses
    /// a lane only: the line is still read in full before it is served.
    public static func peekOperation(_ line: [UInt8], within limit: Int) -> DaemonOperation? {
        JSONValue.topLevelString("op", in: line, scanningAtMost: limit).flatMap(DaemonOperation.init(rawValue:))
    }

    /// Reads a request from one line (without its newline).
    /// - Throws: ``DaemonError`` `malformed-json` (with the id `nil`, as it
    ///   could not be read), or `bad-argument` for an ill-typed id or op.
    public static func parse(_ line: [UInt8]) throws(DaemonRequestError) -> DaemonRequest {
        let value: JSONValue
        do {
            // An inline gesture is checked here as JSON, then read from its
            // bytes by the gesture file reader: it is not also built as a tree.
            value = try JSONValue.parse(line, leavingUnbuilt: [DaemonField.gesture.rawValue])
        } catch {
            throw DaemonRequestError(id: .null, error: DaemonError(.malformedJSON, "the request is not JSON: \(error)"))
        }
        guard case .object = value else {
            throw DaemonRequestError(id: .null, error: DaemonError(.malformedJSON, "a request is a JSON object"))
        }
        let id = value["id"] ?? .null
        switch id {
        case .array, .object:
            throw DaemonRequestError(id: .null, error: DaemonError(.badArgument, "\"id\" must be a string, number, boolean or null"))
        default: break
        }
        guard let op = value["op"] else {
            throw DaemonRequestError(id: id, error: DaemonError(.badArgument, "\"op\" is missing: it names the operation"))
        }
        guard case .string(let name) = op else {
            throw DaemonRequestError(id: id, error: DaemonError(.badArgument, "\"op\" must be a string"))
        }
        return DaemonRequest(id: id, op: name, object: value, line: line)
    }

    /// The arguments: every member but `id` and `op`.
    public var arguments: [(key: String, value: JSONValue)] {
        guard case .object(let members, _) = object else { return [] }
        return members.filter { $0.key != "id" && $0.key != "op" }
    }
}

/// A request that could not be read, with the id to answer under.
public struct DaemonRequestError: Error, Sendable {
    /// The request's id, `null` when it could not be read.
    public var id: JSONValue
    /// What was wrong.
    public var error: DaemonError
}

/// Typed, strict access to a request's arguments: every key must be one the
/// operation knows, and every value of the type it needs, or the request is
/// refused with `bad-argument` naming the key.
public struct Arguments: Sendable {
    private let members: [String: JSONValue]
    /// The request's op, for messages.
    public let op: String

    /// Checks that every argument of `request` is one `operation` takes.
    public init(_ request: DaemonRequest, of operation: DaemonOperation) throws(DaemonError) {
        op = request.op
        let allowed = Set(operation.fields.map(\.rawValue))
        var members: [String: JSONValue] = [:]
        for (key, value) in request.arguments {
            guard allowed.contains(key) else {
                let known = allowed.sorted().joined(separator: ", ")
                throw DaemonError(
                    .badArgument,
                    "\(request.op): unknown argument \"\(ProtocolText.excerpt(key))\"" + (known.isEmpty ? " (it takes none)" : " (it takes: \(known))"))
            }
            members[key] = value
        }
        self.members = members
    }

    /// The members of an object that a binding's action holds, read as a
    /// request's arguments (`what` names it in messages): only `allowed` ones.
    package init(object members: [(key: String, value: JSONValue)], what: String, allowed: Set<DaemonField>) throws(DaemonError) {
        op = what
        let names = Set(allowed.map(\.rawValue))
        var read: [String: JSONValue] = [:]
        for (key, value) in members {
            guard names.contains(key) else {
                throw DaemonError(
                    .badArgument, "\(what): unknown key \"\(ProtocolText.excerpt(key))\" (known: \(names.sorted().joined(separator: ", ")))")
            }
            read[key] = value
        }
        self.members = read
    }

    /// Whether `key` was given (and not null).
    public func has(_ field: DaemonField) -> Bool {
        if let value = members[field.rawValue], value != .null { return true }
        return false
    }

    /// The raw value of `key`.
    public func value(_ field: DaemonField) -> JSONValue? { members[field.rawValue] }

    private func wrongType(_ field: DaemonField, _ wanted: String) -> DaemonError {
        DaemonError(.badArgument, "\(op): \"\(field.rawValue)\" must be \(wanted)")
    }

    /// A string argument; `nil` when absent or null.
    public func string(_ key: DaemonField) throws(DaemonError) -> String? {
        switch members[key.rawValue] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw wrongType(key, "a string")
        }
    }

    /// A string argument that must be given.
    public func requiredString(_ key: DaemonField) throws(DaemonError) -> String {
        guard let text = try string(key) else { throw DaemonError(.badArgument, "\(op): \"\(key.rawValue)\" is missing") }
        return text
    }

    /// A boolean argument, `fallback` when absent.
    public func bool(_ key: DaemonField, default fallback: Bool) throws(DaemonError) -> Bool {
        switch members[key.rawValue] {
        case nil, .null?: return fallback
        case .bool(let value)?: return value
        default: throw wrongType(key, "true or false")
        }
    }

    /// A number argument within `range`; `nil` when absent.
    public func number(_ key: DaemonField, in range: ClosedRange<Double>) throws(DaemonError) -> Double? {
        switch members[key.rawValue] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard let value = Double(text), value.isFinite else { throw wrongType(key, "a finite number") }
            guard range.contains(value) else {
                throw DaemonError(.badArgument, "\(op): \"\(key.rawValue)\" is \(text); it must be from \(DecimalText.shortest(range.lowerBound)) to \(DecimalText.shortest(range.upperBound))")
            }
            return value
        default: throw wrongType(key, "a number")
        }
    }

    /// A whole-number argument within `range`; `nil` when absent.
    public func integer(_ key: DaemonField, in range: ClosedRange<Int>) throws(DaemonError) -> Int? {
        switch members[key.rawValue] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard let value = Int(text) else { throw wrongType(key, "a whole number") }
            guard range.contains(value) else {
                throw DaemonError(.badArgument, "\(op): \"\(key.rawValue)\" is \(text); it must be from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        default: throw wrongType(key, "a whole number")
        }
    }
}

/// Building the lines the daemon sends.
public enum DaemonReply {
    /// `{"id": ID, "ok": true, "result": RESULT}`.
    public static func success(id: JSONValue, result: JSONValue) -> String {
        "{\"id\": \(id.jsonText), \"ok\": true, \"result\": \(result.jsonText)}\n"
    }

    /// `{"id": ID, "ok": true, "result": RESULT}` where RESULT is the object
    /// `result` with one more member, `key`, whose value is `json`: JSON text
    /// on one line, put in as it is (a gesture's file text, not parsed into
    /// values to be printed again).
    public static func success(id: JSONValue, result: JSONValue, adding key: String, json: [UInt8]) -> String {
        var object = result.jsonText
        precondition(object.last == "}", "the result is an object")
        object.removeLast()
        let separator = object.hasSuffix("{") ? "" : ", "
        return "{\"id\": \(id.jsonText), \"ok\": true, \"result\": \(object)\(separator)\(JSONValue.string(key).jsonText): "
            + String(decoding: json, as: UTF8.self) + "}}\n"
    }

    /// `{"id": ID, "ok": false, "error": {"code": CODE, "message": MESSAGE}}`.
    public static func failure(id: JSONValue, error: DaemonError) -> String {
        let body = JSONValue.object([("code", .string(error.code.rawValue)), ("message", .string(error.message))])
        return "{\"id\": \(id.jsonText), \"ok\": false, \"error\": \(body.jsonText)}\n"
    }

    /// A pushed event: `{"event": NAME, ...fields}` (no id).
    public static func event(_ event: DaemonEvent, _ fields: [(String, JSONValue)]) -> String {
        JSONValue.object([("event", .string(event.rawValue))] + fields).jsonText + "\n"
    }
}

extension DaemonCall {
    /// The request line: `{"id": ID, "op": OP, ...arguments}` and its newline.
    public func line(id: Int) -> String {
        Self.line(id: id, op: operation.rawValue, arguments.map { ($0.0.rawValue, $0.1) })
    }

    /// A request line of any op and arguments (tests send unknown ones).
    public static func line(id: Int, op: String, _ arguments: [(String, JSONValue)]) -> String {
        JSONValue.object([("id", .integer(id)), ("op", .string(op))] + arguments).jsonText + "\n"
    }
}

/// A line from the daemon, as a client reads it.
public enum DaemonReplyLine: Sendable {
    /// A pushed event (it has no id).
    case event(JSONValue)
    /// The reply to the request `id` (`nil`: the line has none): its result,
    /// or the daemon's error (or an `internal` one when the reply has neither).
    case reply(id: JSONValue?, Result<JSONValue, DaemonError>)

    /// Reads a line (without its newline).
    /// - Throws: ``DaemonError`` `internal` when it is not JSON.
    public static func parse(_ line: [UInt8]) throws(DaemonError) -> DaemonReplyLine {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw DaemonError(.internal, "the daemon sent a line that is not JSON (\(error))")
        }
        if value["event"] != nil { return .event(value) }
        let id = value["id"]
        if value["ok"] == .bool(true) { return .reply(id: id, .success(value["result"] ?? .null)) }
        guard case .object? = value["error"], case .string(let code)? = value["error"]?["code"],
            case .string(let message)? = value["error"]?["message"]
        else { return .reply(id: id, .failure(DaemonError(.internal, "the daemon's reply has neither a result nor an error"))) }
        return .reply(id: id, .failure(DaemonError(DaemonErrorCode(rawValue: code) ?? .internal, message)))
    }
}
