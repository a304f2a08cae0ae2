import GestureModel
import GesturePlayback
import InputSystem

/// The gadget `gesturectl gadget up` builds: a touchscreen digitizer of a
/// given size and contact count, and optionally the mouse and the buttons.
public enum GadgetPlan {
    /// The units per millimetre of the digitizer's axes (as the default touchscreen's).
    public static let unitsPerMillimetre = 100
    /// The largest side in mm: a 4-byte axis holds more, but nothing larger
    /// is a touchscreen.
    public static let maximumSideMM = 2_000.0

    /// Why the options cannot make a gadget.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// A one-line message naming the option.
        public var description: String
    }

    /// The digitizer of `contacts` contacts on a `widthMM` × `heightMM`
    /// surface at ``unitsPerMillimetre``.
    public static func touchscreen(contacts: Int, widthMM: Double, heightMM: Double) throws(Failure) -> HIDTouchscreenLayout {
        for (name, side) in [("width", widthMM), ("height", heightMM)] where !(side >= 1 && side <= maximumSideMM) {
            throw Failure(description: "--size: the \(name) must be 1 to \(Int(maximumSideMM)) mm")
        }
        let x = AbsoluteAxisInfo(
            minimum: 0, maximum: Int32((widthMM * Double(unitsPerMillimetre)).rounded()), resolution: Int32(unitsPerMillimetre))
        let y = AbsoluteAxisInfo(
            minimum: 0, maximum: Int32((heightMM * Double(unitsPerMillimetre)).rounded()), resolution: Int32(unitsPerMillimetre))
        do throws(HIDTouchscreenLayout.Failure) {
            return try HIDTouchscreenLayout(contacts: contacts, x: x, y: y)
        } catch {
            throw Failure(description: "--contacts: \(error)")
        }
    }

    /// The specification: the digitizer first (`hid.touchscreen`), then the
    /// mouse (`hid.mouse`) and the buttons (`hid.buttons`) when asked.
    public static func specification(
        name: String = GadgetSpecification.defaultName, touchscreen: HIDTouchscreenLayout, mouse: Bool, buttons: Bool,
        controller: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil
    ) -> GadgetSpecification {
        var functions = [GadgetFunction(instance: GadgetFunction.touchscreen, description: touchscreen.description())]
        if mouse { functions.append(GadgetFunction(instance: GadgetFunction.mouse, description: HIDMouseLayout.description())) }
        if buttons {
            functions.append(GadgetFunction(instance: GadgetFunction.buttons, description: HIDButtonsLayout.description()))
        }
        // Hosts name every HID interface after the USB device's strings
        // ("gesturectl HID touchscreen"): say what is in it.
        let kinds = ["touchscreen"] + (mouse ? ["mouse"] : []) + (buttons ? ["buttons"] : [])
        var specification = GadgetSpecification(
            name: name, productName: "HID " + kinds.dropLast().joined(separator: ", ") + (kinds.count > 1 ? " and " : "") + kinds.last!, functions: functions, controller: controller)
        if let vendor { specification.vendor = vendor }
        if let product { specification.product = product }
        return specification
    }
}

extension GadgetFunctionStatus {
    /// The touchscreen this function's descriptor describes, when it is
    /// one gesturectl wrote.
    public var touchscreenLayout: HIDTouchscreenLayout? { HIDTouchscreenLayout(parsing: reportDescriptor) }

    /// Whether this function is gesturectl's mouse.
    public var isMouse: Bool { reportDescriptor == HIDMouseLayout.reportDescriptor }

    /// Whether this function is gesturectl's buttons.
    public var isButtons: Bool { reportDescriptor == HIDButtonsLayout.reportDescriptor }
}
