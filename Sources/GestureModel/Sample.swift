/// One position of one contact at one moment.
///
/// Positions are integers in the source device's units (see
/// ``DeviceGeometry``), so nothing the kernel reported is lost; the geometry
/// maps them to millimetres or to a normalised range when needed.
public struct Sample: Hashable, Sendable {
    /// Time since the start of the gesture.
    public var time: Microseconds
    /// Horizontal position in device units.
    public var x: Int
    /// Vertical position in device units (grows downwards, as on screens).
    public var y: Int
    /// Contact pressure in device units, when the device reports it.
    public var pressure: Int?
    /// Contact size (ABS_MT_TOUCH_MAJOR) in device units, when reported.
    public var size: Int?

    /// Creates a sample.
    public init(time: Microseconds, x: Int, y: Int, pressure: Int? = nil, size: Int? = nil) {
        self.time = time
        self.x = x
        self.y = y
        self.pressure = pressure
        self.size = size
    }
}
