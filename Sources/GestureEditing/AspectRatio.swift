/// A surface's shape as width : height, e.g. 16:9.
public struct AspectRatio: Hashable, Sendable, CustomStringConvertible {
    /// The width part.
    public var width: Double
    /// The height part.
    public var height: Double

    /// Creates a ratio of `width` to `height` (checked when used: both must
    /// be positive finite numbers).
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Parses `W:H` (e.g. `16:9`, `1.5:1`); `nil` when the text is not two
    /// positive finite numbers separated by a colon.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
            width.isFinite, height.isFinite, width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }

    /// `W:H`, e.g. `16:9`.
    public var description: String { "\(Formatting.number(width)):\(Formatting.number(height))" }
}
