import CommandKit
import Foundation
import GesturectlCommands
import Testing
import TestSupport

/// The manual pages and shell completions the package installs, as the
/// built binary writes them: every page renders with man(1) without a
/// warning, and bash completes commands, option values and library names.
/// (scripts/install-deps installs man-db, groff, zsh and fish.)
@Suite struct PackagingTests {
    @Test func everyManualPageRendersWithoutWarnings() throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-man")
        let written = try CLI.run(
            ["manpages", folder.path, "--format-spec", CLI.checkout + "/docs/FORMAT.md"], environment: ["SOURCE_DATE_EPOCH": "1796083200"])
        #expect(written.status == 0, "\(written.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for expected in ["gesturectl.1", "gesturectl-play.1", "gesturectl-synth.1", "gesturectl-daemon.8", "gesturectl-format.5"] {
            #expect(pages.contains(expected))
        }
        #expect(!pages.contains("gesturectl-completions.1") && !pages.contains("gesturectl-manpages.1"), "hidden commands have no page")
        for page in pages {
            // What lintian runs: any output on standard error is a warning.
            let rendered = try ProcessRunner.run(
                "/usr/bin/man", ["--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", folder.file(page)],
                environment: ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "PATH": "/usr/bin:/bin"])
            #expect(rendered.status == 0 && rendered.standardError.isEmpty, "\(page): \(rendered.standardError)")
            #expect(rendered.standardOutput.count > 500, "\(page) renders to almost nothing")
        }
        let date = try folder.read("gesturectl-play.1").split(separator: "\n").first { $0.hasPrefix(".TH") }
        #expect(date?.contains("\"2026\\-12\\-01\"") == true, "the date of SOURCE_DATE_EPOCH")
    }

    @Test func manualPagesListEveryCommandOfTheHelp() throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-man")
        _ = try CLI.run(["manpages", folder.path])
        let help = try CLI.run(["--help"]).stdout
        let page = try folder.read("gesturectl.1")
        // Command lines of the help: two spaces, a name, two or more spaces.
        let commands = help.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                !name.hasPrefix("-"), !name.allSatisfy(\.isNumber)
            else { return nil }
            return String(name)
        }
        #expect(commands.count > 15)
        for command in commands {
            #expect(page.contains("\\fB\(command.replacingOccurrences(of: "-", with: "\\-"))\\fR\n"), "\(command)")
            #expect(folder.exists("gesturectl-\(command).\(command == "daemon" ? 8 : 1)"))
        }
    }

    /// The candidates bash offers for `words` (the last one being completed).
    func bashCandidates(_ words: [String], script: String, in folder: TemporaryFolder) throws -> [String] {
        try folder.write("completion.bash", script)
        let quoted = ([CLI.binary] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let driver = """
            source \(folder.file("completion.bash"))
            COMP_WORDS=(\(quoted.joined(separator: " ")))
            COMP_CWORD=\(words.count)
            _gesturectl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let outcome = try ProcessRunner.run(
            "/bin/bash", ["--norc", "--noprofile", "-c", driver], workingDirectory: folder.path,
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "GESTURECTL_BUILTINS": CLI.checkout + "/Recordings"])
        #expect(outcome.status == 0 && outcome.standardError.isEmpty, "\(outcome.standardError)")
        return outcome.standardOutput.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesCommandsKindsAndGestureNames() throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-bash")
        let script = try CLI.run(["completions", "bash"]).stdout
        #expect(try bashCandidates(["pl"], script: script, in: folder) == ["play"])
        #expect(try bashCandidates(["play", "--as", ""], script: script, in: folder) == ["mouse", "tablet", "touchpad", "touchscreen"])
        #expect(try bashCandidates(["play", "thr"], script: script, in: folder) == ["three-finger-swipe-down", "three-finger-swipe-left", "three-finger-swipe-right", "three-finger-swipe-up"])
        #expect(try bashCandidates(["--socket", "/tmp/s", "play", "--sp"], script: script, in: folder) == ["--speed"])
        #expect(try bashCandidates(["synth", "sw"], script: script, in: folder) == ["swipe"])
        #expect(try bashCandidates(["help", "re"], script: script, in: folder) == ["record", "rename", "render"])
        #expect(try bashCandidates(["synth", "swipe", "--direction", ""], script: script, in: folder) == ["down", "left", "right", "up"])
        // NAME|FILE: files too.
        try folder.write("three.gesture.json", "{}")
        #expect(try bashCandidates(["show", "thr"], script: script, in: folder).contains("three.gesture.json"))
        // Hidden commands are not offered.
        #expect(try bashCandidates(["com"], script: script, in: folder) == [])
    }

    /// A new command's file or NAME|FILE argument must not leave Tab
    /// completing nothing: every file, folder or device value and every
    /// NAME|FILE argument declares how it completes.
    @Test func fileAndGestureValuesDeclareTheirCompletion() {
        func visit(_ commands: [Command], _ path: String) {
            for command in commands {
                let name = path + command.name
                for option in command.options where ["file", "folder", "device", "path", "name|file"].contains(option.valueName) {
                    #expect(option.completion != nil, "\(name) --\(option.name) <\(option.valueName)> declares no completion")
                }
                for argument in command.arguments where argument.help.contains("NAME|FILE") {
                    #expect(argument.completion == .toolOutput(arguments: ["list", "--names"], files: true), "\(name) <\(argument.name)>")
                }
                visit(command.subcommands, name + " ")
            }
        }
        visit(Gesturectl.tool.commands, "")
        for option in Gesturectl.tool.globalOptions where option.valueName == "path" { #expect(option.completion == .files) }
    }

    @Test func listNamesPrintsNamesOnly() throws {
        let names = try CLI.run(["list", "--names"])
        #expect(names.status == 0)
        #expect(names.stdout.split(separator: "\n").contains("tap"))
        #expect(!names.stdout.contains(" "))
        #expect(!(try CLI.run(["list", "--help"]).stdout.contains("--names")), "hidden from the help")
    }

    @Test func zshAndFishScriptsParse() throws {
        for (shell, arguments) in [("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            let folder = try TemporaryFolder(prefix: "gesturectl-\(shell)")
            try folder.write("script", try CLI.run(["completions", shell]).stdout)
            let outcome = try ProcessRunner.run("/usr/bin/" + shell, arguments + [folder.file("script")], environment: ["HOME": folder.path])
            #expect(outcome.status == 0 && outcome.standardError.isEmpty, "\(shell): \(outcome.standardError)")
        }
    }
}
