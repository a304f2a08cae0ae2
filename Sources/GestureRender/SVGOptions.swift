/// How ``renderSVG(_:options:)`` draws a gesture.
public struct SVGOptions: Hashable, Sendable {
    /// The picture's width in pixels; the height follows the device's
    /// aspect ratio. Clamped to 16…16384.
    public var widthPixels: Int
    /// Whether to write the ``describe(_:style:)`` line as a caption under the
    /// surface.
    public var showsCaption: Bool
    /// Samples closer than this to the last drawn point of their stroke are
    /// left out of its path (the last sample is always kept), so that long
    /// recordings give pictures of a sensible size. 0 keeps every sample.
    public var minimumPointSpacingMM: Double

    /// Creates options.
    public init(widthPixels: Int = 600, showsCaption: Bool = true, minimumPointSpacingMM: Double = 0.25) {
        self.widthPixels = widthPixels
        self.showsCaption = showsCaption
        self.minimumPointSpacingMM = minimumPointSpacingMM
    }
}
