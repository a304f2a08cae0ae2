/// The first problem found in a gesture by ``Gesture/validate()``.
///
/// It says what is wrong (``message``) and where: which part of the gesture
/// (``field``) and, for problems inside a stroke, which stroke and sample.
/// Indices are 0-based like Swift arrays; ``description`` shows them 1-based
/// for people, e.g. `stroke 3, sample 17: time 1200 µs is before the
/// previous sample's 1500 µs`.
public struct GestureValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The part of a gesture a problem is in.
    public enum Field: Hashable, Sendable {
        /// ``Gesture/name``.
        case name
        /// ``Gesture/description``.
        case description
        /// The device's kind (a keyboard or other cannot hold a gesture).
        case deviceKind
        /// The device's x axis.
        case deviceX
        /// The device's y axis.
        case deviceY
        /// The device's pressure axis.
        case devicePressure
        /// The device's size axis.
        case deviceSize
        /// The device's physical width.
        case deviceWidth
        /// The device's physical height.
        case deviceHeight
        /// The device's number of slots.
        case deviceSlots
        /// ``RecordingMetadata/droppedEvents``.
        case metadataDroppedEvents
        /// The list of strokes as a whole (none, or too many).
        case strokes
        /// A stroke as a whole (no samples).
        case stroke
        /// A stroke's button (missing on a pointer stroke, or present on another).
        case strokeButton
        /// One sample of a stroke.
        case sample
    }

    /// The part of the gesture the problem is in.
    public var field: Field
    /// The 0-based index of the stroke the problem is in, if any.
    public var strokeIndex: Int?
    /// The 0-based index of the sample (within its stroke) the problem is in, if any.
    public var sampleIndex: Int?
    /// What is wrong, without the stroke and sample location.
    public var message: String

    /// Creates a validation error.
    public init(field: Field, strokeIndex: Int? = nil, sampleIndex: Int? = nil, message: String) {
        self.field = field
        self.strokeIndex = strokeIndex
        self.sampleIndex = sampleIndex
        self.message = message
    }

    /// The message, preceded by the 1-based location: `stroke 3, sample 17: …`,
    /// `stroke 3: …`, or just the message.
    public var description: String {
        switch (strokeIndex, sampleIndex) {
        case let (stroke?, sample?): "stroke \(stroke + 1), sample \(sample + 1): \(message)"
        case let (stroke?, nil): "stroke \(stroke + 1): \(message)"
        default: message
        }
    }
}

extension Gesture {
    /// Checks that the gesture can be saved and played: a usable name, a
    /// device geometry the kernel accepts, and strokes whose samples lie on
    /// the device, in time order, within ``GestureLimits``.
    ///
    /// - Throws: the first problem found, checking the name, the
    ///   description, the device, the metadata, then the strokes in order.
    public func validate() throws(GestureValidationError) {
        try validateName()
        try validateDevice()
        if let metadata, metadata.droppedEvents < 0 {
            throw GestureValidationError(
                field: .metadataDroppedEvents, message: "dropped events \(metadata.droppedEvents) is negative")
        }
        try validateStrokes()
    }

    private func validateName() throws(GestureValidationError) {
        if name.isEmpty { throw GestureValidationError(field: .name, message: "name is empty") }
        let nameBytes = name.utf8.count
        if nameBytes > GestureLimits.maximumNameBytes {
            throw GestureValidationError(
                field: .name,
                message: "name is \(nameBytes) bytes long; the limit is \(GestureLimits.maximumNameBytes)")
        }
        if let control = name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw GestureValidationError(
                field: .name, message: "name contains a control character (\(Self.codePoint(control)))")
        }
        if let description {
            let descriptionBytes = description.utf8.count
            if descriptionBytes > GestureLimits.maximumDescriptionBytes {
                throw GestureValidationError(
                    field: .description,
                    message:
                        "description is \(descriptionBytes) bytes long; the limit is \(GestureLimits.maximumDescriptionBytes)"
                )
            }
        }
    }

    private func validateDevice() throws(GestureValidationError) {
        // DeviceKind also names keyboards and other devices; gestures are
        // only ever recorded from or played on the four gesture kinds, and
        // gesture files spell only those.
        if !device.kind.isGestureKind {
            throw GestureValidationError(
                field: .deviceKind,
                message: "device kind \(device.kind.rawValue) cannot hold a gesture; expected touchscreen, touchpad, tablet or mouse")
        }
        try Self.validateAxis(device.x, named: "x", field: .deviceX, needsSpan: true)
        try Self.validateAxis(device.y, named: "y", field: .deviceY, needsSpan: true)
        if let pressure = device.pressure {
            try Self.validateAxis(pressure, named: "pressure", field: .devicePressure, needsSpan: false)
        }
        if let size = device.size {
            try Self.validateAxis(size, named: "size", field: .deviceSize, needsSpan: false)
        }
        try Self.validateLength(device.widthMM, named: "width", field: .deviceWidth)
        try Self.validateLength(device.heightMM, named: "height", field: .deviceHeight)
        try Self.validateAgreement(device.widthMM, named: "width_mm", axis: device.x, axisName: "x", field: .deviceWidth)
        try Self.validateAgreement(device.heightMM, named: "height_mm", axis: device.y, axisName: "y", field: .deviceHeight)
        // uinput refuses an ABS_MT_SLOT maximum above 99, so 100 slots at most.
        if device.slots < 1 || device.slots > 100 {
            throw GestureValidationError(field: .deviceSlots, message: "device slots \(device.slots) is outside 1…100")
        }
    }

    private static func validateAxis(
        _ axis: AxisRange, named axisName: String, field: GestureValidationError.Field, needsSpan: Bool
    ) throws(GestureValidationError) {
        let limit = GestureLimits.maximumCoordinate
        for (bound, value) in [("minimum", axis.minimum), ("maximum", axis.maximum)]
        where value < -limit || value > limit {
            throw GestureValidationError(
                field: field, message: "device \(axisName) axis: \(bound) \(value) is beyond ±\(limit)")
        }
        // libinput rejects a position axis whose minimum equals its maximum.
        if needsSpan && axis.minimum >= axis.maximum {
            throw GestureValidationError(
                field: field,
                message: "device \(axisName) axis: minimum \(axis.minimum) is not below maximum \(axis.maximum)")
        }
        if !needsSpan && axis.minimum > axis.maximum {
            throw GestureValidationError(
                field: field,
                message: "device \(axisName) axis: minimum \(axis.minimum) is above maximum \(axis.maximum)")
        }
        if axis.resolution < 0 {
            throw GestureValidationError(
                field: field, message: "device \(axisName) axis: resolution \(axis.resolution) is negative")
        }
    }

    private static func validateLength(
        _ value: Double, named lengthName: String, field: GestureValidationError.Field
    ) throws(GestureValidationError) {
        if !value.isFinite {
            throw GestureValidationError(field: field, message: "device \(lengthName) is not a finite number")
        }
        if value < 0 {
            throw GestureValidationError(
                field: field, message: "device \(lengthName) \(Self.plainNumber(value)) mm is negative")
        }
        if value > GestureLimits.maximumSurfaceMillimetres {
            throw GestureValidationError(
                field: field,
                message: "device \(lengthName) \(Self.plainNumber(value)) mm is larger than \(Self.plainNumber(GestureLimits.maximumSurfaceMillimetres)) mm (100 m): no surface is that large")
        }
    }

    /// FORMAT.md's size rule: a stated length and the one its axis gives
    /// (span ÷ resolution) must agree when both are known.
    private static func validateAgreement(
        _ stated: Double, named key: String, axis: AxisRange, axisName: String, field: GestureValidationError.Field
    ) throws(GestureValidationError) {
        guard let fromAxis = DeviceGeometry.lengthDisagreement(stated: stated, axis: axis) else { return }
        let percent = plainNumber(DeviceGeometry.sizeTolerance * 100)
        throw GestureValidationError(
            field: field,
            message:
                "device \(key) \(plainNumber(stated)) mm disagrees with the \(axisName) axis: \(axis.span) units at resolution \(axis.resolution) units/mm are \(plainNumber((fromAxis * 1000).rounded() / 1000)) mm (they must agree within \(percent) %, or set \(key) or the resolution to 0 for unknown)")
    }

    private func validateStrokes() throws(GestureValidationError) {
        if strokes.isEmpty { throw GestureValidationError(field: .strokes, message: "gesture has no strokes") }
        if strokes.count > GestureLimits.maximumStrokes {
            throw GestureValidationError(
                field: .strokes,
                message: "gesture has \(strokes.count) strokes; the limit is \(GestureLimits.maximumStrokes)")
        }
        let total = sampleCount
        if total > GestureLimits.maximumStreamedSamples {
            throw GestureValidationError(
                field: .strokes,
                message: "gesture has \(total) samples; the limit is \(GestureLimits.maximumStreamedSamples)")
        }
        let held = heldSampleCount
        if held > GestureLimits.maximumSamples {
            throw GestureValidationError(
                field: .strokes,
                message: "gesture has \(held) samples in memory; the limit is \(GestureLimits.maximumSamples)"
                    + " (\(GestureLimits.maximumStreamedSamples) for a gesture read from a file of 1 MiB or more)")
        }
        for (strokeIndex, stroke) in strokes.enumerated() {
            try validateStroke(stroke, at: strokeIndex)
        }
    }

    private func validateStroke(_ stroke: Stroke, at strokeIndex: Int) throws(GestureValidationError) {
        if stroke.kind == .pointer && stroke.button == nil {
            throw GestureValidationError(
                field: .strokeButton, strokeIndex: strokeIndex, message: "pointer stroke has no button")
        }
        if stroke.kind != .pointer, let button = stroke.button {
            throw GestureValidationError(
                field: .strokeButton, strokeIndex: strokeIndex,
                message: "\(stroke.kind.rawValue) stroke has a button (\(button.rawValue)); only pointer strokes have one")
        }
        if stroke.samples.isEmpty {
            throw GestureValidationError(field: .stroke, strokeIndex: strokeIndex, message: "stroke has no samples")
        }
        let maximumTime = GestureLimits.maximumDuration.rawValue
        // What the file's reader learnt of them says they all pass: no
        // second reading of a long stroke's samples from its file.
        if let summary = stroke.samples.source?.summary, summary.passes(on: device, maximumTime: maximumTime) { return }
        var previousTime = Int64.min
        for (sampleIndex, sample) in stroke.samples.enumerated() {
            func problem(_ message: String) -> GestureValidationError {
                GestureValidationError(field: .sample, strokeIndex: strokeIndex, sampleIndex: sampleIndex, message: message)
            }
            let time = sample.time.rawValue
            if time < 0 { throw problem("time \(time) µs is negative") }
            if time > maximumTime { throw problem("time \(time) µs is beyond the limit of \(maximumTime) µs (\(GestureLimits.maximumDurationWords))") }
            if time < previousTime { throw problem("time \(time) µs is before the previous sample's \(previousTime) µs") }
            previousTime = time
            if !device.x.contains(sample.x) {
                throw problem("x \(sample.x) is outside the device's x axis \(device.x.minimum)…\(device.x.maximum)")
            }
            if !device.y.contains(sample.y) {
                throw problem("y \(sample.y) is outside the device's y axis \(device.y.minimum)…\(device.y.maximum)")
            }
            if let pressure = sample.pressure {
                guard let axis = device.pressure else {
                    throw problem("pressure \(pressure) is given but the device has no pressure axis")
                }
                if !axis.contains(pressure) {
                    throw problem("pressure \(pressure) is outside the device's pressure axis \(axis.minimum)…\(axis.maximum)")
                }
            }
            if let size = sample.size {
                guard let axis = device.size else {
                    throw problem("size \(size) is given but the device has no size axis")
                }
                if !axis.contains(size) {
                    throw problem("size \(size) is outside the device's size axis \(axis.minimum)…\(axis.maximum)")
                }
            }
        }
    }

    /// `U+000A`: a scalar as people look it up.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `-1` rather than `-1.0` for whole numbers.
    private static func plainNumber(_ value: Double) -> String {
        let text = String(value)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
