/// The direction a swipe moves in, as seen on the screen (up = towards the
/// top edge, where y is smallest).
public enum SwipeDirection: String, Sendable, Hashable, CaseIterable {
    case up, down, left, right
}

/// Whether a pinch brings the fingers together (`in`) or spreads them (`out`).
public enum PinchDirection: String, Sendable, Hashable, CaseIterable {
    /// The fingers move towards the centre (zoom out, on most systems).
    case `in`
    /// The fingers move away from the centre (zoom in, on most systems).
    case out
}

/// An edge of the surface.
public enum SurfaceEdge: String, Sendable, Hashable, CaseIterable {
    case top, bottom, left, right
}
