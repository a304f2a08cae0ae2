import GestureModel

/// Small hand-made devices and gestures the editing tests share.
enum Fixtures {
    /// 100 × 100 mm at 10 units per millimetre: axes 0…1000, ten slots.
    static let simple = DeviceGeometry(
        kind: .touchscreen,
        x: AxisRange(minimum: 0, maximum: 1_000, resolution: 10),
        y: AxisRange(minimum: 0, maximum: 1_000, resolution: 10),
        slots: 10
    )

    /// 100 × 100 mm with unequal resolutions: x 0…2000 at 20 units/mm,
    /// y 0…500 at 5 units/mm.
    static let unequal = DeviceGeometry(
        kind: .touchscreen,
        x: AxisRange(minimum: 0, maximum: 2_000, resolution: 20),
        y: AxisRange(minimum: 0, maximum: 500, resolution: 5),
        slots: 10
    )

    /// Milliseconds as Microseconds.
    static func ms(_ value: Int64) -> Microseconds { Microseconds(value * 1_000) }

    /// A finger stroke from (time in ms, x, y) triples.
    static func stroke(_ points: [(Int64, Int, Int)], kind: StrokeKind = .finger) -> Stroke {
        Stroke(
            kind: kind, button: kind == .pointer ? .left : nil,
            samples: points.map { Sample(time: ms($0.0), x: $0.1, y: $0.2) })
    }

    /// A gesture on `device` (default ``simple``).
    static func gesture(_ strokes: [Stroke], device: DeviceGeometry = simple, name: String = "test") -> Gesture {
        Gesture(name: name, device: device, strokes: strokes)
    }

    /// Each stroke's samples as ``Point``s, for compact comparisons.
    static func points(_ gesture: Gesture) -> [[Point]] {
        gesture.strokes.map { $0.samples.map { Point(Double($0.time.rawValue) / 1_000, $0.x, $0.y) } }
    }
}

/// A sample's time (in milliseconds, fractions allowed) and position.
struct Point: Equatable, CustomStringConvertible {
    var milliseconds: Double
    var x: Int
    var y: Int

    init(_ milliseconds: Double, _ x: Int, _ y: Int) {
        self.milliseconds = milliseconds
        self.x = x
        self.y = y
    }

    var description: String { "(\(milliseconds) ms, \(x), \(y))" }
}
