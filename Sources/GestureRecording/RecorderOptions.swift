/// Choices that change what the recorder produces.
public struct RecorderOptions: Hashable, Sendable {
    /// Width in pixels of the virtual screen over which relative pointer
    /// motion is integrated (default 1920).
    public var virtualScreenWidth: Int
    /// Height in pixels of the virtual screen (default 1080).
    public var virtualScreenHeight: Int
    /// The largest virtual screen side accepted, in pixels.
    public static let maximumVirtualScreenSide = 1 << 20

    /// Creates options.
    public init(virtualScreenWidth: Int = 1920, virtualScreenHeight: Int = 1080) {
        self.virtualScreenWidth = virtualScreenWidth
        self.virtualScreenHeight = virtualScreenHeight
    }

    /// Checks the virtual screen size.
    func validate() throws(RecordingError) {
        for (side, value) in [("width", virtualScreenWidth), ("height", virtualScreenHeight)]
        where value < 2 || value > Self.maximumVirtualScreenSide {
            throw .invalidOption(
                "the virtual screen \(side) must be 2 to \(Self.maximumVirtualScreenSide) pixels, not \(value)")
        }
    }
}
