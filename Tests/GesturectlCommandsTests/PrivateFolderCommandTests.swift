import Glibc
import OperatingSystem
import Testing
import TestSupport

/// The folders gesturectl makes for a user's own files: theirs alone,
/// whatever the umask.
@Suite("Private folders")
struct PrivateFolderCommandTests {
    @Test("A first save makes the library's folders 0700: another user can read none of the gestures in it (they were 0755)")
    func libraryFolders() throws {
        let scratch = try TemporaryFolder()
        let home = scratch.path + "/home"
        try FileSystem.makeDirectory(home)
        let made = try CLI.run(["synth", "tap", "-o", "t.json"], in: scratch.path)
        #expect(made.status == 0, "\(made.stderr)")
        let saved = try CLI.run(["save", "t.json", "unlock-pattern"], in: scratch.path, environment: ["HOME": home])
        #expect(saved.status == 0, "\(saved.stderr)")
        for folder in ["/.local", "/.local/share", "/.local/share/gesturectl", "/.local/share/gesturectl/gestures"] {
            #expect(try Paths.status(home + folder).permissions & 0o777 == 0o700, "\(folder)")
        }
        // Under umask 0177 too (the mask would give 0600: a folder its owner cannot enter).
        let other = scratch.path + "/other"
        try FileSystem.makeDirectory(other)
        let masked = try ProcessRunner.run(
            "/bin/sh", ["-c", #"umask 177 && exec "$0" save t.json mine"#, CLI.binary], workingDirectory: scratch.path,
            environment: ["PATH": "/usr/bin:/bin", "HOME": other])
        #expect(masked.status == 0, "\(masked.standardError)")
        #expect(try Paths.status(other + "/.local/share/gesturectl/gestures").permissions & 0o777 == 0o700)
        let listed = try CLI.run(["list"], in: scratch.path, environment: ["HOME": other])
        #expect(listed.stdout.contains("mine"), "\(listed.stdout)")
    }

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
