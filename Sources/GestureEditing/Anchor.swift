/// The fixed point of ``GestureEditor/scale(_:factor:about:strict:)`` and
/// ``GestureEditor/rotate(_:degrees:about:strict:)``.
public enum Anchor: Hashable, Sendable {
    /// The centre of the box around every sample of the gesture.
    case centre
    /// A point in millimetres from the surface's top-left corner.
    case point(xMM: Double, yMM: Double)
}
