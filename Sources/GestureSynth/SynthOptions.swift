import GestureModel

/// Settings shared by every shape: the surface, the sample rate, the row
/// spacing, and an optional name and description for the result.
public struct SynthOptions: Hashable, Sendable {
    /// The surface the gesture is made on; positions are converted to its
    /// units. Default: ``DeviceGeometry/synthDefault`` (216 × 135 mm, 100
    /// units per millimetre).
    public var geometry: DeviceGeometry
    /// Samples per second, 1…1000. Default 120.
    public var sampleRateHz: Int
    /// Distance between neighbouring fingers in a row, in millimetres.
    /// Default 18. Used by tap, double tap, long press, swipe and edge swipe
    /// (pinch and rotate place their fingers on a circle instead).
    public var spacingMM: Double
    /// The gesture's name; `nil` gives a descriptive default such as
    /// `swipe-up-3`. At most ``GestureLimits/maximumNameBytes`` UTF-8 bytes.
    public var name: String?
    /// The gesture's description; `nil` gives a short sentence describing
    /// the shape. At most ``GestureLimits/maximumDescriptionBytes`` UTF-8 bytes.
    public var description: String?

    /// Creates options; every parameter has the default described on its property.
    public init(
        geometry: DeviceGeometry = .synthDefault, sampleRateHz: Int = SynthDefaults.sampleRateHz,
        spacingMM: Double = SynthDefaults.spacingMM, name: String? = nil, description: String? = nil
    ) {
        self.geometry = geometry
        self.sampleRateHz = sampleRateHz
        self.spacingMM = spacingMM
        self.name = name
        self.description = description
    }
}
