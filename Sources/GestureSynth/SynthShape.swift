import GestureModel

/// A gesture shape with its parameters: what ``GestureSynthesizer/synthesize(_:options:)``
/// makes.
///
/// Positions are in millimetres from the surface's top-left corner; a
/// `centre` of `nil` means the centre of the surface. Durations are how
/// long each finger touches (for a double tap, each of the two taps). Every
/// moving shape moves at constant velocity: position (or, for `rotate`,
/// angle) is linear in time. Multi-finger shapes other than `pinch` and
/// `rotate` place their fingers in a row ``SynthOptions/spacingMM`` apart,
/// centred on the centre; the row is horizontal except for edge swipes from
/// the left or right edge, where it runs along the edge.
public enum SynthShape: Hashable, Sendable {
    /// Fingers (1…10) touch at `centre` for `duration` without moving.
    case tap(fingers: Int = 1, centre: MillimetrePoint? = nil, duration: Microseconds = SynthDefaults.tapDuration)

    /// Two taps: each finger (1…10) touches for `tapDuration`, lifts, and
    /// touches again `gap` after lifting. Two strokes per finger; the second
    /// ones start at `tapDuration + gap`.
    case doubleTap(
        fingers: Int = 1, centre: MillimetrePoint? = nil, tapDuration: Microseconds = SynthDefaults.tapDuration,
        gap: Microseconds = SynthDefaults.doubleTapGap)

    /// Fingers (1…10) touch at `centre` for `duration` without moving.
    case longPress(
        fingers: Int = 1, centre: MillimetrePoint? = nil, duration: Microseconds = SynthDefaults.longPressDuration)

    /// The row of fingers (1…10) moves `distanceMM` in `direction`; the
    /// motion is centred on `centre` (it starts `distanceMM / 2` before it
    /// and ends `distanceMM / 2` after it).
    case swipe(
        direction: SwipeDirection, fingers: Int = 1, distanceMM: Double = SynthDefaults.swipeDistanceMM,
        duration: Microseconds = SynthDefaults.swipeDuration, centre: MillimetrePoint? = nil)

    /// Fingers (2…10) evenly spaced on a circle around `centre` move
    /// straight towards it (`in`) or away from it (`out`), the radius
    /// changing linearly in time.
    ///
    /// Finger k sits at the angle 180° + k × 360° / n, measured clockwise on
    /// the screen from the rightward direction: with two fingers, finger 0
    /// is left of the centre and finger 1 right of it.
    ///
    /// The radii: `in` goes from 30 mm to 10 mm and `out` from 10 mm to 30
    /// mm unless given. `distanceMM` is how far each finger moves: alone it
    /// keeps the inner radius at 10 mm; with one radius it sets the other.
    /// Giving both radii and a distance is an error.
    case pinch(
        direction: PinchDirection, fingers: Int = 2, startRadiusMM: Double? = nil, endRadiusMM: Double? = nil,
        distanceMM: Double? = nil, duration: Microseconds = SynthDefaults.pinchDuration,
        centre: MillimetrePoint? = nil)

    /// Fingers (2…10) on a circle of `radiusMM` around `centre`, placed as
    /// for `pinch`, turn together by `degrees` (positive = clockwise on the
    /// screen, where y grows downward; at most ±3600) at constant angular
    /// velocity.
    case rotate(
        degrees: Double = SynthDefaults.rotateDegrees, fingers: Int = 2,
        radiusMM: Double = SynthDefaults.rotateRadiusMM, duration: Microseconds = SynthDefaults.rotateDuration,
        centre: MillimetrePoint? = nil)

    /// The row of fingers (1…10) starts exactly on the edge `from` (x = the
    /// axis minimum for `left`, the maximum for `right`; likewise y for
    /// `top` and `bottom`) and moves `distanceMM` straight inward.
    ///
    /// The row runs along the edge, centred on `alongMM`: millimetres from
    /// the left end of the top or bottom edge, or from the top end of the
    /// left or right edge; `nil` means the middle of the edge.
    case edgeSwipe(
        from: SurfaceEdge, fingers: Int = 1, distanceMM: Double = SynthDefaults.edgeSwipeDistanceMM,
        duration: Microseconds = SynthDefaults.edgeSwipeDuration, alongMM: Double? = nil)
}
