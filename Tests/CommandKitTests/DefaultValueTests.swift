import Testing
import CommandKit

/// The non-optional accessors of options that declare a default: the
/// default when the option is absent, the value when it is given, and the
/// same usage error as ever for a bad value.
@Suite struct DefaultValueTests {
    /// A command with a defaulted option of each type, and a required one;
    /// it prints what the non-optional accessors read (`optional`: what
    /// the optional ones read, for comparison).
    private static func tool(optional: Bool = false) -> Tool {
        Tool(
            name: "gesturectl", version: "1", abstract: "",
            commands: [
                Command(
                    name: "play", abstract: "Play.",
                    options: [
                        .option("as", valueName: "kind", help: "The device.", type: .choice(["touchscreen", "mouse"]), default: "touchscreen"),
                        .option("screen", valueName: "WxH", help: "The screen.", default: "1920x1080"),
                        .option("repeat", valueName: "n", help: "Repetitions.", type: .integer(in: 1...10), default: "1"),
                        .option("speed", valueName: "factor", help: "Speed.", type: .double(in: 0.01...100), default: "1"),
                        .option("lead-in", valueName: "time", help: "Lead-in.", type: ValueType.duration(in: 0...60_000_000), default: "100ms"),
                        .option("format", valueName: "format", help: "Format.", type: .choice(["evemu", "libinput"]), required: true),
                    ]
                ) { values, context in
                    if optional {
                        context.print(
                            "as=\(values.string("as") ?? "-") screen=\(values.string("screen") ?? "-")"
                                + " repeat=\(values.integer("repeat") ?? -1) speed=\(values.double("speed") ?? -1)"
                                + " lead-in=\(values.duration("lead-in") ?? -1) format=\(values.string("format") ?? "-")")
                    } else {
                        context.print(
                            "as=\(values.stringOrDefault("as")) screen=\(values.stringOrDefault("screen"))"
                                + " repeat=\(values.integerOrDefault("repeat")) speed=\(values.doubleOrDefault("speed"))"
                                + " lead-in=\(values.durationOrDefault("lead-in")) format=\(values.stringOrDefault("format"))")
                    }
                }
            ])
    }
    private let tool = Self.tool()

    private func success(_ output: String) -> RunResult { RunResult(status: 0, output: output, error: "") }

    /// Checks that `arguments` fail with `message`, exactly as they do for
    /// a command that reads its options with the optional accessors.
    private func expectUsageError(_ arguments: [String], _ message: String) async {
        let result = await run(arguments, tool: tool)
        #expect(result.status == 2 && result.output.isEmpty)
        #expect(result.error.hasPrefix("gesturectl: error: \(message)\nusage: gesturectl play "), "\(result.error)")
        #expect(result == (await run(arguments, tool: Self.tool(optional: true))))
    }

    @Test func anAbsentOptionReadsItsDeclaredDefault() async {
        #expect(
            await run(["play", "--format", "evemu"], tool: tool)
                == success("as=touchscreen screen=1920x1080 repeat=1 speed=1.0 lead-in=100000 format=evemu\n"))
    }

    @Test func aGivenOptionReadsItsValue() async {
        let result = await run(
            ["play", "--format=libinput", "--as", "mouse", "--screen", "800x600", "--repeat", "3", "--speed", "0.5", "--lead-in", "0"],
            tool: tool)
        #expect(result == success("as=mouse screen=800x600 repeat=3 speed=0.5 lead-in=0 format=libinput\n"))
        // A value different from the default, the others left out.
        #expect(
            await run(["play", "--format", "evemu", "--lead-in", "1s"], tool: tool)
                == success("as=touchscreen screen=1920x1080 repeat=1 speed=1.0 lead-in=1000000 format=evemu\n"))
    }

    @Test func aBadValueIsTheSameUsageError() async {
        await expectUsageError(["play", "--format", "evemu", "--repeat", "two"], "--repeat: \"two\" is not an integer")
        await expectUsageError(["play", "--format", "evemu", "--repeat", "11"], "--repeat: 11 must be between 1 and 10")
        await expectUsageError(["play", "--format", "evemu", "--speed", "fast"], "--speed: \"fast\" is not a number")
        await expectUsageError(
            ["play", "--format", "evemu", "--lead-in", "soon"], "--lead-in: \"soon\" is not a duration (e.g. 0.25, 250ms, 2s, 100us)")
        await expectUsageError(["play", "--format", "evemu", "--as", "pen"], "--as: \"pen\" is not one of touchscreen, mouse")
        await expectUsageError(["play", "--format", "evemu", "--screen"], "missing value for --screen")
        await expectUsageError(["play"], "missing option --format <format>")
    }

    @Test func theOptionalAndTheNonOptionalAccessorsReadTheSame() async {
        for arguments in [["play", "--format", "evemu"], ["play", "--format", "libinput", "--as", "mouse", "--repeat", "4", "--lead-in", "2s"]] {
            let plain = await run(arguments, tool: tool)
            #expect(plain.status == 0)
            #expect(plain == (await run(arguments, tool: Self.tool(optional: true))))
        }
    }
}
