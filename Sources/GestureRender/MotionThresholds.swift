import GestureModel

/// The thresholds ``classifyMotion(_:)`` uses. All distances are measured in
/// millimetres on the source device (``DeviceGeometry``), so a gesture is
/// classified the same way whatever the device's resolution.
public enum MotionThresholds {
    /// A stroke is *still* while every sample stays less than 3 mm from its
    /// first sample.
    public static let stillMovementMM = 3.0
    /// A still stroke is a *tap* when it lasts less than 300 ms.
    public static let tapMaximumDuration = Microseconds(300_000)
    /// A still stroke is a *long press* when it lasts 500 ms or more.
    /// (Still strokes between the two are a plain *press*.)
    public static let longPressMinimumDuration = Microseconds(500_000)
    /// The two taps of a *double tap* are at most 500 ms apart (from the
    /// last lift of the first tap to the first touch of the second).
    public static let doubleTapMaximumGap = Microseconds(500_000)
    /// The two taps of a *double tap* land within 10 mm of each other
    /// (centroid to centroid).
    public static let doubleTapMaximumDistanceMM = 10.0
    /// A *swipe* moves the centroid of the contacts 10 mm or more.
    public static let swipeMinimumDistanceMM = 10.0
    /// An *edge swipe* starts with every contact within 2 mm of one edge.
    public static let edgeDistanceMM = 2.0
    /// A *pinch* changes the contacts' mean distance to their centroid by at
    /// least 20 % of its starting value…
    public static let pinchMinimumRatio = 0.2
    /// …and by at least 5 mm.
    public static let pinchMinimumChangeMM = 5.0
    /// A *rotation* turns the contacts around their centroid by 15° or more
    /// on average.
    public static let rotateMinimumDegrees = 15.0
    /// Contacts closer than 1 mm to the centroid have no meaningful angle
    /// and are left out of the rotation average.
    public static let rotateMinimumRadiusMM = 1.0
    /// A *rotation* goes around the centroid: each turning contact's path
    /// (its samples joined by straight steps) stays at least half as far
    /// from the centroid as the contact starts or ends. Contacts that cross through the middle (a swipe up beside a
    /// swipe down) turn by the same angle from start to end, but do not
    /// rotate.
    public static let rotateMinimumRadiusRatio = 0.5
    /// Contacts *move in different directions* when at least two of them
    /// move ``swipeMinimumDistanceMM`` or more from where they started, in
    /// directions at least 90° apart.
    public static let differentDirectionsMinimumAngleDegrees = 90.0
    /// A path is walked in steps of at least 1.5 mm to measure how it
    /// turns, so that a finger's jitter does not count as turning.
    public static let shapeStepMM = 1.5
    /// A path smaller than 10 mm across (the longer side of the box around
    /// it) has no shape: no arc, circle or zigzag.
    public static let shapeMinimumSizeMM = 10.0
    /// An *arc* turns through 120° or more, smoothly.
    public static let arcMinimumDegrees = 120.0
    /// A *half circle* is an arc that turns through 150°…210°.
    public static let halfCircleDegrees = 150.0...210.0
    /// A *circle* turns through 320° or more…
    public static let circleMinimumDegrees = 320.0
    /// …and ends within 60 % of its size of where it began (a finger that
    /// starts in the middle and goes round ends a radius away).
    public static let circleClosingShare = 0.6
    /// A path has a corner where a stretch a quarter of its size long
    /// (two steps at least) turns by 80° or more…
    public static let cornerDegrees = 80.0
    /// …and turns smoothly when its corners make at most a third of its
    /// turning: a square's corners make no circle.
    public static let cornerShareMaximum = 1.0 / 3
    /// A zigzag's corners turn by 60° or more within a tenth of its size
    /// (two steps at least).
    public static let zigzagCornerDegrees = 60.0
    /// A *zigzag* has 3 corners or more in a row that turn alternately one
    /// way and the other.
    public static let zigzagMinimumCorners = 3
}
