import Glibc
import OperatingSystem
import Testing
import TestSupport

/// `-o PATH` writes by what is at PATH, and never replaces what is not a
/// regular file: devices and FIFOs are written into, links are followed,
/// sockets, folders and disks are refused with a message that says so.
@Suite struct OutputPathTests {
    private func gesturectl(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessOutcome {
        try ProcessRunner.run(
            CLI.binary, arguments, workingDirectory: folder.path,
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "GESTURECTL_BUILTINS": CLI.checkout + "/Recordings"])
    }

    private func type(_ path: String) -> FileStatus.FileType? { (try? Paths.status(path, followLinks: false))?.type }

    @Test("A character device is written into, without --force, and stays a device")
    func device() throws {
        let folder = try TemporaryFolder()
        let outcome = try gesturectl(["synth", "tap", "-o", "/dev/null"], in: folder)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError == "")
        #expect(type("/dev/null") == .characterDevice)
    }

    @Test("A FIFO is written into and stays a FIFO")
    func fifo() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("pipe")
        #expect(mkfifo(path, 0o600) == 0)
        // A reader on a thread of its own: opening a FIFO waits for both ends.
        let received = JobHandle<[UInt8], Never>()
        try DedicatedThread.start(ThreadOptions(name: "test-fifo")) {
            var bytes: [UInt8] = []
            if let reader = try? FileDescriptor.open(path) {
                while let chunk = try? reader.read(upTo: 4_096), !chunk.isEmpty { bytes += chunk }
                reader.close()
            }
            received.finish(bytes)
        }
        let outcome = try gesturectl(["synth", "tap", "-o", "pipe"], in: folder)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let bytes = received.wait()
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"format\": 1"))
        #expect(type(path) == .fifo)
    }

    @Test("A link is followed: its target is written (with --force when it exists), the link stays a link")
    func links() throws {
        let folder = try TemporaryFolder()
        try folder.write("real.gesture.json", "{}")
        #expect(symlink("real.gesture.json", folder.file("link.json")) == 0)
        let refused = try gesturectl(["synth", "tap", "-o", "link.json"], in: folder)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("already exists (use --force to replace it)"))
        #expect(try folder.read("real.gesture.json") == "{}")
        let forced = try gesturectl(["synth", "tap", "-o", "link.json", "--force"], in: folder)
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(type(folder.file("link.json")) == .symbolicLink)
        #expect(try folder.read("real.gesture.json").contains("\"format\": 1"))
        // A dangling link: its target is created.
        #expect(symlink("new.gesture.json", folder.file("dangling.json")) == 0)
        let created = try gesturectl(["synth", "tap", "-o", "dangling.json"], in: folder)
        #expect(created.status == 0, "\(created.standardError)")
        #expect(type(folder.file("dangling.json")) == .symbolicLink)
        #expect(type(folder.file("new.gesture.json")) == .regular)
    }

    @Test("A socket is refused with a message that says so, and no --force hint")
    func socket() throws {
        let folder = try TemporaryFolder()
        let listening = try UnixSocket.listen(at: folder.file("s.sock"))
        defer { listening.close() }
        for extra in [[], ["--force"]] {
            let outcome = try gesturectl(["synth", "tap", "-o", "s.sock"] + extra, in: folder)
            #expect(outcome.status == 1)
            #expect(outcome.standardError.contains("is a socket, not a file"))
            #expect(!outcome.standardError.contains("--force"))
        }
        #expect(type(folder.file("s.sock")) == .socket)
    }

    @Test("/dev/stdout is standard output, also when it is a file (no 'already exists')")
    func standardOutputByPath() throws {
        let folder = try TemporaryFolder()
        let outcome = try gesturectl(["synth", "tap", "-o", "/dev/stdout"], in: folder)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("\"format\": 1"))
    }
}
