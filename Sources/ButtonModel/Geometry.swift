/// A point on the screen, in logical pixels from the monitor's top-left
/// corner (what GDK calls application pixels: scale 2 still counts 1).
public struct ScreenPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The straight-line distance to `other`.
    public func distance(to other: ScreenPoint) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var description: String { "\(Int(x.rounded())),\(Int(y.rounded()))" }
}

/// The size of the monitor the button is on, in logical pixels.
public struct ScreenSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var description: String { "\(width)×\(height)" }
}

/// One of the four edges of a monitor.
public enum ScreenEdge: String, CaseIterable, Hashable, Sendable {
    case left, right, top, bottom

    /// Whether the edge runs up and down (left, right).
    public var isVertical: Bool { self == .left || self == .right }
}

/// Where the button rests: an edge and how far along it.
///
/// `fraction` is 0 at the top (left and right edges) or the left (top and
/// bottom edges) and 1 at the other end, measured over the places the whole
/// button fits. Kept this way, not in pixels, the position survives a
/// restart on a monitor of another size: the button is on the same edge, the
/// same share of the way along.
public struct EdgePosition: Hashable, Sendable, CustomStringConvertible {
    public var edge: ScreenEdge
    /// 0…1 along the edge; clamped by the initialiser.
    public var fraction: Double

    /// A position; `fraction` is clamped into 0…1 (a NaN becomes 0.5).
    public init(edge: ScreenEdge, fraction: Double) {
        self.edge = edge
        self.fraction = fraction.isNaN ? 0.5 : min(1, max(0, fraction))
    }

    /// Where AssistiveTouch starts: the right edge, half-way down.
    public static let initial = EdgePosition(edge: .right, fraction: 0.5)

    /// The button's top-left corner for this position, `gap` pixels off the
    /// edge, on a screen of `screen` for a button `size` pixels across.
    public func origin(size: Int, screen: ScreenSize, gap: Int) -> ScreenPoint {
        let spanX = Double(max(0, screen.width - size))
        let spanY = Double(max(0, screen.height - size))
        let inset = Double(min(max(0, gap), max(0, min(screen.width, screen.height) - size) / 2))
        switch edge {
        case .left: return ScreenPoint(x: min(inset, spanX), y: (fraction * spanY).rounded())
        case .right: return ScreenPoint(x: max(0, spanX - inset), y: (fraction * spanY).rounded())
        case .top: return ScreenPoint(x: (fraction * spanX).rounded(), y: min(inset, spanY))
        case .bottom: return ScreenPoint(x: (fraction * spanX).rounded(), y: max(0, spanY - inset))
        }
    }

    /// The edge nearest to the centre of a button whose top-left corner is
    /// at `origin`, and the share of the way along it that the button is.
    /// On a tie the side edges win (left, right, then top, bottom), as a
    /// phone's button prefers the sides.
    public static func nearest(toOrigin origin: ScreenPoint, size: Int, screen: ScreenSize) -> EdgePosition {
        let half = Double(size) / 2
        let centre = ScreenPoint(x: origin.x + half, y: origin.y + half)
        let distances: [(ScreenEdge, Double)] = [
            (.left, centre.x), (.right, Double(screen.width) - centre.x),
            (.top, centre.y), (.bottom, Double(screen.height) - centre.y),
        ]
        var best = distances[0]
        for candidate in distances.dropFirst() where candidate.1 < best.1 { best = candidate }
        let edge = best.0
        let span = Double(max(0, (edge.isVertical ? screen.height : screen.width) - size))
        let along = edge.isVertical ? origin.y : origin.x
        return EdgePosition(edge: edge, fraction: span > 0 ? along / span : 0.5)
    }

    public var description: String {
        "\(edge.rawValue) edge at \(Int((fraction * 100).rounded()))%"
    }
}
