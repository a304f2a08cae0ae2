/// Choices that change what the recorder produces.
public struct RecorderOptions: Hashable, Sendable {
    /// Width in pixels of the virtual screen over which relative pointer
    /// motion is integrated (default 1920).
    public var virtualScreenWidth: Int
    /// Height in pixels of the virtual screen (default 1080).
    public var virtualScreenHeight: Int
    /// The largest virtual screen side accepted, in pixels.
    public static let maximumVirtualScreenSide = 1 << 20
    /// The default virtual screen width: 1920 pixels.
    public static let defaultVirtualScreenWidth = 1920
    /// The default virtual screen height: 1080 pixels.
    public static let defaultVirtualScreenHeight = 1080
    /// Where an import keeps its samples (``StrokeRecorder/spillSamples(into:)``):
    /// the first of these folders where a temporary file can be made, before
    /// the folder `spillSamples` is given. Empty by default; the import
    /// command's are ``SpillFolders/candidates(environment:output:)``.
    public var spillFolders: [SpillFolders.Folder]

    /// Creates options.
    public init(
        virtualScreenWidth: Int = defaultVirtualScreenWidth, virtualScreenHeight: Int = defaultVirtualScreenHeight,
        spillFolders: [SpillFolders.Folder] = []
    ) {
        self.virtualScreenWidth = virtualScreenWidth
        self.virtualScreenHeight = virtualScreenHeight
        self.spillFolders = spillFolders
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
