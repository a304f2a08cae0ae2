import GestureModel

/// Where a played gesture lands, how big it is and how it is turned: the
/// placement that `play` (locally and through the daemon) takes, with
/// `transform`'s meanings and units.
///
/// The rule (docs/EDITING.md, "place"): with `c` the centre of the box
/// around every sample (`transform --about`'s default), `t` the target
/// point (`at`, or `c` when not given), `s` the scale and `R` the rotation
/// (clockwise on the screen, as `transform --rotate`), every point moves to
/// `p' = t + R(s (p − c))`, in millimetres on the gesture's own surface,
/// rounded once at the end. So the gesture is scaled and turned about its
/// centre, and that centre lands exactly on `at`. Samples pushed off the
/// surface are clipped to its edge with `transform`'s warning; `at` itself
/// must lie on the surface.
public struct Placement: Hashable, Sendable {
    /// One coordinate of ``at``.
    public enum Coordinate: Hashable, Sendable, CustomStringConvertible {
        /// Millimetres from the surface's left (x) or top (y) edge.
        case millimetres(Double)
        /// Percent of the surface's width (x) or height (y): 0 is the
        /// left or top edge, 100 the right or bottom edge.
        case percent(Double)

        /// Reads `12.5` (mm) or `80%` (percent). Plain decimal notation
        /// only (no `inf`, `nan` or hexadecimal); `nil` otherwise.
        public init?(_ text: String) {
            var number = Substring(text)
            let isPercent = number.hasSuffix("%")
            if isPercent { number = number.dropLast() }
            let allowed = number.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ".eE+-".unicodeScalars.contains($0) }
            guard !number.isEmpty, allowed, let value = Double(number), value.isFinite else { return nil }
            self = isPercent ? .percent(value) : .millimetres(value)
        }

        /// `12.5 mm` or `80%`.
        public var description: String {
            switch self {
            case .millimetres(let value): "\(Formatting.number(value)) mm"
            case .percent(let value): "\(Formatting.number(value))%"
            }
        }

        /// The coordinate in millimetres on a surface `lengthMM` long.
        func millimetres(on lengthMM: Double) -> Double {
            switch self {
            case .millimetres(let value): value
            case .percent(let value): value / 100 * lengthMM
            }
        }
    }

    /// Where the gesture's centre lands.
    public struct Point: Hashable, Sendable {
        /// Across, from the left edge.
        public var x: Coordinate
        /// Down, from the top edge.
        public var y: Coordinate

        /// Creates a point.
        public init(x: Coordinate, y: Coordinate) {
            self.x = x
            self.y = y
        }

        /// Reads `X,Y`, each `12.5` (mm) or `80%` (percent of the surface).
        /// - Throws: ``Failure`` (part ``Part/at``) for anything else.
        public init(parsing text: String) throws(Failure) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw Failure(.at, "needs X,Y: two numbers in mm or percents of the surface (e.g. 40,25 or 80%,90%), not \"\(text)\"")
            }
            let trimmed = parts.map { String($0.filter { $0 != " " }) }
            guard let x = Coordinate(trimmed[0]) else {
                throw Failure(.at, "X \"\(trimmed[0])\" is not a number of mm or a percent like 80%")
            }
            guard let y = Coordinate(trimmed[1]) else {
                throw Failure(.at, "Y \"\(trimmed[1])\" is not a number of mm or a percent like 90%")
            }
            self.init(x: x, y: y)
        }
    }

    /// Which part of a placement a ``Failure`` is about, named as the
    /// daemon's argument (the command line's option is `--` and the same).
    public enum Part: String, Hashable, Sendable {
        case at, scale, rotate
    }

    /// Why a placement cannot be applied: the part, and a one-line message
    /// that names neither the option nor the argument (callers add it).
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The part that is wrong.
        public var part: Part
        /// What is wrong with it.
        public var message: String

        /// Creates a failure.
        public init(_ part: Part, _ message: String) {
            self.part = part
            self.message = message
        }

        /// `rotate: …`.
        public var description: String { "\(part.rawValue): \(message)" }
    }

    /// Where the gesture's centre lands; `nil` leaves it where it is.
    public var at: Point?
    /// The size factor about the centre (2 = twice as large); finite, above 0.
    public var scale: Double
    /// The turn about the centre in degrees, clockwise on the screen; finite.
    public var degrees: Double

    /// Creates a placement; the defaults change nothing.
    public init(at: Point? = nil, scale: Double = 1, degrees: Double = 0) {
        self.at = at
        self.scale = scale
        self.degrees = degrees
    }

    /// Whether the placement changes nothing (no `at`, scale 1, 0°).
    public var isIdentity: Bool { at == nil && scale == 1 && degrees == 0 }

    /// Checks what can be checked without a gesture: a finite scale above
    /// 0, a finite angle, percents within 0…100.
    /// - Throws: ``Failure`` for the first part that is wrong.
    public func validate() throws(Failure) {
        guard scale.isFinite, scale > 0 else {
            throw Failure(.scale, "the scale must be a finite number above 0, not \(Formatting.number(scale))")
        }
        guard degrees.isFinite else {
            throw Failure(.rotate, "the angle must be a finite number of degrees, not \(Formatting.number(degrees))")
        }
        guard let at else { return }
        for (name, coordinate) in [("X", at.x), ("Y", at.y)] {
            switch coordinate {
            case .millimetres(let value) where !value.isFinite, .percent(let value) where !value.isFinite:
                throw Failure(.at, "\(name) must be a finite number, not \(Formatting.number(value))")
            case .percent(let value) where value < 0 || value > 100:
                throw Failure(.at, "\(name) \(coordinate) is outside the surface (0% to 100%)")
            default:
                break
            }
        }
    }

    /// The point ``at`` means on `geometry`'s surface, in millimetres from
    /// its top-left corner; `nil` without ``at``.
    /// - Throws: ``Failure`` when the point is not on the surface.
    public func target(on geometry: DeviceGeometry) throws(Failure) -> (x: Double, y: Double)? {
        try validate()
        guard let at else { return nil }
        let width = geometry.surfaceWidthMM
        let height = geometry.surfaceHeightMM
        let x = at.x.millimetres(on: width)
        let y = at.y.millimetres(on: height)
        for (name, coordinate, value, length) in [("X", at.x, x, width), ("Y", at.y, y, height)] {
            guard case .millimetres = coordinate, value < 0 || value > length else { continue }
            throw Failure(
                .at, "\(name) \(coordinate) is outside the surface (0 to \(Formatting.number(length)) mm; or use 0% to 100%)")
        }
        return (x, y)
    }

    /// The gesture placed; see ``Placement`` for the rule.
    /// - Throws: ``Failure`` for a bad value or an `at` off the surface.
    public func apply(to gesture: Gesture) throws(Failure) -> EditResult {
        try GestureEditor.place(gesture, self)
    }
}

extension GestureEditor {
    /// Scales the gesture by `placement.scale` and turns it by
    /// `placement.degrees` about the centre of the box around its samples,
    /// then moves it so that this centre lies at `placement.at` (see
    /// ``Placement``). One rounding at the end; samples pushed off the
    /// surface are clipped to its edge with a warning, as ``scale(_:factor:about:strict:)`` does.
    ///
    /// - Throws: ``Placement/Failure`` for a scale that is not a finite
    ///   number above 0, an angle that is not finite, or an `at` that is
    ///   not on the surface.
    public static func place(_ gesture: Gesture, _ placement: Placement) throws(Placement.Failure) -> EditResult {
        let target = try placement.target(on: gesture.device)
        if placement.isIdentity { return EditResult(gesture: gesture) }
        // The centre of scale/rotate about `.centre`; nothing to move without samples.
        guard let box = gesture.boundingBoxMM else { return EditResult(gesture: gesture) }
        let centre = (x: (box.minimumX + box.maximumX) / 2, y: (box.minimumY + box.maximumY) / 2)
        let destination = target ?? centre
        let factor = placement.scale
        let (sine, cosine) = Math.sineAndCosine(degrees: placement.degrees)
        var result = gesture
        var surface = SurfacePlacement(gesture.device)
        for strokeIndex in result.strokes.indices {
            for sampleIndex in result.strokes[strokeIndex].samples.indices {
                let point = gesture.device.millimetres(of: result.strokes[strokeIndex].samples[sampleIndex])
                let dx = factor * (point.x - centre.x)
                let dy = factor * (point.y - centre.y)
                let position = surface.units(
                    xMM: destination.x + dx * cosine - dy * sine, yMM: destination.y + dx * sine + dy * cosine)
                result.strokes[strokeIndex].samples[sampleIndex].x = position.x
                result.strokes[strokeIndex].samples[sampleIndex].y = position.y
            }
        }
        // Not strict, as play has no --strict: clipping warns (transform's rule).
        let warnings = surface.clippedSamples > 0 ? [Formatting.clippedWarning(surface.clippedSamples)] : []
        return EditResult(gesture: result, warnings: warnings)
    }
}
