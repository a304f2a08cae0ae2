import GestureModel

/// The gesture an editing operation produced, with anything the caller
/// should tell the user about it (for example that samples were clipped to
/// the surface's edge).
public struct EditResult: Sendable {
    /// The edited gesture.
    public var gesture: Gesture
    /// One-line warnings, in the order they arose; empty when all went well.
    public var warnings: [String]

    /// Creates a result.
    public init(gesture: Gesture, warnings: [String] = []) {
        self.gesture = gesture
        self.warnings = warnings
    }
}
