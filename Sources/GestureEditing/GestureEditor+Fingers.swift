import GestureModel

extension GestureEditor {
    /// The fewest and most fingers ``fingers(_:count:spacingMM:layout:delay:strokeIndex:strict:)`` makes.
    public static let fingerCountRange = 2...10
    /// The distance between neighbouring fingertips ``fingers(_:count:spacingMM:layout:delay:strokeIndex:strict:)``
    /// uses unless told: 18 mm.
    public static let defaultFingerSpacingMM = 18.0

    /// Replicates one stroke onto several fingertips that move together, as
    /// AssistiveTouch's multi-finger gestures do (it offers 2 to 5).
    ///
    /// The original stroke's path is the hand's centre: every finger follows
    /// it at a fixed offset given by `layout` (see ``FingerLayout``), so
    /// moving the original moves all copies identically. Finger `i`
    /// (counting from 0, left to right) starts `i × delay` later than the
    /// original; finger 0 keeps its times. The result holds only the
    /// copies; other strokes of the gesture are left out (with a warning).
    /// Each copy keeps the stroke's kind, button, pressure and size.
    ///
    /// - Parameters:
    ///   - gesture: The gesture holding the stroke.
    ///   - count: How many fingers, 2 to 10.
    ///   - spacingMM: Distance between neighbouring fingertips (default ``defaultFingerSpacingMM``).
    ///   - layout: `.row` (default) or `.arc`.
    ///   - delay: How much later each finger starts than the one on its left.
    ///   - strokeIndex: Which stroke (counting from 0); when `nil` the
    ///     gesture must have exactly one stroke.
    ///   - strict: Throw instead of clipping points pushed off the surface.
    /// - Throws: ``EditError`` for a count outside 2…10, a spacing that is not
    ///   a positive number, a negative delay, an ambiguous or missing
    ///   stroke, samples off the surface in strict mode, more fingers at
    ///   once than the device tracks, or a result beyond ``GestureLimits``.
    public static func fingers(
        _ gesture: Gesture, count: Int, spacingMM: Double = defaultFingerSpacingMM, layout: FingerLayout = .row,
        delay: Microseconds = .zero, strokeIndex: Int? = nil, strict: Bool = false
    ) throws(EditError) -> EditResult {
        guard fingerCountRange.contains(count) else {
            throw EditError(
                "fingers must be \(fingerCountRange.lowerBound) to \(fingerCountRange.upperBound), not \(count)")
        }
        guard spacingMM.isFinite, spacingMM > 0 else {
            throw EditError("finger spacing must be a positive number of millimetres, not \(Formatting.number(spacingMM))")
        }
        guard delay >= .zero else {
            throw EditError("finger delay must not be negative, not \(Formatting.time(delay))")
        }
        let index: Int
        if let strokeIndex {
            guard gesture.strokes.indices.contains(strokeIndex) else {
                throw EditError(
                    "there is no stroke \(strokeIndex); the gesture has \(Formatting.count(gesture.strokes.count, "stroke", "strokes")), numbered from 0"
                )
            }
            index = strokeIndex
        } else {
            guard gesture.strokes.count == 1 else {
                if gesture.strokes.isEmpty { throw EditError("the gesture has no strokes") }
                throw EditError("the gesture has \(gesture.strokes.count) strokes; choose one with --stroke N")
            }
            index = 0
        }
        let original = gesture.strokes[index]
        guard !original.samples.isEmpty else { throw EditError("stroke \(index) has no samples") }

        let device = gesture.device
        let offsets = layout.offsetsMM(count: count, spacingMM: spacingMM)
        // One pass counts what every finger clips; then each copy is placed
        // as it is read, so a stroke read from a file is never copied (issue 39).
        var placement = SurfacePlacement(device)
        for sample in original.samples {
            let point = device.millimetres(of: sample)
            for offset in offsets { _ = placement.units(xMM: point.x + offset.x, yMM: point.y + offset.y) }
        }
        var warnings = try placement.outcome(strict: strict)
        var copies: [Stroke] = []
        for (finger, offset) in offsets.enumerated() {
            var copy = original.shifted(by: delay.saturatingMultiplied(by: finger))
            copy.samples = copy.samples.mapped { sample in
                var placing = SurfacePlacement(device)
                let point = device.millimetres(of: sample)
                let position = placing.units(xMM: point.x + offset.x, yMM: point.y + offset.y)
                var placed = sample
                placed.x = position.x
                placed.y = position.y
                return placed
            }
            copies.append(copy)
        }
        if gesture.strokes.count > 1 {
            let others = gesture.strokes.count - 1
            warnings.insert(
                "left out the other \(Formatting.count(others, "stroke", "strokes")); the result holds only the \(count) fingers",
                at: 0)
        }

        var result = gesture
        result.strokes = copies
        result.sortStrokes()
        let contacts = result.maximumSimultaneousContacts
        if contacts > gesture.device.slots {
            throw EditError(
                "\(Plural.count(count, "finger")) give \(Plural.count(contacts, "contact")) at once; the device tracks at most \(gesture.device.slots)")
        }
        try ResultChecks.checkLimits(result, "the fingers give")
        return EditResult(gesture: result, warnings: warnings)
    }
}
