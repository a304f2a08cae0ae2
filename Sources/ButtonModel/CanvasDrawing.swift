import GestureFormat
import GestureModel

/// One stroke as the canvas draws it: its samples' times (µs from the
/// first contact) and positions, in the drawing device's units.
public struct CanvasStroke: Hashable, Sendable {
    /// `(time µs, x, y)`, in order.
    public var points: [CanvasPoint]

    /// A stroke of these points.
    public init(points: [CanvasPoint]) { self.points = points }

    /// A recorded gesture's stroke.
    public init(_ stroke: Stroke) {
        points = stroke.samples.map { CanvasPoint(time: $0.time.rawValue, x: $0.x, y: $0.y) }
    }

    /// The stroke of a `record` event, as the gesture file writes one
    /// (docs/FORMAT.md: `samples`, each `[time, x, y, …]`); `nil` when it
    /// has no sample that can be read.
    public init?(json: JSONValue) {
        guard case .array(let samples)? = json["samples"] else { return nil }
        var points: [CanvasPoint] = []
        for sample in samples {
            guard case .array(let columns) = sample, columns.count >= 3,
                case .number(let time) = columns[0], case .number(let x) = columns[1], case .number(let y) = columns[2],
                let t = Int64(time), let x = Int(x), let y = Int(y)
            else { continue }
            points.append(CanvasPoint(time: t, x: x, y: y))
        }
        guard !points.isEmpty else { return nil }
        self.points = points
    }

    /// When it starts and ends (µs from the first contact).
    public var start: Int64 { points.first?.time ?? 0 }
    public var end: Int64 { points.last?.time ?? 0 }
}

/// A sample's time and position, in device units.
public struct CanvasPoint: Hashable, Sendable {
    public var time: Int64
    public var x: Int
    public var y: Int

    public init(time: Int64, x: Int, y: Int) {
        self.time = time
        self.x = x
        self.y = y
    }
}

/// Where the drawing device's surface lies on the canvas. A touchscreen's
/// surface is the screen (the canvas covers it): its axes stretch over the
/// whole canvas, so each stroke is drawn under the finger that made it.
/// A touchpad's, a tablet's or a pointer's is fitted in the canvas with
/// its own proportions, centred, with a margin.
public struct CanvasArea: Hashable, Sendable {
    public var x: AxisRange
    public var y: AxisRange
    /// Millimetres per unit across, divided by those down (1: square units).
    public var aspectCorrection: Double
    /// The surface is the screen (a touchscreen).
    public var fillsCanvas: Bool

    /// The virtual screen over which the recorder integrates a relative
    /// pointer's motion (GestureRecording's `RecorderOptions` default, which
    /// the button cannot import): 1920 × 1080.
    public static let relativePointer = CanvasArea(
        x: AxisRange(minimum: 0, maximum: 1919), y: AxisRange(minimum: 0, maximum: 1079), aspectCorrection: 1, fillsCanvas: false)

    public init(x: AxisRange, y: AxisRange, aspectCorrection: Double, fillsCanvas: Bool) {
        self.x = x
        self.y = y
        self.aspectCorrection = aspectCorrection
        self.fillsCanvas = fillsCanvas
    }

    /// The area of a device the daemon lists: its kind (`touchscreen`, …)
    /// and its position axes (none for a relative pointer).
    public static func device(kind: String, x: AxisRange?, y: AxisRange?) -> CanvasArea {
        guard let x, let y, x.span > 0, y.span > 0 else { return relativePointer }
        return CanvasArea(x: x, y: y, aspectCorrection: correction(x, y), fillsCanvas: kind == "touchscreen")
    }

    /// The area of a recorded gesture's device.
    public static func gesture(_ device: DeviceGeometry) -> CanvasArea {
        guard device.x.span > 0, device.y.span > 0 else { return relativePointer }
        var correction = correction(device.x, device.y)
        if device.widthMM > 0, device.heightMM > 0 {
            correction = (device.widthMM / Double(device.x.span)) / (device.heightMM / Double(device.y.span))
        }
        return CanvasArea(x: device.x, y: device.y, aspectCorrection: correction, fillsCanvas: device.kind == .touchscreen)
    }

    private static func correction(_ x: AxisRange, _ y: AxisRange) -> Double {
        guard x.resolution > 0, y.resolution > 0 else { return 1 }
        return Double(y.resolution) / Double(x.resolution)
    }

    /// A position in device units on a canvas `width` × `height` pixels.
    public func point(x: Int, y: Int, width: Double, height: Double) -> (x: Double, y: Double) {
        let fx = Double(x - self.x.minimum) / Double(self.x.span)
        let fy = Double(y - self.y.minimum) / Double(self.y.span)
        if fillsCanvas { return (fx * width, fy * height) }
        let box = fitted(width: width, height: height)
        return (box.x + fx * box.width, box.y + fy * box.height)
    }

    /// The box the surface takes on the canvas (all of it for a touchscreen).
    public func fitted(width: Double, height: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        if fillsCanvas { return (0, 0, width, height) }
        let margin = 0.1
        let roomX = width * (1 - 2 * margin)
        let roomY = height * (1 - 2 * margin)
        let surfaceWidth = Double(x.span) * aspectCorrection
        let surfaceHeight = Double(y.span)
        let scale = min(roomX / surfaceWidth, roomY / surfaceHeight)
        let boxWidth = surfaceWidth * scale
        let boxHeight = surfaceHeight * scale
        return ((width - boxWidth) / 2, (height - boxHeight) / 2, boxWidth, boxHeight)
    }
}

/// Review: the recorded strokes played on the canvas in their own time.
public enum CanvasReview {
    /// How long the review lasts (µs): the last lift, then half a second of the whole drawing.
    public static func duration(of strokes: [CanvasStroke]) -> Int64 {
        (strokes.map(\.end).max() ?? 0) + 500_000
    }

    /// How many of each stroke's points are drawn `elapsed` µs into the
    /// review (a stroke not yet begun: none).
    public static func visiblePoints(of strokes: [CanvasStroke], at elapsed: Int64) -> [Int] {
        strokes.map { stroke in
            var count = 0
            for point in stroke.points {
                guard point.time <= elapsed else { break }
                count += 1
            }
            return count
        }
    }
}
