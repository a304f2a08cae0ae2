import Testing
import CommandKit

@Suite struct NestedCommandTests {
    let tool = Tool(
        name: "gesturectl", version: "1", abstract: "Gestures.",
        commands: [
            Command(
                name: "daemon", abstract: "Control the daemon.", section: "Daemon",
                subcommands: [
                    Command(name: "start", abstract: "Start the daemon.", arguments: [Argument("socket", help: "Socket path.", arity: .optional)]) { values, context in
                        context.print("start \(values.argument("socket") ?? "default")")
                    },
                    Command(name: "stop", abstract: "Stop the daemon.") { _, context in context.print("stop") },
                ])
        ])

    @Test func runsASubcommand() async {
        #expect(await run(["daemon", "start", "/run/g.sock"], tool: tool) == RunResult(status: 0, output: "start /run/g.sock\n", error: ""))
        #expect(await run(["daemon", "stop"], tool: tool) == RunResult(status: 0, output: "stop\n", error: ""))
    }

    @Test func reportsAMissingOrUnknownSubcommand() async {
        let usage = "usage: gesturectl daemon <command>\nRun 'gesturectl help daemon' for more.\n"
        #expect(await run(["daemon"], tool: tool) == RunResult(status: 2, output: "", error: "gesturectl: error: missing subcommand\n" + usage))
        #expect(
            await run(["daemon", "strat"], tool: tool)
                == RunResult(status: 2, output: "", error: "gesturectl: error: unknown command 'strat'; did you mean 'start'?\n" + usage))
        #expect(
            await run(["daemon", "stop", "now"], tool: tool)
                == RunResult(
                    status: 2, output: "",
                    error: "gesturectl: error: unexpected argument 'now'\nusage: gesturectl daemon stop\nRun 'gesturectl help daemon stop' for more.\n"
                ))
    }

    @Test func printsGroupAndSubcommandHelp() async {
        let groupHelp = """
            Control the daemon.

            usage: gesturectl daemon <command>

            COMMANDS:
              start  Start the daemon.
              stop   Stop the daemon.

            Run 'gesturectl help daemon <command>' for help on a command.

            """
        #expect(await run(["help", "daemon"], tool: tool) == RunResult(status: 0, output: groupHelp, error: ""))
        #expect(await run(["daemon", "--help"], tool: tool) == RunResult(status: 0, output: groupHelp, error: ""))
        #expect(
            await run(["daemon", "start", "-h"], tool: tool).output == """
                Start the daemon.

                usage: gesturectl daemon start [<socket>]

                ARGUMENTS:
                  <socket>    Socket path.

                OPTIONS:
                  -h, --help  Show help for this command.

                """)
    }
}
