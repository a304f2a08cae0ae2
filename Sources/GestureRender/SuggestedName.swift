import GestureModel

/// A short name that fits what a gesture does, in the form
/// `gesturectl synth` gives its gestures: the motion, then the number of
/// contacts at once — `double-tap-3`, `swipe-up-2`, `pinch-in-5`,
/// `rotate-clockwise-2`, `rotate-anticlockwise-3`, `edge-swipe-left-1`,
/// `long-press-1`, `different-directions-3`, `circle-clockwise-2`,
/// `half-circle-anticlockwise-1`, `zigzag-1`, `path-1`.
///
/// Strokes drawn one after another count strokes instead
/// (`swipe-right-3-strokes`); pen and pointer strokes start with their kind
/// (`pen-path-1`, `pointer-tap-1`), a mix of kinds with `mixed-`. A gesture
/// without samples is `empty`. The motion and the count are those of
/// ``describe(_:style:)``, so the name and the summary agree.
///
/// Editing commands name their results with it (unless given a name), so
/// that merging three one-finger double taps gives `double-tap-3`, not the
/// first input's name.
///
/// - Parameter gesture: The gesture to name; any values are accepted.
/// - Returns: A name of ASCII letters, digits and hyphens, valid as a
///   library name.
public func suggestedName(for gesture: Gesture) -> String {
    let analysis = GestureAnalysis(gesture)
    let summary = ContactSummary(analysis)
    guard !summary.strokes.isEmpty else { return "empty" }
    let prefix =
        switch summary.kind {
        case .finger: ""
        case .pen: "pen-"
        case .pointer: "pointer-"
        case nil: "mixed-"
        }
    let motion = analysis.motion.nameComponent
    return summary.isSequence
        ? "\(prefix)\(motion)-\(summary.strokes.count)-strokes" : "\(prefix)\(motion)-\(summary.contacts)"
}

extension GestureMotion {
    /// The motion in a name: lower case words joined by hyphens, as
    /// `gesturectl synth` names its shapes.
    var nameComponent: String {
        switch self {
        case .empty: "empty"
        case .tap: "tap"
        case .doubleTap: "double-tap"
        case .press: "press"
        case .longPress: "long-press"
        case .swipe(let direction, _): "swipe-\(direction.rawValue)"
        case .edgeSwipe(let edge, _): "edge-swipe-\(edge.rawValue)"
        case .pinch(let kind, _): "pinch-\(kind.rawValue)"
        case .rotate(let rotation, _): "rotate-\(rotation.nameWord)"
        case .differentDirections: "different-directions"
        case .arc(let rotation, _, _): "arc-\(rotation.nameWord)"
        case .halfCircle(let rotation, _): "half-circle-\(rotation.nameWord)"
        case .circle(let rotation, _): "circle-\(rotation.nameWord)"
        case .zigzag: "zigzag"
        case .path: "path"
        }
    }
}

extension GestureMotion.Rotation {
    /// The sense in a name, in `gesturectl synth`'s words: `clockwise`,
    /// `anticlockwise`.
    var nameWord: String { self == .clockwise ? "clockwise" : "anticlockwise" }
}
