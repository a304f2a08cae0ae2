import GestureModel

extension GestureEditor {
    /// Re-expresses the gesture on a surface of another shape, so that it
    /// plays undistorted on a device of that aspect ratio (letterbox).
    ///
    /// The new surface keeps the larger side of the old one: for a ratio
    /// `w:h` with `w ≥ h` its width is the old larger side and its height
    /// `width × h / w`; otherwise its height is the old larger side. Each
    /// axis keeps its minimum and its millimetres per unit (its span is the
    /// new length divided by that, rounded), and the physical size is set to
    /// the new width and height. The whole old surface is scaled uniformly
    /// by `s = min(newWidth / oldWidth, newHeight / oldHeight)` and centred
    /// on the new one: `p' = s × p + ((newWidth − s × oldWidth) / 2,
    /// (newHeight − s × oldHeight) / 2)`, in millimetres, on the surface
    /// size of FORMAT.md's rule (``DeviceGeometry/surfaceWidthMM``). A
    /// length that was 0 (unknown) stays 0 in the result.
    ///
    /// - Throws: ``EditError`` when the ratio is not two positive finite
    ///   numbers, when the surface has no area, or, with `strict`, when a
    ///   point (already off the old surface) would fall off the new one.
    public static func fit(
        _ gesture: Gesture, aspectRatio: AspectRatio, strict: Bool = false
    ) throws(EditError) -> EditResult {
        guard aspectRatio.width.isFinite, aspectRatio.height.isFinite, aspectRatio.width > 0,
            aspectRatio.height > 0
        else {
            throw EditError("the aspect ratio must be two positive numbers, not \(aspectRatio)")
        }
        let source = gesture.device
        let oldWidth = source.surfaceWidthMM
        let oldHeight = source.surfaceHeightMM
        guard oldWidth > 0, oldHeight > 0 else { throw EditError("the gesture's surface has no area") }

        let larger = max(oldWidth, oldHeight)
        let ratio = aspectRatio.width / aspectRatio.height
        let newWidth = ratio >= 1 ? larger : larger * ratio
        let newHeight = ratio >= 1 ? larger / ratio : larger
        var target = source
        target.x = resized(source.x, lengthMM: newWidth, unitsPerMM: source.unitsPerMMX)
        target.y = resized(source.y, lengthMM: newHeight, unitsPerMM: source.unitsPerMMY)
        // Known stays known and unknown stays unknown (FORMAT.md, "How size,
        // resolution and axes relate"): a stated length is restated, a
        // length from the resolution is again derived from it (the axis
        // keeps its resolution), an assumed one is not written as a fact.
        target.widthMM = source.widthMM > 0 ? newWidth : 0
        target.heightMM = source.heightMM > 0 ? newHeight : 0

        let factor = min(newWidth / oldWidth, newHeight / oldHeight)
        let offsetX = (newWidth - factor * oldWidth) / 2
        let offsetY = (newHeight - factor * oldHeight) / 2
        return try place(gesture, onto: target, strict: strict) { x, y in
            (offsetX + factor * x, offsetY + factor * y)
        }
    }

    /// Maps the gesture onto another device's geometry.
    ///
    /// The gesture keeps its physical shape and size when the box around its
    /// samples fits on the target surface; otherwise it is scaled down
    /// uniformly, by `s = min(targetWidth / boxWidth, targetHeight /
    /// boxHeight)`, until it fits. Either way the box is centred on the
    /// target surface, so the gesture's position on the old surface is not
    /// kept (translate afterwards to move it). Pressure and size are mapped
    /// by the same fraction of their axis (dropped when the target has no
    /// such axis). Sizes follow FORMAT.md's rule
    /// (``DeviceGeometry/surfaceWidthMM``): when either surface's size is
    /// unknown, every point keeps its position in percent of the surface
    /// instead, with a warning.
    ///
    /// - Throws: ``EditError`` when the target has more contacts at once
    ///   than its slots, when the target surface has no area, or, with
    ///   `strict`, when a point would fall off the target (only by rounding).
    public static func fit(
        _ gesture: Gesture, to target: DeviceGeometry, strict: Bool = false
    ) throws(EditError) -> EditResult {
        let targetWidth = target.surfaceWidthMM
        let targetHeight = target.surfaceHeightMM
        guard targetWidth > 0, targetHeight > 0 else { throw EditError("the target surface has no area") }
        let contacts = gesture.maximumSimultaneousContacts
        if contacts > target.slots {
            throw EditError(
                "the gesture has \(Plural.contacts(contacts, of: gesture.strokes)) at once; the target device tracks at most \(target.slots)")
        }
        guard let box = gesture.boundingBoxMM else {
            var result = gesture
            result.device = target
            return EditResult(gesture: result)
        }
        // Millimetres mean something only when both sizes are known
        // (FORMAT.md's size rule); otherwise each point keeps its place in
        // percent of the surface, and the result says so.
        if !gesture.device.isSizeKnown || !target.isSizeKnown {
            let sourceWidth = gesture.device.surfaceWidthMM
            let sourceHeight = gesture.device.surfaceHeightMM
            let whose = gesture.device.isSizeKnown ? "the target's" : "the gesture's"
            let result = try place(gesture, onto: target, strict: strict) { x, y in
                (x / sourceWidth * targetWidth, y / sourceHeight * targetHeight)
            }
            return EditResult(
                gesture: result.gesture,
                warnings: [
                    "\(whose) surface size is unknown (no width_mm/height_mm and no resolution); placed at the same position in percent of the surface, not in millimetres"
                ] + result.warnings)
        }
        let boxWidth = box.maximumX - box.minimumX
        let boxHeight = box.maximumY - box.minimumY
        var factor = 1.0
        if boxWidth > targetWidth { factor = min(factor, targetWidth / boxWidth) }
        if boxHeight > targetHeight { factor = min(factor, targetHeight / boxHeight) }
        let boxCentreX = (box.minimumX + box.maximumX) / 2
        let boxCentreY = (box.minimumY + box.maximumY) / 2
        let scale = factor
        return try place(gesture, onto: target, strict: strict) { x, y in
            (targetWidth / 2 + scale * (x - boxCentreX), targetHeight / 2 + scale * (y - boxCentreY))
        }
    }

    /// An axis with the same minimum and resolution whose span covers
    /// `lengthMM` at `unitsPerMM` (at least one unit).
    private static func resized(_ axis: AxisRange, lengthMM: Double, unitsPerMM: Double) -> AxisRange {
        let span = min(max(1, (lengthMM * unitsPerMM).rounded()), Double(GestureLimits.maximumCoordinate))
        var copy = axis
        let (maximum, overflow) = axis.minimum.addingReportingOverflow(Int(span))
        copy.maximum = overflow ? Int.max : maximum
        return copy
    }

    /// Every sample moved through `transform` (millimetres on the gesture's
    /// surface in, millimetres on `target` out), rounded once and clipped;
    /// pressure and size mapped onto the target's axes. Two passes: one
    /// counts what is clipped (refused with `strict`), then each stroke's
    /// samples are placed as they are read, so a stroke read from a file
    /// is never copied (issue 39).
    private static func place(
        _ gesture: Gesture, onto target: DeviceGeometry, strict: Bool,
        _ transform: @escaping @Sendable (Double, Double) -> (x: Double, y: Double)
    ) throws(EditError) -> EditResult {
        let source = gesture.device
        let placed: @Sendable (Sample, inout SurfacePlacement) -> Sample = { sample, placement in
            let point = source.millimetres(of: sample)
            let moved = transform(point.x, point.y)
            return placement.placed(sample, xMM: moved.x, yMM: moved.y, from: source)
        }
        var placement = SurfacePlacement(target)
        for stroke in gesture.strokes {
            for sample in stroke.samples { _ = placed(sample, &placement) }
        }
        let warnings = try placement.outcome(strict: strict)
        var result = gesture
        result.device = target
        for strokeIndex in result.strokes.indices {
            result.strokes[strokeIndex].samples = result.strokes[strokeIndex].samples.mapped { sample in
                var placing = SurfacePlacement(target)
                return placed(sample, &placing)
            }
        }
        return EditResult(gesture: result, warnings: warnings)
    }
}
