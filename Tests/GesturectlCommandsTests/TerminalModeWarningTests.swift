import CommandKit
import OperatingSystem
import Testing
import TestSupport

@testable import GesturectlCommands

/// A terminal that refuses character mode is said, not passed over: the
/// user would otherwise press keys that do nothing until Return.
@Suite struct TerminalModeWarningTests {
    @Test func aRefusedCharacterModeIsWarnedAbout() throws {
        let errors = OutputBuffer()
        let context = CommandContext(
            standardOutput: .discarding, standardError: errors.writer, isStandardInputTerminal: true, toolName: "gesturectl")
        // A pipe is no terminal: tcgetattr fails (ENOTTY) as a broken terminal's would.
        let (read, write) = try FileDescriptor.pipe()
        defer {
            read.close()
            write.close()
        }
        #expect(AssistOptions.keyboardMode(context, input: read) == nil)
        #expect(errors.text.hasPrefix("gesturectl: warning: cannot read single keys from the terminal ("))
        #expect(errors.text.hasSuffix("); each key takes effect only after Return\n"))
    }

    @Test func noTerminalNoWarning() {
        let errors = OutputBuffer()
        let context = CommandContext(standardOutput: .discarding, standardError: errors.writer)
        #expect(AssistOptions.keyboardMode(context) == nil)
        #expect(errors.text == "")
    }
}
