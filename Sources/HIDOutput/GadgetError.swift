import GestureModel
import OperatingSystem

/// Why a USB gadget could not be built, removed, read or played through:
/// what is missing and what to do, with the configfs path concerned.
public struct GadgetError: KindedError, Hashable {
    /// What the failure means for the caller (front ends pick exit statuses by it).
    public enum Kind: String, Hashable, Sendable {
        /// This machine has no USB device controller: it cannot be a gadget.
        case noController
        /// libcomposite, usb_f_hid or configfs is missing.
        case kernelSupportMissing
        /// No such gadget, function or controller.
        case notFound
        /// The gadget exists already, or the controller is taken.
        case busy
        /// Root is needed (configfs belongs to root) or the node's group.
        case permissionDenied
        /// The host does not read the gadget's reports.
        case hostNotReading
        /// A bad name or value.
        case invalid
        /// Any other failure of the system.
        case other
    }

    /// What the failure means.
    public var kind: Kind
    /// The one-line message for people.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }


    /// A failed system call on the gadget, the call's own message (which
    /// names the path) followed by advice for permission errors.
    static func system(_ error: SystemError, doing what: String) -> GadgetError {
        switch error.kind {
        case .permissionDenied:
            GadgetError(
                .permissionDenied,
                "\(what): \(error); building and removing a USB gadget needs root (configfs belongs to root):"
                    + " run it with sudo")
        case .notFound, .deviceVanished:
            GadgetError(.notFound, "\(what): \(error)")
        case .other:
            GadgetError(error.errorNumber == ErrorNumber.busy ? .busy : .other, "\(what): \(error)")
        }
    }

    /// The message when this machine has no USB device controller.
    static func noController(_ controllers: String) -> GadgetError {
        GadgetError(
            .noController,
            "no USB device controller (\(controllers) is empty): this machine cannot be a USB gadget;"
                + " a Raspberry Pi 4/5 or Zero can (dtoverlay=dwc2 in config.txt, the cable in its USB-C or OTG port);"
                + " 'modprobe dummy_hcd' makes a loopback controller for trying it on this machine")
    }
}
