import Testing
import CommandKit

@Suite struct ErrorTests {
    /// A usage error as the tool reports it for `command` (nil: the tool itself).
    private func usageError(_ message: String, command: String?) -> RunResult {
        let usage: String
        switch command {
        case nil: usage = "usage: gesturectl <command> [<options>] [<arguments>]"
        case "merge": usage = "usage: gesturectl merge [<options>] <files> ..."
        case "fingers": usage = "usage: gesturectl fingers [<options>] <file>"
        case "rename": usage = "usage: gesturectl rename <old> <new>"
        default: usage = "?"
        }
        let help = command.map { "gesturectl help \($0)" } ?? "gesturectl help"
        return RunResult(status: 2, output: "", error: "gesturectl: error: \(message)\n\(usage)\nRun '\(help)' for more.\n")
    }

    @Test func reportsAMissingCommand() async {
        #expect(await run() == usageError("missing command", command: nil))
    }

    @Test func reportsAnUnknownCommandWithASuggestion() async {
        #expect(await run("mrege", "a.g") == usageError("unknown command 'mrege'; did you mean 'merge'?", command: nil))
        #expect(await run("hlep") == usageError("unknown command 'hlep'; did you mean 'help'?", command: nil))
        #expect(await run("xyz") == usageError("unknown command 'xyz'", command: nil))
        #expect(await run("help", "mrege") == usageError("unknown command 'mrege'; did you mean 'merge'?", command: nil))
    }

    @Test func reportsAnUnknownOptionWithASuggestion() async {
        #expect(await run("fingers", "x", "--sped", "2") == usageError("unknown option '--sped'; did you mean '--speed'?", command: "fingers"))
        #expect(await run("fingers", "x", "--hepl") == usageError("unknown option '--hepl'; did you mean '--help'?", command: "fingers"))
        #expect(await run("merge", "a.g", "--bogus") == usageError("unknown option '--bogus'", command: "merge"))
        #expect(await run("merge", "a.g", "-x") == usageError("unknown option '-x'", command: "merge"))
        #expect(await run("merge", "a.g", "-fx") == usageError("unknown option '-x'", command: "merge"))
        #expect(await run("--verison") == usageError("unknown option '--verison'; did you mean '--version'?", command: nil))
    }

    @Test func reportsAMissingArgument() async {
        #expect(await run("merge") == usageError("missing argument <files>", command: "merge"))
        #expect(await run("merge", "-f") == usageError("missing argument <files>", command: "merge"))
        #expect(await run("rename", "a") == usageError("missing argument <new>", command: "rename"))
    }

    @Test func reportsTooManyArguments() async {
        #expect(await run("rename", "a", "b", "c", "d") == usageError("unexpected argument 'c'", command: "rename"))
    }

    @Test func reportsAMissingOptionValue() async {
        #expect(await run("merge", "a.g", "-o") == usageError("missing value for --output", command: "merge"))
        #expect(await run("merge", "a.g", "--output") == usageError("missing value for --output", command: "merge"))
        #expect(await run("merge", "a.g", "--output", "--force") == usageError("missing value for --output", command: "merge"))
    }

    @Test func reportsAValueGivenToAFlag() async {
        #expect(await run("merge", "a.g", "--force=yes") == usageError("--force does not take a value", command: "merge"))
    }

    @Test func reportsARepeatedSingleOption() async {
        #expect(await run("fingers", "x", "--speed", "1", "--speed=2") == usageError("--speed given more than once", command: "fingers"))
    }

    @Test func aNegativeWordAfterANumberOptionIsItsValue() async {
        // Not "missing value": the value is there, and it is not a number.
        #expect(await run("fingers", "x", "--speed", "-inf") == usageError("--speed: \"-inf\" is not a number", command: "fingers"))
        #expect(await run("fingers", "x", "--speed", "-NaN") == usageError("--speed: \"-NaN\" is not a number", command: "fingers"))
        #expect(await run("fingers", "x", "-n", "-x") == usageError("--count: \"-x\" is not an integer", command: "fingers"))
        // A real option after it is still an option.
        #expect(await run("fingers", "x", "--speed", "-n", "3") == usageError("missing value for --speed", command: "fingers"))
        #expect(await run("fingers", "x", "--speed", "--count") == usageError("missing value for --speed", command: "fingers"))
        #expect(await run("fingers", "x", "--speed") == usageError("missing value for --speed", command: "fingers"))
    }

    @Test func quotedValuesAreEscaped() async {
        #expect(
            await run("fingers", "x", "--speed", "\u{1B}[2J\u{202E}")
                == usageError("--speed: \"<U+001B>[2J<U+202E>\" is not a number", command: "fingers"))
        #expect(
            await run("merge", "a", "--align", "\u{7}")
                == usageError("--align: \"<U+0007>\" is not one of start, end", command: "merge"))
    }

    @Test func reportsValuesOfTheWrongType() async {
        #expect(await run("fingers", "x", "--speed", "fast") == usageError("--speed: \"fast\" is not a number", command: "fingers"))
        #expect(await run("fingers", "x", "--speed", "inf") == usageError("--speed: \"inf\" is not a number", command: "fingers"))
        #expect(await run("fingers", "x", "--speed", "nan") == usageError("--speed: \"nan\" is not a number", command: "fingers"))
        #expect(await run("fingers", "x", "--speed", "0x10") == usageError("--speed: \"0x10\" is not a number", command: "fingers"))
        #expect(await run("fingers", "x", "--speed", "1e400") == usageError("--speed: \"1e400\" is too large", command: "fingers"))
        #expect(await run("fingers", "x", "-n", "two") == usageError("--count: \"two\" is not an integer", command: "fingers"))
        #expect(await run("fingers", "x", "-n", "99999999999999999999") == usageError("--count: \"99999999999999999999\" is too large (allowed: 2 to 10)", command: "fingers"))
        #expect(await run("fingers", "x", "-n", "-99999999999999999999") == usageError("--count: \"-99999999999999999999\" is too small (allowed: 2 to 10)", command: "fingers"))
        #expect(
            await run("merge", "a.g", "--stagger", "0,fast")
                == usageError("--stagger: \"fast\" is not a duration (e.g. 0.25, 250ms, 2s, 100us)", command: "merge"))
        #expect(
            await run("merge", "a.g", "--stagger", "0,,1s")
                == usageError("--stagger: \"\" is not a duration (e.g. 0.25, 250ms, 2s, 100us)", command: "merge"))
        #expect(await run("fingers", "x", "--delay", "99999999999999s") == usageError("--delay: \"99999999999999s\" is too large", command: "fingers"))
    }

    @Test func reportsChoicesOutsideTheSet() async {
        #expect(await run("merge", "a.g", "--align", "middle") == usageError("--align: \"middle\" is not one of start, end", command: "merge"))
        #expect(
            await run("merge", "a.g", "--align", "strat")
                == usageError("--align: \"strat\" is not one of start, end; did you mean 'start'?", command: "merge"))
    }

    @Test func reportsValuesOutOfRange() async {
        #expect(await run("fingers", "x", "-n", "11") == usageError("--count: 11 must be between 2 and 10", command: "fingers"))
        #expect(await run("fingers", "x", "--speed", "200") == usageError("--speed: 200 must be between 0.01 and 100", command: "fingers"))
        #expect(await run("fingers", "x", "--spacing", "-1") == usageError("--spacing: -1 must be at least 0", command: "fingers"))
        #expect(await run("fingers", "x", "--delay", "90s") == usageError("--delay: 90s must be at most 60s", command: "fingers"))
        #expect(await run("fingers", "x", "--delay", "-1ms") == usageError("--delay: -1ms must be between 0s and 60s", command: "fingers"))
    }

    @Test func reportsAMissingRequiredOption() async {
        let tool = Tool(
            name: "gesturectl", version: "1", abstract: "",
            commands: [
                Command(name: "synth", abstract: "Make a gesture.", options: [.option("shape", help: "The shape.", required: true)]) { _, _ in }
            ])
        #expect(
            await run(["synth"], tool: tool)
                == RunResult(
                    status: 2, output: "",
                    error: """
                        gesturectl: error: missing option --shape <shape>
                        usage: gesturectl synth --shape <shape>
                        Run 'gesturectl help synth' for more.

                        """))
    }

    @Test func reportsAUsageErrorThrownByACommandWithItsUsage() async {
        #expect(await run("rename", "a", "a") == usageError("the names are the same", command: "rename"))
    }

    @Test func endsWithTheStatusOfACommandFailure() async {
        #expect(await run("rename", "a", "b") == RunResult(status: 3, output: "", error: "gesturectl: error: no gesture named 'a'\n"))
        #expect(await run("fail", "silent") == RunResult(status: 1, output: "", error: ""))
    }

    @Test func mapsOtherErrors() async {
        #expect(await run("fail", "plain") == RunResult(status: 1, output: "", error: "gesturectl: error: something broke\n"))
        #expect(await run("fail", "mapped") == RunResult(status: 4, output: "", error: "gesturectl: error: mapped error\n"))
        #expect(await run("fail", "cancel") == RunResult(status: 130, output: "", error: "gesturectl: error: interrupted\n"))
    }

    @Test func documentsEveryExitStatus() {
        #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 130])
    }
}
