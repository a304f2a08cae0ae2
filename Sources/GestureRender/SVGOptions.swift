/// How ``renderSVG(_:options:)`` draws a gesture.
public struct SVGOptions: Hashable, Sendable {
    /// The picture's width in pixels; the height follows the device's
    /// aspect ratio. Clamped to 16…16384.
    public var widthPixels: Int
    /// Whether to write the ``describe(_:style:)`` line as a caption under the
    /// surface.
    public var showsCaption: Bool
    /// How far, in pixels of the picture (``widthPixels`` wide), a stroke's
    /// path may pass from a sample it leaves out. Each path is simplified
    /// (Ramer–Douglas–Peucker) to what the picture can show, so that a long
    /// recording gives a picture of a sensible size; the first and last
    /// samples always stay. 0 keeps every sample (`render --exact`).
    public var tolerancePixels: Double

    /// The default ``tolerancePixels``: a quarter of a pixel, less than
    /// anti-aliasing can show.
    public static let defaultTolerancePixels = 0.25

    /// The default ``widthPixels``: 600.
    public static let defaultWidthPixels = 600

    /// Creates options.
    public init(widthPixels: Int = defaultWidthPixels, showsCaption: Bool = true, tolerancePixels: Double = defaultTolerancePixels) {
        self.widthPixels = widthPixels
        self.showsCaption = showsCaption
        self.tolerancePixels = tolerancePixels
    }
}
