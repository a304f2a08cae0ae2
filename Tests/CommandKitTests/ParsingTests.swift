import Testing
import CommandKit

@Suite struct ParsingTests {
    private func success(_ output: String) -> RunResult { RunResult(status: 0, output: output, error: "") }

    @Test func readsEveryOptionForm() async {
        let result = await run("merge", "a.g", "--align=end", "--stagger", "0,100ms,0.2", "-o", "out.g", "-f", "b.g")
        #expect(
            result == success(
                """
                files=["a.g", "b.g"]
                align=end given=true
                stagger=[0, 100000, 200000]
                output=out.g force=true

                """))
    }

    @Test func fillsInDefaultsAndLeavesOutAbsentValues() async {
        let result = await run("merge", "a.g")
        #expect(
            result == success(
                """
                files=["a.g"]
                align=start given=false
                stagger=[]
                output=nil force=false

                """))
    }

    @Test func readsAttachedAndClusteredShortOptions() async {
        #expect(await run("merge", "a.g", "-oout.g").output.contains("output=out.g force=false"))
        #expect(await run("merge", "a.g", "-o=out.g").output.contains("output=out.g force=false"))
        #expect(await run("merge", "a.g", "-fo", "out.g").output.contains("output=out.g force=true"))
        #expect(await run("merge", "a.g", "--output=").output.contains("output= force=false"))
    }

    @Test func takesADashAsAValue() async {
        let result = await run("merge", "-", "--output", "-")
        #expect(result.output.hasPrefix("files=[\"-\"]\n"))
        #expect(result.output.contains("output=- force=false"))
    }

    @Test func treatsEverythingAfterDoubleDashAsArguments() async {
        let result = await run("merge", "--force", "--", "--force", "-o", "--")
        #expect(result.output.hasPrefix("files=[\"--force\", \"-o\", \"--\"]\n"))
        #expect(result.output.contains("output=nil force=true"))
    }

    @Test func readsNegativeNumbersAsValues() async {
        let result = await run("fingers", "x", "--offset", "-100ms", "--spacing", "0", "-n", "10", "--speed", "0.5")
        #expect(result == success("file=x count=10 spacing=0.0 speed=0.5 delay=nil offset=-100000\n"))
    }

    @Test func readsDefaultsOfEachType() async {
        let result = await run("fingers", "x", "--delay", "250ms")
        #expect(result == success("file=x count=2 spacing=nil speed=1.0 delay=250000 offset=nil\n"))
    }

    @Test func accumulatesRepeatableOptions() async {
        #expect(await run("list", "--tag", "a", "--tag=b", "--json") == success("pattern=nil tags=[\"a\", \"b\"] json=true\n"))
        #expect(await run("list", "pin") == success("pattern=pin tags=[] json=false\n"))
    }

    @Test func acceptsOptionsBeforeAndAfterArguments() async {
        let result = await run("merge", "-f", "a.g", "--align", "end", "b.g")
        #expect(result.output.hasPrefix("files=[\"a.g\", \"b.g\"]\nalign=end given=true\n"))
    }

    @Test func keepsGlobalOptionsGivenBeforeOrAfterTheCommand() async {
        let tool = Tool(
            name: "t", version: "1", abstract: "",
            globalOptions: [.option("library", valueName: "dir", help: "Library directory.", default: "~/g"), .flag("verbose", short: "v", help: "Say more.")],
            commands: [
                Command(name: "list", abstract: "List.") { values, context in
                    context.print("\(values.string("library") ?? "nil") \(values.flagCount("verbose"))")
                }
            ]
        )
        #expect(await run(["--library", "/lib", "-v", "list", "-v"], tool: tool) == success("/lib 2\n"))
        #expect(await run(["list", "--library=/x"], tool: tool) == success("/x 0\n"))
        #expect(await run(["list"], tool: tool) == success("~/g 0\n"))
    }
}
