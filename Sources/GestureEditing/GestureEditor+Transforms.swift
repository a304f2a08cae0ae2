import GestureModel

extension GestureEditor {
    /// Plays the gesture faster or slower: every sample time is divided by
    /// `factor` (2 = twice as fast, 0.5 = half speed) and rounded to the
    /// nearest microsecond. Times are divided as they are, so a gesture that
    /// starts at 1 s starts at 0.5 s at double speed.
    ///
    /// - Throws: ``EditError`` when `factor` is not a finite number above 0,
    ///   or when the slowed gesture would last longer than allowed.
    public static func speed(_ gesture: Gesture, factor: Double) throws(EditError) -> EditResult {
        guard factor.isFinite, factor > 0 else {
            throw EditError("speed factor must be a finite number above 0, not \(Formatting.number(factor))")
        }
        var result = gesture
        for strokeIndex in result.strokes.indices {
            // A stroke read from a file is sped up as it is read (issue 39).
            result.strokes[strokeIndex].samples = result.strokes[strokeIndex].samples.mapped { sample in
                var faster = sample
                faster.time = Microseconds.nearest(to: Double(sample.time.rawValue) / factor)
                return faster
            }
        }
        // Division by a positive factor keeps the order of times; sorting
        // keeps strokes that now start together in their old order.
        result.sortStrokes()
        try ResultChecks.checkLimits(result, "at this speed the result is")
        return EditResult(gesture: result)
    }

    /// Scales the gesture by `factor` about `anchor`: a point `p` moves to
    /// `anchor + factor × (p − anchor)`, in millimetres. Pressure and size
    /// are not scaled.
    ///
    /// - Throws: ``EditError`` when `factor` is not a finite number above 0,
    ///   or, with `strict`, when a point would fall off the surface.
    public static func scale(
        _ gesture: Gesture, factor: Double, about anchor: Anchor = .centre, strict: Bool = false
    ) throws(EditError) -> EditResult {
        guard factor.isFinite, factor > 0 else {
            throw EditError("scale factor must be a finite number above 0, not \(Formatting.number(factor))")
        }
        let centre = try anchorPoint(anchor, in: gesture)
        return try movePoints(gesture, strict: strict) { x, y in
            (centre.x + factor * (x - centre.x), centre.y + factor * (y - centre.y))
        }
    }

    /// Moves the gesture `dxMM` millimetres to the right and `dyMM`
    /// millimetres down (negative values move left and up).
    ///
    /// - Throws: ``EditError`` when a distance is not finite, or, with
    ///   `strict`, when a point would fall off the surface.
    public static func translate(
        _ gesture: Gesture, dxMM: Double, dyMM: Double, strict: Bool = false
    ) throws(EditError) -> EditResult {
        guard dxMM.isFinite, dyMM.isFinite else {
            throw EditError(
                "translation must be finite numbers of millimetres, not \(Formatting.number(dxMM)), \(Formatting.number(dyMM))"
            )
        }
        return try movePoints(gesture, strict: strict) { x, y in (x + dxMM, y + dyMM) }
    }

    /// Rotates the gesture by `degrees` about `anchor`. Positive angles turn
    /// clockwise as seen on the screen (whose y axis grows downwards): at
    /// +90° a point to the right of the anchor moves below it. In
    /// millimetres, with `d = p − anchor`:
    /// `x' = ax + d.x cos θ − d.y sin θ`, `y' = ay + d.x sin θ + d.y cos θ`.
    /// Multiples of 90° are exact.
    ///
    /// - Throws: ``EditError`` when `degrees` is not finite, or, with
    ///   `strict`, when a point would fall off the surface.
    public static func rotate(
        _ gesture: Gesture, degrees: Double, about anchor: Anchor = .centre, strict: Bool = false
    ) throws(EditError) -> EditResult {
        guard degrees.isFinite else {
            throw EditError("rotation must be a finite number of degrees, not \(Formatting.number(degrees))")
        }
        let centre = try anchorPoint(anchor, in: gesture)
        let (sine, cosine) = Math.sineAndCosine(degrees: degrees)
        return try movePoints(gesture, strict: strict) { x, y in
            let dx = x - centre.x
            let dy = y - centre.y
            return (centre.x + dx * cosine - dy * sine, centre.y + dx * sine + dy * cosine)
        }
    }

    /// The anchor in millimetres; the centre of an empty gesture is the
    /// surface's top-left corner (nothing moves then anyway).
    static func anchorPoint(_ anchor: Anchor, in gesture: Gesture) throws(EditError) -> (x: Double, y: Double) {
        switch anchor {
        case .centre:
            guard let box = gesture.boundingBoxMM else { return (0, 0) }
            return ((box.minimumX + box.maximumX) / 2, (box.minimumY + box.maximumY) / 2)
        case .point(let xMM, let yMM):
            guard xMM.isFinite, yMM.isFinite else {
                throw EditError(
                    "the anchor must be finite numbers of millimetres, not \(Formatting.number(xMM)), \(Formatting.number(yMM))"
                )
            }
            return (xMM, yMM)
        }
    }

    /// Every sample's position sent through `transform` (millimetres in and
    /// out, on the gesture's own surface), rounded once and clipped.
    static func movePoints(
        _ gesture: Gesture, strict: Bool, _ transform: @escaping @Sendable (Double, Double) -> (x: Double, y: Double)
    ) throws(EditError) -> EditResult {
        var result = gesture
        var placement = SurfacePlacement(gesture.device)
        let device = gesture.device
        for strokeIndex in result.strokes.indices where result.strokes[strokeIndex].samples.source != nil {
            // Read from a file: counted once (what is clipped), then moved
            // as read, never copied (issue 39).
            for sample in result.strokes[strokeIndex].samples {
                let point = device.millimetres(of: sample)
                let moved = transform(point.x, point.y)
                _ = placement.units(xMM: moved.x, yMM: moved.y)
            }
            result.strokes[strokeIndex].samples = result.strokes[strokeIndex].samples.mapped { sample in
                var placing = SurfacePlacement(device)
                let point = device.millimetres(of: sample)
                let moved = transform(point.x, point.y)
                let position = placing.units(xMM: moved.x, yMM: moved.y)
                var placed = sample
                placed.x = position.x
                placed.y = position.y
                return placed
            }
        }
        for strokeIndex in result.strokes.indices where result.strokes[strokeIndex].samples.source == nil {
            for sampleIndex in result.strokes[strokeIndex].samples.indices {
                let point = gesture.device.millimetres(of: result.strokes[strokeIndex].samples[sampleIndex])
                let moved = transform(point.x, point.y)
                let position = placement.units(xMM: moved.x, yMM: moved.y)
                result.strokes[strokeIndex].samples[sampleIndex].x = position.x
                result.strokes[strokeIndex].samples[sampleIndex].y = position.y
            }
        }
        return EditResult(gesture: result, warnings: try placement.outcome(strict: strict))
    }
}
