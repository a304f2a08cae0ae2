import GestureModel

extension GestureFileFormat {
    /// `gesture` as the format's JSON object, built as a value: the same
    /// keys, order and numbers ``encodeUTF8(_:)`` writes, so that
    /// `json(gesture).jsonText` reads back as the gesture. For a reply or
    /// an event that carries a gesture (the daemon's `show`, `record-stop`):
    /// no text is written only to be parsed again (issue 37).
    public static func json(_ gesture: Gesture) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("format", .integer(version(for: gesture))), ("name", .string(gesture.name)),
        ]
        if let description = gesture.description { members.append(("description", .string(description))) }
        members.append(("device", json(gesture.device)))
        if let metadata = gesture.metadata { members.append(("metadata", json(metadata))) }
        members.append(("strokes", .array(gesture.strokes.map(json))))
        return .object(members)
    }

    /// One stroke as the format's JSON object (the daemon's `record`
    /// events push each stroke as it is drawn).
    public static func json(_ stroke: Stroke) -> JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(stroke.kind.rawValue))]
        // Written whenever present, as the encoder does.
        if let button = stroke.button { members.append(("button", .string(button.rawValue))) }
        if stroke.isEstimated { members.append(("estimated", .bool(true))) }
        members.append(("samples", .array(stroke.samples.map(json))))
        return .object(members)
    }

    /// The gesture `value` holds (a gesture object of a reply), read and
    /// checked by the format's reader; `source` names it in errors.
    /// - Throws: ``GestureFormatError`` as for a file.
    public static func decode(json value: JSONValue, source: String) throws(GestureFormatError) -> Gesture {
        try decode(Array(value.jsonText.utf8), source: source)
    }

    private static func json(_ device: DeviceGeometry) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("kind", .string(device.kind.rawValue)), ("x", json(device.x)), ("y", json(device.y)),
        ]
        if let pressure = device.pressure { members.append(("pressure", json(pressure))) }
        if let size = device.size { members.append(("size", json(size))) }
        members += [
            ("width_mm", .number(Millimetres.text(device.widthMM))), ("height_mm", .number(Millimetres.text(device.heightMM))),
            ("slots", .integer(device.slots)),
        ]
        return .object(members)
    }

    private static func json(_ axis: AxisRange) -> JSONValue {
        .object([("min", .integer(axis.minimum)), ("max", .integer(axis.maximum)), ("resolution", .integer(axis.resolution))])
    }

    private static func json(_ metadata: RecordingMetadata) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for (key, value) in [
            ("recorded_at", metadata.recordedAt), ("tool", metadata.tool), ("device_name", metadata.deviceName),
            ("device_id", metadata.deviceID),
        ] {
            if let value { members.append((key, .string(value))) }
        }
        members.append(("dropped_events", .integer(metadata.droppedEvents)))
        return .object(members)
    }

    /// `[time, x, y[, pressure | null[, size]]]`.
    private static func json(_ sample: Sample) -> JSONValue {
        var columns: [JSONValue] = [.number(String(sample.time.rawValue)), .integer(sample.x), .integer(sample.y)]
        if sample.pressure != nil || sample.size != nil {
            columns.append(sample.pressure.map { .integer($0) } ?? .null)
            if let size = sample.size { columns.append(.integer(size)) }
        }
        return .array(columns)
    }
}
