import Foundation
import OperatingSystem
import Testing
import TestSupport

/// `gesturectl menu`, run as the built binary: help, configuration errors,
/// --reset, and a session driven by keys from a pipe (no uinput needed:
/// a press that cannot be made says so and the menu goes on).
@Suite struct MenuCommandTests {
    @Test func helpTeachesTheConfiguration() throws {
        let result = try CLI.run(["help", "menu"])
        #expect(result.status == 0)
        for text in ["--config <file>", "--reset", "--switch <device>", "--scan-interval", "--plain", "{\"menu\": \"gestures\"}", "gesturectl menu --reset"] {
            #expect(result.stdout.contains(text), "help menu shows \(text)")
        }
    }

    @Test func aBadConfigurationIsRefusedNamingTheFileAndField() throws {
        let folder = try TemporaryFolder()
        try folder.write("menu.json", "{\"items\": [{\"press\": \"home\"}, {\"play\": 3}]}")
        let result = try CLI.run(["menu", "--config", "menu.json"], in: folder.path, stdin: "")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "gesturectl: error: \(folder.path)/menu.json: items[1].play: must be the name of a saved gesture\n")
    }

    @Test func aLibraryThatCannotBeListedIsSaidOnceNotTakenAsEmpty() throws {
        let folder = try TemporaryFolder()
        try folder.write("menu.json", "{\"items\": [{\"play\": \"tap\"}, {\"press\": \"home\"}]}")
        // A library folder that is a loop of links: there, but it cannot be listed.
        try FileManager.default.createSymbolicLink(atPath: folder.file("loop"), withDestinationPath: "loop")
        let result = try CLI.run(
            ["menu", "--config", "menu.json"], in: folder.path, environment: ["GESTURECTL_LIBRARY": folder.file("loop")],
            stdin: "\u{1B}")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "gesturectl: warning: \(folder.path)/menu.json: cannot check its gestures against the library:"
                    + " cannot list \(folder.path)/loop: Too many levels of symbolic links\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("no saved gesture named"))
    }

    @Test func aMissingConfigurationNamedWithConfigIsAnError() throws {
        let folder = try TemporaryFolder()
        let result = try CLI.run(["menu", "--config", "nosuch.json"], in: folder.path, stdin: "")
        #expect(result.status == 3)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("--config: there is no \(folder.path)/nosuch.json"), "\(result.stderr)")
    }

    @Test func resetDeletesTheUsersFileAndTheDefaultsComeBack() throws {
        let folder = try TemporaryFolder()
        let environment = ["XDG_CONFIG_HOME": folder.path]
        try FileManager.default.createDirectory(atPath: folder.file("gesturectl"), withIntermediateDirectories: true)
        try folder.write("gesturectl/menu.json", "{\"items\": [{\"press\": \"mute\", \"label\": \"Quiet\"}]}")
        let custom = try CLI.run(["menu"], in: folder.path, environment: environment, stdin: "")
        #expect(custom.status == 0, "\(custom.stderr)")
        #expect(custom.stdout.contains("Main menu. Choose an action. Quiet · Close the menu\n"))
        let reset = try CLI.run(["menu", "--reset"], in: folder.path, environment: environment)
        #expect(reset.status == 0)
        #expect(reset.stderr.contains("deleted \(folder.path)/gesturectl/menu.json; the menu is back to its defaults"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("gesturectl/menu.json")))
        let again = try CLI.run(["menu", "--reset"], in: folder.path, environment: environment)
        #expect(again.status == 0 && again.stderr.contains("the menu has its defaults"))
        // Keys from a pipe: the Buttons menu, back, then Escape closes; plain lines only.
        let session = try CLI.run(["menu"], in: folder.path, environment: environment, stdin: "5\u{1B}")
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stdout.contains("Main menu. Choose an action. Home · Back key · Volume up · Volume down · Buttons menu · Saved gestures menu · Create New Gesture · Gestures menu · Close the menu\n"))
        #expect(session.stdout.contains("Buttons. Choose one, or go back. Volume up · "))
        #expect(!session.stdout.contains("\u{1B}"))
    }

    @Test("Ctrl-C right after the menu's first line ends it with 130, twenty times")
    func interruptRightAfterTheFirstLine() throws {
        let folder = try TemporaryFolder()
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(folder.path)", "XDG_CONFIG_HOME=\(folder.path)", "XDG_DATA_HOME=\(folder.path)/data"]
        for _ in 0..<20 {
            let keys = try FileDescriptor.pipe()
            let output = try FileDescriptor.pipe()
            let program = try RunningProgram(
                CLI.binary, ["menu"], environment: environment, standardInput: keys.read, standardOutput: output.write)
            keys.read.close()
            output.write.close()
            // The first line, then at once the signal.
            var printed: [UInt8] = []
            while !printed.contains(0x0A), let chunk = try output.read.read(upTo: 4_096), !chunk.isEmpty { printed += chunk }
            program.send(SIGINT)
            #expect(try program.finish(within: 20) == .exited(130), "\(program.standardError)")
            keys.write.close()
            output.read.close()
        }
    }
}
