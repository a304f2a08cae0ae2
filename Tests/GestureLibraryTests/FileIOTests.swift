import Glibc
import Testing
import TestSupport

@testable import GestureLibrary
import OperatingSystem

@Suite struct FileIOTests {
    @Test func writesAtomicallyAndReadsBack() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/a.txt"
        try FileIO.writeAtomically(Array("one".utf8), to: path)
        try FileIO.writeAtomically(Array("two".utf8), to: path)
        #expect(try FileIO.read(path: path, limit: 100) == Array("two".utf8))
        // No temporary files are left behind.
        #expect(try FileIO.contentsOfDirectory(folder.path) == ["a.txt"])
    }

    @Test func refusesToOverwriteWhenAsked() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/a.txt"
        try FileIO.writeAtomically(Array("one".utf8), to: path)
        #expect(throws: FileSystemError.self) {
            try FileIO.writeAtomically(Array("two".utf8), to: path, overwrite: false)
        }
        #expect(try FileIO.read(path: path, limit: 100) == Array("one".utf8))
        #expect(try FileIO.contentsOfDirectory(folder.path) == ["a.txt"])
    }

    @Test func writtenFilesAreReadableByOthers() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/a.txt"
        try FileIO.writeAtomically([1], to: path)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o644)
    }

    @Test func missingFileIsNotFound() {
        do {
            _ = try FileIO.read(path: "/nonexistent/x.json", limit: 10)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.description == "cannot read /nonexistent/x.json: No such file or directory")
        }
    }

    @Test func tooLargeFileIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/big"
        try FileIO.writeAtomically([UInt8](repeating: 65, count: 11), to: path)
        do {
            _ = try FileIO.read(path: path, limit: 10)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.description == "cannot read \(path): the file has 11 bytes; the most accepted is 10")
        }
    }

    /// Issue 39: a file that is mapped may be larger than one read whole
    /// (its bytes are not held); one that is read keeps the read limit,
    /// whatever the mapped limit.
    @Test func aMappedFileHasItsOwnLimit() throws {
        let folder = try TemporaryFolder()
        let large = folder.path + "/large"
        try FileIO.writeAtomically([UInt8](repeating: 65, count: 50), to: large)
        guard case .mapped(let file) = try FileIO.readOrMap(path: large, limit: 10, mappedLimit: 100, mapFrom: 20) else {
            Issue.record("a 50-byte file from 20 is mapped")
            return
        }
        #expect(file.bytes.count == 50)
        // Beyond the mapped limit too: refused before it is mapped.
        #expect(throws: FileSystemError(
            kind: .tooLarge, path: large, operation: "cannot read", reason: "the file has 50 bytes; the most accepted is 40")
        ) { try FileIO.readOrMap(path: large, limit: 10, mappedLimit: 40, mapFrom: 20) }
        // Under `mapFrom`, read whole: the read limit holds.
        let small = folder.path + "/small"
        try FileIO.writeAtomically([UInt8](repeating: 65, count: 15), to: small)
        #expect(throws: FileSystemError(
            kind: .tooLarge, path: small, operation: "cannot read", reason: "the file has 15 bytes; the most accepted is 10")
        ) { try FileIO.readOrMap(path: small, limit: 10, mappedLimit: 100, mapFrom: 20) }
        guard case .bytes(let bytes) = try FileIO.readOrMap(path: small, limit: 16, mappedLimit: 100, mapFrom: 20) else {
            Issue.record("a 15-byte file under 20 is read")
            return
        }
        #expect(bytes.count == 15)
    }

    /// Issue 24 item 5: `show /dev/zero` read 550 MB before refusing a
    /// 512 MiB limit. A pipe whose size nobody knows: reading stops one
    /// byte past the limit, and what is beyond it stays unread.
    @Test func anInputOfUnknownSizeIsReadToOneBytePastTheLimit() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let written = [UInt8](repeating: 0x61, count: 3_000)
        #expect(write(ends[1], written, written.count) == written.count)
        close(ends[1])
        #expect(
            throws: FileSystemError(
                kind: .tooLarge, path: "/proc/self/fd/\(ends[0])", operation: "cannot read",
                reason: "the file has more than 1000 bytes")
        ) {
            try FileIO.read(path: "/proc/self/fd/\(ends[0])", limit: 1_000)
        }
        var rest = [UInt8](repeating: 0, count: 4_096)
        #expect(read(ends[0], &rest, rest.count) == 3_000 - 1_001)
    }

    @Test func folderIsNotAFile() {
        do {
            _ = try FileIO.read(path: "/tmp", limit: 10)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "cannot read /tmp: it is a folder")
        }
    }

    @Test func pathParts() {
        #expect(FileIO.directoryName("a/b/c.json") == "a/b")
        #expect(FileIO.directoryName("c.json") == ".")
        #expect(FileIO.directoryName("/c.json") == "/")
        #expect(FileIO.baseName("a/b/c.json") == "c.json")
    }

    @Test func createsNestedFolders() throws {
        let folder = try TemporaryFolder()
        try FileIO.createDirectories(folder.path + "/x/y/z")
        #expect(FileIO.isDirectory(folder.path + "/x/y/z"))
    }

    @Test func refusedOverwriteSaysTheTargetExists() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/a.txt"
        try FileIO.writeAtomically(Array("one".utf8), to: path)
        do {
            try FileIO.writeAtomically(Array("two".utf8), to: path, overwrite: false)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .alreadyExists)
            // The target the caller named, not the temporary file.
            #expect(error.description == "cannot write \(path): File exists")
        }
    }

    @Test func writingIntoAMissingFolderNamesTheTarget() {
        do {
            try FileIO.writeAtomically([1], to: "/nonexistent/gesturectl/a.txt")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.description == "cannot write /nonexistent/gesturectl/a.txt: No such file or directory")
        }
    }

    @Test func removingAMissingFileIsNotFound() {
        do {
            try FileIO.remove("/nonexistent/gesturectl/a.txt")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.description == "cannot delete /nonexistent/gesturectl/a.txt: No such file or directory")
        }
    }

    @Test func missingFolderListsAsEmpty() throws {
        #expect(try FileIO.contentsOfDirectory("/nonexistent/gesturectl") == [])
    }

    @Test func listsSorted() throws {
        let folder = try TemporaryFolder()
        for name in ["c", "a", "b"] { try FileIO.writeAtomically([1], to: folder.path + "/" + name) }
        #expect(try FileIO.contentsOfDirectory(folder.path) == ["a", "b", "c"])
        try FileIO.remove(folder.path + "/b")
        #expect(try FileIO.contentsOfDirectory(folder.path) == ["a", "c"])
    }

    @Test func folderUnderAFileCannotBeCreated() throws {
        let folder = try TemporaryFolder()
        try FileIO.writeAtomically([1], to: folder.path + "/file")
        do {
            try FileIO.createDirectories(folder.path + "/file/sub")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notFound)  // ENOTDIR
            #expect(error.description == "cannot create folder \(folder.path)/file/sub: Not a directory")
        }
    }

    @Test func errorsFromSystemErrors() {
        let cases: [(Int32, FileSystemError.Kind, String)] = [
            (ENOENT, .notFound, "No such file or directory"), (ENOTDIR, .notFound, "Not a directory"),
            (EACCES, .permissionDenied, "Permission denied"), (EPERM, .permissionDenied, "Operation not permitted"),
            (EROFS, .permissionDenied, "Read-only file system"), (EEXIST, .alreadyExists, "File exists"),
            (EFBIG, .tooLarge, "File too large"), (EIO, .other, "Input/output error"),
        ]
        for (errorNumber, kind, text) in cases {
            let error = FileSystemError(
                SystemError(call: "open", path: "/p/x.json", errorNumber: errorNumber), operation: "cannot read")
            #expect(error.kind == kind)
            #expect(error.description == "cannot read /p/x.json: \(text)")
        }
        let renamed = FileSystemError(
            SystemError(call: "rename", path: "/p/.x.json.tmp-abcdef", errorNumber: ENOSPC), path: "x.json",
            operation: "cannot write")
        #expect(renamed.description == "cannot write x.json: No space left on device")
    }
}

@Suite struct GestureNameTests {
    @Test func acceptsOrdinaryNames() {
        #expect(GestureName.problem(with: "pinch-in") == nil)
        #expect(GestureName.problem(with: "Zwei Finger ✌") == nil)
    }

    @Test(arguments: [
        ("", "a gesture name cannot be empty"),
        ("a/b", "gesture name \"a/b\" contains \"/\""),
        ("..", "gesture name \"..\" starts with \".\""),
        (".hidden", "gesture name \".hidden\" starts with \".\""),
        ("tab\there", "gesture name contains a control character"),
        (" x", "gesture name \" x\" starts or ends with a space"),
    ])
    func rejectsBadNames(name: String, message: String) {
        #expect(GestureName.problem(with: name) == message)
    }

    @Test func rejectsLongNames() {
        #expect(
            GestureName.problem(with: String(repeating: "a", count: 201))
                == "gesture name is 201 bytes long; the most allowed is 200")
    }

    @Test func fileNames() {
        #expect(GestureName.name(fromFileName: "pinch.gesture.json") == "pinch")
        #expect(GestureName.name(fromFileName: "pinch.json") == nil)
        #expect(GestureName.name(fromFileName: ".gesture.json") == nil)
        #expect(GestureName.name(fromFileName: ".x.gesture.json.tmp-abc") == nil)
    }
}
