import GestureModel

/// Makes gestures without a device: taps, double taps, long presses,
/// swipes, pinches, rotations and edge swipes, with 1 to 10 fingers.
///
/// Everything is deterministic. Positions are worked out in millimetres
/// and converted once to the geometry's units, rounding to the nearest unit
/// (``DeviceGeometry/units(xMM:yMM:)``). Each finger's stroke is sampled at
/// ``SynthOptions/sampleRateHz``: sample i at round(i × 1 000 000 / rate) µs
/// from its touch-down, with the last sample exactly at its duration (a
/// 250 ms swipe at 120 Hz has samples at 0, 8333, 16667, …, 241667, 250000).
/// Motion is linear in time, that is at constant velocity (constant angular
/// velocity for rotations), and the position of each sample is the
/// position at that sample's own time. Gestures start at time 0. Samples
/// carry no pressure or size.
///
/// Nothing is clipped: a shape that would put a finger off the surface is
/// an error naming the shape and the surface size.
public enum GestureSynthesizer {
    /// Makes `shape` with `options`; the single entry point behind the
    /// shape functions below, suited to a command line.
    ///
    /// - Throws: ``SynthError`` when an option is out of range, a shape does
    ///   not fit on the surface, or the geometry is unusable.
    public static func synthesize(_ shape: SynthShape, options: SynthOptions = SynthOptions())
        throws(SynthError) -> Gesture
    {
        try checkOptions(options)
        let plan = try GesturePlan(shape: shape, options: options)
        let geometry = options.geometry
        guard plan.fingers <= geometry.slots else {
            throw .moreFingersThanSlots(fingers: plan.fingers, slots: geometry.slots)
        }
        let surface = Surface(geometry: geometry)
        var strokes: [Stroke] = []
        strokes.reserveCapacity(plan.strokes.count)
        for strokePlan in plan.strokes {
            let duration = Double(strokePlan.duration.rawValue)
            var samples: [Sample] = []
            for time in sampleTimes(duration: strokePlan.duration, rateHz: options.sampleRateHz) {
                let point = strokePlan.path.position(at: Double(time.rawValue) / duration)
                guard point.isFinite, surface.contains(point) else {
                    throw .outsideSurface(
                        shape: plan.label, point: point, widthMM: surface.widthMM, heightMM: surface.heightMM)
                }
                let units = geometry.units(xMM: point.x, yMM: point.y)
                // The clamp only absorbs the nanometre of slack `contains` allows,
                // so that a point on the right edge is the axis maximum, not one past it.
                samples.append(
                    Sample(time: strokePlan.start + time, x: geometry.x.clamp(units.x), y: geometry.y.clamp(units.y)))
            }
            strokes.append(Stroke(kind: .finger, samples: samples))
        }
        return Gesture(
            name: options.name ?? plan.defaultName,
            description: options.description ?? plan.defaultDescription,
            device: geometry,
            strokes: strokes
        )
    }

    /// Fingers touch at `centre` for `duration` without moving.
    /// See ``SynthShape/tap(fingers:centre:duration:)``.
    public static func tap(
        fingers: Int = 1, centre: MillimetrePoint? = nil, duration: Microseconds = SynthDefaults.tapDuration,
        options: SynthOptions = SynthOptions()
    ) throws(SynthError) -> Gesture {
        try synthesize(.tap(fingers: fingers, centre: centre, duration: duration), options: options)
    }

    /// Two taps per finger, the second starting at `tapDuration + gap`.
    /// See ``SynthShape/doubleTap(fingers:centre:tapDuration:gap:)``.
    public static func doubleTap(
        fingers: Int = 1, centre: MillimetrePoint? = nil, tapDuration: Microseconds = SynthDefaults.tapDuration,
        gap: Microseconds = SynthDefaults.doubleTapGap, options: SynthOptions = SynthOptions()
    ) throws(SynthError) -> Gesture {
        try synthesize(
            .doubleTap(fingers: fingers, centre: centre, tapDuration: tapDuration, gap: gap), options: options)
    }

    /// Fingers touch at `centre` for `duration` (default 800 ms) without moving.
    /// See ``SynthShape/longPress(fingers:centre:duration:)``.
    public static func longPress(
        fingers: Int = 1, centre: MillimetrePoint? = nil, duration: Microseconds = SynthDefaults.longPressDuration,
        options: SynthOptions = SynthOptions()
    ) throws(SynthError) -> Gesture {
        try synthesize(.longPress(fingers: fingers, centre: centre, duration: duration), options: options)
    }

    /// A row of fingers moves `distanceMM` in `direction`, centred on `centre`.
    /// See ``SynthShape/swipe(direction:fingers:distanceMM:duration:centre:)``.
    public static func swipe(
        direction: SwipeDirection, fingers: Int = 1, distanceMM: Double = SynthDefaults.swipeDistanceMM,
        duration: Microseconds = SynthDefaults.swipeDuration, centre: MillimetrePoint? = nil,
        options: SynthOptions = SynthOptions()
    ) throws(SynthError) -> Gesture {
        try synthesize(
            .swipe(direction: direction, fingers: fingers, distanceMM: distanceMM, duration: duration, centre: centre),
            options: options)
    }

    /// Fingers on a circle around `centre` move towards or away from it.
    /// See ``SynthShape/pinch(direction:fingers:startRadiusMM:endRadiusMM:distanceMM:duration:centre:)``.
    public static func pinch(
        direction: PinchDirection, fingers: Int = 2, startRadiusMM: Double? = nil, endRadiusMM: Double? = nil,
        distanceMM: Double? = nil, duration: Microseconds = SynthDefaults.pinchDuration,
        centre: MillimetrePoint? = nil, options: SynthOptions = SynthOptions()
    ) throws(SynthError) -> Gesture {
        try synthesize(
            .pinch(
                direction: direction, fingers: fingers, startRadiusMM: startRadiusMM, endRadiusMM: endRadiusMM,
                distanceMM: distanceMM, duration: duration, centre: centre),
            options: options)
    }

    /// Fingers on a circle around `centre` turn together by `degrees`
    /// (positive = clockwise on the screen).
    /// See ``SynthShape/rotate(degrees:fingers:radiusMM:duration:centre:)``.
    public static func rotate(
        degrees: Double = SynthDefaults.rotateDegrees, fingers: Int = 2,
        radiusMM: Double = SynthDefaults.rotateRadiusMM, duration: Microseconds = SynthDefaults.rotateDuration,
        centre: MillimetrePoint? = nil, options: SynthOptions = SynthOptions()
    ) throws(SynthError) -> Gesture {
        try synthesize(
            .rotate(degrees: degrees, fingers: fingers, radiusMM: radiusMM, duration: duration, centre: centre),
            options: options)
    }

    /// A row of fingers starts exactly on an edge and moves `distanceMM` inward.
    /// See ``SynthShape/edgeSwipe(from:fingers:distanceMM:duration:alongMM:)``.
    public static func edgeSwipe(
        from edge: SurfaceEdge, fingers: Int = 1, distanceMM: Double = SynthDefaults.edgeSwipeDistanceMM,
        duration: Microseconds = SynthDefaults.edgeSwipeDuration, alongMM: Double? = nil,
        options: SynthOptions = SynthOptions()
    ) throws(SynthError) -> Gesture {
        try synthesize(
            .edgeSwipe(from: edge, fingers: fingers, distanceMM: distanceMM, duration: duration, alongMM: alongMM),
            options: options)
    }

    /// Checks the options shared by every shape.
    private static func checkOptions(_ options: SynthOptions) throws(SynthError) {
        guard SynthDefaults.sampleRateRange.contains(options.sampleRateHz) else {
            throw .sampleRateOutOfRange(options.sampleRateHz)
        }
        guard options.spacingMM.isFinite, options.spacingMM > 0 else {
            throw .invalidNumber(option: "--spacing", value: options.spacingMM, requirement: "greater than 0 mm")
        }
        try checkGeometry(options.geometry)
        if let name = options.name {
            guard !name.allSatisfy(\.isWhitespace) else { throw .invalidName("must not be empty") }
            let bytes = name.utf8.count
            guard bytes <= GestureLimits.maximumNameBytes else {
                throw .invalidName("must be at most \(GestureLimits.maximumNameBytes) bytes (got \(bytes))")
            }
        }
        if let description = options.description, description.utf8.count > GestureLimits.maximumDescriptionBytes {
            throw .descriptionTooLong(bytes: description.utf8.count)
        }
    }

    /// Checks that a geometry has a size and ranges that positions can be
    /// converted into without overflow.
    private static func checkGeometry(_ geometry: DeviceGeometry) throws(SynthError) {
        let limit = GestureLimits.maximumCoordinate
        for (axis, range) in [("x", geometry.x), ("y", geometry.y)] {
            // Checked before `span` is used, so that it cannot overflow;
            // `magnitude`, because abs(Int.min) traps.
            guard range.minimum.magnitude <= limit.magnitude, range.maximum.magnitude <= limit.magnitude,
                range.minimum < range.maximum
            else {
                throw .unusableGeometry(
                    "the \(axis) axis must run from a smaller to a larger value within ±\(limit) "
                        + "(it runs \(range.minimum)…\(range.maximum))")
            }
        }
        // FORMAT.md's size rule: stated, from the resolution, or assumed
        // (the command says when it is assumed), so always a size.
        let width = geometry.surfaceWidthMM
        let height = geometry.surfaceHeightMM
        guard geometry.widthMM.isFinite, geometry.heightMM.isFinite, width.isFinite, height.isFinite, width > 0, height > 0
        else {
            throw .unusableGeometry("its physical size is unusable (\(formatSurface(width, height)))")
        }
        guard geometry.slots >= 1 else {
            throw .unusableGeometry("it tracks no contacts (slots \(geometry.slots))")
        }
    }
}
