import GestureModel

/// The editing operations: pure, deterministic functions from gestures to a
/// new gesture.
///
/// - ``merge(_:alignment:maximumFingers:)`` plays strokes drawn one after
///   another at once, as one multi-finger gesture.
/// - ``fingers(_:count:spacingMM:layout:delay:strokeIndex:strict:)``
///   replicates one stroke onto several fingertips.
/// - ``speed(_:factor:)``, ``scale(_:factor:about:strict:)``,
///   ``translate(_:dxMM:dyMM:strict:)``, ``rotate(_:degrees:about:strict:)``,
///   ``fit(_:aspectRatio:strict:)``, ``fit(_:to:strict:)`` and
///   ``trim(_:maxStill:)`` transform one gesture.
///
/// Geometry is computed in millimetres through the gesture's
/// ``DeviceGeometry``, so devices whose axes have different resolutions are
/// handled correctly; positions are rounded to whole device units once, at
/// the end (to nearest, ties away from zero). Operations that can push a
/// point off the surface take `strict`: when it is false the point is
/// clipped to the surface's edge and a warning counts the clipped samples;
/// when it is true the operation throws instead. Pressure and contact size
/// are never changed by a geometric transform. Results keep sample times in
/// order and strokes sorted by start time. `docs/EDITING.md` states each
/// operation's exact rule.
public enum GestureEditor {}
