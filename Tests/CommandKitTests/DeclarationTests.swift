import Testing
import CommandKit

@Suite struct DeclarationTests {
    @Test func acceptsTheSampleTool() {
        #expect(sampleTool.validate() == [])
    }

    @Test func reportsEveryDeclarationMistake() {
        let tool = Tool(
            name: "t", version: "1", abstract: "",
            globalOptions: [.flag("json", help: "")],
            commands: [
                Command(
                    name: "a", abstract: "",
                    arguments: [
                        Argument("files", help: "", arity: .zeroOrMore), Argument("out", help: ""), Argument("json", help: ""),
                    ],
                    options: [
                        .option("speed", help: "", type: .double(in: 0.1...2), default: "3"),
                        .option("name", short: "n", help: "", default: "x", required: true),
                        .flag("number", short: "n", help: ""),
                        .flag("help", help: ""),
                        .flag("bad name", short: "1", help: ""),
                    ]
                ) { _, _ in },
                Command(name: "a", abstract: "") { _, _ in },
                Command(name: "help", abstract: "", run: nil),
            ])
        #expect(
            tool.validate() == [
                "'a': default of --speed: 3 must be between 0.1 and 2",
                "'a': --name is required and has a default",
                "'a': short name '-n' used twice",
                "'a': name 'help' used twice",
                "'a': invalid option name 'bad name'",
                "'a': invalid short name '-1'",
                "'a': name 'json' used twice",
                "'a': variadic argument <files> is not the last",
                "'a': required argument <out> follows an optional one",
                "'a': required argument <json> follows an optional one",
                "'a': command name used twice",
                "'help': command name used twice",
                "'help': no subcommands and nothing to run",
            ])
    }
}
