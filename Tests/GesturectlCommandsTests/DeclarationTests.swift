import Testing

@testable import GesturectlCommands

/// The command declarations are consistent, and every synth shape runs
/// (asking ParsedValues for an undeclared name would stop the program, so
/// each command must be run at least once by some test).
@Suite struct DeclarationTests {
    @Test func declarationsAreConsistent() {
        #expect(Gesturectl.tool.validate() == [])
    }

    @Test(arguments: [
        (["tap", "--fingers", "2"], "2 fingers · tap · 0.08 s"),
        (["double-tap"], "1 finger · double tap · 0.28 s"),
        (["long-press", "--duration", "1s"], "1 finger · long press · 1.00 s"),
        (["swipe", "--direction", "left", "--spacing", "20", "--fingers", "2"], "2 fingers · swipe left · 0.25 s · 40 mm"),
        (["pinch", "--direction", "out", "--distance", "15"], "2 fingers · pinch out · 0.40 s · 15 mm"),
        (["rotate", "--degrees", "-45", "--fingers", "3"], "3 fingers · rotate counter-clockwise 45° · 0.50 s"),
        (["edge-swipe", "--from", "top", "--along", "50"], "1 finger · edge swipe from the top · 0.30 s · 30 mm"),
    ])
    func everyShapeRuns(arguments: [String], summary: String) throws {
        let made = try CLI.run(["synth"] + arguments)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try CLI.run(["describe", "-"], stdin: made.stdout).stdout == summary + "\n")
    }
}
