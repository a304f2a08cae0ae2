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
}
