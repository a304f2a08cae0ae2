import CommandKit
import DeviceDiscovery
import GestureLibrary
import Glibc
import InputSystem
import Testing

@testable import GesturectlCommands
import OperatingSystem

/// Each library error reaches the documented exit status. (Permission
/// errors cannot be provoked through the binary here: the tests run as
/// root, which the kernel lets read anything.)
@Suite struct ErrorMappingTests {
    @Test func fileErrors() {
        func fileError(_ errorNumber: Int32) -> FileSystemError {
            FileSystemError(SystemError(call: "open", path: "x", errorNumber: errorNumber), operation: "cannot read")
        }
        #expect(ErrorMapping.failure(for: fileError(EACCES))?.status == .permissionDenied)
        #expect(ErrorMapping.failure(for: fileError(ENOENT))?.status == .notFound)
        #expect(ErrorMapping.failure(for: fileError(EIO))?.status == .failure)
        #expect(ErrorMapping.failure(for: fileError(ENOENT))?.message == "cannot read x: No such file or directory")
    }

    @Test func libraryErrors() {
        #expect(ErrorMapping.failure(for: LibraryError(.notFound, "m"))?.status == .notFound)
        #expect(ErrorMapping.failure(for: LibraryError(.invalidName, "m"))?.status == .usageError)
        #expect(ErrorMapping.failure(for: LibraryError(.permissionDenied, "m"))?.status == .permissionDenied)
        #expect(ErrorMapping.failure(for: LibraryError(.readOnly, "m"))?.status == .failure)
    }

    @Test func deviceErrors() {
        let uinput = SystemError(call: "open", path: "/dev/uinput", errorNumber: EACCES, subject: .uinput)
        let failure = ErrorMapping.failure(for: uinput)
        #expect(failure?.status == .permissionDenied)
        #expect(
            failure?.message
                == "open /dev/uinput failed: Permission denied (errno 13); creating virtual devices needs write access to /dev/uinput (see udev-rules/ and the README)"
        )
        let node = SystemError(call: "open", path: "/dev/input/event3", errorNumber: EACCES, subject: .inputDevice)
        #expect(
            ErrorMapping.failure(for: node)?.message
                == "open /dev/input/event3 failed: Permission denied (errno 13); reading input devices needs membership in the 'input' group"
        )
        #expect(ErrorMapping.failure(for: SystemError(call: "read", path: "/dev/input/event3", errorNumber: ENODEV, kind: .deviceVanished))?.status == .failure)
        #expect(ErrorMapping.failure(for: DeviceSelectionError(kind: .notFound, message: "m"))?.status == .notFound)
        #expect(ErrorMapping.failure(for: DeviceSelectionError(kind: .ambiguous, message: "m"))?.status == .usageError)
    }

    /// uhid's hints: what to load, and which group and rule give access.
    @Test func uhidErrors() {
        let missing = SystemError(call: "open", path: "/dev/uhid", errorNumber: ENOENT, subject: .uhid)
        #expect(ErrorMapping.failure(for: missing)?.status == .notFound)
        #expect(
            ErrorMapping.failure(for: missing)?.message
                == "open /dev/uhid failed: No such file or directory (errno 2); this kernel has no uhid loaded: load it with 'modprobe uhid'")
        let denied = SystemError(call: "open", path: "/dev/uhid", errorNumber: EACCES, subject: .uhid)
        #expect(ErrorMapping.failure(for: denied)?.status == .permissionDenied)
        #expect(
            ErrorMapping.failure(for: denied)?.message
                == "open /dev/uhid failed: Permission denied (errno 13); creating HID devices needs write access to /dev/uhid (the 'gesturectl' group with the rule in udev-rules/: see the README)"
        )
    }

    /// The hints follow what the thrower opened, not the path: a path that
    /// merely looks like a device gets none.
    @Test func hintsFollowTheSubjectNotThePath() {
        let missing = SystemError(call: "open", path: "/dev/uinput", errorNumber: ENOENT, subject: .uinput)
        #expect(
            ErrorMapping.failure(for: missing)?.message
                == "open /dev/uinput failed: No such file or directory (errno 2); this kernel has no uinput: load it with 'modprobe uinput' (or use 'gesturectl play --print' to write evemu text instead)"
        )
        let lookalike = SystemError(call: "open", path: "/dev/uinput", errorNumber: EACCES)
        #expect(ErrorMapping.failure(for: lookalike)?.message == "open /dev/uinput failed: Permission denied (errno 13)")
        let node = SystemError(call: "open", path: "/run/evdev/touch", errorNumber: EACCES, subject: .inputDevice)
        #expect(
            ErrorMapping.failure(for: node)?.message
                == "open /run/evdev/touch failed: Permission denied (errno 13); reading input devices needs membership in the 'input' group"
        )
    }

    /// A uinput opened at another path than /dev/uinput still gets the
    /// "modprobe uinput" hint when it is missing.
    @Test func uinputAtAnotherPathGetsTheModprobeHint() {
        let path = "/nonexistent/gesturectl/uinput"
        let description = InputDeviceDescription(
            name: "gesturectl test touchscreen", bus: 0x06, vendor: 0x1d6b, product: 0x0001, version: 1,
            properties: [.direct], codes: [.key: [.buttonTouch]],
            absoluteAxes: [
                .absoluteX: AbsoluteAxisInfo(minimum: 0, maximum: 1_000, resolution: 10),
                .absoluteY: AbsoluteAxisInfo(minimum: 0, maximum: 1_000, resolution: 10),
            ])
        do throws(SystemError) {
            _ = try UinputDevice(description: description, uinputPath: path)
            Issue.record("expected \(path) to be missing")
        } catch {
            #expect(error.subject == .uinput)
            let failure = ErrorMapping.failure(for: error)
            #expect(failure?.status == .notFound)
            #expect(
                failure?.message
                    == "open \(path) failed: No such file or directory (errno 2); this kernel has no uinput: load it with 'modprobe uinput' (or use 'gesturectl play --print' to write evemu text instead)"
            )
        }
    }
}
