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
