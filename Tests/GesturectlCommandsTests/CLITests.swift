import Foundation
import Testing
import TestSupport

/// Runs the built binary and checks stdout, stderr and the exit status, for
/// success and for each kind of bad input.
@Suite struct CLITests {
    @Test func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "gesturectl 0.1.0\n")
        #expect(result.stderr == "")
    }

    @Test func helpListsEveryCommandAndTheExitStatuses() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        for command in [
            "synth", "merge", "fingers", "transform", "describe", "show", "render", "validate", "save", "list",
            "rename", "rm", "devices", "record", "play", "press", "fingertips", "import", "export",
        ] {
            #expect(result.stdout.contains("\n  \(command) "), "help lists \(command)")
        }
        for line in [
            "    0  success", "    1  failure", "    2  usage error", "    3  not found (file, name or device)",
            "    4  permission denied", "    5  daemon unreachable or busy", "  130  interrupted (after cleaning up)",
        ] {
            #expect(result.stdout.contains(line), "help lists \(line)")
        }
    }

    @Test func helpForOneCommand() throws {
        let result = try CLI.run(["help", "fingers"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Replicate one stroke onto 2–10 fingers that move together.\n\nusage: gesturectl fingers"))
        #expect(result.stdout.contains("--layout <layout>"))
    }

    @Test func unknownCommand() throws {
        let result = try CLI.run(["lst"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                gesturectl: error: unknown command 'lst'; did you mean 'list'?
                usage: gesturectl <command> [<options>] [<arguments>]
                Run 'gesturectl help' for more.

                """)
    }

    @Test func unknownOption() throws {
        let result = try CLI.run(["show", "--bogus", "tap"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: unknown option '--bogus'\nusage: gesturectl show"))
    }

    @Test func missingArgument() throws {
        let result = try CLI.run(["show"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: missing argument <gesture>\n"))
    }

    @Test func wrongType() throws {
        let result = try CLI.run(["synth", "swipe", "--direction", "up", "--fingers", "three"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: --fingers: \"three\" is not an integer\n"))
    }

    @Test func outOfRange() throws {
        let result = try CLI.run(["fingers", "tap", "11"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: <count>: 11 must be between 2 and 10\n"))
    }

    @Test func missingFileIsNotFound() throws {
        let result = try CLI.run(["show", "nowhere/x.gesture.json"])
        #expect(result.status == 3)
        #expect(result.stderr == "gesturectl: error: cannot read nowhere/x.gesture.json: No such file or directory\n")
    }

    @Test func unknownNameIsNotFound() throws {
        let scratch = try TemporaryFolder()
        let result = try CLI.run(["show", "no-such-gesture"], in: scratch.path, environment: ["GESTURECTL_LIBRARY": scratch.path + "/lib"])
        #expect(result.status == 3)
        #expect(
            result.stderr == "gesturectl: error: \"no-such-gesture\" is neither a file (none in \(scratch.path))"
                + " nor a gesture in the library (see 'gesturectl list')\n")
    }

    @Test func aLibraryFileThatCannotBeLookedAtIsNotCalledMissing() throws {
        let scratch = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: scratch.path + "/lib", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/lib/loop.gesture.json", withDestinationPath: "loop.gesture.json")
        let result = try CLI.run(["show", "loop"], in: scratch.path, environment: ["GESTURECTL_LIBRARY": scratch.path + "/lib"])
        #expect(result.status == 1)
        #expect(result.stderr == "gesturectl: error: cannot read \(scratch.path)/lib/loop.gesture.json: Too many levels of symbolic links\n")
    }

    @Test func newerFormatVersion() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("new.json", "{\"format\": 3, \"name\": \"x\"}\n")
        let result = try CLI.run(["show", "new.json"], in: scratch.path)
        #expect(result.status == 1)
        #expect(result.stderr == "gesturectl: error: new.json: format version 3; this gesturectl reads up to 2\n")
    }

    @Test func truncatedFile() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("cut.json", "{\"format\": 1,\n \"name\": \"x\",\n")
        let result = try CLI.run(["describe", "cut.json"], in: scratch.path)
        #expect(result.status == 1)
        #expect(result.stderr == "gesturectl: error: cut.json:3:1: unexpected end of file\n")
    }

    @Test func garbageFile() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("junk.json", "\u{1}\u{2}not json")
        let result = try CLI.run(["validate", "junk.json"], in: scratch.path)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("gesturectl: error: junk.json:1:1: "))
    }

    @Test func invalidSampleNamesStrokeAndSample() throws {
        let scratch = try TemporaryFolder()
        let made = try CLI.run(["synth", "tap", "--rate", "50", "-o", "tap.json"], in: scratch.path)
        #expect(made.status == 0)
        // Make the second sample go back in time.
        let text = try scratch.read("tap.json").replacingOccurrences(of: "[20000, ", with: "[-5, ")
        try scratch.write("bad.json", text)
        let result = try CLI.run(["validate", "bad.json"], in: scratch.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.json:"))
        #expect(result.stderr.contains("stroke 1, sample 2"))
    }

    @Test func synthWritesAValidFileAndRefusesToOverwrite() throws {
        let scratch = try TemporaryFolder()
        let first = try CLI.run(["synth", "swipe", "--direction", "up", "--fingers", "3", "-o", "s.json"], in: scratch.path)
        #expect(first.status == 0)
        #expect(first.stdout == "")
        let again = try CLI.run(["synth", "tap", "-o", "s.json"], in: scratch.path)
        #expect(again.status == 1)
        #expect(again.stderr == "gesturectl: error: s.json already exists (use --force to replace it)\n")
        let described = try CLI.run(["describe", "s.json"], in: scratch.path)
        #expect(described.stdout == "3 fingers · swipe up · 0.25 s · 40 mm\n")
        let forced = try CLI.run(["synth", "tap", "-o", "s.json", "--force"], in: scratch.path)
        #expect(forced.status == 0)
        #expect(try CLI.run(["describe", "s.json"], in: scratch.path).stdout == "1 finger · tap · 0.08 s\n")
    }

    @Test func describeSpokenIsForSpeech() throws {
        let swipe = try CLI.run(["synth", "swipe", "--direction", "up", "--fingers", "3"])
        let spoken = try CLI.run(["describe", "--spoken", "-"], stdin: swipe.stdout)
        #expect(spoken.status == 0)
        #expect(spoken.stdout == "3 fingers, swipe up, 0.25 seconds, 40 millimetres\n")
        let facts = try CLI.run(["describe", "--json", "-"], stdin: swipe.stdout)
        #expect(facts.stdout.contains(#""spoken": "3 fingers, swipe up, 0.25 seconds, 40 millimetres""#))
        let several = try CLI.run(["describe", "--spoken", "tap", "rotate"])
        #expect(several.stdout.hasPrefix("tap: 1 finger, tap, 0.08 seconds\nrotate: 2 fingers, rotate "))
    }

    @Test func synthRefusesWhatDoesNotFit() throws {
        let result = try CLI.run(["synth", "swipe", "--direction", "left", "--distance", "500"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: distance 500 mm does not fit on the 216 × 135 mm surface\n"))
    }

    @Test func pipesComposeThroughStandardInput() throws {
        let swipe = try CLI.run(["synth", "swipe", "--direction", "right"])
        let three = try CLI.run(["fingers", "-", "3"], stdin: swipe.stdout)
        #expect(three.status == 0)
        let described = try CLI.run(["describe", "-"], stdin: three.stdout)
        #expect(described.stdout == "3 fingers · swipe right · 0.25 s · 40 mm\n")
    }

    @Test func mergeAlignsSequentialStrokesAndRefusesTooManyFingers() throws {
        let scratch = try TemporaryFolder()
        for (name, direction) in [("a", "up"), ("b", "down"), ("c", "left")] {
            let made = try CLI.run(["synth", "swipe", "--direction", direction, "-o", "\(name).json"], in: scratch.path)
            #expect(made.status == 0)
        }
        let merged = try CLI.run(["merge", "a.json", "b.json", "c.json", "-o", "m.json"], in: scratch.path)
        #expect(merged.status == 0)
        let facts = try CLI.run(["describe", "--json", "m.json"], in: scratch.path)
        #expect(facts.stdout.contains("\"fingers\": 3, \"strokes\": 3"))
        let refused = try CLI.run(["merge", "a.json", "b.json", "c.json", "--max-fingers", "2"], in: scratch.path)
        #expect(refused.status == 1)
        #expect(refused.stderr == "gesturectl: error: a.json, b.json, c.json: merging gives 3 fingers at once; the most allowed is 2\n")
    }

    @Test func fingersCountsStrokesFromOne() throws {
        let missing = try CLI.run(["fingers", "three-finger-swipe-up", "3", "--stroke", "5"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("gesturectl: error: --stroke 5: three-finger-swipe-up has 3 strokes (--stroke counts from 1)\n"))
        let chosen = try CLI.run(["fingers", "three-finger-swipe-up", "2", "--stroke", "3"])
        #expect(chosen.status == 0)
        #expect(try CLI.run(["describe", "-"], stdin: chosen.stdout).stdout == "2 fingers · swipe up · 0.25 s · 40 mm\n")
        let ambiguous = try CLI.run(["fingers", "three-finger-swipe-up", "3"])
        #expect(ambiguous.stderr == "gesturectl: error: three-finger-swipe-up: the gesture has 3 strokes; choose one with --stroke N\n")
    }

    @Test func transformChangesSpeed() throws {
        let result = try CLI.run(["transform", "three-finger-swipe-up", "--speed", "2"])
        #expect(result.status == 0)
        let described = try CLI.run(["describe", "-"], stdin: result.stdout)
        #expect(described.stdout == "3 fingers · swipe up · 0.13 s · 40 mm\n")
        let nothing = try CLI.run(["transform", "tap"])
        #expect(nothing.status == 2)
    }

    @Test func transformStrictRefusesClipping() throws {
        let clipped = try CLI.run(["transform", "edge-swipe-from-left", "--translate", "-10,0"])
        #expect(clipped.status == 0)
        #expect(clipped.stderr.hasPrefix("gesturectl: warning: "))
        let strict = try CLI.run(["transform", "edge-swipe-from-left", "--translate", "-10,0", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout == "")
    }

    @Test func libraryLifecycle() throws {
        let scratch = try TemporaryFolder()
        let environment = ["GESTURECTL_LIBRARY": scratch.path + "/lib"]
        func run(_ arguments: [String]) throws -> CLIResult {
            try CLI.run(arguments, in: scratch.path, environment: environment)
        }
        #expect(try run(["synth", "pinch", "--direction", "out", "-o", "p.json"]).status == 0)
        let saved = try run(["save", "p.json", "zoom"])
        #expect(saved.status == 0)
        #expect(saved.stdout == "saved \"zoom\" (\(scratch.path)/lib/zoom.gesture.json)\n")
        let again = try run(["save", "p.json", "zoom"])
        #expect(again.status == 1)
        #expect(again.stderr == "gesturectl: error: a gesture named \"zoom\" already exists (use --force to replace it)\n")
        let list = try run(["list"])
        #expect(list.stdout.hasPrefix("zoom "))
        #expect(list.stdout.contains("user      2 fingers · pinch out · 0.40 s · 20 mm\n"))
        #expect(list.stdout.contains("tap                       built-in  1 finger · tap · 0.08 s\n"))
        let json = try run(["list", "--json"])
        #expect(json.stdout.hasPrefix("[\n  {\"name\": \"zoom\", \"source\": \"user\""))
        #expect(try run(["rename", "zoom", "spread"]).stdout == "renamed \"zoom\" to \"spread\"\n")
        #expect(try run(["show", "spread"]).stdout.hasPrefix("spread\n"))
        let refused = try run(["rm", "spread"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "gesturectl: error: deleting needs --force when not asked on a terminal\n")
        #expect(try run(["rm", "spread", "--force"]).stdout == "deleted \"spread\"\n")
        #expect(try run(["show", "spread"]).status == 3)
        let builtin = try run(["rm", "tap", "--force"])
        #expect(builtin.status == 1)
        #expect(builtin.stderr == "gesturectl: error: \"tap\" is a built-in gesture and cannot be deleted\n")
        let badName = try run(["save", "p.json", "../escape"])
        #expect(badName.status == 2)
        #expect(badName.stderr.hasPrefix("gesturectl: error: gesture name \"../escape\" contains \"/\"\n"))
    }

    @Test func saveFlagOnProducingCommands() throws {
        let scratch = try TemporaryFolder()
        let environment = ["GESTURECTL_LIBRARY": scratch.path + "/lib"]
        let made = try CLI.run(["synth", "long-press", "--save", "hold"], in: scratch.path, environment: environment)
        #expect(made.status == 0)
        #expect(made.stdout == "")
        #expect(made.stderr == "gesturectl: note: saved \"hold\" (\(scratch.path)/lib/hold.gesture.json)\n")
        #expect(try CLI.run(["describe", "hold"], in: scratch.path, environment: environment).stdout == "1 finger · long press · 0.80 s\n")
    }

    @Test func showPrintsPlainPreviewWithoutColourWhenPiped() throws {
        let result = try CLI.run(["show", "tap"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("tap\nOne finger taps the centre\n1 finger · tap · 0.08 s\n"))
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.contains("+---"))
    }

    @Test func renderSimplifiesLongGesturesUnlessExact() throws {
        // Two fingers going round ten times in 30 s: 15,001 samples each.
        let long = try CLI.run(["synth", "rotate", "--degrees", "3600", "--duration", "30s", "--rate", "500"])
        #expect(long.status == 0)
        let simplified = try CLI.run(["render", "-"], stdin: long.stdout)
        let exact = try CLI.run(["render", "-", "--exact"], stdin: long.stdout)
        #expect(simplified.status == 0 && exact.status == 0)
        #expect(simplified.stdout.utf8.count * 10 < exact.stdout.utf8.count, "\(simplified.stdout.utf8.count) vs \(exact.stdout.utf8.count) bytes")
        // Every sample is in the exact picture: one "L" per sample after the first.
        #expect(exact.stdout.components(separatedBy: " L ").count - 1 == 2 * 15_000)
        #expect(simplified.stdout.contains("2 fingers · rotate clockwise 3600° · 30.00 s"))
    }

    @Test func renderWritesSVGThatRsvgConverts() throws {
        let scratch = try TemporaryFolder()
        let result = try CLI.run(["render", "three-finger-swipe-up", "-o", "s.svg"], in: scratch.path)
        #expect(result.status == 0)
        let svg = try scratch.read("s.svg")
        #expect(svg.contains("<svg"))
        #expect(svg.contains("3 fingers · swipe up · 0.25 s · 40 mm"))
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
        convert.arguments = ["-o", scratch.path + "/s.png", scratch.path + "/s.svg"]
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("rsvg-convert is missing (apt-get install librsvg2-bin)")
            } else {
                print("SKIPPED: rsvg-convert is missing (apt-get install librsvg2-bin)")
            }
            return
        }
        try convert.run()
        convert.waitUntilExit()
        #expect(convert.terminationStatus == 0)
        #expect(scratch.exists("s.png"))
    }
}
