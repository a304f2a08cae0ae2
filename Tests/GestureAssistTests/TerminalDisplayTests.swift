import GestureAssist
import Testing
import TestSupport

/// `--speak` that cannot speak says so once, instead of going silent.
@Suite struct TerminalDisplayTests {
    @Test func aSpeakerThatCannotStartIsSaidOnce() {
        let output = OutputBuffer()
        let display = TerminalDisplay(
            output: { output.writer.write(bytes: $0) }, style: .plain, speaker: "/nonexistent/gesturectl-test/spd-say")
        display.say(Announcement("First line."))
        display.say(Announcement("Second line."))
        let lines = output.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 4, "\(output.text)")
        #expect(lines.first == "First line.")
        #expect(lines.count > 1 && lines[1].hasPrefix("Cannot speak: "))
        #expect(lines.count > 1 && lines[1].hasSuffix("; the lines are only printed."))
        #expect(lines.count > 1 && lines[1].contains("No such file or directory"))
        #expect(lines.count > 2 && lines[2] == "Second line.")
    }
}
