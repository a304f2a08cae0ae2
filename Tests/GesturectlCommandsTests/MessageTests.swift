import Foundation
import Testing
import TestSupport

/// Messages that say what is wrong in the user's terms (issue 7, item 9):
/// each case as the issue found it, run through the built binary.
@Suite("Messages that help")
struct MessageTests {
    @Test func anEmptyOutputNameIsNamedAsSuch() throws {
        let scratch = try TemporaryFolder()
        let result = try CLI.run(["synth", "tap", "-o", ""], in: scratch.path)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "gesturectl: error: -o/--output: the file name is empty; give a file name, or '-' for standard output\n"))
    }

    @Test func anOutputThatIsAFolderIsNamedAsSuch() throws {
        let scratch = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: scratch.path + "/out", withIntermediateDirectories: true)
        for arguments in [["synth", "tap", "-o", "out"], ["render", "tap", "-o", "out", "--force"], ["export", "tap", "--format", "evemu", "-o", "out/"],
            // Refused before recording, not after the user has drawn.
            ["record", "-o", "out", "--device", "/dev/null"]] {
            let result = try CLI.run(arguments, in: scratch.path)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("is a folder; give the name of a file to write"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("--force"), "\(arguments): \(result.stderr)")
        }
    }

    /// A root daemon that made its socket in a folder others could write
    /// gave its mode and group to whatever they swapped in (a link to a
    /// root-only file): such a folder is refused, saying which and why.
    @Test func aDaemonSocketInAnOpenFolderIsRefused() throws {
        let scratch = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: scratch.path + "/open", withIntermediateDirectories: true)
        #expect(chmod(scratch.path + "/open", 0o777) == 0)
        let result = try CLI.run(["daemon", "--socket", scratch.path + "/open/d.sock"], in: scratch.path)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "gesturectl: error: refusing to create the socket in \(scratch.path)/open: the folder is writable by everyone (mode 0777)"
                    + " and not sticky, so another user could replace the socket;"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/open/d.sock"))
    }

    @Test func aNegativeInfinityIsNotAMissingValue() throws {
        let result = try CLI.run(["transform", "tap", "--speed", "-inf"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: --speed: \"-inf\" is not a number\n"))
    }

    @Test func lengthsThatMustNotBeZeroSaySoInHelpAndErrors() throws {
        for (command, option) in [
            (["synth", "swipe"], "--distance"), (["synth", "swipe"], "--spacing"), (["synth", "pinch"], "--distance"),
            (["synth", "rotate"], "--radius"), (["synth", "edge-swipe"], "--distance"), (["fingers"], "--spacing"),
        ] {
            let help = try CLI.run(["help"] + command)
            // The option's help, with the line it may wrap onto.
            let lines = help.stdout.components(separatedBy: "\n")
            let index = lines.firstIndex { $0.contains(option + " <mm>") } ?? 0
            let line = lines[index...].prefix(2).joined(separator: " ")
            #expect(line.contains("(more than 0"), "\(command) \(option): \(line)")
            #expect(!line.contains("at least 0"), "\(command) \(option): \(line)")
        }
        let result = try CLI.run(["synth", "swipe", "--direction", "up", "--distance", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: --distance: \"0\" must be more than 0\n"))
    }

    @Test func anIntegerTooLargeIsTooLarge() throws {
        let result = try CLI.run(["synth", "tap", "--fingers", "99999999999999999999999"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: --fingers: \"99999999999999999999999\" is too large (allowed: 1 to 10)\n"))
    }

    @Test func neitherAFileNorANameSaysBoth() throws {
        let scratch = try TemporaryFolder()
        for command in ["describe", "validate", "show"] {
            let result = try CLI.run([command, "nosuch.json"], in: scratch.path)
            #expect(result.status == 3)
            #expect(
                result.stderr == "gesturectl: error: \"nosuch.json\" is neither a file (none in \(scratch.path))"
                    + " nor a gesture in the library (see 'gesturectl list')\n", "\(command)")
        }
    }

    @Test func aLibraryThatIsAFileStillListsTheBuiltins() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("lib", "not a folder\n")
        let env = ["GESTURECTL_LIBRARY": scratch.path + "/lib"]
        let listed = try CLI.run(["list"], in: scratch.path, environment: env)
        #expect(listed.status == 0)
        #expect(
            listed.stderr == "gesturectl: warning: the library folder \(scratch.path)/lib (from GESTURECTL_LIBRARY)"
                + " is not a folder; listing the built-in gestures only\n")
        #expect(listed.stdout.contains("\ntap "))
        #expect(listed.stdout.contains("built-in"))
        // Built-ins still load by name, and saving says what to fix.
        #expect(try CLI.run(["describe", "tap"], in: scratch.path, environment: env).status == 0)
        let saved = try CLI.run(["save", CLI.checkout + "/Recordings/tap.gesture.json", "mine"], in: scratch.path, environment: env)
        #expect(saved.status == 1)
        #expect(saved.stderr.contains("is not a folder; set GESTURECTL_LIBRARY to a folder"), "\(saved.stderr)")
    }

    @Test func cloningAFileThatIsNoInputDeviceSaysSo() throws {
        // Only an input device is opened (issue 36): a path that is none is
        // "not found", said as for a path that does not exist.
        let result = try CLI.run(["play", "tap", "--clone", "/dev/zero"])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("gesturectl: error: no input device matches \"/dev/zero\""), "\(result.stderr)")
        #expect(!result.stderr.contains("errno"))
        let missing = try CLI.run(["play", "tap", "--clone", "/dev/zero-nothing"])
        #expect(missing.status == 3)
        #expect(missing.stderr.replacingOccurrences(of: "/dev/zero-nothing", with: "/dev/zero") == result.stderr)
    }

    @Test func aLongListOfInputsIsCut() throws {
        let scratch = try TemporaryFolder()
        let inputs = Array(repeating: "tap", count: 20_000)
        let result = try CLI.run(["merge"] + inputs, in: scratch.path)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "gesturectl: error: tap, tap, tap, tap, tap … and 19995 more: merging gives 20000 fingers at once;"
                + " the most allowed is 10\n")
    }

    @Test func countsAgree() throws {
        let shown = try CLI.run(["show", "tap"])
        #expect(shown.stdout.contains("\n1 stroke, 11 samples; touchscreen"), "\(shown.stdout)")
        // Mouse strokes as pointers: GestureEditingTests' MergeTests and
        // GesturePlaybackTests' "A mouse refuses several strokes at once".
    }
}
