/// Where ``GestureEditor/fingers(_:count:spacingMM:layout:delay:strokeIndex:strict:)``
/// puts the fingertips around the original stroke's path.
///
/// Fingers are numbered from 0, left to right.
public enum FingerLayout: String, Hashable, Sendable, CaseIterable {
    /// On a horizontal line centred on the original point, adjacent fingers
    /// `spacingMM` apart: finger `i` is `(i − (n−1)/2) × spacingMM` to the
    /// right of it.
    case row
    /// On a circular arc, like fingertips: the chord between neighbours is
    /// `spacingMM`, the middle fingers are highest (smallest y), and the
    /// box around the fingertips is centred on the original point. The
    /// radius is ``minimumArcRadiusMM`` (50 mm), or larger when needed to
    /// keep the fingertips within a half circle:
    /// `R = max(50, spacing / (2 sin(90° / (n−1))))`.
    case arc

    /// The arc's radius unless a wide spacing needs a larger one.
    public static let minimumArcRadiusMM = 50.0

    /// Each finger's offset from the original point, in millimetres
    /// (x to the right, y downwards), left to right.
    public func offsetsMM(count: Int, spacingMM: Double) -> [(x: Double, y: Double)] {
        let middle = Double(count - 1) / 2
        switch self {
        case .row:
            return (0..<count).map { ((Double($0) - middle) * spacingMM, 0) }
        case .arc:
            let halfCircleRadius = spacingMM / (2 * Math.sine(Double.pi / (2 * Double(count - 1))))
            let radius = max(Self.minimumArcRadiusMM, halfCircleRadius)
            let step = 2 * Math.arcSine(min(1, spacingMM / (2 * radius)))
            // Relative to the circle's centre, finger i sits at angle φ from
            // straight up: (R sin φ, −R cos φ). The innermost finger is at
            // φ = 0 (odd count) or ±step/2 (even count); the outermost at
            // ±middle × step.
            let innermost = count % 2 == 1 ? 0 : step / 2
            let top = -radius * Math.cosine(innermost)
            let bottom = -radius * Math.cosine(middle * step)
            let centreY = (top + bottom) / 2
            return (0..<count).map { index in
                let angle = (Double(index) - middle) * step
                return (radius * Math.sine(angle), -radius * Math.cosine(angle) - centreY)
            }
        }
    }
}
