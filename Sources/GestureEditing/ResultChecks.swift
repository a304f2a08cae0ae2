import GestureModel

/// Checks every operation applies to what it produced, so that no edit can
/// make a gesture the player or the file format would refuse.
enum ResultChecks {
    /// Throws when `gesture` exceeds ``GestureLimits``: more strokes or
    /// samples than allowed, or a last sample later than the longest
    /// duration. `what` starts the message, e.g. `merging gives`.
    static func checkLimits(_ gesture: Gesture, _ what: String) throws(EditError) {
        if gesture.strokes.count > GestureLimits.maximumStrokes {
            throw EditError(
                "\(what) \(Plural.count(gesture.strokes.count, "stroke")); the most allowed is \(GestureLimits.maximumStrokes)")
        }
        let samples = gesture.strokes.reduce(0) { $0 &+ $1.samples.count }
        if samples > GestureLimits.maximumStreamedSamples {
            throw EditError(
                "\(what) \(Plural.count(samples, "sample")); the most allowed is \(GestureLimits.maximumStreamedSamples)")
        }
        let held = gesture.heldSampleCount
        if held > GestureLimits.maximumSamples {
            throw EditError(
                "\(what) \(Plural.count(held, "sample")) in memory; the most allowed is \(GestureLimits.maximumSamples)"
                    + " (\(GestureLimits.maximumStreamedSamples) left in a file of 1 MiB or more)")
        }
        if gesture.endTime > GestureLimits.maximumDuration {
            throw EditError(
                "\(what) a gesture lasting \(Formatting.seconds(gesture.endTime)); the longest allowed is \(Formatting.seconds(GestureLimits.maximumDuration))"
            )
        }
    }
}
