import CommandKit
import Testing

/// The completion scripts come from the declarations: commands, options,
/// choices and argument kinds, never hidden ones.
@Suite struct CompletionTests {
    static var tool: Tool {
        var tool = sampleTool
        tool.globalOptions = [.option("socket", valueName: "path", help: "The socket.", completion: .files)]
        tool.commands[0].arguments[0].completion = .toolOutput(arguments: ["list", "--names"], files: true)
        tool.commands[0].options[2].completion = .files
        tool.commands[0].options.append(.flag("internal", help: "Hidden.", hidden: true))
        var hidden = Command(name: "secret", abstract: "For scripts.") { _, _ in }
        hidden.isHidden = true
        tool.commands.append(hidden)
        tool.commands.append(
            Command(name: "synth", abstract: "Make gestures.", subcommands: [
                Command(name: "tap", abstract: "A tap.", options: [.option("fingers", help: "How many.", type: .integer)]) { _, _ in }
            ]))
        return tool
    }

    let completions = ShellCompletions(tool: tool)

    @Test func optionsDeriveTheirCompletionFromChoices() {
        #expect(Option.option("as", help: "h", type: .choice(["a", "b"])).effectiveCompletion == .words(["a", "b"]))
        #expect(Option.option("n", help: "h", type: .integer).effectiveCompletion == Completion.none)
        #expect(Option.flag("f", help: "h").effectiveCompletion == nil)
        #expect(Option.option("o", help: "h", completion: .files).effectiveCompletion == .files)
        #expect(Argument("a", help: "h", type: .choice(["x"])).effectiveCompletion == .words(["x"]))
    }

    @Test func bashKnowsCommandsOptionsValuesAndArguments() {
        let bash = completions.bash
        #expect(bash.contains("        '') echo 'merge fingers list rename fail synth help' ;;"))
        #expect(bash.contains("        'help') echo 'merge fingers list rename fail synth' ;;"))
        #expect(bash.contains("        'synth') echo 'tap' ;;"))
        #expect(bash.contains("        'merge') echo '--align --stagger --output -o --force -f --socket --help -h' ;;"))
        #expect(bash.contains("        'merge --align') echo 'words:start end' ;;"))
        #expect(bash.contains("        'merge --output' | 'merge -o') echo 'files' ;;"))
        #expect(bash.contains("        'synth tap --socket') echo 'files' ;;"))
        #expect(bash.contains("            *) echo 'toolfiles:list --names' ;;"))
        #expect(bash.contains("complete -F _gesturectl gesturectl\n"))
        #expect(!bash.contains("secret") && !bash.contains("internal"))
    }

    @Test func zshAndFishToo() {
        let zsh = completions.zsh
        #expect(zsh.hasPrefix("#compdef gesturectl\n"))
        #expect(zsh.contains("'--align=[Align the strokes by their start or their end]:edge:(start end)'"))
        #expect(zsh.contains("'(-o --output)-o+[Where to write ('\\''-'\\'' for standard output)]:file:_files'"))
        #expect(zsh.contains("'*:files:{_gesturectl_run list --names; _files}'"))
        #expect(zsh.contains("'merge:Merge strokes into one multi-finger gesture'"))
        let fish = completions.fish
        #expect(fish.contains("complete -c gesturectl -n '__fish_use_subcommand' -a 'merge' -d 'Merge strokes into one multi-finger gesture'"))
        #expect(fish.contains("complete -c gesturectl -n '__fish_seen_subcommand_from merge' -l align -x -a 'start end' -d"))
        #expect(fish.contains("complete -c gesturectl -n '__fish_seen_subcommand_from merge' -F -a '(gesturectl list --names 2>/dev/null)'"))
        #expect(fish.contains("-n '__fish_seen_subcommand_from synth; and not __fish_seen_subcommand_from tap' -a 'tap'"))
        #expect(!zsh.contains("secret") && !fish.contains("internal"))
    }
}
