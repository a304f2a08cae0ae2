import GestureModel

/// How a gesture is turned into frames: placement, speed, repetitions and
/// the small choices a recording does not say.
///
/// Frame times start at 0 at the gesture's first sample (a gesture that
/// starts late is not preceded by a wait). A stroke lifts ``liftDelay``
/// after its last sample: the last sample is where the contact was when it
/// lifted, and a position and a lift cannot share a frame (the lift would
/// hide the position), nor can a one-sample tap's touch-down and lift.
public struct PlaybackOptions: Hashable, Sendable {
    /// `false` (default): positions are mapped by their normalised place on
    /// the surface (the left edge to the left edge, the centre to the
    /// centre). `true`: by millimetres, centred on the target and clipped to
    /// its edges, so that a pinch keeps its physical size; used only when
    /// both the gesture's device and the target know their size, else the
    /// normalised mapping applies. Mice always map normalised.
    public var physicalSize: Bool
    /// Playback speed: 2 plays twice as fast. 0.01…100.
    public var speed: Double
    /// How many times the gesture is played in a row:
    /// 1…``GestureLimits/maximumRepeatCount``.
    public var repeatCount: Int
    /// The pause between one repetition's last frame (everything lifted)
    /// and the next one's first frame. Default 500 ms, so that apps do not
    /// take two taps for a double tap. 0…1 hour.
    public var repeatGap: Microseconds
    /// Time from a stroke's last sample to its lift. Default 1 ms.
    /// 1 µs…10 s. Not scaled by ``speed``.
    public var liftDelay: Microseconds
    /// The pressure used where the target reports pressure and a sample has
    /// none, as a fraction of the target's pressure range. Default 0.5.
    public var defaultPressure: Double
    /// Width of the virtual screen that mouse moves are computed on, in
    /// pixels: a stroke from the left edge to the right edge of the gesture's
    /// surface moves the pointer by `screenWidth - 1` pixels. Default 1920.
    public var screenWidth: Int
    /// Height of the virtual screen for mouse moves, in pixels. Default 1080.
    public var screenHeight: Int

    /// The default ``speed``: 1, as recorded.
    public static let defaultSpeed = 1.0
    /// The default ``repeatCount``: 1, played once.
    public static let defaultRepeatCount = 1
    /// The default ``repeatGap``: 500 ms.
    public static let defaultRepeatGap = Microseconds(500_000)

    /// Creates options; every parameter has its documented default.
    public init(
        physicalSize: Bool = false, speed: Double = defaultSpeed, repeatCount: Int = defaultRepeatCount,
        repeatGap: Microseconds = defaultRepeatGap, liftDelay: Microseconds = Microseconds(1_000),
        defaultPressure: Double = 0.5, screenWidth: Int = 1920, screenHeight: Int = 1080
    ) {
        self.physicalSize = physicalSize
        self.speed = speed
        self.repeatCount = repeatCount
        self.repeatGap = repeatGap
        self.liftDelay = liftDelay
        self.defaultPressure = defaultPressure
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
    }

    /// The longest ``repeatGap``: 1 hour (`play --repeat-gap` takes the same).
    public static let maximumRepeatGap = Microseconds(3_600_000_000)

    /// Checks every option's range.
    /// - Throws: ``PlaybackError/invalidOption(name:message:)`` for the first
    ///   option out of range.
    public func validate() throws(PlaybackError) {
        if !speed.isFinite || speed < 0.01 || speed > 100 {
            throw .invalidOption(name: "speed", message: "\(speed) is outside 0.01…100")
        }
        if repeatCount < 1 || repeatCount > GestureLimits.maximumRepeatCount {
            throw .invalidOption(name: "repeat", message: "\(repeatCount) is outside 1…\(GestureLimits.maximumRepeatCount)")
        }
        if repeatGap.rawValue < 0 || repeatGap > Self.maximumRepeatGap {
            throw .invalidOption(name: "repeat gap", message: "\(repeatGap) µs is outside 0…\(Self.maximumRepeatGap) µs")
        }
        if liftDelay.rawValue < 1 || liftDelay.rawValue > 10_000_000 {
            throw .invalidOption(name: "lift delay", message: "\(liftDelay) µs is outside 1…10000000 µs")
        }
        if !defaultPressure.isFinite || defaultPressure < 0 || defaultPressure > 1 {
            throw .invalidOption(name: "default pressure", message: "\(defaultPressure) is outside 0…1")
        }
        if screenWidth < 1 || screenWidth > 100_000 || screenHeight < 1 || screenHeight > 100_000 {
            throw .invalidOption(
                name: "screen", message: "\(screenWidth)×\(screenHeight) px is outside 1…100000 on a side")
        }
    }
}
