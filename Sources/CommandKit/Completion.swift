/// What a shell should offer when completing an option's value or a
/// positional argument (see ``ShellCompletions``).
public enum Completion: Sendable, Hashable {
    /// Nothing: free text (a number, a duration, a name to invent).
    case none
    /// File names.
    case files
    /// Folder names.
    case directories
    /// These words.
    case words([String])
    /// The lines the tool itself prints when run with `arguments` (e.g.
    /// `["list", "--names"]`), and file names too when `files` is true
    /// (for a NAME|FILE argument). The tool is run on every Tab, so the
    /// command must be fast and print one candidate per line.
    case toolOutput(arguments: [String], files: Bool)
}

extension Option {
    /// What completes this option's value: the declared ``completion``,
    /// else the choices of its type, else nothing. `nil` for a flag.
    public var effectiveCompletion: Completion? {
        guard let type else { return nil }
        if let completion { return completion }
        return type.choices.isEmpty ? Completion.none : .words(type.choices)
    }
}

extension Argument {
    /// What completes this argument: the declared ``completion``, else the
    /// choices of its type, else nothing.
    public var effectiveCompletion: Completion {
        if let completion { return completion }
        return type.choices.isEmpty ? .none : .words(type.choices)
    }
}
