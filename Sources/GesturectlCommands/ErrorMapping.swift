import CommandKit
import Glibc
import GestureModel
import GestureEngine
import HIDOutput
import DeviceDiscovery
import GestureInterop
import GesturePlayback
import GestureRecording
import InputSystem
import GestureFormat
import GestureLibrary
import HIDOutput
import OperatingSystem

/// Maps the libraries' errors to the documented exit statuses.
enum ErrorMapping {
    /// Any error as the failure the tool would report for it: a library's
    /// mapped (``failure(for:)``), a command's own as it is, anything else
    /// with its description and status 1.
    static func commandFailure(for error: any Error) -> CommandFailure {
        if let failure = failure(for: error) { return failure }
        return error as? CommandFailure ?? .failure("\(error)")
    }

    static func failure(for error: any Error) -> CommandFailure? {
        switch error {
        case let error as FileSystemError:
            switch error.kind {
            case .notFound: return .notFound(error.description)
            case .permissionDenied: return .permissionDenied(error.description)
            default: return .failure(error.description)
            }
        case let error as LibraryError:
            switch error.kind {
            case .notFound: return .notFound(error.message)
            case .permissionDenied: return .permissionDenied(error.message)
            case .invalidName: return .usage(error.message)
            default: return .failure(error.message)
            }
        case let error as SystemError:
            switch error.kind {
            case .notFound:
                if error.subject == .uinput {
                    return .notFound(
                        error.description + "; this kernel has no uinput: load it with 'modprobe uinput'"
                            + " (or use 'gesturectl play --print' to write evemu text instead)")
                }
                if error.subject == .uhid {
                    return .notFound(error.description + "; this kernel has no uhid loaded: load it with 'modprobe uhid'")
                }
                return .notFound(error.description)
            case .permissionDenied: return .permissionDenied(Self.permissionHint(error))
            case .deviceVanished, .other:
                if let notInput = Self.notAnInputDevice(error) { return .failure(notInput) }
                return .failure(error.description)
            }
        case let error as DeviceSelectionError:
            return error.kind == .notFound ? .notFound(error.message) : .usage(error.message)
        case let error as InteropError:
            return .failure(error.description)
        case let error as PlaybackError:
            return .failure(error.description)
        case let error as GadgetError:
            switch error.kind {
            case .permissionDenied: return .permissionDenied(error.message)
            case .notFound, .noController, .kernelSupportMissing: return .notFound(error.message)
            case .invalid: return .usage(error.message)
            case .busy, .hostNotReading, .other: return .failure(error.message)
            }
        case let error as PlayOutputError:
            // A kind or key the output cannot carry is the command line's
            // fault; an output that is missing here is "not available".
            switch error {
            case .unsupportedKind, .unsupportedKey: return .usage(error.description)
            case .unavailable: return .notFound(error.description)
            }
        case let error as HIDDevicePlan.Failure:
            return .usage(error.description)
        case let error as RecordingError:
            return .failure(error.description)
        case let error as GestureFormatError:
            return .failure(error.description)
        default:
            return nil
        }
    }

    /// libevdev refuses a file that is not an evdev node (`--clone
    /// /dev/zero`, `--device /dev/null`) with ENOTTY; say that in the
    /// user's terms rather than as an ioctl's errno.
    static func notAnInputDevice(_ error: SystemError) -> String? {
        guard error.call == "libevdev_new_from_fd", error.errorNumber == ENOTTY else {
            return nil
        }
        // An error on a descriptor opened elsewhere carries no path.
        let path = DisplayText.escaped(error.path ?? "the device")
        return "\(path) is not an input device (no evdev interface); give an event node such as /dev/input/event5,"
            + " a stable link, a device name or vendor:product (see 'gesturectl devices')"
    }

    /// A permission error with what to do about it, by what the thrower
    /// said the object is (not by its path, which may be anywhere).
    static func permissionHint(_ error: SystemError) -> String {
        switch error.subject {
        case .uinput:
            // uinput's errors name the node they opened; the usual one when not.
            error.description
                + "; creating virtual devices needs write access to \(error.path ?? "/dev/uinput") (see udev-rules/ and the README)"
        case .inputDevice:
            error.description + "; reading input devices needs membership in the 'input' group"
        case .uhid:
            error.description
                + "; creating HID devices needs write access to \(error.path ?? UhidDevice.defaultPath)"
                + " (the 'gesturectl' group with the rule in udev-rules/: see the README)"
        case nil:
            error.description
        }
    }
}
