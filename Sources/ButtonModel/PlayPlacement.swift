/// A monitor's place and size in the desktop's coordinates (GDK's monitor
/// geometry: logical pixels, origins of other monitors anywhere).
public struct MonitorFrame: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// Creates one.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether a point of the desktop is on it (its right and bottom edges are the next monitor's).
    public func contains(_ point: ScreenPoint) -> Bool {
        point.x >= x && point.y >= y && point.x < x + width && point.y < y + height
    }
}

/// Where a placed gesture plays: the monitor clicked, and the click as
/// percents of that monitor (the daemon's `play` `at`: `["x%", "y%"]`, 0 %
/// left and top, 100 % right and bottom).
public struct PlayPlacement: Hashable, Sendable {
    /// Which monitor (an index into the list given).
    public var monitor: Int
    /// Percent of its width, 0 to 100.
    public var xPercent: Double
    /// Percent of its height, 0 to 100.
    public var yPercent: Double

    /// Creates one.
    public init(monitor: Int, xPercent: Double, yPercent: Double) {
        self.monitor = monitor
        self.xPercent = xPercent
        self.yPercent = yPercent
    }

    /// The placement of a click at `point` (desktop coordinates) among
    /// `monitors`; `nil` when it is on none of them or a monitor has no size.
    /// Percents are rounded to 0.01 and kept within 0 … 100.
    public static func locate(_ point: ScreenPoint, on monitors: [MonitorFrame]) -> PlayPlacement? {
        guard point.x.isFinite, point.y.isFinite,
            let index = monitors.firstIndex(where: { $0.contains(point) })
        else { return nil }
        return onMonitor(index, monitors[index], local: ScreenPoint(x: point.x - monitors[index].x, y: point.y - monitors[index].y))
    }

    /// The placement of a click at `local` (relative to the monitor's top-left
    /// corner, as a full-screen surface on it gets it) on monitor `index`;
    /// `nil` when the monitor has no size or the point is not a number.
    public static func onMonitor(_ index: Int, _ monitor: MonitorFrame, local: ScreenPoint) -> PlayPlacement? {
        guard monitor.width > 0, monitor.height > 0, local.x.isFinite, local.y.isFinite else { return nil }
        return PlayPlacement(monitor: index, xPercent: percent(local.x, of: monitor.width), yPercent: percent(local.y, of: monitor.height))
    }

    private static func percent(_ value: Double, of whole: Double) -> Double {
        let share = min(max(value / whole * 100, 0), 100)
        return (share * 100).rounded() / 100
    }
}
