import GestureEditing
import GestureModel

/// What the placing layer draws at the pointer before a saved gesture is
/// placed: a circle where each of its fingers first touches, laid out
/// around the pointer as the play will lay them around the tap (the daemon
/// puts the centre of the box around the gesture's samples at `at`), and
/// the gesture's spoken description beside them.
public struct PlacingPreview: Hashable, Sendable {
    /// One finger's first touch, in millimetres from the gesture's centre.
    public struct Finger: Hashable, Sendable {
        public var x: Double
        public var y: Double
    }

    /// The fingers: one per place where a stroke starts (strokes that
    /// start within 3 mm of one another, as the same finger tapping
    /// twice, are one circle), in the order they first touch.
    public let fingers: [Finger]
    /// Said beside the circles (and as the layer's accessible description).
    public let label: String

    /// Strokes that start closer than this are drawn as one finger.
    public static let sameFingerMillimetres = 3.0

    /// The preview of `gesture`, labelled `label`; `nil` when it has no sample.
    public init?(_ gesture: Gesture, label: String) {
        guard let box = gesture.boundingBoxMM else { return nil }
        let centre = (x: (box.minimumX + box.maximumX) / 2, y: (box.minimumY + box.maximumY) / 2)
        var fingers: [Finger] = []
        let starts = gesture.strokes.compactMap { stroke in stroke.samples.first.map { (stroke.startTime, $0) } }
        for (_, sample) in starts.sorted(by: { $0.0 < $1.0 }) {
            let point = gesture.device.millimetres(of: sample)
            let finger = Finger(x: point.x - centre.x, y: point.y - centre.y)
            let near = fingers.contains { ($0.x - finger.x) * ($0.x - finger.x) + ($0.y - finger.y) * ($0.y - finger.y) < Self.sameFingerMillimetres * Self.sameFingerMillimetres }
            if !near { fingers.append(finger) }
        }
        self.fingers = fingers
        self.label = label
    }

    /// The circles' centres on the screen for a pointer at `pointer`, at
    /// `pixelsPerMillimetre` of the monitor (its stated physical size;
    /// 96 dpi when it states none: ``assumedPixelsPerMillimetre``).
    public func centres(at pointer: ScreenPoint, pixelsPerMillimetre: Double) -> [ScreenPoint] {
        fingers.map { ScreenPoint(x: pointer.x + $0.x * pixelsPerMillimetre, y: pointer.y + $0.y * pixelsPerMillimetre) }
    }

    /// 96 dots per inch, for a monitor that does not say how large it is.
    public static let assumedPixelsPerMillimetre = 96 / 25.4

    /// The scale of a monitor `widthPixels` wide and `widthMillimetres`
    /// across (0 or implausible, under 50 mm or over 5 m: assumed 96 dpi).
    public static func pixelsPerMillimetre(widthPixels: Double, widthMillimetres: Double) -> Double {
        guard widthMillimetres >= 50, widthMillimetres <= 5_000, widthPixels > 0 else { return assumedPixelsPerMillimetre }
        return widthPixels / widthMillimetres
    }
}
