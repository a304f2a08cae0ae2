import Glibc
import GestureLibrary
import Testing
import TestSupport

/// A gesture file that is there but cannot be looked at is never reported
/// as missing: the error says why it cannot be read.
@Suite struct LookupFailureTests {
    @Test func aLoopOfLinksIsNotNoSuchGesture() throws {
        let folder = try TemporaryFolder()
        let user = folder.path + "/user"
        try FileIO.createDirectories(user)
        #expect(symlink("loop.gesture.json", user + "/loop.gesture.json") == 0)
        let library = GestureLibrary(userDirectory: user, builtinDirectory: nil)

        let error = #expect(throws: LibraryError.self) { try library.entry(named: "loop") }
        #expect(error?.kind == .other)
        #expect(error?.message == "cannot read \(user)/loop.gesture.json: Too many levels of symbolic links")
        #expect(throws: LibraryError(.notFound, "no gesture named \"none\" in the library (see 'gesturectl list')")) {
            try library.entry(named: "none")
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root may search any folder"))
    func aFolderThatMayNotBeSearchedIsPermissionDenied() throws {
        let folder = try TemporaryFolder()
        let user = folder.path + "/user"
        let library = GestureLibrary(userDirectory: user, builtinDirectory: nil)
        try library.save(ShadowingTests.tap("x"), as: "tap", overwrite: false)
        #expect(chmod(user, 0o600) == 0)
        defer { chmod(user, 0o755) }

        let error = #expect(throws: LibraryError.self) { try library.entry(named: "tap") }
        #expect(error?.kind == .permissionDenied)
        #expect(error?.message == "cannot read \(user)/tap.gesture.json: Permission denied")
    }

    @Test func typeOfSaysNilOnlyWhenNothingIsThere() throws {
        let folder = try TemporaryFolder()
        try FileIO.writeAtomically(Array("x".utf8), to: folder.path + "/file")
        #expect(try FileIO.type(of: folder.path + "/file") == .regular)
        #expect(try FileIO.type(of: folder.path) == .directory)
        #expect(try FileIO.type(of: folder.path + "/none") == nil)
        // ENOTDIR: a part of the path is a file.
        #expect(try FileIO.type(of: folder.path + "/file/x") == nil)
        #expect(symlink("self", folder.path + "/self") == 0)
        #expect(throws: FileSystemError.self) { try FileIO.type(of: folder.path + "/self") }
    }
}
