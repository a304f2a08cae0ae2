import GestureModel
import InputSystem

/// What the recorder makes of a device: how it reports contacts and the
/// geometry its gestures are stored in.
///
/// The classification follows udev's input_id builtin, in this order:
/// 1. `BTN_TOOL_PEN` or `BTN_STYLUS` → tablet, read as a pen
///    (``RecordingInputKind/pen``) from `ABS_X`/`ABS_Y`/`ABS_PRESSURE`.
/// 2. `ABS_MT_POSITION_X`/`Y` → multi-touch, protocol B when `ABS_MT_SLOT`
///    exists, else protocol A.
/// 3. `ABS_X`/`ABS_Y` with `BTN_TOUCH` → single-touch.
/// 4. `REL_X`/`REL_Y` with `BTN_LEFT` → mouse (``RecordingInputKind/relativePointer``).
///
/// Touch devices are a touchscreen when they have `INPUT_PROP_DIRECT`, a
/// touchpad when they have `INPUT_PROP_POINTER` or `BTN_TOOL_FINGER`
/// without DIRECT, and a touchscreen otherwise (udev: `BTN_TOUCH` alone
/// means a touchscreen).
///
/// Geometry: position axes and resolution from `ABS_MT_POSITION_X`/`Y`
/// (multi-touch) or `ABS_X`/`ABS_Y`; the size in millimetres from the
/// resolution (0 when the device gives none); the pressure axis from
/// `ABS_MT_PRESSURE` (multi-touch) or `ABS_PRESSURE` (single-touch, pen),
/// the size axis from `ABS_MT_TOUCH_MAJOR` (multi-touch only). Slots:
/// `ABS_MT_SLOT` maximum + 1 (at most 100, what uinput accepts) for
/// protocol B; 10 for protocol A, which does not say how many contacts it
/// tracks; 1 otherwise.
///
/// A relative pointer has no axes; its gestures live on a virtual screen of
/// ``RecorderOptions/virtualScreenWidth`` × ``RecorderOptions/virtualScreenHeight``
/// pixels (axes 0…width−1 and 0…height−1, kind mouse) whose physical size
/// assumes 96 dpi (1920 px = 508 mm). The axis resolution is left 0 because
/// 96 dpi is not a whole number of units per millimetre (3.78); the width
/// and height in millimetres carry the physical size instead.
public struct RecordingDeviceProfile: Hashable, Sendable {
    /// How the device reports contacts.
    public var inputKind: RecordingInputKind
    /// The geometry recorded gestures are stored in.
    public var geometry: DeviceGeometry
    /// The device's name as the kernel reports it.
    public var deviceName: String

    /// The slots assumed for a protocol A device.
    static let protocolASlots = 10
    /// Pixels per inch assumed for the virtual screen of a relative pointer.
    static let assumedDotsPerInch = 96.0

    /// Classifies `device` and derives its geometry.
    ///
    /// - Throws: ``RecordingError/unsupportedDevice(deviceName:reason:)``
    ///   when the device has no touch, pen or pointer input, or a position
    ///   axis whose minimum is not below its maximum;
    ///   ``RecordingError/invalidOption(_:)`` for a virtual screen size out
    ///   of range.
    public init(device: InputDeviceDescription, options: RecorderOptions = RecorderOptions()) throws(RecordingError) {
        try options.validate()
        deviceName = device.name
        func unsupported(_ reason: String) -> RecordingError {
            .unsupportedDevice(deviceName: device.name, reason: reason)
        }
        func axis(_ code: EventCode) -> AxisRange? {
            device.absoluteAxes[code].map {
                AxisRange(minimum: Int($0.minimum), maximum: Int($0.maximum), resolution: Int($0.resolution))
            }
        }
        func positionAxes(_ codeX: EventCode, _ codeY: EventCode) throws(RecordingError) -> (AxisRange, AxisRange) {
            guard let x = axis(codeX), let y = axis(codeY) else {
                throw unsupported("it reports only one of the position axes X and Y")
            }
            for (code, range) in [(codeX, x), (codeY, y)] where range.minimum >= range.maximum {
                throw unsupported(
                    "its axis \(code.nameOrNumber(type: .absolute)) has minimum \(range.minimum), not below maximum \(range.maximum)"
                )
            }
            return (x, y)
        }
        let touchKind: DeviceKind =
            device.properties.contains(.direct)
            ? .touchscreen
            : device.properties.contains(.pointer) || device.supports(.key, .buttonToolFinger) ? .touchpad : .touchscreen

        if device.supports(.key, .buttonToolPen) || device.supports(.key, .buttonStylus) {
            guard device.supports(.absolute, .absoluteX) || device.supports(.absolute, .absoluteY) else {
                throw unsupported("it is a pen device without the ABS_X and ABS_Y axes")
            }
            let (x, y) = try positionAxes(.absoluteX, .absoluteY)
            inputKind = .pen
            geometry = DeviceGeometry(kind: .tablet, x: x, y: y, pressure: axis(.absolutePressure), slots: 1)
        } else if device.supports(.absolute, .multitouchPositionX) || device.supports(.absolute, .multitouchPositionY) {
            let (x, y) = try positionAxes(.multitouchPositionX, .multitouchPositionY)
            let hasSlots = device.supports(.absolute, .multitouchSlot) && device.slotCount > 0
            inputKind = hasSlots ? .multitouchSlots : .multitouchProtocolA
            geometry = DeviceGeometry(
                kind: touchKind, x: x, y: y, pressure: axis(.multitouchPressure), size: axis(.multitouchTouchMajor),
                slots: hasSlots ? min(device.slotCount, 100) : Self.protocolASlots)
        } else if device.supports(.absolute, .absoluteX) || device.supports(.absolute, .absoluteY) {
            let (x, y) = try positionAxes(.absoluteX, .absoluteY)
            guard device.supports(.key, .buttonTouch) else {
                throw unsupported("it has the axes ABS_X and ABS_Y but no BTN_TOUCH to say when it is touched")
            }
            inputKind = .singleTouch
            geometry = DeviceGeometry(kind: touchKind, x: x, y: y, pressure: axis(.absolutePressure), slots: 1)
        } else if device.supports(.relative, .relativeX), device.supports(.relative, .relativeY),
            device.supports(.key, .buttonLeft)
        {
            let width = options.virtualScreenWidth
            let height = options.virtualScreenHeight
            let millimetresPerPixel = 25.4 / Self.assumedDotsPerInch
            inputKind = .relativePointer
            geometry = DeviceGeometry(
                kind: .mouse, x: AxisRange(minimum: 0, maximum: width - 1), y: AxisRange(minimum: 0, maximum: height - 1),
                widthMM: Double(width) * millimetresPerPixel, heightMM: Double(height) * millimetresPerPixel, slots: 1)
        } else {
            throw unsupported(
                "it reports no touch (ABS_MT_POSITION_X/Y, or ABS_X/Y with BTN_TOUCH), pen (BTN_TOOL_PEN) or pointer (REL_X/Y with BTN_LEFT) input"
            )
        }
    }
}
