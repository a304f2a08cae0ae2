import Glibc

/// A failed system or library call: which call, on what, and the errno the
/// call reported.
///
/// Every wrapper in this module reports failures through this one type, so a
/// caller can tell "permission denied" from "not found" from "the device
/// went away" without knowing which C function was involved.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What a failure means for the caller, derived from the errno and the
    /// situation.
    public enum Kind: String, Hashable, Sendable {
        /// EACCES or EPERM: the user may not open or use the node (e.g. not
        /// in the `input` group, or no access to /dev/uinput).
        case permissionDenied
        /// ENOENT, ENODEV or ENXIO when opening: there is no such device.
        case notFound
        /// ENODEV on a device that was open: it was unplugged or destroyed.
        case deviceVanished
        /// Any other failure.
        case other
    }

    /// What the object of the failed call is for the user, when advice
    /// depends on it: set by whoever opens it (which knows, whatever the
    /// path), read by whoever explains the error.
    public enum Subject: String, Hashable, Sendable {
        /// The uinput node, through which virtual devices are created
        /// (`/dev/uinput` by default).
        case uinput
        /// An evdev node of an input device (`/dev/input/eventN`).
        case inputDevice
        /// The uhid node, through which HID devices are created in user
        /// space (`/dev/uhid`).
        case uhid
    }

    /// The C function that failed, e.g. `open` or `libevdev_new_from_fd`.
    public var call: String
    /// The device path (or other object) the call worked on, when there is one.
    public var path: String?
    /// The errno value (positive), e.g. 2 for ENOENT.
    public var errorNumber: Int32
    /// What the failure means for the caller.
    public var kind: Kind
    /// More context, e.g. which event code libevdev refused.
    public var detail: String?
    /// What the object is (see ``Subject``); `nil` when nobody said.
    public var subject: Subject?

    /// Creates an error. `kind` defaults to the usual meaning of
    /// `errorNumber` (see ``Kind``).
    public init(
        call: String, path: String? = nil, errorNumber: Int32, kind: Kind? = nil, detail: String? = nil,
        subject: Subject? = nil
    ) {
        self.call = call
        self.path = path
        self.errorNumber = errorNumber
        self.kind = kind ?? SystemError.defaultKind(of: errorNumber)
        self.detail = detail
        self.subject = subject
    }

    /// The same error, saying what its object is.
    public func about(_ subject: Subject) -> SystemError {
        var error = self
        error.subject = subject
        return error
    }

    /// Two errors are equal when the call, path, errno, kind and detail
    /// are: the subject is advice for people, not part of the failure.
    public static func == (left: SystemError, right: SystemError) -> Bool {
        left.call == right.call && left.path == right.path && left.errorNumber == right.errorNumber
            && left.kind == right.kind && left.detail == right.detail
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(call)
        hasher.combine(path)
        hasher.combine(errorNumber)
        hasher.combine(kind)
        hasher.combine(detail)
    }

    /// The usual meaning of an errno value when opening something.
    public static func defaultKind(of errorNumber: Int32) -> Kind {
        switch errorNumber {
        case EACCES, EPERM: .permissionDenied
        case ENOENT, ENODEV, ENXIO: .notFound
        default: .other
        }
    }

    /// The C library's text for the errno, e.g. "No such file or directory".
    /// The errno's text and number, without the call: `No space left on
    /// device (errno 28)`.
    public var reason: String { "\(errorMessage) (errno \(errorNumber))" }

    public var errorMessage: String { SystemError.message(for: errorNumber) }

    /// A one-line message, e.g.
    /// `open /dev/input/event7 failed: No such file or directory (errno 2)`.
    public var description: String {
        var text = call
        if let path { text += " \(path)" }
        text += " failed: \(errorMessage) (errno \(errorNumber))"
        if let detail { text += "; \(detail)" }
        return text
    }

    /// The C library's text for `errorNumber` (thread-safe: strerror_r).
    static func message(for errorNumber: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        // Swift sees the XSI strerror_r, which returns 0 or an errno.
        let result = strerror_r(errorNumber, &buffer, buffer.count)
        guard result == 0 else { return "Unknown error \(errorNumber)" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
