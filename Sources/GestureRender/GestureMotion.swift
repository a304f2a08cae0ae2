import GestureModel

/// What a gesture does, as far as its geometry tells.
///
/// See ``classifyMotion(_:)`` for the rules and ``MotionThresholds`` for the
/// numbers.
public enum GestureMotion: Hashable, Sendable {
    /// A way to move across the surface. `y` grows downwards, so `up` means
    /// decreasing `y`.
    public enum Direction: String, Hashable, Sendable, CaseIterable {
        /// Towards the top edge.
        case up
        /// Towards the bottom edge.
        case down
        /// Towards the left edge.
        case left
        /// Towards the right edge.
        case right
    }

    /// An edge of the surface.
    public enum Edge: String, Hashable, Sendable, CaseIterable {
        /// The left edge (smallest `x`).
        case left
        /// The right edge (largest `x`).
        case right
        /// The top edge (smallest `y`).
        case top
        /// The bottom edge (largest `y`).
        case bottom
    }

    /// Whether a pinch brings the contacts together or spreads them.
    public enum PinchKind: String, Hashable, Sendable, CaseIterable {
        /// The contacts come closer together.
        case inward = "in"
        /// The contacts move apart.
        case outward = "out"
    }

    /// The sense of a rotation as seen on the screen.
    public enum Rotation: String, Hashable, Sendable, CaseIterable {
        /// Clockwise as seen on the screen.
        case clockwise
        /// Counter-clockwise as seen on the screen.
        case counterClockwise = "counter-clockwise"
    }

    /// The gesture has no samples.
    case empty
    /// Every contact is still and brief.
    case tap
    /// Two waves of taps at the same place, shortly one after the other.
    case doubleTap
    /// Every contact is still; too long for a tap, too short for a long press.
    case press
    /// Every contact is still and held long.
    case longPress
    /// The contacts move together in one direction; `distanceMM` is how far
    /// their centroid moved.
    case swipe(Direction, distanceMM: Double)
    /// The contacts start at an edge and move inwards; `distanceMM` is how
    /// far their centroid moved.
    case edgeSwipe(from: Edge, distanceMM: Double)
    /// The contacts' spread changes; `changeMM` is the (positive) change of
    /// their mean distance to the centroid.
    case pinch(PinchKind, changeMM: Double)
    /// The contacts turn around their centroid by `degrees` (positive).
    case rotate(Rotation, degrees: Double)
    /// Two or more contacts move a swipe's distance in directions at least
    /// 90° apart, without turning around their centroid or changing their
    /// spread much: for example three swipes up, down and left merged into
    /// one gesture. `distanceMM` is the mean distance the contacts moved
    /// from their first positions to their last.
    case differentDirections(distanceMM: Double)
    /// The contacts draw an arc together: each turns smoothly through
    /// `degrees` (120° or more) in the same sense. `sizeMM` is the longer
    /// side of the box around the arc.
    case arc(Rotation, degrees: Double, sizeMM: Double)
    /// An arc of about 180° (150°…210°).
    case halfCircle(Rotation, sizeMM: Double)
    /// The contacts draw a circle together: a full turn that comes back
    /// near where it began.
    case circle(Rotation, sizeMM: Double)
    /// The contacts go back and forth: each has three corners or more in a
    /// row that turn alternately one way and the other.
    case zigzag(sizeMM: Double)
    /// Anything else; `lengthMM` is the length of the longest stroke's path.
    case path(lengthMM: Double)

    /// The words for the motion, e.g. `swipe up`, `edge swipe from the left`,
    /// `pinch in`, `rotate clockwise 90°`, `move in different directions`,
    /// `arc clockwise 135°`, `half circle counter-clockwise`,
    /// `circle clockwise`, `zigzag`.
    public var phrase: String {
        switch self {
        case .empty: "nothing"
        case .tap: "tap"
        case .doubleTap: "double tap"
        case .press: "press"
        case .longPress: "long press"
        case .swipe(let direction, _): "swipe \(direction.rawValue)"
        case .edgeSwipe(let edge, _): "edge swipe from the \(edge.rawValue)"
        case .pinch(let kind, _): "pinch \(kind.rawValue)"
        case .rotate(let rotation, let degrees):
            "rotate \(rotation.rawValue) \(NumberFormatting.roundedInteger(degrees))°"
        case .differentDirections: "move in different directions"
        case .arc(let rotation, let degrees, _): "arc \(rotation.rawValue) \(NumberFormatting.roundedInteger(degrees))°"
        case .halfCircle(let rotation, _): "half circle \(rotation.rawValue)"
        case .circle(let rotation, _): "circle \(rotation.rawValue)"
        case .zigzag: "zigzag"
        case .path: "path"
        }
    }

    /// The words for the motion as a speech engine should read them: the
    /// same as ``phrase`` except that the angle of a rotation or an arc is
    /// in words, `rotate clockwise 90 degrees`, `arc clockwise 135 degrees`.
    public var spokenPhrase: String {
        switch self {
        case .rotate(let rotation, let degrees):
            let rounded = NumberFormatting.roundedInteger(degrees)
            return "rotate \(rotation.rawValue) \(rounded) \(rounded == 1 ? "degree" : "degrees")"
        case .arc(let rotation, let degrees, _):
            return "arc \(rotation.rawValue) \(NumberFormatting.roundedInteger(degrees)) degrees"
        default:
            return phrase
        }
    }

    /// The distance that goes with the motion, in millimetres, for the
    /// motions that have one (swipes, pinches, moves in different
    /// directions, paths; the size of arcs, circles and zigzags); `nil`
    /// otherwise.
    public var distanceMM: Double? {
        switch self {
        case .swipe(_, let distance), .edgeSwipe(_, let distance), .pinch(_, let distance),
            .differentDirections(let distance), .path(let distance), .arc(_, _, let distance),
            .halfCircle(_, let distance), .circle(_, let distance), .zigzag(let distance):
            distance
        case .empty, .tap, .doubleTap, .press, .longPress, .rotate:
            nil
        }
    }
}
