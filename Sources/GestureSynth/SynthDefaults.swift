import GestureModel

/// The default value of every synthesis parameter, in one place so that a
/// command line can show them in its help.
public enum SynthDefaults {
    /// Samples per second: 120 Hz, a common touchscreen report rate.
    public static let sampleRateHz = 120
    /// Allowed sample rates, in hertz.
    public static let sampleRateRange = 1...1_000
    /// Longest duration of any part of a synthesised gesture, and of the
    /// whole gesture: 60 seconds.
    public static let maximumDuration = Microseconds(60_000_000)
    /// Distance between neighbouring fingers in a row: 18 mm, about the
    /// distance between the tips of two adult fingers held together.
    public static let spacingMM = 18.0
    /// How long a tap touches: 80 ms.
    public static let tapDuration = Microseconds(80_000)
    /// Time between the lift-off of a double tap's first tap and the
    /// touch-down of its second: 120 ms.
    public static let doubleTapGap = Microseconds(120_000)
    /// How long a long press touches: 800 ms.
    public static let longPressDuration = Microseconds(800_000)
    /// How far a swipe moves: 40 mm.
    public static let swipeDistanceMM = 40.0
    /// How long a swipe takes: 250 ms.
    public static let swipeDuration = Microseconds(250_000)
    /// Radius of the circle the fingers are closest to the centre on, in a pinch: 10 mm.
    public static let pinchInnerRadiusMM = 10.0
    /// Radius of the circle the fingers are furthest from the centre on, in a pinch: 30 mm.
    public static let pinchOuterRadiusMM = 30.0
    /// How long a pinch takes: 400 ms.
    public static let pinchDuration = Microseconds(400_000)
    /// How far a rotation turns: 90 degrees clockwise.
    public static let rotateDegrees = 90.0
    /// Largest rotation, either way: ten full turns.
    public static let maximumRotateDegrees = 3_600.0
    /// Radius of the circle the fingers turn on: 20 mm.
    public static let rotateRadiusMM = 20.0
    /// How long a rotation takes: 500 ms.
    public static let rotateDuration = Microseconds(500_000)
    /// How far an edge swipe moves in from the edge: 30 mm.
    public static let edgeSwipeDistanceMM = 30.0
    /// How long an edge swipe takes: 300 ms.
    public static let edgeSwipeDuration = Microseconds(300_000)
}
