import GestureModel

/// Hand-made gestures on the synth geometry (216 × 135 mm, 100 units per
/// millimetre), so that positions in millimetres are exact.
enum Fixtures {
    /// One point of a stroke: time in milliseconds, position in millimetres.
    typealias Point = (milliseconds: Int64, x: Double, y: Double)

    static func sample(_ point: Point) -> Sample {
        Sample(
            time: Microseconds(point.milliseconds * 1_000), x: Int((point.x * 100).rounded()),
            y: Int((point.y * 100).rounded()))
    }

    static func stroke(_ points: [Point], kind: StrokeKind = .finger, button: PointerButton? = nil) -> Stroke {
        Stroke(kind: kind, button: button, samples: points.map(sample))
    }

    /// A straight stroke from `from` to `to`, sampled every 10 ms.
    static func line(
        from: (x: Double, y: Double), to: (x: Double, y: Double), startMilliseconds: Int64 = 0,
        durationMilliseconds: Int64, kind: StrokeKind = .finger, button: PointerButton? = nil
    ) -> Stroke {
        let steps = max(durationMilliseconds / 10, 1)
        let points: [Point] = (0...steps).map { step in
            let fraction = Double(step) / Double(steps)
            return (
                startMilliseconds + durationMilliseconds * step / steps,
                from.x + (to.x - from.x) * fraction, from.y + (to.y - from.y) * fraction
            )
        }
        return stroke(points, kind: kind, button: button)
    }

    /// A contact that stays at one place from `start` for `duration` ms.
    static func still(
        at position: (x: Double, y: Double), startMilliseconds: Int64 = 0, durationMilliseconds: Int64,
        kind: StrokeKind = .finger, button: PointerButton? = nil
    ) -> Stroke {
        stroke(
            [
                (startMilliseconds, position.x, position.y),
                (startMilliseconds + durationMilliseconds, position.x, position.y),
            ], kind: kind, button: button)
    }

    static func gesture(_ strokes: [Stroke], name: String = "test", description: String? = nil) -> Gesture {
        Gesture(name: name, description: description, device: .synthDefault, strokes: strokes)
    }
}
