/// A point on the surface in millimetres from its top-left corner (x grows
/// to the right, y grows downward, as on screens).
public struct MillimetrePoint: Hashable, Sendable {
    /// Millimetres from the left edge.
    public var x: Double
    /// Millimetres from the top edge.
    public var y: Double

    /// Creates a point `x` mm from the left edge and `y` mm from the top edge.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Whether both coordinates are finite numbers.
    var isFinite: Bool { x.isFinite && y.isFinite }

    /// The point moved by `dx`, `dy` millimetres.
    func offset(dx: Double = 0, dy: Double = 0) -> MillimetrePoint {
        MillimetrePoint(x: x + dx, y: y + dy)
    }
}
