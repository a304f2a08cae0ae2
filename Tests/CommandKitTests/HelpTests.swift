import Testing
import CommandKit

@Suite struct HelpTests {
    let toolHelp = """
        gesturectl 0.1.0: Record, merge and replay touch gestures.

        usage: gesturectl <command> [<options>] [<arguments>]

        EDITING:
          merge          Merge strokes into one multi-finger gesture.
          fingers        Replicate a stroke onto several fingers.

        LIBRARY:
          list           List saved gestures.
          rename         Rename a saved gesture.

        COMMANDS:
          fail           Fail in various ways.

        GLOBAL OPTIONS:
          -h, --help     Show help.
              --version  Show the version.

        EXIT STATUS:
            0  success
            1  failure
            2  usage error (unknown command or option, bad value)
            3  not found (file, name or device)
            4  permission denied
            5  daemon unreachable or busy
          130  interrupted (after cleaning up)

        Run 'gesturectl help <command>' for help on a command.

        """

    let mergeHelp = """
        Merge strokes into one multi-finger gesture.

        usage: gesturectl merge [<options>] <files> ...

        ARGUMENTS:
          <files>               Gesture files ('-' reads standard input).

        OPTIONS:
              --align <edge>    Align the strokes by their start or their end. (values:
                                start, end; default: start)
              --stagger <list>  Start offsets, one per stroke. (comma-separated)
          -o, --output <file>   Where to write ('-' for standard output).
          -f, --force           Overwrite an existing file.
          -h, --help            Show help for this command.

        Each stroke becomes a finger.

        Examples:
          gesturectl merge a.gesture b.gesture -o pinch.gesture
          gesturectl merge --stagger 0,100ms a.gesture b.gesture

        """

    @Test func printsTheToolHelp() async {
        let expected = RunResult(status: 0, output: toolHelp, error: "")
        #expect(await run("--help") == expected)
        #expect(await run("-h") == expected)
        #expect(await run("help") == expected)
        #expect(sampleTool.helpText == toolHelp)
    }

    @Test func printsACommandHelpInEveryWay() async {
        let expected = RunResult(status: 0, output: mergeHelp, error: "")
        #expect(await run("help", "merge") == expected)
        #expect(await run("merge", "--help") == expected)
        #expect(await run("merge", "-h") == expected)
        // Help wins over mistakes elsewhere on the line.
        #expect(await run("merge", "--bogus", "a.g", "--align", "middle", "--help") == expected)
        #expect(sampleTool.helpText(for: ["merge"]) == mergeHelp)
        #expect(sampleTool.helpText(for: ["nope"]) == nil)
    }

    @Test func doesNotTakeHelpAfterDoubleDash() async {
        #expect(await run("merge", "--", "--help").output.hasPrefix("files=[\"--help\"]\n"))
    }

    @Test func showsRangesDefaultsAndRepetition() async {
        #expect(
            await run("help", "fingers").output == """
                Replicate a stroke onto several fingers.

                usage: gesturectl fingers [<options>] <file>

                ARGUMENTS:
                  <file>                 The gesture file.

                OPTIONS:
                  -n, --count <count>    How many fingers. (2 to 10; default: 2)
                      --spacing <mm>     Distance between fingers in millimetres. (at least 0)
                      --speed <speed>    Speed factor. (0.01 to 100; default: 1)
                      --delay <delay>    Wait before starting. (at most 60s)
                      --offset <offset>  Time offset.
                  -h, --help             Show help for this command.

                """)
        #expect(
            await run("list", "-h").output == """
                List saved gestures.

                usage: gesturectl list [<options>] [<pattern>]

                ARGUMENTS:
                  <pattern>            Only names containing this.

                OPTIONS:
                      --tag <tag> ...  Only gestures with this tag.
                      --json           Print JSON.
                  -h, --help           Show help for this command.

                """)
    }

    @Test func putsLongNamesOnTheirOwnLine() async {
        let tool = Tool(
            name: "t", version: "1", abstract: "A tool.",
            globalOptions: [.option("socket", valueName: "path", help: "The daemon's socket.")],
            commands: [
                Command(
                    name: "play", abstract: "Play a gesture.",
                    options: [
                        .option(
                            "fingertip-separation", short: "s", valueName: "millimetres",
                            help: "How far apart the fingers are, in millimetres.", type: .list(of: .choice(["a", "b"])))
                    ]
                ) { _, _ in }
            ])
        #expect(
            tool.helpText(for: ["play"]) == """
                Play a gesture.

                usage: t play [<options>]

                OPTIONS:
                  -s, --fingertip-separation <millimetres>
                                              How far apart the fingers are, in millimetres.
                                              (comma-separated; values: a, b)
                  -h, --help                  Show help for this command.

                GLOBAL OPTIONS:
                      --socket <path>         The daemon's socket.

                """)
    }

    @Test func printsTheVersion() async {
        #expect(await run("--version") == RunResult(status: 0, output: "gesturectl 0.1.0\n", error: ""))
    }
}
