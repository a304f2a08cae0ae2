import GestureModel

extension GestureEditor {
    /// The most strokes ``merge(_:alignment:maximumFingers:)`` allows in
    /// contact at once unless told: 10.
    public static let defaultMaximumFingers = 10

    /// Merges gestures whose strokes were drawn one after another into one
    /// gesture whose strokes play at once, each as its own finger.
    ///
    /// Within each gesture, strokes that overlap in time (touching
    /// intervals count) form a group that keeps its relative timing; a
    /// stroke that starts after every earlier stroke has lifted starts a new
    /// group. Groups are ordered by gesture (in the order given), then by
    /// start time, and placed on the merged timeline by `alignment`.
    ///
    /// The result has the first gesture's name, description, geometry and
    /// metadata (with `droppedEvents` summed over all gestures). Strokes of
    /// a gesture with another geometry are mapped by their physical position
    /// in millimetres, or, when either surface's size is unknown (FORMAT.md's
    /// size rule), by their position in percent of the surface, with a
    /// warning; points that fall off the first gesture's surface are
    /// clipped to its edge with a warning. Pressure and size are mapped by
    /// the same fraction of their axis (dropped when the first gesture's
    /// device has no such axis). Strokes with no samples are left out with
    /// a warning.
    ///
    /// - Parameters:
    ///   - gestures: The gestures, in order; at least one.
    ///   - alignment: Where each group starts (default: all at 0).
    ///   - maximumFingers: The most strokes allowed in contact at once
    ///     (default ``defaultMaximumFingers``); the device's slot count also limits it.
    /// - Throws: ``EditError`` when no gestures are given, when strokes of
    ///   different kinds are mixed (e.g. pointer with finger), when the
    ///   result holds more contacts at once than allowed, when stagger
    ///   offsets are invalid, or when the result exceeds ``GestureLimits``.
    public static func merge(
        _ gestures: [Gesture], alignment: MergeAlignment = .start, maximumFingers: Int = defaultMaximumFingers
    ) throws(EditError) -> EditResult {
        guard let first = gestures.first else { throw EditError("nothing to merge: no gestures were given") }
        guard maximumFingers >= 1 else {
            throw EditError("the most fingers allowed must be at least 1, not \(maximumFingers)")
        }
        let target = first.device
        var warnings: [String] = []

        var kind: StrokeKind?
        for gesture in gestures {
            for stroke in gesture.strokes where !stroke.samples.isEmpty {
                guard let established = kind else {
                    kind = stroke.kind
                    continue
                }
                if stroke.kind != established {
                    throw EditError("cannot merge \(established.rawValue) strokes with \(stroke.kind.rawValue) strokes")
                }
            }
        }

        var groups: [[Stroke]] = []
        for (gestureIndex, gesture) in gestures.enumerated() {
            let empty = gesture.strokes.count(where: { $0.samples.isEmpty })
            if empty > 0 {
                warnings.append(
                    "gesture \(gestureIndex + 1): left out \(Formatting.count(empty, "stroke", "strokes")) with no samples")
            }
            var strokes = gesture.strokes.filter { !$0.samples.isEmpty }
            if gesture.device != target {
                var placement = SurfacePlacement(target)
                // Millimetres mean something only when both sizes are known
                // (FORMAT.md's size rule); otherwise the same place in
                // percent of the surface is the best guess, and it is said.
                let byFraction = !gesture.device.isSizeKnown || !target.isSizeKnown
                if byFraction {
                    let whose = gesture.device.isSizeKnown ? "gesture 1's" : "its"
                    warnings.append(
                        "gesture \(gestureIndex + 1): \(whose) surface size is unknown (no width_mm/height_mm and no resolution); placed at the same position in percent of the surface, not in millimetres")
                }
                strokes = strokes.map { remap($0, from: gesture.device, onto: &placement, byFraction: byFraction) }
                if placement.clippedSamples > 0 {
                    warnings.append("gesture \(gestureIndex + 1): \(Formatting.clippedWarning(placement.clippedSamples))")
                }
            }
            groups += overlapGroups(strokes)
        }

        let durations = groups.map(groupEnd).enumerated().map { index, end in
            end - groups[index][0].startTime
        }
        let starts = try alignment.starts(durations: durations)
        var merged: [Stroke] = []
        for (index, group) in groups.enumerated() {
            let offset = starts[index] - group[0].startTime
            merged += group.map { $0.shifted(by: offset) }
        }

        var metadata = first.metadata
        let dropped = gestures.reduce(0) { total, gesture in
            let (sum, overflow) = total.addingReportingOverflow(gesture.metadata?.droppedEvents ?? 0)
            return overflow ? Int.max : sum
        }
        if dropped != (first.metadata?.droppedEvents ?? 0) {
            var summed = metadata ?? RecordingMetadata()
            summed.droppedEvents = dropped
            metadata = summed
        }
        var result = Gesture(
            name: first.name, description: first.description, device: target, strokes: merged, metadata: metadata)
        result.sortStrokes()

        let contacts = result.maximumSimultaneousContacts
        if contacts > maximumFingers, maximumFingers <= target.slots {
            throw EditError("merging gives \(Plural.contacts(contacts, of: result.strokes)) at once; the most allowed is \(maximumFingers)")
        }
        if contacts > target.slots {
            throw EditError(
                "merging gives \(Plural.contacts(contacts, of: result.strokes)) at once; the device tracks at most \(target.slots)")
        }
        try ResultChecks.checkLimits(result, "merging gives")
        return EditResult(gesture: result, warnings: warnings)
    }

    /// Strokes (none empty) split into groups that overlap in time, each
    /// group's strokes in start order, groups in start order.
    static func overlapGroups(_ strokes: [Stroke]) -> [[Stroke]] {
        var sorted = Gesture(name: "", device: .synthDefault, strokes: strokes)
        sorted.sortStrokes()
        var groups: [[Stroke]] = []
        var currentEnd = Microseconds.zero
        for stroke in sorted.strokes {
            if groups.isEmpty || stroke.startTime > currentEnd {
                groups.append([stroke])
                currentEnd = stroke.endTime
            } else {
                groups[groups.count - 1].append(stroke)
                currentEnd = max(currentEnd, stroke.endTime)
            }
        }
        return groups
    }

    /// The latest sample time in a group.
    private static func groupEnd(_ group: [Stroke]) -> Microseconds {
        group.map(\.endTime).max() ?? .zero
    }

    /// A stroke moved from one device to another by physical position in
    /// millimetres (or, with `byFraction`, by the same fraction of each
    /// axis); pressure and size by the same fraction of their axes.
    static func remap(
        _ stroke: Stroke, from source: DeviceGeometry, onto placement: inout SurfacePlacement, byFraction: Bool = false
    ) -> Stroke {
        var copy = stroke
        let target = placement.geometry
        let sourceWidth = source.surfaceWidthMM
        let sourceHeight = source.surfaceHeightMM
        if stroke.samples.source != nil {
            // Read from a file: counted once (what is clipped), then moved
            // as read, never copied (issue 39).
            @Sendable func place(_ sample: Sample, _ placement: inout SurfacePlacement) -> Sample {
                var point = source.millimetres(of: sample)
                if byFraction, sourceWidth > 0, sourceHeight > 0 {
                    point = (
                        point.x / sourceWidth * target.surfaceWidthMM, point.y / sourceHeight * target.surfaceHeightMM
                    )
                }
                return placement.placed(sample, xMM: point.x, yMM: point.y, from: source)
            }
            for sample in stroke.samples { _ = place(sample, &placement) }
            copy.samples = stroke.samples.mapped { sample in
                var placing = SurfacePlacement(target)
                return place(sample, &placing)
            }
            return copy
        }
        for index in copy.samples.indices {
            let sample = copy.samples[index]
            var point = source.millimetres(of: sample)
            if byFraction, sourceWidth > 0, sourceHeight > 0 {
                point = (
                    point.x / sourceWidth * target.surfaceWidthMM, point.y / sourceHeight * target.surfaceHeightMM
                )
            }
            let position = placement.units(xMM: point.x, yMM: point.y)
            copy.samples[index].x = position.x
            copy.samples[index].y = position.y
            copy.samples[index].pressure = AxisRange.map(sample.pressure, from: source.pressure, to: target.pressure)
            copy.samples[index].size = AxisRange.map(sample.size, from: source.size, to: target.size)
        }
        return copy
    }
}
