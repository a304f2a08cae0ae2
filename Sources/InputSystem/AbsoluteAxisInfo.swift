/// The range and tuning of one absolute axis, as in the kernel's
/// `struct input_absinfo` (without the current value).
public struct AbsoluteAxisInfo: Hashable, Sendable {
    /// Smallest value the axis reports.
    public var minimum: Int32
    /// Largest value the axis reports.
    public var maximum: Int32
    /// Noise filter: the kernel drops changes smaller than this. Virtual
    /// devices should use 0, or small moves are smoothed away.
    public var fuzz: Int32
    /// Values within this of the centre are reported as the centre (joysticks).
    public var flat: Int32
    /// Units per millimetre on position axes (units per radian on rotation
    /// axes); 0 when unknown.
    public var resolution: Int32

    /// Creates axis information.
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}
