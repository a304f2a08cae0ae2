import Glibc
import OperatingSystem
import Testing
import TestSupport

/// Where import keeps its samples while it reads (issue 39's spill), as a
/// user's own umask would leave it.
@Suite("import's cache folder")
struct SpillFolderCommandTests {
    @Test("Made by an import under umask 0177, ~/.cache and ~/.cache/gesturectl are 0700 (the mask would give 0600, a folder its owner cannot enter)")
    func privateWhateverTheUmask() throws {
        let scratch = try TemporaryFolder()
        let made = try CLI.run(["synth", "tap", "-o", "t.json"], in: scratch.path)
        #expect(made.status == 0, "\(made.stderr)")
        let exported = try CLI.run(["export", "t.json", "--format", "evemu", "-o", "t.evemu"], in: scratch.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        let home = scratch.path + "/home"
        try FileSystem.makeDirectory(home)
        // No -o and no $TMPDIR: the cache folder is the first place tried.
        let imported = try ProcessRunner.run(
            "/bin/sh", ["-c", #"umask 177 && exec "$0" import t.evemu"#, CLI.binary], workingDirectory: scratch.path,
            environment: ["PATH": "/usr/bin:/bin", "HOME": home])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("\"format\": 1"))
        #expect(try Paths.status(home + "/.cache").permissions & 0o777 == 0o700)
        #expect(try Paths.status(home + "/.cache/gesturectl").permissions & 0o777 == 0o700)
    }
}
