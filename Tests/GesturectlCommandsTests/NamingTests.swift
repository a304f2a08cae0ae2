import Foundation
import Testing
import TestSupport

/// Issue 7 item 10: names that say what a gesture is, and a library that
/// says when a gesture of yours hides a built-in.
@Suite struct NamingTests {
    @Test func savingUnderABuiltinsNameSaysItHidesIt() throws {
        let scratch = try TemporaryFolder()
        let environment = ["GESTURECTL_LIBRARY": scratch.path + "/lib"]
        func run(_ arguments: [String]) throws -> CLIResult {
            try CLI.run(arguments, in: scratch.path, environment: environment)
        }
        let note = "gesturectl: note: \"tap\" hides the built-in gesture of the same name;"
            + " delete yours ('gesturectl rm') to use the built-in again\n"
        #expect(try run(["synth", "swipe", "--direction", "up", "-o", "s.json"]).status == 0)
        let saved = try run(["save", "s.json", "tap"])
        #expect(saved.status == 0)
        #expect(saved.stderr == note)
        // A name that hides nothing says nothing.
        #expect(try run(["save", "s.json", "mine"]).stderr == "")
        let flag = try run(["synth", "long-press", "--save", "tap", "--force"])
        #expect(flag.stderr == "gesturectl: note: saved \"tap\" (\(scratch.path)/lib/tap.gesture.json)\n" + note)
        let renamed = try run(["rename", "mine", "rotate"])
        #expect(renamed.stderr.contains("\"rotate\" hides the built-in gesture"))

        let list = try run(["list"])
        #expect(list.stdout.contains("\ntap                       user, hides built-in  1 finger · long press · 0.80 s\n"))
        #expect(list.stdout.contains("\ndouble-tap                built-in              1 finger · double tap"))
        let json = try run(["list", "--json"])
        #expect(json.stdout.contains(#""name": "tap", "source": "user", "#))
        #expect(json.stdout.contains(#""summary": "1 finger · long press · 0.80 s", "hides_builtin": true}"#))
        #expect(json.stdout.contains(#""summary": "1 finger · double tap · 0.28 s", "hides_builtin": false}"#))

        #expect(try run(["rm", "tap", "rotate", "--force"]).status == 0)
        let after = try run(["list"])
        #expect(!after.stdout.contains("hides"))
        #expect(after.stdout.contains("\ntap                       built-in  1 finger · tap · 0.08 s\n"))
    }

    /// The name and description of `gesture` (a file's text) as `show` prints them.
    static func nameAndDescription(_ gesture: String) throws -> [Substring] {
        let shown = try CLI.run(["show", "-"], stdin: gesture)
        #expect(shown.status == 0, "\(shown.stderr)")
        return Array(shown.stdout.split(separator: "\n").prefix(2))
    }

    @Test func editedResultsAreNamedForWhatTheyAre() throws {
        let scratch = try TemporaryFolder()
        for direction in ["up", "down", "left"] {
            #expect(try CLI.run(["synth", "swipe", "--direction", direction, "-o", "\(direction).json"], in: scratch.path).status == 0)
        }
        let merged = try CLI.run(["merge", "double-tap", "double-tap", "double-tap"], in: scratch.path)
        #expect(try Self.nameAndDescription(merged.stdout) == [
            "tap-6", "6 fingers, tap, 0.08 seconds. Merged from 3 copies of double-tap.",
        ])
        let apart = try CLI.run(["merge", "up.json", "down.json", "left.json"], in: scratch.path)
        #expect(try Self.nameAndDescription(apart.stdout) == [
            "different-directions-3",
            "3 fingers, move in different directions, 0.25 seconds, 40 millimetres. "
                + "Merged from swipe-up-1, swipe-down-1 and swipe-left-1.",
        ])
        let three = try CLI.run(["merge", "up.json", "up.json", "up.json"], in: scratch.path)
        #expect(try Self.nameAndDescription(three.stdout).first == "swipe-up-3")
        let fingers = try CLI.run(["fingers", "three-finger-swipe-up", "2", "--stroke", "3"])
        #expect(try Self.nameAndDescription(fingers.stdout) == [
            "swipe-up-2",
            "2 fingers, swipe up, 0.25 seconds, 40 millimetres. "
                + "Replicated from stroke 3 of three-finger-swipe-up onto 2 fingers.",
        ])
        let turned = try CLI.run(["transform", "-", "--rotate", "90", "--speed", "2"], stdin: three.stdout)
        #expect(try Self.nameAndDescription(turned.stdout) == [
            "swipe-right-3",
            "3 fingers, swipe right, 0.13 seconds, 40 millimetres. Made from swipe-up-3: speed × 2, turned 90° clockwise.",
        ])
        // Long input names are cut, so that the description stays valid.
        let long = String(repeating: "n", count: 200)
        #expect(try CLI.run(["synth", "tap", "--name", long, "-o", "long.json"], in: scratch.path).status == 0)
        let longMerged = try CLI.run(["merge"] + Array(repeating: "long.json", count: 2) + ["up.json"] + Array(repeating: "long.json", count: 5), in: scratch.path)
        #expect(longMerged.status == 0, "\(longMerged.stderr)")
        let description = try Self.nameAndDescription(longMerged.stdout)[1]
        #expect(description.hasSuffix(", swipe-up-1, \(long.prefix(79))…, \(long.prefix(79))… and 3 more."))
        // --name and --description win.
        let own = try CLI.run(["merge", "up.json", "down.json", "--name", "cross", "--description", "Mine."], in: scratch.path)
        #expect(try Self.nameAndDescription(own.stdout) == ["cross", "Mine."])
        let ownName = try CLI.run(["transform", "tap", "--speed", "2", "--name", "quick"])
        #expect(try Self.nameAndDescription(ownName.stdout) == ["quick", "1 finger, tap, 0.04 seconds. Made from tap: speed × 2."])
        // --save stores the library name; the description still fits.
        let environment = ["GESTURECTL_LIBRARY": scratch.path + "/lib"]
        #expect(try CLI.run(["fingers", "up.json", "4", "--save", "up4"], in: scratch.path, environment: environment).status == 0)
        let saved = try CLI.run(["show", "up4"], in: scratch.path, environment: environment)
        #expect(saved.stdout.hasPrefix("up4\n4 fingers, swipe up, 0.25 seconds, 40 millimetres. Replicated from swipe-up-1 onto 4 fingers.\n"))
    }
}
