/// What kind of input device something is: the one answer gesturectl
/// gives everywhere (`devices`, device selection, `play --clone`, the
/// recorder, a gesture's device). InputSystem's `DeviceClassifier` decides
/// it for real devices, following udev's input_id builtin.
///
/// Only the first four hold gestures (``gestureKinds``): gesture files and
/// `--as` spell exactly those (the raw values), and a gesture's device is
/// never a keyboard or other. The cases are in order of preference: when
/// udev gives a device several classes, the first kind here wins.
public enum DeviceKind: String, Sendable, CaseIterable {
    /// Touches land where they are (`ID_INPUT_TOUCHSCREEN`).
    case touchscreen
    /// Touches move a pointer (`ID_INPUT_TOUCHPAD`).
    case touchpad
    /// A pen on a tablet or a screen (`ID_INPUT_TABLET`).
    case tablet
    /// A mouse, trackball or pointing stick (`ID_INPUT_MOUSE`,
    /// `ID_INPUT_TRACKBALL`, `ID_INPUT_POINTINGSTICK`).
    case mouse
    /// Keys or buttons only: keyboards, power buttons, volume keys, lone
    /// scroll wheels (`ID_INPUT_KEYBOARD`, `ID_INPUT_KEY`).
    case keyboard
    /// Anything else: joysticks, accelerometers, switches, or a device
    /// nothing is known about.
    case other

    /// The kinds a gesture can be recorded from, stored for and played on,
    /// in the order gesture-file errors list them.
    public static let gestureKinds: [DeviceKind] = [.touchscreen, .touchpad, .tablet, .mouse]

    /// Whether a gesture can be recorded from, stored for and played on a
    /// device of this kind (touchscreen, touchpad, tablet or mouse).
    public var isGestureKind: Bool { Self.gestureKinds.contains(self) }

    /// The name `devices` (text and `--json` "kind") and device lists print:
    /// `touchscreen`, `touchpad`, `tablet/pen`, `mouse/pointer`,
    /// `keyboard/buttons` or `other`.
    public var listingName: String {
        switch self {
        case .touchscreen: "touchscreen"
        case .touchpad: "touchpad"
        case .tablet: "tablet/pen"
        case .mouse: "mouse/pointer"
        case .keyboard: "keyboard/buttons"
        case .other: "other"
        }
    }
}

/// The range and resolution of one absolute axis.
public struct AxisRange: Hashable, Sendable {
    /// Smallest value the device reports.
    public var minimum: Int
    /// Largest value the device reports.
    public var maximum: Int
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int

    /// Creates an axis range.
    public init(minimum: Int, maximum: Int, resolution: Int = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }

    /// Number of units from minimum to maximum.
    /// Number of units from minimum to maximum (saturating, so hostile
    /// bounds cannot trap; validation rejects them later).
    public var span: Int {
        let (difference, overflow) = maximum.subtractingReportingOverflow(minimum)
        return overflow ? (minimum < 0 ? .max : .min) : difference
    }

    /// Whether `value` lies within the range, both ends included.
    public func contains(_ value: Int) -> Bool { value >= minimum && value <= maximum }

    /// `value` moved to the nearest end of the range if it lies outside it.
    public func clamp(_ value: Int) -> Int { Swift.min(Swift.max(value, minimum), maximum) }
}

/// The geometry of the device a gesture came from: enough to map its
/// integer positions to millimetres or to any other device.
public struct DeviceGeometry: Hashable, Sendable {
    /// The kind of device.
    public var kind: DeviceKind
    /// Horizontal axis (ABS_MT_POSITION_X, or ABS_X for single-touch).
    public var x: AxisRange
    /// Vertical axis.
    public var y: AxisRange
    /// Pressure axis, when the device reports pressure.
    public var pressure: AxisRange?
    /// Contact-size axis (ABS_MT_TOUCH_MAJOR), when reported.
    public var size: AxisRange?
    /// Physical width of the surface in millimetres as stored (`width_mm`);
    /// 0 means unknown. Operations use ``surfaceWidthMM``, which applies
    /// FORMAT.md's size rule (stated, else from the resolution, else assumed).
    public var widthMM: Double
    /// Physical height of the surface in millimetres as stored; 0 means
    /// unknown (see ``surfaceHeightMM``).
    public var heightMM: Double
    /// How many contacts the device tracks at once (ABS_MT_SLOT maximum + 1;
    /// 1 for single-touch devices and pointers).
    public var slots: Int

    /// Creates a geometry. When `widthMM`/`heightMM` are omitted they are
    /// derived from the axis span and resolution (0 when there is none).
    public init(
        kind: DeviceKind, x: AxisRange, y: AxisRange, pressure: AxisRange? = nil, size: AxisRange? = nil,
        widthMM: Double? = nil, heightMM: Double? = nil, slots: Int
    ) {
        self.kind = kind
        self.x = x
        self.y = y
        self.pressure = pressure
        self.size = size
        self.widthMM = widthMM ?? (x.resolution > 0 ? Double(x.span) / Double(x.resolution) : 0)
        self.heightMM = heightMM ?? (y.resolution > 0 ? Double(y.span) / Double(y.resolution) : 0)
        self.slots = slots
    }

    /// The geometry used for gestures made without a device (`synth`): a
    /// 216 × 135 mm (16:10) touchscreen at 100 units per millimetre, axes
    /// 0…21600 and 0…13500, no pressure or size axis, ten slots.
    public static let synthDefault = DeviceGeometry(
        kind: .touchscreen,
        x: AxisRange(minimum: 0, maximum: 21_600, resolution: 100),
        y: AxisRange(minimum: 0, maximum: 13_500, resolution: 100),
        widthMM: 216, heightMM: 135, slots: 10
    )

    /// Millimetres per device unit horizontally, from ``surfaceWidthMM``
    /// (so from the stated width, the resolution, or the assumption, in
    /// that order; see ``sizeSource``).
    public var mmPerUnitX: Double { x.span > 0 ? surfaceWidthMM / Double(x.span) : 1 }
    /// Millimetres per device unit vertically, from ``surfaceHeightMM``.
    public var mmPerUnitY: Double { y.span > 0 ? surfaceHeightMM / Double(y.span) : 1 }

    /// A position in millimetres from the surface's top-left corner.
    public func millimetres(x valueX: Int, y valueY: Int) -> (x: Double, y: Double) {
        ((Double(valueX) - Double(x.minimum)) * mmPerUnitX, (Double(valueY) - Double(y.minimum)) * mmPerUnitY)
    }

    /// The device position (rounded to whole units, not clamped) of a point
    /// given in millimetres from the top-left corner.
    public func units(xMM: Double, yMM: Double) -> (x: Int, y: Int) {
        (
            DeviceGeometry.integer(Double(x.minimum) + (xMM / mmPerUnitX).rounded()),
            DeviceGeometry.integer(Double(y.minimum) + (yMM / mmPerUnitY).rounded())
        )
    }

    /// A position normalised to 0…1 on each axis (0 = minimum, 1 = maximum).
    public func normalised(x valueX: Int, y valueY: Int) -> (x: Double, y: Double) {
        (
            x.span > 0 ? Double(valueX - x.minimum) / Double(x.span) : 0,
            y.span > 0 ? Double(valueY - y.minimum) / Double(y.span) : 0
        )
    }

    /// The device position (rounded, not clamped) of a normalised point.
    public func units(normalisedX: Double, normalisedY: Double) -> (x: Int, y: Int) {
        (
            DeviceGeometry.integer(Double(x.minimum) + (normalisedX * Double(x.span)).rounded()),
            DeviceGeometry.integer(Double(y.minimum) + (normalisedY * Double(y.span)).rounded())
        )
    }

    /// A whole Double as an Int, clamped (NaN as 0) instead of trapping.
    static func integer(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int(value)
    }

    /// The centre of the surface in device units.
    public var centre: (x: Int, y: Int) { (x.minimum + x.span / 2, y.minimum + y.span / 2) }
}
