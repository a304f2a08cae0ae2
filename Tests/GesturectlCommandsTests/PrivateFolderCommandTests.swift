import Glibc
import OperatingSystem
import Testing
import TestSupport

/// The folders gesturectl makes for a user's own files: theirs alone,
/// whatever the umask.
@Suite("Private folders")
struct PrivateFolderCommandTests {
    /// A scratch folder holding `t.json` (a tap) and an empty `home`.
    private func scratchWithTap() throws -> (TemporaryFolder, home: String) {
        let scratch = try TemporaryFolder()
        let made = try CLI.run(["synth", "tap", "-o", "t.json"], in: scratch.path)
        #expect(made.status == 0, "\(made.stderr)")
        try FileSystem.makeDirectory(scratch.path + "/home")
        return (scratch, scratch.path + "/home")
    }

    /// gesturectl `arguments` in `folder` with `home`, under umask 0177
    /// (which would give a folder made 0700 mode 0600: one its owner
    /// cannot enter).
    private func underRestrictiveUmask(_ arguments: String, in folder: String, home: String) throws -> ProcessOutcome {
        let outcome = try ProcessRunner.run(
            "/bin/sh", ["-c", "umask 177 && exec \"$0\" \(arguments)", CLI.binary], workingDirectory: folder,
            environment: ["PATH": "/usr/bin:/bin", "HOME": home])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return outcome
    }

    private func mode(_ path: String) throws -> UInt32 { try Paths.status(path).permissions & 0o777 }

    @Test("A first save makes the library's folders 0700: another user can read none of the gestures in it (they were 0755)")
    func libraryFolders() throws {
        let (scratch, home) = try scratchWithTap()
        let saved = try CLI.run(["save", "t.json", "unlock-pattern"], in: scratch.path, environment: ["HOME": home])
        #expect(saved.status == 0, "\(saved.stderr)")
        for folder in ["/.local", "/.local/share", "/.local/share/gesturectl", "/.local/share/gesturectl/gestures"] {
            #expect(try mode(home + folder) == 0o700, "\(folder)")
        }
        let other = scratch.path + "/other"
        try FileSystem.makeDirectory(other)
        _ = try underRestrictiveUmask("save t.json mine", in: scratch.path, home: other)
        #expect(try mode(other + "/.local/share/gesturectl/gestures") == 0o700)
        let listed = try CLI.run(["list"], in: scratch.path, environment: ["HOME": other])
        #expect(listed.stdout.contains("mine"), "\(listed.stdout)")
    }

    @Test("Made by an import under umask 0177, ~/.cache and ~/.cache/gesturectl are 0700 (the mask would give 0600, a folder its owner cannot enter)")
    func privateWhateverTheUmask() throws {
        let (scratch, home) = try scratchWithTap()
        let exported = try CLI.run(["export", "t.json", "--format", "evemu", "-o", "t.evemu"], in: scratch.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        // No -o and no $TMPDIR: the cache folder is the first place tried.
        let imported = try underRestrictiveUmask("import t.evemu", in: scratch.path, home: home)
        #expect(imported.standardOutput.contains("\"format\": 1"))
        #expect(try mode(home + "/.cache") == 0o700)
        #expect(try mode(home + "/.cache/gesturectl") == 0o700)
    }
}
