import Glibc
import Testing
import TestSupport

@testable import OperatingSystem

@Suite("File system calls")
struct FileSystemTests {
    @Test("A temporary file is new, private, close-on-exec and named after the prefix")
    func temporaryFile() throws {
        // The test removes what it makes through the calls under test; the
        // folder object removes any leftovers when released.
        let temporary = try TemporaryFolder(prefix: "gesturectl-os-test")
        defer { withExtendedLifetime(temporary) {} }
        let folder = temporary.path
        let (first, firstPath) = try FileSystem.createTemporaryFile(prefix: folder + "/.a.tmp-")
        let (second, secondPath) = try FileSystem.createTemporaryFile(prefix: folder + "/.a.tmp-")
        defer {
            first.close()
            second.close()
        }
        #expect(firstPath != secondPath)
        #expect(firstPath.hasPrefix(folder + "/.a.tmp-") && firstPath.count == (folder + "/.a.tmp-").count + 6)
        #expect(try first.status().permissions == 0o600)
        #expect(fcntl(first.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        try first.writeAll(Array("x".utf8))
        try first.setPermissions(0o644)
        #expect(try Paths.status(firstPath).permissions == 0o644)
        #expect(try FileSystem.contentsOfDirectory(folder).sorted() == [firstPath, secondPath].map { lastComponent($0) }.sorted())
        try FileSystem.unlink(firstPath)
        try FileSystem.unlink(secondPath)
        #expect(try FileSystem.contentsOfDirectory(folder) == [])
        try FileSystem.synchronizeDirectory(folder)
        #expect(rmdir(folder) == 0)
    }

    @Test("rename replaces, link refuses an existing name")
    func renameAndLink() throws {
        // The test removes what it makes through the calls under test; the
        // folder object removes any leftovers when released.
        let temporary = try TemporaryFolder(prefix: "gesturectl-os-test")
        defer { withExtendedLifetime(temporary) {} }
        let folder = temporary.path
        for name in ["a", "b"] {
            let (descriptor, path) = try FileSystem.createTemporaryFile(prefix: folder + "/" + name)
            descriptor.close()
            try FileSystem.rename(path, to: folder + "/" + name)
        }
        #expect(throws: SystemError(call: "link", path: folder + "/a", errorNumber: EEXIST, detail: "to \(folder)/b")) {
            try FileSystem.link(folder + "/a", to: folder + "/b")
        }
        try FileSystem.rename(folder + "/a", to: folder + "/b")
        #expect(try FileSystem.contentsOfDirectory(folder) == ["b"])
        try FileSystem.link(folder + "/b", to: folder + "/c")
        #expect(try FileSystem.contentsOfDirectory(folder).sorted() == ["b", "c"])
        try FileSystem.unlink(folder + "/b")
        try FileSystem.unlink(folder + "/c")
        #expect(rmdir(folder) == 0)
    }

    @Test("Folders: mkdir, EEXIST, listing a missing one, readlink")
    func folders() throws {
        // The test removes what it makes through the calls under test; the
        // folder object removes any leftovers when released.
        let temporary = try TemporaryFolder(prefix: "gesturectl-os-test")
        defer { withExtendedLifetime(temporary) {} }
        let folder = temporary.path
        try FileSystem.makeDirectory(folder + "/sub")
        #expect(try Paths.status(folder + "/sub").type == .directory)
        #expect(throws: SystemError(call: "mkdir", path: folder + "/sub", errorNumber: EEXIST)) {
            try FileSystem.makeDirectory(folder + "/sub")
        }
        #expect(throws: SystemError(call: "opendir", path: folder + "/missing", errorNumber: ENOENT)) {
            try FileSystem.contentsOfDirectory(folder + "/missing")
        }
        #expect(symlink("sub", folder + "/link") == 0)
        #expect(try FileSystem.linkTarget(folder + "/link") == "sub")
        let long = String(repeating: "x/", count: 300) + "end"
        #expect(symlink(long, folder + "/long") == 0)
        #expect(try FileSystem.linkTarget(folder + "/long") == long)
        #expect(throws: SystemError(call: "readlink", path: folder + "/sub", errorNumber: EINVAL)) {
            try FileSystem.linkTarget(folder + "/sub")
        }
        for name in ["link", "long"] { try FileSystem.unlink(folder + "/" + name) }
        #expect(rmdir(folder + "/sub") == 0 && rmdir(folder) == 0)
    }

    @Test("The process environment and current directory")
    func processEnvironment() throws {
        let variables = ProcessEnvironment.variables()
        #expect(variables["PATH"] == getenv("PATH").map { String(cString: $0) })
        var buffer = [CChar](repeating: 0, count: 4_096)
        let expected = getcwd(&buffer, buffer.count).map { String(cString: $0) }
        #expect(try ProcessEnvironment.currentDirectory() == expected)
    }

    @Test("The subject says what the object is without changing the failure")
    func subject() {
        let error = SystemError(call: "open", path: "/somewhere/uinput", errorNumber: ENOENT)
        let about = error.about(.uinput)
        #expect(about.subject == .uinput)
        #expect(error.subject == nil)
        #expect(about == error)
        #expect(about.description == error.description)
        #expect(Set([about, error]).count == 1)
    }
}

/// The last path component.
private func lastComponent(_ path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
}
