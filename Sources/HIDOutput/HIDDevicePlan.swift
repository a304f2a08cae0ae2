import GestureModel
import GesturePlayback

/// Which HID device plays a profile, and why some cannot.
///
/// A touchscreen profile becomes a multitouch digitizer
/// (``HIDTouchscreenLayout``) with its ranges, resolution, contacts and
/// pressure; a mouse profile the relative mouse (``HIDMouseLayout``); the
/// virtual keyboard the buttons (``HIDButtonsLayout``). A touchpad or a pen
/// tablet has no HID form here (a Windows precision touchpad and a HID pen
/// need more than hosts share): those play as a touchscreen or a mouse.
public enum HIDDevicePlan {
    /// The product id of the HID touchscreen (vendor 0x4753, as the uinput profiles).
    public static let touchscreenProduct: UInt16 = 0x0101
    /// The product id of the HID mouse.
    public static let mouseProduct: UInt16 = 0x0103
    /// The product id of the HID buttons.
    public static let buttonsProduct: UInt16 = 0x0105

    /// Why a profile has no HID device.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// No HID form for this kind; what to do instead.
        case unsupportedKind(DeviceKind, hint: String)
        /// The touchscreen's axes or contacts cannot be described.
        case layout(HIDTouchscreenLayout.Failure)

        /// A one-line message.
        public var description: String {
            switch self {
            case let .unsupportedKind(kind, hint): "a \(kind.rawValue) has no HID form here; \(hint)"
            case let .layout(failure): "this touchscreen cannot be a HID device: \(failure)"
            }
        }
    }

    /// The HID device that plays `profile`'s frames.
    /// - Throws: ``Failure`` for a touchpad, tablet or other device, or a
    ///   touchscreen whose axes cannot be described.
    public static func description(for profile: VirtualDeviceProfile) throws(Failure) -> HIDDeviceDescription {
        switch try kind(of: profile) {
        case .touch(let layout): layout.description()
        case .mouse: HIDMouseLayout.description()
        case .buttons: HIDButtonsLayout.description()
        }
    }

    /// What a profile plays as.
    enum Kind: Hashable, Sendable {
        case touch(HIDTouchscreenLayout)
        case mouse
        case buttons
    }

    static func kind(of profile: VirtualDeviceProfile) throws(Failure) -> Kind {
        switch profile.kind {
        case .touchscreen:
            do throws(HIDTouchscreenLayout.Failure) {
                return .touch(try HIDTouchscreenLayout(profile: profile))
            } catch {
                throw .layout(error)
            }
        case .mouse:
            return .mouse
        case .keyboard:
            return .buttons
        case .touchpad:
            throw .unsupportedKind(.touchpad, hint: "play it as a touchscreen (--as touchscreen) or a mouse (--as mouse)")
        case .tablet:
            throw .unsupportedKind(.tablet, hint: "play it as a touchscreen (--as touchscreen) or a mouse (--as mouse)")
        case .other:
            throw .unsupportedKind(.other, hint: "play it as a touchscreen (--as touchscreen) or a mouse (--as mouse)")
        }
    }
}
