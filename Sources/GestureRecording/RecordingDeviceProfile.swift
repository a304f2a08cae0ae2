import GestureModel
import InputSystem

/// What the recorder makes of a device: how it reports contacts and the
/// geometry its gestures are stored in.
///
/// The kind of device is ``InputSystem/DeviceClassifier``'s (udev's
/// input_id rules, as `devices` shows it); how it is read depends on it:
/// 1. A tablet is read as a pen (``RecordingInputKind/pen``) from
///    `ABS_X`/`ABS_Y`/`ABS_PRESSURE`.
/// 2. A touchscreen or touchpad with `ABS_MT_POSITION_X`/`Y` is multi-touch,
///    protocol B when `ABS_MT_SLOT` exists, else protocol A; without them,
///    single-touch from `ABS_X`/`ABS_Y` with `BTN_TOUCH`.
/// 3. A mouse with `REL_X`/`REL_Y` and `BTN_LEFT` is a relative pointer
///    (``RecordingInputKind/relativePointer``). An absolute pointer (udev
///    makes `ABS_X`/`ABS_Y` with a mouse button a mouse: a QEMU or
///    KVM-over-IP "USB tablet") is ``RecordingInputKind/absolutePointer``:
///    pointer strokes (press, drag, release of `BTN_LEFT`, `BTN_RIGHT` or
///    `BTN_MIDDLE`) at the positions of `ABS_X`/`ABS_Y`, geometry kind
///    mouse with those axes. Interactive whiteboards and digitizers that
///    report `ABS_X`/`ABS_Y` with mouse buttons are such mice to udev
///    (even with `INPUT_PROP_DIRECT`), so they are recorded the same way.
///
/// Keyboards and other devices are refused, with the reason the
/// capabilities give (a missing axis or `BTN_TOUCH`, a pen without axes).
///
/// Where this differs from the recorder's own rules before the classifier:
/// `INPUT_PROP_POINTER` alone no longer makes a touchpad (udev: only
/// `BTN_TOOL_FINGER` without `INPUT_PROP_DIRECT` does; a pointer-property
/// device with `BTN_TOUCH` is a touchscreen); multi-touch axes without any
/// of `BTN_TOUCH`, `BTN_TOOL_FINGER` and `INPUT_PROP_DIRECT` are not a touch
/// device (udev gives them no class, so libinput ignores them); and
/// `ABS_X`/`ABS_Y` with `BTN_TOUCH` and a mouse button but no multi-touch
/// axes is an absolute pointer, not a single-touch screen.
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
        let kind = DeviceClassifier.kind(of: device)
        switch kind {
        case .tablet:
            guard device.supports(.absolute, .absoluteX) || device.supports(.absolute, .absoluteY) else {
                throw unsupported("it is a pen device without the ABS_X and ABS_Y axes")
            }
            let (x, y) = try positionAxes(.absoluteX, .absoluteY)
            inputKind = .pen
            geometry = DeviceGeometry(kind: .tablet, x: x, y: y, pressure: axis(.absolutePressure), slots: 1)
        case .touchscreen, .touchpad:
            if device.supports(.absolute, .multitouchPositionX) || device.supports(.absolute, .multitouchPositionY) {
                let (x, y) = try positionAxes(.multitouchPositionX, .multitouchPositionY)
                let hasSlots = device.supports(.absolute, .multitouchSlot) && device.slotCount > 0
                inputKind = hasSlots ? .multitouchSlots : .multitouchProtocolA
                geometry = DeviceGeometry(
                    kind: kind, x: x, y: y, pressure: axis(.multitouchPressure), size: axis(.multitouchTouchMajor),
                    slots: hasSlots ? min(device.slotCount, 100) : Self.protocolASlots)
            } else {
                let (x, y) = try positionAxes(.absoluteX, .absoluteY)
                guard device.supports(.key, .buttonTouch) else { throw unsupported(Self.noTouchButton) }
                inputKind = .singleTouch
                geometry = DeviceGeometry(kind: kind, x: x, y: y, pressure: axis(.absolutePressure), slots: 1)
            }
        case .mouse where device.supports(.relative, .relativeX) && device.supports(.relative, .relativeY)
            && device.supports(.key, .buttonLeft):
            let width = options.virtualScreenWidth
            let height = options.virtualScreenHeight
            let millimetresPerPixel = 25.4 / Self.assumedDotsPerInch
            inputKind = .relativePointer
            geometry = DeviceGeometry(
                kind: .mouse, x: AxisRange(minimum: 0, maximum: width - 1), y: AxisRange(minimum: 0, maximum: height - 1),
                widthMM: Double(width) * millimetresPerPixel, heightMM: Double(height) * millimetresPerPixel, slots: 1)
        case .mouse where device.supports(.absolute, .absoluteX) && device.supports(.absolute, .absoluteY)
            && Self.hasPointerButton(device):
            // A QEMU/KVM "USB tablet" or VMware's absolute mouse: a press,
            // drag and release of a button at absolute positions.
            let (x, y) = try positionAxes(.absoluteX, .absoluteY)
            inputKind = .absolutePointer
            geometry = DeviceGeometry(kind: .mouse, x: x, y: y, slots: 1)
        case .mouse, .keyboard, .other:
            throw unsupported(Self.refusal(of: device, kind: kind))
        }
    }

    /// Whether the device has a button a pointer stroke can hold.
    private static func hasPointerButton(_ device: InputDeviceDescription) -> Bool {
        device.supports(.key, .buttonLeft) || device.supports(.key, .buttonRight) || device.supports(.key, .buttonMiddle)
    }

    private static let noTouchButton = "it has the axes ABS_X and ABS_Y but no BTN_TOUCH to say when it is touched"

    /// Why a device that is no touchscreen, touchpad, tablet or relative
    /// mouse cannot be recorded from: the first gap in what it reports.
    private static func refusal(of device: InputDeviceDescription, kind: DeviceKind) -> String {
        let hasX = device.supports(.absolute, .absoluteX)
        let hasY = device.supports(.absolute, .absoluteY)
        let hasMultitouchX = device.supports(.absolute, .multitouchPositionX)
        let hasMultitouchY = device.supports(.absolute, .multitouchPositionY)
        let onlyOneAxis = "it reports only one of the position axes X and Y"
        if device.supports(.key, .buttonToolPen) || device.supports(.key, .buttonStylus) {
            if !hasX && !hasY { return "it is a pen device without the ABS_X and ABS_Y axes" }
            if hasX != hasY { return onlyOneAxis }
        }
        if hasMultitouchX || hasMultitouchY {
            if hasMultitouchX != hasMultitouchY { return onlyOneAxis }
            if device.supports(.absolute, .multitouchSlot)
                && device.supports(.absolute, EventCode(rawValue: EventCode.multitouchSlot.rawValue - 1))
            {
                return "it claims every absolute axis (ABS_MT_SLOT − 1 too), so udev does not believe its multi-touch axes"
            }
            return "it has the axes ABS_MT_POSITION_X and ABS_MT_POSITION_Y but none of BTN_TOUCH, "
                + "BTN_TOOL_FINGER and INPUT_PROP_DIRECT, so udev does not take it for a touchscreen or touchpad"
        }
        if hasX || hasY {
            if hasX != hasY { return onlyOneAxis }
            if !device.supports(.key, .buttonTouch) { return noTouchButton }
            if kind == .mouse {
                return "it has mouse buttons beside ABS_X and ABS_Y, so udev takes it for an absolute pointer, "
                    + "but none of BTN_LEFT, BTN_RIGHT and BTN_MIDDLE for a stroke to hold"
            }
        }
        return "it reports no touch (ABS_MT_POSITION_X/Y, or ABS_X/Y with BTN_TOUCH), pen (BTN_TOOL_PEN) or pointer (REL_X/Y with BTN_LEFT) input"
    }
}
