import Glibc
import OperatingSystem
import Testing
import TestSupport

@testable import GestureLibrary

/// Interrupted writes leave nothing behind: temporary names fit the file
/// system whenever the final name does, a signal removes the temporary file,
/// and abandoned ones (SIGKILL) are swept by the next writer unless in use.
@Suite struct TemporaryFileTests {
    @Test("A 250-byte name (and a 255-byte one) is written: its temporary name is shortened to fit")
    func longNames() throws {
        let folder = try TemporaryFolder()
        for length in [250, 255] {
            let name = String(repeating: "é", count: (length - 5) / 2) + ((length - 5) % 2 == 1 ? "x" : "") + ".json"
            #expect(name.utf8.count == length)
            try FileIO.writeAtomically(Array("{}".utf8), to: folder.file(name))
            #expect(try FileIO.read(path: folder.file(name), limit: 10) == Array("{}".utf8))
            let prefix = FileIO.temporaryPrefix(for: name)
            #expect(prefix.utf8.count + 6 <= 255)
            #expect(FileIO.isTemporaryName(prefix + "aB3dE9"))
        }
        #expect(try FileIO.contentsOfDirectory(folder.path).count == 2)
    }

    @Test("Our temporary names are recognised, and nothing else is")
    func names() {
        #expect(FileIO.isTemporaryName(".gesturectl-tap.gesture.json.tmp-Ab12Cd"))
        #expect(!FileIO.isTemporaryName("gesturectl-tap.gesture.json.tmp-Ab12Cd"))
        #expect(!FileIO.isTemporaryName(".gesturectl-tap.gesture.json.tmp-Ab12C"))
        #expect(!FileIO.isTemporaryName(".gesturectl-tap.gesture.json.tmp-Ab12C!"))
        // Another program's temporary name is not ours (issue 36).
        #expect(!FileIO.isTemporaryName(".tap.gesture.json.tmp-Ab12Cd"))
        #expect(!FileIO.isTemporaryName(".thesis.tmp-Ab12Cd"))
        #expect(!FileIO.isTemporaryName(".bashrc"))
    }

    /// Sets a file's modification time `seconds` into the past.
    private func age(_ path: String, by seconds: Int) {
        var times = [timeval(tv_sec: time(nil) - seconds, tv_usec: 0), timeval(tv_sec: time(nil) - seconds, tv_usec: 0)]
        _ = utimes(path, &times)
    }

    @Test("The next write sweeps abandoned temporary files: old and unlocked only, and only ours")
    func sweep() throws {
        let folder = try TemporaryFolder()
        for name in [".gesturectl-a.json.tmp-Old111", ".gesturectl-b.json.tmp-Held22", ".gesturectl-c.json.tmp-New333", "keep.json.tmp-Old444", ".notes", ".thesis.tmp-Ab12Cd"] {
            try folder.write(name, "x")
        }
        for name in [".gesturectl-a.json.tmp-Old111", ".gesturectl-b.json.tmp-Held22", "keep.json.tmp-Old444", ".notes", ".thesis.tmp-Ab12Cd"] {
            age(folder.file(name), by: 11 * 60)
        }
        // A writer that is alive (slow) holds its lock.
        let held = try FileDescriptor.open(folder.file(".gesturectl-b.json.tmp-Held22"))
        defer { held.close() }
        #expect(try held.lock(exclusive: true, wait: false))
        try FileIO.writeAtomically(Array("{}".utf8), to: folder.file("d.json"))
        #expect(
            try FileIO.contentsOfDirectory(folder.path) == [
                ".gesturectl-b.json.tmp-Held22", ".gesturectl-c.json.tmp-New333", ".notes", ".thesis.tmp-Ab12Cd", "d.json", "keep.json.tmp-Old444",
            ])
    }

    /// Issue 36: in a shared sticky folder (as /tmp) a sweep deletes only
    /// the writer's own files: another user's file, even one named exactly
    /// as ours, old and unlocked, stays; so does a look-alike of another
    /// program's and a link.
    @Test("In a shared sticky folder the sweep deletes only the writer's own abandoned files")
    func sweepInASharedFolder() throws {
        let folder = try TemporaryFolder()
        #expect(chmod(folder.path, 0o1777) == 0)
        let others = [".gesturectl-theirs.json.tmp-Ab12Cd", ".thesis.tmp-Ab12Cd"]
        for name in others + [".gesturectl-mine.json.tmp-Old111"] {
            try folder.write(name, "x")
            age(folder.file(name), by: 20 * 60)
        }
        #expect(symlink(folder.file(".gesturectl-mine.json.tmp-Old111"), folder.file(".gesturectl-link.json.tmp-Lnk111")) == 0)
        // Another user's (here: nobody's) files, as the root this suite runs as under CI can make them.
        let otherUser: UInt32 = 65_534
        let owner = geteuid()
        if owner == 0 {
            for name in others { #expect(chown(folder.file(name), otherUser, otherUser) == 0) }
        }
        let deleted = TemporaryFiles.sweep(folder: folder.path, isOurs: FileIO.isTemporaryName, owner: owner == 0 ? owner : otherUser)
        if owner == 0 {
            #expect(deleted == [".gesturectl-mine.json.tmp-Old111"])
            #expect(Set(try FileIO.contentsOfDirectory(folder.path)) == Set(others + [".gesturectl-link.json.tmp-Lnk111"]))
        } else {
            // Unprivileged, the files are the test's own: swept as another owner, none goes.
            #expect(deleted.isEmpty)
        }
    }

    @Test("A signal's way out removes the temporary files being written")
    func registry() throws {
        let folder = try TemporaryFolder()
        try folder.write(".x.json.tmp-Abc123", "partial")
        // A registry of the test's own: the process's is in use by other tests.
        let registry = TemporaryFiles()
        registry.register(folder.file(".x.json.tmp-Abc123"))
        #expect(registry.current.contains(folder.file(".x.json.tmp-Abc123")))
        registry.removeAll()
        #expect(!folder.exists(".x.json.tmp-Abc123"))
        #expect(registry.current.isEmpty)
    }
}

/// Issue 36: what a daemon reads (its configuration, bindings, library) is
/// read as a file: a FIFO, a link, a device or a folder is refused at once,
/// never waited on or read without end.
@Suite struct RegularOnlyReadTests {
    @Test("A FIFO, a link, /dev/zero and a folder are refused without blocking; a file is read")
    func refusals() throws {
        let folder = try TemporaryFolder()
        try folder.write("file.json", "{}")
        #expect(mkfifo(folder.file("fifo.json"), 0o600) == 0)
        #expect(symlink(folder.file("file.json"), folder.file("link.json")) == 0)
        #expect(try FileIO.read(path: folder.file("file.json"), limit: 10, regularOnly: true) == Array("{}".utf8))
        for path in [folder.file("fifo.json"), folder.file("link.json"), "/dev/zero", folder.path] {
            #expect(throws: FileSystemError.self, "\(path)") { try FileIO.read(path: path, limit: 1 << 20, regularOnly: true) }
        }
        // Without the rule, a command line's own file may still be a link.
        #expect(try FileIO.read(path: folder.file("link.json"), limit: 10) == Array("{}".utf8))
    }
}
