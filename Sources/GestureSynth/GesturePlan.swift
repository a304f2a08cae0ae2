import GestureModel

/// A shape resolved into millimetre paths, after every parameter has been
/// checked: what ``GestureSynthesizer`` turns into samples.
struct GesturePlan {
    /// One stroke to sample.
    struct StrokePlan {
        /// How the finger moves.
        var path: FingerPath
        /// When the stroke touches down, from the start of the gesture.
        var start: Microseconds
        /// How long it touches.
        var duration: Microseconds
    }

    /// Names the gesture in error messages, e.g. "3-finger swipe up".
    var label: String
    /// How many fingers touch at once.
    var fingers: Int
    /// The default name, e.g. "swipe-up-3".
    var defaultName: String
    /// The default description, a short sentence.
    var defaultDescription: String
    /// The strokes, ordered by start time.
    var strokes: [StrokePlan]

    /// Checks the shape's parameters against `options.geometry` and lays out its strokes.
    init(shape: SynthShape, options: SynthOptions) throws(SynthError) {
        let surface = Surface(geometry: options.geometry)
        switch shape {
        case let .tap(fingers, centre, duration):
            try self.init(
                stationary: "tap", name: "tap", fingers: fingers, centre: centre, duration: duration,
                options: options, surface: surface)

        case let .longPress(fingers, centre, duration):
            try self.init(
                stationary: "long press", name: "long-press", fingers: fingers, centre: centre, duration: duration,
                options: options, surface: surface)

        case let .doubleTap(fingers, centre, tapDuration, gap):
            try checkFingers(fingers, shape: "double tap", allowed: 1...10)
            try checkDuration(tapDuration, option: "--tap-duration")
            try checkDuration(gap, option: "--gap")
            let label = "\(fingers)-finger double tap"
            let total = tapDuration + tapDuration + gap
            guard total <= SynthDefaults.maximumDuration else {
                throw .gestureTooLong(shape: label, duration: total)
            }
            let centre = try surface.resolveCentre(centre)
            let points = row(of: fingers, around: centre, spacingMM: options.spacingMM, vertical: false)
            let first = points.map { StrokePlan(path: .still(at: $0), start: .zero, duration: tapDuration) }
            let second = points.map {
                StrokePlan(path: .still(at: $0), start: tapDuration + gap, duration: tapDuration)
            }
            let name = "double-tap-\(fingers)"
            let description = "\(article(fingers)) \(fingers)-finger double tap: two "
                + "\(formatMilliseconds(tapDuration)) ms taps, \(formatMilliseconds(gap)) ms apart."
            let strokes: [StrokePlan] = first + second
            self.init(
                label: label, fingers: fingers, defaultName: name, defaultDescription: description,
                strokes: strokes)

        case let .swipe(direction, fingers, distance, duration, centre):
            try checkFingers(fingers, shape: "swipe", allowed: 1...10)
            try checkDistance(distance)
            try checkDuration(duration, option: "--duration")
            let vertical = direction == .up || direction == .down
            guard distance <= (vertical ? surface.heightMM : surface.widthMM) else {
                throw .distanceDoesNotFit(distanceMM: distance, widthMM: surface.widthMM, heightMM: surface.heightMM)
            }
            let centre = try surface.resolveCentre(centre)
            let half = distance / 2
            // Unit vector of the motion on the screen (y grows downward).
            let (unitX, unitY): (Double, Double) =
                switch direction {
                case .up: (0, -1)
                case .down: (0, 1)
                case .left: (-1, 0)
                case .right: (1, 0)
                }
            let midpoints = row(of: fingers, around: centre, spacingMM: options.spacingMM, vertical: false)
            let label = "\(fingers)-finger swipe \(direction.rawValue)"
            let name = "swipe-\(direction.rawValue)-\(fingers)"
            let description = "\(article(fingers)) \(fingers)-finger swipe \(direction.rawValue), "
                + "\(formatNumber(distance)) mm in \(formatMilliseconds(duration)) ms."
            let strokes: [StrokePlan] = midpoints.map { midpoint in
                let from = midpoint.offset(dx: -unitX * half, dy: -unitY * half)
                let to = midpoint.offset(dx: unitX * half, dy: unitY * half)
                return StrokePlan(path: .line(from: from, to: to), start: .zero, duration: duration)
            }
            self.init(
                label: label, fingers: fingers, defaultName: name, defaultDescription: description,
                strokes: strokes)

        case let .pinch(direction, fingers, startRadius, endRadius, distance, duration, centre):
            try checkFingers(fingers, shape: "pinch", allowed: 2...10)
            try checkDuration(duration, option: "--duration")
            let (start, end) = try resolvePinchRadii(
                direction: direction, startRadiusMM: startRadius, endRadiusMM: endRadius, distanceMM: distance)
            let centre = try surface.resolveCentre(centre)
            let label = "\(fingers)-finger pinch \(direction.rawValue)"
            let name = "pinch-\(direction.rawValue)-\(fingers)"
            let description = "\(article(fingers)) \(fingers)-finger pinch \(direction.rawValue), radius "
                + "\(formatNumber(start)) mm to \(formatNumber(end)) mm in \(formatMilliseconds(duration)) ms."
            let strokes: [StrokePlan] = (0..<fingers).map { finger in
                let degrees = circleAngle(finger: finger, of: fingers)
                let from = pointOnCircle(centre: centre, radiusMM: start, degrees: degrees)
                let to = pointOnCircle(centre: centre, radiusMM: end, degrees: degrees)
                return StrokePlan(path: .line(from: from, to: to), start: .zero, duration: duration)
            }
            self.init(
                label: label, fingers: fingers, defaultName: name, defaultDescription: description,
                strokes: strokes)

        case let .rotate(degrees, fingers, radius, duration, centre):
            try checkFingers(fingers, shape: "rotation", allowed: 2...10)
            let limit = SynthDefaults.maximumRotateDegrees
            guard degrees.isFinite, degrees != 0, abs(degrees) <= limit else {
                throw .invalidNumber(
                    option: "--degrees", value: degrees,
                    requirement: "a non-zero number from -\(formatNumber(limit)) to \(formatNumber(limit))")
            }
            guard radius.isFinite, radius > 0 else {
                throw .invalidNumber(option: "--radius", value: radius, requirement: "greater than 0 mm")
            }
            try checkDuration(duration, option: "--duration")
            let centre = try surface.resolveCentre(centre)
            let turn = degrees > 0 ? "clockwise" : "anticlockwise"
            let label = "\(fingers)-finger rotation"
            let name = "rotate-\(turn)-\(fingers)"
            let description = "\(article(fingers)) \(fingers)-finger \(turn) rotation by "
                + "\(formatNumber(abs(degrees)))° on a \(formatNumber(radius)) mm radius in "
                + "\(formatMilliseconds(duration)) ms."
            let strokes: [StrokePlan] = (0..<fingers).map { finger in
                let path = FingerPath.arc(
                    centre: centre, radiusMM: radius, startDegrees: circleAngle(finger: finger, of: fingers),
                    sweepDegrees: degrees)
                return StrokePlan(path: path, start: .zero, duration: duration)
            }
            self.init(
                label: label, fingers: fingers, defaultName: name, defaultDescription: description,
                strokes: strokes)

        case let .edgeSwipe(edge, fingers, distance, duration, along):
            try checkFingers(fingers, shape: "edge swipe", allowed: 1...10)
            try checkDistance(distance)
            try checkDuration(duration, option: "--duration")
            // The row runs along the edge, so it is vertical on the left and right edges.
            let alongVertical = edge == .left || edge == .right
            let edgeLength = alongVertical ? surface.heightMM : surface.widthMM
            let inwardLength = alongVertical ? surface.widthMM : surface.heightMM
            guard distance <= inwardLength else {
                throw .distanceDoesNotFit(distanceMM: distance, widthMM: surface.widthMM, heightMM: surface.heightMM)
            }
            let position = along ?? edgeLength / 2
            guard position.isFinite, position >= 0, position <= edgeLength else {
                throw .invalidNumber(
                    option: "--along", value: position,
                    requirement: "from 0 to \(formatNumber(edgeLength)) mm along the \(edge.rawValue) edge")
            }
            let (start, inward): (MillimetrePoint, (dx: Double, dy: Double)) =
                switch edge {
                case .left: (MillimetrePoint(x: 0, y: position), (distance, 0))
                case .right: (MillimetrePoint(x: surface.widthMM, y: position), (-distance, 0))
                case .top: (MillimetrePoint(x: position, y: 0), (0, distance))
                case .bottom: (MillimetrePoint(x: position, y: surface.heightMM), (0, -distance))
                }
            let label = "\(fingers)-finger edge swipe from the \(edge.rawValue) edge"
            let name = "edge-swipe-\(edge.rawValue)-\(fingers)"
            let description = "\(article(fingers)) \(fingers)-finger swipe in from the \(edge.rawValue) edge, "
                + "\(formatNumber(distance)) mm in \(formatMilliseconds(duration)) ms."
            let starts = row(of: fingers, around: start, spacingMM: options.spacingMM, vertical: alongVertical)
            let strokes: [StrokePlan] = starts.map {
                StrokePlan(
                    path: .line(from: $0, to: $0.offset(dx: inward.dx, dy: inward.dy)), start: .zero,
                    duration: duration)
            }
            self.init(
                label: label, fingers: fingers, defaultName: name, defaultDescription: description,
                strokes: strokes)
        }
    }

    /// A tap or a long press: a row of still fingers.
    private init(
        stationary shape: String, name: String, fingers: Int, centre: MillimetrePoint?, duration: Microseconds,
        options: SynthOptions, surface: Surface
    ) throws(SynthError) {
        try checkFingers(fingers, shape: shape, allowed: 1...10)
        try checkDuration(duration, option: "--duration")
        let centre = try surface.resolveCentre(centre)
        let strokes = row(of: fingers, around: centre, spacingMM: options.spacingMM, vertical: false).map {
            StrokePlan(path: .still(at: $0), start: .zero, duration: duration)
        }
        self.init(
            label: "\(fingers)-finger \(shape)", fingers: fingers, defaultName: "\(name)-\(fingers)",
            defaultDescription: "\(article(fingers)) \(fingers)-finger \(shape) of \(formatMilliseconds(duration)) ms.",
            strokes: strokes)
    }

    /// Creates a plan from its parts.
    private init(
        label: String, fingers: Int, defaultName: String, defaultDescription: String, strokes: [StrokePlan]
    ) {
        self.label = label
        self.fingers = fingers
        self.defaultName = defaultName
        self.defaultDescription = defaultDescription
        self.strokes = strokes
    }
}

/// The surface size in millimetres, for defaults and checks.
struct Surface {
    var widthMM: Double
    var heightMM: Double

    init(geometry: DeviceGeometry) {
        widthMM = geometry.surfaceWidthMM
        heightMM = geometry.surfaceHeightMM
    }

    /// The middle of the surface.
    var middle: MillimetrePoint { MillimetrePoint(x: widthMM / 2, y: heightMM / 2) }

    /// Whether `point` is on the surface, edges included. A nanometre of
    /// slack absorbs floating-point noise (216 mm computed as 216.0000000001).
    func contains(_ point: MillimetrePoint) -> Bool {
        let slack = 1e-6
        return point.x >= -slack && point.x <= widthMM + slack && point.y >= -slack && point.y <= heightMM + slack
    }

    /// `centre`, or the middle of the surface when it is `nil`; throws when
    /// it is not a point on the surface.
    func resolveCentre(_ centre: MillimetrePoint?) throws(SynthError) -> MillimetrePoint {
        guard let centre else { return middle }
        guard centre.isFinite, contains(centre) else {
            throw .pointOffSurface(option: "--centre", point: centre, widthMM: widthMM, heightMM: heightMM)
        }
        return centre
    }
}

/// `count` points `spacingMM` apart in a row centred on `centre`, left to
/// right (or top to bottom when `vertical`).
func row(of count: Int, around centre: MillimetrePoint, spacingMM: Double, vertical: Bool) -> [MillimetrePoint] {
    (0..<count).map { index in
        let offset = (Double(index) - Double(count - 1) / 2) * spacingMM
        return vertical ? centre.offset(dy: offset) : centre.offset(dx: offset)
    }
}

/// Where finger `finger` of `count` sits on a pinch or rotation circle:
/// 180° + finger × 360° / count, clockwise on the screen from rightward.
func circleAngle(finger: Int, of count: Int) -> Double {
    180 + Double(finger) * 360 / Double(count)
}

/// "A" or "An" before a finger count written in digits ("An 8-finger tap").
func article(_ fingers: Int) -> String { fingers == 8 ? "An" : "A" }

func checkFingers(_ fingers: Int, shape: String, allowed: ClosedRange<Int>) throws(SynthError) {
    guard allowed.contains(fingers) else {
        throw .fingersOutOfRange(shape: shape, fingers: fingers, allowed: allowed)
    }
}

func checkDuration(_ duration: Microseconds, option: String) throws(SynthError) {
    guard duration > .zero, duration <= SynthDefaults.maximumDuration else {
        throw .durationOutOfRange(option: option, duration: duration)
    }
}

func checkDistance(_ distance: Double) throws(SynthError) {
    guard distance.isFinite, distance > 0 else {
        throw .invalidNumber(option: "--distance", value: distance, requirement: "greater than 0 mm")
    }
}

/// The start and end radius of a pinch, from whichever of the radii and
/// the distance were given (the rules are on ``SynthShape``'s `pinch` case).
func resolvePinchRadii(
    direction: PinchDirection, startRadiusMM: Double?, endRadiusMM: Double?, distanceMM: Double?
) throws(SynthError) -> (start: Double, end: Double) {
    let inner = SynthDefaults.pinchInnerRadiusMM
    let outer = SynthDefaults.pinchOuterRadiusMM
    // In: the radius shrinks by the distance; out: it grows.
    let sign: Double = direction == .in ? -1 : 1
    for (option, value) in [("--start-radius", startRadiusMM), ("--end-radius", endRadiusMM)] {
        if let value, !(value.isFinite && value > 0) {
            throw .invalidNumber(option: option, value: value, requirement: "greater than 0 mm")
        }
    }
    let start: Double
    let end: Double
    if let distanceMM {
        try checkDistance(distanceMM)
        switch (startRadiusMM, endRadiusMM) {
        case (.some, .some):
            throw .conflictingOptions(
                "give --start-radius and --end-radius, or one of them with --distance, not all three")
        case let (.some(given), nil):
            (start, end) = (given, given + sign * distanceMM)
        case let (nil, .some(given)):
            (start, end) = (given - sign * distanceMM, given)
        case (nil, nil):
            (start, end) = direction == .in ? (inner + distanceMM, inner) : (inner, inner + distanceMM)
        }
        guard start > 0, end > 0 else {
            let given = startRadiusMM ?? endRadiusMM ?? inner
            throw .invalidNumber(
                option: "--distance", value: distanceMM,
                requirement: "less than the \(formatNumber(given)) mm radius for a pinch \(direction.rawValue)")
        }
    } else {
        start = startRadiusMM ?? (direction == .in ? outer : inner)
        end = endRadiusMM ?? (direction == .in ? inner : outer)
    }
    guard direction == .in ? end < start : end > start else {
        throw .pinchRadiiWrongWay(direction: direction, startRadiusMM: start, endRadiusMM: end)
    }
    return (start, end)
}
