import GestureModel
import InputSystem

/// A device to play on: its evdev description (what uinput creates) and
/// the kind of play it receives.
///
/// The four built-in profiles have stable names and ids so that udev rules
/// and compositor settings can match them:
///
/// | kind        | name                               | bus  | vendor | product |
/// |-------------|------------------------------------|------|--------|---------|
/// | touchscreen | `gesturectl virtual touchscreen`   | 0x06 | 0x4753 | 0x0001  |
/// | touchpad    | `gesturectl virtual touchpad`      | 0x06 | 0x4753 | 0x0002  |
/// | mouse       | `gesturectl virtual mouse`         | 0x06 | 0x4753 | 0x0003  |
/// | tablet      | `gesturectl virtual tablet`        | 0x06 | 0x4753 | 0x0004  |
/// | keyboard    | `gesturectl virtual keyboard`      | 0x06 | 0x4753 | 0x0005  |
/// | hover pen   | the fingertips' device's name + ` pen` | 0x06 | 0x4753 | 0x0006 |
///
/// The keyboard (``keyboard()``, ``VirtualKeyboard``) plays no gestures:
/// it presses buttons (`gesturectl press`).
///
/// Bus 0x06 is `BUS_VIRTUAL`; vendor 0x4753 ("GS") is not assigned to any
/// USB or Bluetooth vendor we know of, and on `BUS_VIRTUAL` no hardware
/// database entry (hwdb, libinput quirks) matches it. Version is 1.
public struct VirtualDeviceProfile: Hashable, Sendable {
    /// How frames are built for the device.
    public var kind: DeviceKind
    /// What uinput creates.
    public var description: InputDeviceDescription

    /// Creates a profile from any description (e.g. a test fixture).
    public init(kind: DeviceKind, description: InputDeviceDescription) {
        self.kind = kind
        self.description = description
    }

    /// `BUS_VIRTUAL`.
    public static let bus: UInt16 = 0x06
    /// The vendor id of every built-in profile: 0x4753, "GS".
    public static let vendor: UInt16 = 0x4753
    /// The version of every built-in profile.
    public static let version: UInt16 = 1
    /// The slots of the built-in touchscreen and touchpad (`ABS_MT_SLOT` 0…9).
    public static let slotCount = 10
    /// The range of `ABS_MT_TRACKING_ID`: 0…65535, as the kernel's own ids.
    public static let trackingIDRange = AbsoluteAxisInfo(minimum: 0, maximum: 65_535)

    /// The product id of the built-in profile of `kind`; `nil` for an
    /// other device, which has none.
    public static func product(for kind: DeviceKind) -> UInt16? {
        switch kind {
        case .touchscreen: 0x0001
        case .touchpad: 0x0002
        case .mouse: 0x0003
        case .tablet: 0x0004
        case .keyboard: VirtualKeyboard.product
        case .other: nil
        }
    }

    /// The name of the built-in profile of `kind`, e.g. `gesturectl virtual touchpad`.
    public static func name(for kind: DeviceKind) -> String { "gesturectl virtual \(kind.rawValue)" }

    /// The default touchscreen surface: 0…21600 × 0…13500 at 100 units/mm
    /// (216 × 135 mm, as ``DeviceGeometry/synthDefault``).
    public static let defaultTouchscreenAxes = (
        x: AbsoluteAxisInfo(minimum: 0, maximum: 21_600, resolution: 100),
        y: AbsoluteAxisInfo(minimum: 0, maximum: 13_500, resolution: 100)
    )
    /// The default touchpad surface: 0…1100 × 0…700 at 10 units/mm (110 × 70 mm).
    public static let defaultTouchpadAxes = (
        x: AbsoluteAxisInfo(minimum: 0, maximum: 1_100, resolution: 10),
        y: AbsoluteAxisInfo(minimum: 0, maximum: 700, resolution: 10)
    )
    /// The default tablet surface: 0…15200 × 0…9500 at 100 units/mm
    /// (152 × 95 mm, a small pen tablet).
    public static let defaultTabletAxes = (
        x: AbsoluteAxisInfo(minimum: 0, maximum: 15_200, resolution: 100),
        y: AbsoluteAxisInfo(minimum: 0, maximum: 9_500, resolution: 100)
    )
    /// The default pen pressure range: 0…4095.
    public static let defaultPressure = AbsoluteAxisInfo(minimum: 0, maximum: 4_095)

    /// The built-in profile of `kind`, shaped for a gesture recorded on
    /// `geometry` (see the kind's own function).
    /// - Throws: ``PlaybackError/cannotClassify(device:)`` for a keyboard or
    ///   other device: only the four ``GestureModel/DeviceKind/gestureKinds``
    ///   play gestures (the keyboard's profile is ``keyboard()``).
    public static func profile(
        for kind: DeviceKind, fitting geometry: DeviceGeometry? = nil
    ) throws(PlaybackError) -> VirtualDeviceProfile {
        switch kind {
        case .touchscreen: touchscreen(fitting: geometry)
        case .touchpad: touchpad(fitting: geometry)
        case .mouse: mouse()
        case .tablet: tablet(fitting: geometry)
        case .keyboard, .other: throw .cannotClassify(device: name(for: kind))
        }
    }

    /// A touchscreen: `INPUT_PROP_DIRECT`, `BTN_TOUCH`, `ABS_X`/`ABS_Y`,
    /// `ABS_MT_SLOT` 0…9, `ABS_MT_TRACKING_ID`, `ABS_MT_POSITION_X`/`Y`,
    /// resolution on both axes, fuzz 0.
    ///
    /// The axes are `geometry`'s when it is a touchscreen with a known
    /// resolution on both axes (so the gesture plays at its recorded size in
    /// millimetres), else ``defaultTouchscreenAxes``. When `geometry` has a
    /// pressure axis, `ABS_MT_PRESSURE` and `ABS_PRESSURE` are added with its
    /// range; with a size axis, `ABS_MT_TOUCH_MAJOR`.
    public static func touchscreen(fitting geometry: DeviceGeometry? = nil) -> VirtualDeviceProfile {
        let axes = positionAxes(fitting: geometry, kind: .touchscreen, default: defaultTouchscreenAxes)
        var absolute = multitouchAxes(x: axes.x, y: axes.y)
        if let pressure = geometry?.pressure.flatMap(axisInfo) {
            absolute[.multitouchPressure] = pressure
            absolute[.absolutePressure] = pressure
        }
        if let size = geometry?.size.flatMap(axisInfo) { absolute[.multitouchTouchMajor] = size }
        return VirtualDeviceProfile(
            kind: .touchscreen,
            description: InputDeviceDescription(
                name: name(for: .touchscreen), bus: bus, vendor: vendor, product: product(for: .touchscreen) ?? 0,
                version: version, properties: [.direct], codes: [.key: [.buttonTouch]], absoluteAxes: absolute))
    }

    /// A clickpad: `INPUT_PROP_POINTER` and `INPUT_PROP_BUTTONPAD`,
    /// `BTN_LEFT`, `BTN_TOUCH`, `BTN_TOOL_FINGER`…`BTN_TOOL_QUINTTAP`, the
    /// touchscreen's slot and position axes, resolution, fuzz 0.
    ///
    /// The axes are `geometry`'s when it is a touchpad with a known
    /// resolution, else ``defaultTouchpadAxes``. No pressure or size axis:
    /// libinput would then judge contacts by pressure thresholds that a
    /// replayed gesture knows nothing about.
    public static func touchpad(fitting geometry: DeviceGeometry? = nil) -> VirtualDeviceProfile {
        let axes = positionAxes(fitting: geometry, kind: .touchpad, default: defaultTouchpadAxes)
        return VirtualDeviceProfile(
            kind: .touchpad,
            description: InputDeviceDescription(
                name: name(for: .touchpad), bus: bus, vendor: vendor, product: product(for: .touchpad) ?? 0,
                version: version, properties: [.pointer, .buttonPad],
                codes: [
                    .key: [
                        .buttonLeft, .buttonTouch, .buttonToolFinger, .buttonToolDoubleTap, .buttonToolTripleTap,
                        .buttonToolQuadTap, .buttonToolQuintTap,
                    ]
                ],
                absoluteAxes: multitouchAxes(x: axes.x, y: axes.y)))
    }

    /// A mouse: `REL_X`, `REL_Y`, `REL_WHEEL`, `BTN_LEFT`, `BTN_RIGHT`,
    /// `BTN_MIDDLE`.
    public static func mouse() -> VirtualDeviceProfile {
        VirtualDeviceProfile(
            kind: .mouse,
            description: InputDeviceDescription(
                name: name(for: .mouse), bus: bus, vendor: vendor, product: product(for: .mouse) ?? 0, version: version,
                codes: [
                    .relative: [.relativeX, .relativeY, .relativeWheel],
                    .key: [.buttonLeft, .buttonRight, .buttonMiddle],
                ]))
    }

    /// The product id of the hover pen (``hoverPen(for:)``).
    public static let hoverPenProduct: UInt16 = 0x0006

    /// The pen that shows where live fingertips will land (`gesturectl
    /// fingertips`): a screen pen (`INPUT_PROP_DIRECT`) over `target`'s
    /// surface, named `<target's name> pen` (the name cut to fit uinput's 79 bytes), with
    /// `BTN_TOOL_PEN` and `BTN_TOUCH` (never pressed) and `ABS_X`/`ABS_Y` of
    /// the target's position ranges and resolution (fuzz 0), so its units
    /// are the target's. Kept in proximity at the fingertips' centre while
    /// they are up, it makes the desktop draw its tablet-tool cursor there.
    /// No pressure axis: the pen never touches.
    public static func hoverPen(for target: VirtualDeviceProfile) -> VirtualDeviceProfile {
        let axes = target.description.absoluteAxes
        let fallback = AbsoluteAxisInfo(minimum: 0, maximum: 1)
        var x = axes[.multitouchPositionX] ?? axes[.absoluteX] ?? fallback
        var y = axes[.multitouchPositionY] ?? axes[.absoluteY] ?? fallback
        (x.fuzz, x.flat, y.fuzz, y.flat) = (0, 0, 0, 0)
        return VirtualDeviceProfile(
            kind: .tablet,
            description: InputDeviceDescription(
                name: truncatedName(target.description.name, limit: 75) + " pen", bus: bus, vendor: vendor, product: hoverPenProduct,
                version: version, properties: [.direct], codes: [.key: [.buttonToolPen, .buttonTouch]],
                absoluteAxes: [.absoluteX: x, .absoluteY: y]))
    }

    /// A pen tablet (an external one, like a small Wacom: `INPUT_PROP_POINTER`):
    /// `BTN_TOOL_PEN`, `BTN_TOUCH`, `BTN_STYLUS`, `ABS_X`/`ABS_Y` with
    /// resolution and `ABS_PRESSURE`.
    ///
    /// The axes are `geometry`'s when it is a tablet with a known
    /// resolution, else ``defaultTabletAxes``; pressure is `geometry`'s
    /// pressure range when it has one, else ``defaultPressure``.
    public static func tablet(fitting geometry: DeviceGeometry? = nil) -> VirtualDeviceProfile {
        let axes = positionAxes(fitting: geometry, kind: .tablet, default: defaultTabletAxes)
        let pressure = geometry?.pressure.flatMap(axisInfo).flatMap { $0.maximum > $0.minimum ? $0 : nil }
        return VirtualDeviceProfile(
            kind: .tablet,
            description: InputDeviceDescription(
                name: name(for: .tablet), bus: bus, vendor: vendor, product: product(for: .tablet) ?? 0, version: version,
                properties: [.pointer], codes: [.key: [.buttonToolPen, .buttonTouch, .buttonStylus]],
                absoluteAxes: [.absoluteX: axes.x, .absoluteY: axes.y, .absolutePressure: pressure ?? defaultPressure]
            ))
    }

    /// A copy of a real device's description for `--clone DEVICE`: the same
    /// ids, properties, codes and ranges, named `gesturectl clone of <name>`
    /// (cut to uinput's 79 bytes) and with fuzz 0 on every axis, since the
    /// kernel would otherwise smooth or drop the small moves we replay.
    ///
    /// The kind is `kind` when given, else what
    /// ``InputSystem/DeviceClassifier`` makes of the original (udev's
    /// input_id rules: the clone has the same capabilities, so udev and
    /// libinput will take it for the same kind).
    ///
    /// - Throws: ``PlaybackError/cannotClassify(device:)`` when the kind is
    ///   not a touchscreen, touchpad, tablet or mouse.
    public static func cloning(
        description original: InputDeviceDescription, as kind: DeviceKind? = nil
    ) throws(PlaybackError) -> VirtualDeviceProfile {
        var description = original
        description.name = truncatedName("gesturectl clone of " + original.name)
        for code in Array(description.absoluteAxes.keys) { description.absoluteAxes[code]?.fuzz = 0 }
        let playKind = kind ?? DeviceClassifier.kind(of: original)
        guard playKind.isGestureKind else { throw .cannotClassify(device: original.name) }
        return VirtualDeviceProfile(kind: playKind, description: description)
    }

    // MARK: Helpers

    private static func positionAxes(
        fitting geometry: DeviceGeometry?, kind: DeviceKind, default fallback: (x: AbsoluteAxisInfo, y: AbsoluteAxisInfo)
    ) -> (x: AbsoluteAxisInfo, y: AbsoluteAxisInfo) {
        guard let geometry, geometry.kind == kind, geometry.x.resolution > 0, geometry.y.resolution > 0,
            geometry.x.maximum > geometry.x.minimum, geometry.y.maximum > geometry.y.minimum,
            let x = axisInfo(geometry.x), let y = axisInfo(geometry.y)
        else { return fallback }
        return (x, y)
    }

    /// The geometry's axis as evdev axis information, `nil` when a bound or
    /// the resolution does not fit in 32 bits.
    private static func axisInfo(_ range: AxisRange) -> AbsoluteAxisInfo? {
        guard let minimum = Int32(exactly: range.minimum), let maximum = Int32(exactly: range.maximum),
            let resolution = Int32(exactly: range.resolution), minimum <= maximum, resolution >= 0
        else { return nil }
        return AbsoluteAxisInfo(minimum: minimum, maximum: maximum, resolution: resolution)
    }

    private static func multitouchAxes(x: AbsoluteAxisInfo, y: AbsoluteAxisInfo) -> [EventCode: AbsoluteAxisInfo] {
        [
            .absoluteX: x, .absoluteY: y,
            .multitouchSlot: AbsoluteAxisInfo(minimum: 0, maximum: Int32(slotCount - 1)),
            .multitouchTrackingID: trackingIDRange,
            .multitouchPositionX: x, .multitouchPositionY: y,
        ]
    }

    /// `name` cut to at most `limit` UTF-8 bytes (by default 79, uinput's
    /// limit without the NUL), at a character boundary.
    static func truncatedName(_ name: String, limit: Int = 79) -> String {
        DisplayText.prefix(name, utf8Bytes: limit).text
    }
}
