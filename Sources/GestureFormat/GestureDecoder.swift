import GestureModel

/// The second reading pass: turns a syntactically checked version-1 text
/// into a ``Gesture``, with errors for unknown, duplicate and missing keys
/// and for values of the wrong type.
///
/// Samples are read straight into ``Sample`` values, with no intermediate
/// tree, so that multi-million-sample files stay fast and small.
struct GestureDecoder {
    var scanner: JSONScanner
    /// Samples read so far over all strokes, to stop at the limit early.
    private var totalSamples = 0

    /// The file's format version: keys newer than it are unknown keys.
    let version: Int
    /// A mapped file, whose strokes' samples are left in it and read from
    /// it when asked (``MappedSampleSource``), instead of read into arrays.
    let mapped: MappedInput?

    init(scanner: JSONScanner, version: Int = GestureFileFormat.currentVersion, mapped: MappedInput? = nil) {
        self.scanner = scanner
        self.version = version
        self.mapped = mapped
    }

    /// Reads the whole gesture.
    mutating func decodeGesture() throws(ScanError) -> Gesture {
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        let objectOffset = scanner.position
        try scanner.expect(UInt8(ascii: "{"), "'{'")
        var seen = SeenKeys()
        var name: String?
        var description: String?
        var device: DeviceGeometry?
        var metadata: RecordingMetadata?
        var strokes: [Stroke]?
        var first = true
        while let (key, keyOffset) = try scanner.nextKey(first: &first) {
            try markSeen(key, at: keyOffset, in: "gesture", seen: &seen)
            switch key {
            case "format": _ = try readInteger(key)  // already checked by VersionCheck
            case "name": name = try readString(key)
            case "description": description = try readOptionalString(key)
            case "device": device = try readDevice()
            case "metadata": metadata = try readMetadata()
            case "strokes": strokes = try readStrokes()
            default: throw unknownKey(key, at: keyOffset, in: "gesture")
            }
        }
        guard let name else { throw missingKey("name", in: "gesture", at: objectOffset) }
        guard let device else { throw missingKey("device", in: "gesture", at: objectOffset) }
        guard let strokes else { throw missingKey("strokes", in: "gesture", at: objectOffset) }
        return Gesture(name: name, description: description, device: device, strokes: strokes, metadata: metadata)
    }

    // MARK: Objects

    private mutating func readDevice() throws(ScanError) -> DeviceGeometry {
        let objectOffset = try beginObject("device")
        var seen = SeenKeys()
        var kind: DeviceKind?
        var x: AxisRange?
        var y: AxisRange?
        var pressure: AxisRange?
        var size: AxisRange?
        var widthMM: Double?
        var heightMM: Double?
        var slots: Int?
        var first = true
        while let (key, keyOffset) = try scanner.nextKey(first: &first) {
            try markSeen(key, at: keyOffset, in: "device", seen: &seen)
            switch key {
            // Only the kinds that hold gestures: "keyboard" and "other" are
            // rejected as unknown, as before DeviceKind named them.
            case "kind": kind = try readEnumeration(key, among: DeviceKind.gestureKinds, what: "device kind")
            case "x": x = try readAxis("x")
            case "y": y = try readAxis("y")
            case "pressure": pressure = try readNull() ? nil : readAxis("pressure")
            case "size": size = try readNull() ? nil : readAxis("size")
            case "width_mm": widthMM = try readMillimetres(key)
            case "height_mm": heightMM = try readMillimetres(key)
            case "slots": slots = try readInteger(key)
            default: throw unknownKey(key, at: keyOffset, in: "device")
            }
        }
        guard let kind else { throw missingKey("kind", in: "device", at: objectOffset) }
        guard let x else { throw missingKey("x", in: "device", at: objectOffset) }
        guard let y else { throw missingKey("y", in: "device", at: objectOffset) }
        guard let slots else { throw missingKey("slots", in: "device", at: objectOffset) }
        // A missing size is derived from span and resolution, in Double so
        // that hostile bounds cannot overflow (validation rejects them later).
        func derived(_ axis: AxisRange) -> Double {
            axis.resolution > 0 ? (Double(axis.maximum) - Double(axis.minimum)) / Double(axis.resolution) : 0
        }
        return DeviceGeometry(
            kind: kind, x: x, y: y, pressure: pressure, size: size,
            widthMM: widthMM ?? Millimetres.rounded(derived(x)), heightMM: heightMM ?? Millimetres.rounded(derived(y)),
            slots: slots)
    }

    private mutating func readAxis(_ axisName: String) throws(ScanError) -> AxisRange {
        let context = "device \(axisName) axis"
        let objectOffset = try beginObject(axisName)
        var seen = SeenKeys()
        var minimum: Int?
        var maximum: Int?
        var resolution = 0
        var first = true
        while let (key, keyOffset) = try scanner.nextKey(first: &first) {
            try markSeen(key, at: keyOffset, in: context, seen: &seen)
            switch key {
            case "min": minimum = try readInteger(key)
            case "max": maximum = try readInteger(key)
            case "resolution": resolution = try readInteger(key)
            default: throw unknownKey(key, at: keyOffset, in: context)
            }
        }
        guard let minimum else { throw missingKey("min", in: context, at: objectOffset) }
        guard let maximum else { throw missingKey("max", in: context, at: objectOffset) }
        return AxisRange(minimum: minimum, maximum: maximum, resolution: resolution)
    }

    private mutating func readMetadata() throws(ScanError) -> RecordingMetadata? {
        if try readNull() { return nil }
        _ = try beginObject("metadata")
        var seen = SeenKeys()
        var metadata = RecordingMetadata()
        var first = true
        while let (key, keyOffset) = try scanner.nextKey(first: &first) {
            try markSeen(key, at: keyOffset, in: "metadata", seen: &seen)
            switch key {
            case "recorded_at": metadata.recordedAt = try readOptionalString(key)
            case "tool": metadata.tool = try readOptionalString(key)
            case "device_name": metadata.deviceName = try readOptionalString(key)
            case "device_id": metadata.deviceID = try readOptionalString(key)
            case "dropped_events": metadata.droppedEvents = try readInteger(key)
            default: throw unknownKey(key, at: keyOffset, in: "metadata")
            }
        }
        return metadata
    }

    private mutating func readStrokes() throws(ScanError) -> [Stroke] {
        try beginArray("strokes")
        var strokes: [Stroke] = []
        var first = true
        while try scanner.nextElement(first: &first) {
            if strokes.count == GestureLimits.maximumStrokes {
                throw ScanError(
                    .tooLarge, .spot(scanner.position),
                    "more than \(GestureLimits.maximumStrokes) strokes; the limit is \(GestureLimits.maximumStrokes)")
            }
            strokes.append(try readStroke(index: strokes.count))
        }
        return strokes
    }

    private mutating func readStroke(index: Int) throws(ScanError) -> Stroke {
        let context = "stroke \(index + 1)"
        guard scanner.current == UInt8(ascii: "{") else {
            throw wrongType(context, expected: "an object")
        }
        let objectOffset = scanner.position
        scanner.position += 1
        var seen = SeenKeys()
        var kind: StrokeKind?
        var button: PointerButton?
        var samples: Samples?
        var estimated = false
        var first = true
        while let (key, keyOffset) = try scanner.nextKey(first: &first) {
            try markSeen(key, at: keyOffset, in: context, seen: &seen)
            switch key {
            case "estimated" where version >= 2: estimated = try readNull() ? false : readBoolean(key)
            case "kind": kind = try readEnumeration(key, as: StrokeKind.self, what: "stroke kind")
            case "button": button = try readNull() ? nil : readEnumeration(key, as: PointerButton.self, what: "button")
            case "samples": samples = try readSamples(strokeIndex: index)
            default: throw unknownKey(key, at: keyOffset, in: context)
            }
        }
        guard let kind else { throw missingKey("kind", in: context, at: objectOffset) }
        guard let samples else { throw missingKey("samples", in: context, at: objectOffset) }
        return Stroke(kind: kind, button: button, samples: samples, isEstimated: estimated)
    }

    // MARK: Samples (the hot path)

    private mutating func readSamples(strokeIndex: Int) throws(ScanError) -> Samples {
        try beginArray("samples")
        if let mapped { return try indexSamples(strokeIndex: strokeIndex, in: mapped) }
        var samples: [Sample] = []
        var first = true
        while try scanner.nextElement(first: &first) {
            try checkSampleLimit()
            samples.append(try readSample(strokeIndex: strokeIndex, sampleIndex: samples.count))
            totalSamples += 1
        }
        return Samples(samples)
    }

    /// The file's samples stop at ``GestureLimits/maximumSamples``: one
    /// more is refused where it starts.
    private func checkSampleLimit() throws(ScanError) {
        // A mapped file's samples stay in it: the larger, streamed limit.
        let limit = GestureLimits.sampleLimit(streamed: mapped != nil)
        if totalSamples == limit {
            throw ScanError(.tooLarge, .spot(scanner.position), "more than \(limit) samples; the limit is \(limit)")
        }
    }

    /// ``readSamples(strokeIndex:)`` of a mapped file: each sample is read
    /// and checked as there, but only where every 256th starts is kept.
    private mutating func indexSamples(strokeIndex: Int, in mapped: MappedInput) throws(ScanError) -> Samples {
        var indexer = SampleIndexer()
        var summary = SampleSummary()
        var first = true
        while try scanner.nextElement(first: &first) {
            try checkSampleLimit()
            let offset = scanner.position
            summary.note(try readSample(strokeIndex: strokeIndex, sampleIndex: indexer.count))
            indexer.note(sampleAt: offset)
            totalSamples += 1
        }
        return Samples(
            source: MappedSampleSource(
                owner: mapped.owner, bytes: mapped.bytes, count: indexer.count, checkpoints: indexer.checkpoints,
                trimmer: mapped.trimmer, summary: summary))
    }

    private static let columnNames = ["time", "x", "y", "pressure", "size"]

    /// Reads `[time, x, y]`, `[time, x, y, pressure]` or
    /// `[time, x, y, pressure, size]`; pressure and size may be null.
    private mutating func readSample(strokeIndex: Int, sampleIndex: Int) throws(ScanError) -> Sample {
        let sampleOffset = scanner.position
        guard scanner.current == UInt8(ascii: "[") else {
            throw ScanError(
                .invalid, .spot(sampleOffset),
                Self.location(strokeIndex, sampleIndex) + "a sample must be an array [time, x, y, pressure, size], found \(scanner.describeValue(at: sampleOffset))")
        }
        scanner.position += 1
        var values: (Int, Int, Int, Int?, Int?) = (0, 0, 0, nil, nil)
        var count = 0
        var first = true
        while try scanner.nextElement(first: &first) {
            if count == 5 {
                throw ScanError(
                    .invalid, .spot(scanner.position),
                    Self.location(strokeIndex, sampleIndex) + "a sample has at most 5 numbers: time, x, y, pressure, size")
            }
            var value: Int? = nil
            if count >= 3 && scanner.current == UInt8(ascii: "n") && scanner.matches("null") {
                scanner.position += 4
            } else {
                value = try readSampleInteger(column: count, strokeIndex: strokeIndex, sampleIndex: sampleIndex)
            }
            switch count {
            case 0: values.0 = value ?? 0
            case 1: values.1 = value ?? 0
            case 2: values.2 = value ?? 0
            case 3: values.3 = value
            default: values.4 = value
            }
            count += 1
        }
        if count < 3 {
            throw ScanError(
                .invalid, .spot(sampleOffset),
                Self.location(strokeIndex, sampleIndex) + "a sample needs at least time, x and y; found \(count) number\(count == 1 ? "" : "s")")
        }
        return Sample(time: Microseconds(Int64(values.0)), x: values.1, y: values.2, pressure: values.3, size: values.4)
    }

    /// `stroke 3, sample 17: `, built only for an error (a string per sample
    /// would dominate the reading time).
    private static func location(_ strokeIndex: Int, _ sampleIndex: Int) -> String {
        "stroke \(strokeIndex + 1), sample \(sampleIndex + 1): "
    }

    /// An integer sample column, parsed in one go (no token, no string).
    private mutating func readSampleInteger(column: Int, strokeIndex: Int, sampleIndex: Int) throws(ScanError) -> Int {
        let start = scanner.position
        let bytes = scanner.bytes
        var index = start
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value = 0
        var overflow = false
        let digitsStart = index
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) =
                negative ? shifted.subtractingReportingOverflow(Int(digit)) : shifted.addingReportingOverflow(Int(digit))
            overflow = overflow || overflowShift || overflowAdd
            value = next
            index += 1
        }
        let isPlainInteger =
            index > digitsStart
            && (index >= bytes.count
                || (bytes[index] != UInt8(ascii: ".") && bytes[index] != UInt8(ascii: "e")
                    && bytes[index] != UInt8(ascii: "E")))
        guard isPlainInteger else {
            throw ScanError(
                .invalid, .spot(start),
                Self.location(strokeIndex, sampleIndex) + "\(Self.columnNames[column]) must be an integer, found \(scanner.describeValue(at: start))")
        }
        if overflow {
            throw ScanError(
                .invalid, .spot(start),
                Self.location(strokeIndex, sampleIndex) + "\(Self.columnNames[column]) \(scanner.describeValue(at: start)) is out of range")
        }
        scanner.position = index
        return value
    }

    // MARK: Values

    /// Consumes `null` and returns true, or returns false at anything else.
    private mutating func readNull() throws(ScanError) -> Bool {
        guard scanner.current == UInt8(ascii: "n") else { return false }
        try scanner.skipLiteral()
        return true
    }

    private mutating func readBoolean(_ key: String) throws(ScanError) -> Bool {
        let value: Bool
        if scanner.matches("true") {
            value = true
        } else if scanner.matches("false") {
            value = false
        } else {
            throw wrongType("\"\(key)\"", expected: "true or false")
        }
        try scanner.skipLiteral()
        return value
    }

    private mutating func beginObject(_ key: String) throws(ScanError) -> Int {
        guard scanner.current == UInt8(ascii: "{") else { throw wrongType("\"\(key)\"", expected: "an object") }
        let offset = scanner.position
        scanner.position += 1
        return offset
    }

    private mutating func beginArray(_ key: String) throws(ScanError) {
        guard scanner.current == UInt8(ascii: "[") else { throw wrongType("\"\(key)\"", expected: "an array") }
        scanner.position += 1
    }

    private mutating func readString(_ key: String) throws(ScanError) -> String {
        guard scanner.current == UInt8(ascii: "\"") else { throw wrongType("\"\(key)\"", expected: "a string") }
        return try scanner.readString()
    }

    private mutating func readOptionalString(_ key: String) throws(ScanError) -> String? {
        try readNull() ? nil : readString(key)
    }

    private mutating func readInteger(_ key: String) throws(ScanError) -> Int {
        let start = scanner.position
        guard let byte = scanner.current, byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) else {
            throw wrongType("\"\(key)\"", expected: "an integer")
        }
        let token = try scanner.scanNumber()
        guard token.isInteger else {
            throw ScanError(.invalid, .spot(start), "\"\(key)\" must be an integer, found \(scanner.text(of: token))")
        }
        guard let value = scanner.integerValue(of: token) else {
            throw ScanError(.invalid, .spot(start), "\"\(key)\" \(scanner.text(of: token)) is out of range")
        }
        return value
    }

    /// A length in millimetres, rounded to 0.001 mm as the writer does.
    private mutating func readMillimetres(_ key: String) throws(ScanError) -> Double {
        let start = scanner.position
        guard let byte = scanner.current, byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) else {
            throw wrongType("\"\(key)\"", expected: "a number")
        }
        let token = try scanner.scanNumber()
        guard let value = scanner.doubleValue(of: token), value.isFinite else {
            throw ScanError(.invalid, .spot(start), "\"\(key)\" \(scanner.text(of: token)) is out of range")
        }
        return Millimetres.rounded(value)
    }

    private mutating func readEnumeration<Value: RawRepresentable & CaseIterable>(
        _ key: String, as type: Value.Type, what: String
    ) throws(ScanError) -> Value where Value.RawValue == String {
        try readEnumeration(key, among: Array(Value.allCases), what: what)
    }

    /// One of `choices` spelled by its raw value; anything else is an
    /// unknown `what`, with the choices listed in their order.
    private mutating func readEnumeration<Value: RawRepresentable>(
        _ key: String, among choices: [Value], what: String
    ) throws(ScanError) -> Value where Value.RawValue == String {
        let start = scanner.position
        let text = try readString(key)
        guard let value = choices.first(where: { $0.rawValue == text }) else {
            let names = choices.map(\.rawValue)
            let choices = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
            throw ScanError(
                .invalid, .spot(start), "unknown \(what) \"\(GestureEncoder.escaped(text))\"; expected \(choices)")
        }
        return value
    }

    // MARK: Errors

    private func markSeen(_ key: String, at offset: Int, in context: String, seen: inout SeenKeys) throws(ScanError) {
        if !seen.insert(key) {
            throw ScanError(.invalid, .spot(offset), "duplicate key \"\(GestureEncoder.escaped(key))\" in \(context)")
        }
    }

    private func unknownKey(_ key: String, at offset: Int, in context: String) -> ScanError {
        ScanError(.invalid, .spot(offset), "unknown key \"\(GestureEncoder.escaped(key))\" in \(context)")
    }

    private func missingKey(_ key: String, in context: String, at offset: Int) -> ScanError {
        ScanError(.invalid, .spot(offset), "missing key \"\(key)\" in \(context)")
    }

    /// `"name" must be a string, found 3`, at the value.
    private func wrongType(_ what: String, expected: String) -> ScanError {
        ScanError(
            .invalid, .spot(scanner.position),
            "\(what) must be \(expected), found \(scanner.describeValue(at: scanner.position))")
    }
}
