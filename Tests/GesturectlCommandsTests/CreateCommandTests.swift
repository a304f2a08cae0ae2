import Foundation
import TestSupport
import Testing

@Suite("gesturectl create: options and the plain transcript")
struct CreateCommandTests {
    @Test("Switch options need a switch; a switch needs a key; bad values are named")
    func usageErrors() throws {
        let cases: [([String], String)] = [
            (["create", "--switch-key", "KEY_F13"], "--switch-key needs --switch DEVICE"),
            (["create", "--switch", "usb-switch"], "--switch needs --switch-key KEY"),
            (["create", "--scan-interval", "2s"], "--scan-interval needs a switch"),
            (["create", "--switch", "usb-switch", "--switch-key", "KEY_NOPE"], "\"KEY_NOPE\" is no key or button"),
            (["create", "--switch", "/dev/input/event3", "--switch-key", "KEY_F13"], "changes when the device is plugged in again"),
            (["create", "--switch", "s", "--switch-key", "KEY_F13", "--scan-interval", "0.1s"], "--scan-interval"),
            (["create", "--idle-timeout", "0"], "--idle-timeout"),
            (["create", "--picture", "-"], "--picture: the picture cannot go to standard output"),
            (["create", "--picture", "/dev/stdout"], "--picture: the picture cannot go to standard output"),
        ]
        for (arguments, expected) in cases {
            let result = try CLI.run(arguments, stdin: "")
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }

    @Test("--picture is checked as -o is: a folder is refused before anything is drawn")
    func pictureIntoAFolder() throws {
        let result = try CLI.run(["create", "--picture", "/tmp"], stdin: "2")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("--picture: /tmp is a folder; give the name of a file to write"))
        #expect(!result.stderr.contains("'-'"))
    }

    @Test("With nothing to operate it (no terminal, no keys, no switch) it refuses at once")
    func nothingOperatesIt() throws {
        let result = try CLI.run(["create"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("nothing can operate the flow"))
    }

    @Test("Plain mode with keys from a file: one line per state change, no escape sequences; leaving saves nothing")
    func plainTranscript() throws {
        // No input device here: the recording fails, the menu offers to record again or leave; '2' leaves.
        let result = try CLI.run(["create", "--device", "/nonexistent/event99"], stdin: "2")
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // The device never opened: nobody is told to draw (issue 24).
        #expect(lines.first?.hasPrefix("Recording failed: ") == true)
        #expect(!lines.contains { $0.hasPrefix("Draw ") })
        #expect(lines.contains("Nothing was drawn. What next? Record again · Leave"))
        #expect(lines.contains("Highlighted: Record again (1 of 2)"))
        #expect(lines.last == "Nothing was saved.")
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("Keys from a pipe that ends, and no switch: it ends, says that nothing was saved, exit status 1 (issue 24)")
    func keysEnd() throws {
        // No input device here: the recording fails and the menu comes; the keys have ended, so nothing can choose.
        // Bounded by timeout(1): a flow that waits forever fails with 124 instead of hanging the suite.
        let home = NSTemporaryDirectory()
        let outcome = try ProcessRunner.run(
            "/usr/bin/timeout", ["30", CLI.binary, "create", "--plain", "--device", "/nonexistent/event99"], workingDirectory: home,
            environment: ["PATH": "/usr/bin:/bin", "HOME": home, "GESTURECTL_BUILTINS": CLI.checkout + "/Recordings"], standardInput: "")
        let result = CLIResult(status: outcome.status, stdout: outcome.standardOutput, stderr: outcome.standardError)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "The keys ended and there is no switch, so nothing can operate the flow. Nothing was saved.", "\(lines)")
    }

    @Test("help create teaches the flow, the switch and its defaults")
    func help() throws {
        let result = try CLI.run(["help", "create"])
        #expect(result.status == 0)
        for phrase in [
            "Create New Gesture", "--scan-interval", "default 1 s", "emergency stop", "--plain", "spd-say", "NO_COLOR",
            "When the keys end", "drawing device goes away",
        ] {
            #expect(result.stdout.contains(phrase), "\(phrase)")
        }
    }
}
