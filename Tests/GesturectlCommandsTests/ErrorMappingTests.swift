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
        #expect(ErrorMapping.failure(for: FileSystemError(errno: EACCES, path: "x", operation: "cannot read"))?.status == .permissionDenied)
        #expect(ErrorMapping.failure(for: FileSystemError(errno: ENOENT, path: "x", operation: "cannot read"))?.status == .notFound)
        #expect(ErrorMapping.failure(for: FileSystemError(errno: EIO, path: "x", operation: "cannot read"))?.status == .failure)
    }

    @Test func libraryErrors() {
        #expect(ErrorMapping.failure(for: LibraryError(.notFound, "m"))?.status == .notFound)
        #expect(ErrorMapping.failure(for: LibraryError(.invalidName, "m"))?.status == .usageError)
        #expect(ErrorMapping.failure(for: LibraryError(.permissionDenied, "m"))?.status == .permissionDenied)
        #expect(ErrorMapping.failure(for: LibraryError(.readOnly, "m"))?.status == .failure)
    }

    @Test func deviceErrors() {
        let uinput = SystemError(call: "open", path: "/dev/uinput", errorNumber: EACCES)
        let failure = ErrorMapping.failure(for: uinput)
        #expect(failure?.status == .permissionDenied)
        #expect(
            failure?.message
                == "open /dev/uinput failed: Permission denied (errno 13); creating virtual devices needs write access to /dev/uinput (see udev-rules/ and the README)"
        )
        let node = SystemError(call: "open", path: "/dev/input/event3", errorNumber: EACCES)
        #expect(
            ErrorMapping.failure(for: node)?.message
                == "open /dev/input/event3 failed: Permission denied (errno 13); reading input devices needs membership in the 'input' group"
        )
        #expect(ErrorMapping.failure(for: SystemError(call: "read", path: "/dev/input/event3", errorNumber: ENODEV, kind: .deviceVanished))?.status == .failure)
        #expect(ErrorMapping.failure(for: DeviceSelectionError(kind: .notFound, message: "m"))?.status == .notFound)
        #expect(ErrorMapping.failure(for: DeviceSelectionError(kind: .ambiguous, message: "m"))?.status == .usageError)
    }
}
