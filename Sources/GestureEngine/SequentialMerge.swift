import GestureEditing
import GestureModel
import GestureRecording

/// AssistiveTouch's "Create New Gesture" step: strokes drawn one after
/// another become one gesture in which they all start together.
///
/// Each contact drawn after the previous one lifted is its own group and
/// all groups start at 0 (``GestureEditing/GestureEditor/merge(_:alignment:maximumFingers:)``
/// aligned by start); contacts that overlapped stay together as a group
/// with their timing. The geometry's slot count is raised to the number of
/// strokes (at most 10) so that the merged fingers fit; if the merge still
/// fails (more than 10 fingers at once), the strokes are kept as drawn with
/// a warning. Used after `record --sequential` and `import --sequential`.
public enum SequentialMerge {
    /// The most fingers a sequential recording merges into.
    public static let maximumFingers = 10

    /// `recorded` with its strokes merged to start together (unchanged
    /// with fewer than two strokes).
    public static func apply(to recorded: RecordedGesture) -> RecordedGesture {
        guard recorded.gesture.strokes.count > 1 else { return recorded }
        var result = recorded
        var widened = recorded.gesture
        widened.device.slots = max(widened.device.slots, min(widened.strokes.count, maximumFingers))
        do {
            let merged = try GestureEditor.merge([widened], alignment: .start, maximumFingers: maximumFingers)
            result.gesture = merged.gesture
            result.warnings += merged.warnings
        } catch {
            result.warnings.append("the strokes were not merged (\(error.message)); they are kept one after another")
        }
        return result
    }
}
