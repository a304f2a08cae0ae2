import CommandKit
import Testing
import TestSupport

/// Typed options and arguments: `values[option]` reads the declared type,
/// the default when absent (a value of that type, shown in the help as a
/// user would write it), enumerations for choices, non-optional required
/// arguments; and the services a context carries.
@Suite struct TypedOptionTests {
    enum Kind: String, CaseIterable, Sendable { case touchscreen, touchpad, mouse }
    enum Edge: String, CaseIterable, Sendable { case start, end }

    enum Options {
        static let kind: TypedOption<Kind> = .choice(
            "as", valueName: "kind", help: "The device.", choices: [.touchscreen, .mouse], default: .touchscreen)
        static let edge: TypedOption<Edge?> = .choice("edge", help: "An edge.")
        static let from: TypedOption<Edge> = .requiredChoice("from", valueName: "edge", help: "Where from.")
        static let speed: TypedOption<Double> = .number(
            "speed", valueName: "factor", help: "Speed.", type: .double(in: 0.01...100), default: 1.5)
        static let scale: TypedOption<Double?> = .number("scale", help: "Scale.")
        static let repeats: TypedOption<Int> = .integer("repeat", valueName: "n", help: "Repeats.", type: .integer(in: 1...10), default: 1)
        static let stroke: TypedOption<Int?> = .integer("stroke", help: "Stroke.", type: .integer(minimum: 1))
        static let leadIn: TypedOption<Int64> = .duration(
            "lead-in", valueName: "time", help: "Lead-in.", type: .duration(in: 0...60_000_000), default: 100_000)
        static let linger: TypedOption<Int64> = .duration("linger", valueName: "time", help: "Linger.", default: 0)
        static let idle: TypedOption<Int64?> = .duration("idle", help: "Idle.")
        static let screen: TypedOption<String> = .string("screen", valueName: "WxH", help: "The screen.", default: "1920x1080")
        static let output: TypedOption<String?> = .string("output", short: "o", valueName: "file", help: "Where to write.")
        static let force: TypedOption<Bool> = .flag("force", short: "f", help: "Force.")
        static let centre: TypedOption<[Double]> = .numbers("centre", valueName: "x,y", help: "Centre.")
        static let stagger: TypedOption<[Int64]> = .durations("stagger", valueName: "times", help: "Offsets.")
        /// A duration read as seconds: `map` turns the read value into another type.
        static let seconds: TypedOption<Double> = leadIn.map { Double($0) / 1_000_000 }
    }

    enum Arguments {
        static let gesture: TypedArgument<String> = .required("gesture", help: "The gesture.")
        static let count: TypedArgument<Int> = .integer("count", help: "How many.", type: .integer(in: 2...10))
        static let rest: TypedArgument<[String]> = .zeroOrMore("rest", help: "More.")
    }

    static let tool = Tool(
        name: "tool", version: "1", abstract: "",
        commands: [
            Command(
                name: "play", abstract: "Play.",
                arguments: [Arguments.gesture, Arguments.count, Arguments.rest],
                options: [
                    Options.kind, Options.edge, Options.from, Options.speed, Options.scale, Options.repeats, Options.stroke,
                    Options.leadIn, Options.linger, Options.idle, Options.screen, Options.output, Options.force, Options.centre,
                    Options.stagger,
                ]
            ) { values, context in
                let kind: Kind = values[Options.kind]
                let count: Int = values[Arguments.count]
                context.print(
                    "gesture=\(values[Arguments.gesture]) count=\(count) rest=\(values[Arguments.rest])"
                        + " as=\(kind) given=\(values.isGiven(Options.kind)) edge=\(values[Options.edge]?.rawValue ?? "nil")"
                        + " from=\(values[Options.from]) speed=\(values[Options.speed]) scale=\(String(describing: values[Options.scale]))"
                        + " repeat=\(values[Options.repeats]) stroke=\(String(describing: values[Options.stroke]))"
                        + " lead-in=\(values[Options.leadIn]) seconds=\(values[Options.seconds]) linger=\(values[Options.linger])"
                        + " idle=\(String(describing: values[Options.idle])) screen=\(values[Options.screen])"
                        + " output=\(String(describing: values[Options.output])) force=\(values[Options.force])"
                        + " centre=\(values[Options.centre]) stagger=\(values[Options.stagger])")
            }
        ])

    private func run(_ arguments: [String]) async -> RunResult {
        await CommandKitTests.run(arguments, tool: Self.tool)
    }

    @Test func absentOptionsReadTheirDefaultsAsValuesOfTheirType() async {
        let result = await run(["play", "pinch", "3", "--from", "end"])
        #expect(
            result.output
                == "gesture=pinch count=3 rest=[] as=touchscreen given=false edge=nil from=end speed=1.5 scale=nil"
                + " repeat=1 stroke=nil lead-in=100000 seconds=0.1 linger=0 idle=nil screen=1920x1080 output=nil force=false"
                + " centre=[] stagger=[]\n", "\(result.error)")
    }

    @Test func givenOptionsReadTheirValues() async {
        let result = await run([
            "play", "tap", "2", "a", "b", "--as", "mouse", "--edge", "start", "--from", "start", "--speed", "2", "--scale", "0.5",
            "--repeat", "3", "--stroke", "4", "--lead-in", "1s", "--linger", "5ms", "--idle", "2", "--screen", "800x600", "-o", "x",
            "-f", "--centre", "1,2.5", "--stagger", "0,100ms",
        ])
        #expect(
            result.output
                == "gesture=tap count=2 rest=[\"a\", \"b\"] as=mouse given=true edge=start"
                + " from=start speed=2.0 scale=Optional(0.5) repeat=3 stroke=Optional(4) lead-in=1000000 seconds=1.0"
                + " linger=5000 idle=Optional(2000000) screen=800x600 output=Optional(\"x\") force=true"
                + " centre=[1.0, 2.5] stagger=[0, 100000]\n", "\(result.error)")
    }

    @Test func theHelpShowsTheTypedDefaultsAsAUserWouldWriteThem() {
        // Words as the help wraps them, joined by single spaces.
        let help = (Self.tool.helpText(for: ["play"]) ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("(values: touchscreen, mouse; default: touchscreen)"), "\(help)")
        #expect(help.contains("(0.01 to 100; default: 1.5)"))
        #expect(help.contains("(1 to 10; default: 1)"))
        #expect(help.contains("Lead-in. (at most 60s; default: 100ms)"))
        #expect(help.contains("Linger. (default: 0)"))
        #expect(help.contains("(default: 1920x1080)"))
        #expect(Self.tool.validate() == [])
    }

    @Test func badValuesAreRefusedNamingTheOption() async {
        let bad = await run(["play", "g", "2", "--from", "end", "--as", "touchpad"])
        #expect(bad.status == 2)
        #expect(bad.error.hasPrefix("tool: error: --as: \"touchpad\" is not one of touchscreen, mouse\n"), "\(bad.error)")
        let missing = await run(["play", "g", "2"])
        #expect(missing.status == 2)
        #expect(missing.error.hasPrefix("tool: error: missing option --from <edge>\n"), "\(missing.error)")
        let noArgument = await run(["play", "--from", "end"])
        #expect(noArgument.status == 2)
        #expect(noArgument.error.hasPrefix("tool: error: missing argument <gesture>\n"), "\(noArgument.error)")
        let count = await run(["play", "g", "11", "--from", "end"])
        #expect(count.error.hasPrefix("tool: error: <count>: 11 must be between 2 and 10\n"), "\(count.error)")
    }

    @Test func aContextCarriesServicesByType() {
        struct Engine: Sendable { var name: String }
        var services = CommandServices()
        #expect(services[Engine.self] == nil)
        services[Engine.self] = Engine(name: "test")
        let context = CommandContext(standardOutput: OutputBuffer().writer, standardError: OutputBuffer().writer, services: services)
        #expect(context.services[Engine.self]?.name == "test")
        #expect(context.services[String.self] == nil)
    }
}
