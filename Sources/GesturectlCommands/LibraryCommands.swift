import CommandKit
import GestureLibrary
import GestureModel
import GestureRender

/// `save`, `list`, `rename`, `rm`: the named gesture library.
enum LibraryCommands {
    static let section = "Library"

    /// A library name (`rename`'s current one; `save`'s new one is ``saveName``).
    private static let name: TypedArgument<String> = .required(
        "name", help: "The gesture's current name.", completion: .libraryName)
    private static let file: TypedArgument<String> = .required(
        "file", help: "The gesture file to save ('-' for standard input).", completion: .files)
    private static let saveName: TypedArgument<String> = .required(
        "name", help: "The library name (no '/', no leading '.', no control characters).")
    private static let newName: TypedArgument<String> = .required("new-name", help: "Its new name.")
    private static let names: TypedArgument<[String]> = .oneOrMore(
        "name", help: "The gesture to delete.", completion: .libraryName)
    private static let jsonFlag: TypedOption<Bool> = .flag("json", help: "Print JSON instead of text.")
    /// For the shell completions: no file is read, so it is fast on every Tab.
    private static let namesFlag: TypedOption<Bool> = .flag(
        "names", help: "Print only the names, one per line, of this machine's library (for shell completion).", hidden: true)

    static let save = Command(
        name: "save", abstract: "Save a gesture file in the library under a name.",
        discussion: """
            The gesture is validated first; the library keeps it as
            NAME.gesture.json in the library folder (see 'gesturectl list').
            Replacing an existing gesture asks on a terminal and needs --force
            otherwise.

            Examples:
              gesturectl save swipe.gesture.json my-swipe
              gesturectl synth tap --fingers 2 | gesturectl save - two-tap
            """,
        section: section,
        arguments: [file, saveName],
        options: [GestureOutput.force]
    ) { values, context in
        let file = values[LibraryCommands.file]
        let name = values[LibraryCommands.saveName]
        let source = file == "-" || file.contains("/") ? file : "./" + file
        let gesture = try context.loadGesture(source)
        if let client = try context.daemonClient(values) {
            // The file is read here and sent inline; the daemon's library keeps it.
            let result = try DaemonCalls.save(
                client, gesture, as: name, force: values[GestureOutput.force], readFrom: context.mappedFiles)
            if let saved = result.name { context.print("saved \"\(shown(saved))\" (in the daemon's library)") }
            if result.hidesBuiltin { context.noteHidesBuiltin(name) }
            return
        }
        let library = context.library
        if let problem = context.libraryFolderProblem {
            throw CommandFailure.failure(problem + "; set GESTURECTL_LIBRARY to a folder (it is created if missing)")
        }
        let overwrite = try context.mayReplace(name, in: library, force: values[GestureOutput.force])
        let entry = try library.save(gesture, as: name, overwrite: overwrite, readFrom: context.mappedFiles)
        context.print("saved \"\(shown(name))\" (\(shown(entry.path)))")
        if entry.hidesBuiltin { context.noteHidesBuiltin(name) }
    }

    static let list = Command(
        name: "list", abstract: "List the gestures in the library, yours and the built-in ones.",
        discussion: """
            Your gestures live in $GESTURECTL_LIBRARY, else
            $XDG_DATA_HOME/gesturectl/gestures, else
            ~/.local/share/gesturectl/gestures. Built-in gestures (read-only)
            come from $GESTURECTL_BUILTINS, else <prefix>/share/gesturectl/gestures,
            else the Recordings/ folder of the source checkout. A gesture of
            yours with a built-in's name hides the built-in (saving one says
            so, and it is listed as "user, hides built-in" until you delete it).

            Each line: NAME, where it comes from (user or built-in), and the
            one-line description a screen reader can speak. --json prints an
            array of {"name", "source", "path", "summary", "hides_builtin"}
            objects.
            """,
        section: section,
        options: [jsonFlag, namesFlag]
    ) { values, context in
        if values[namesFlag] {
            // Never fails loudly: a shell calls this on every Tab. An unreadable
            // folder of yours still leaves the built-ins.
            let library = context.library
            let builtins = library.builtinDirectory.map { GestureLibrary(userDirectory: $0, builtinDirectory: nil) }
            // Harmless: for the shell's Tab only (documented above); `gesturectl list` reports the same failure.
            let entries = (try? library.list()) ?? (try? builtins?.list()) ?? []
            for entry in entries { context.print(entry.name) }
            return
        }
        let rows: [(LibraryEntry, String)]
        let folder: String
        if let client = try context.daemonClient(values) {
            (rows, folder) = try DaemonCalls.list(client)
        } else {
            let library = context.library
            folder = library.userDirectory
            var entries: [LibraryEntry]
            if let problem = context.libraryFolderProblem {
                // The built-ins are still there; only the user's gestures are not.
                context.warn(problem + "; listing the built-in gestures only")
                entries = []
                if let builtins = library.builtinDirectory {
                    entries = try GestureLibrary(userDirectory: builtins, builtinDirectory: nil).list()
                        .map { LibraryEntry(name: $0.name, path: $0.path, source: .builtin) }
                }
            } else {
                entries = try library.list()
            }
            rows = entries.map { entry in
                let summary: String
                do {
                    summary = GestureRender.describe(try GestureFile.load(path: entry.path, regularOnly: true))
                } catch {
                    summary = "unreadable: \(shown("\(error)"))"
                }
                return (entry, summary)
            }
        }
        if values[jsonFlag] {
            let items = rows.map { entry, summary in
                JSONText.object([
                    ("name", JSONText.string(entry.name)), ("source", JSONText.string(entry.source.rawValue)),
                    ("path", JSONText.string(entry.path)), ("summary", JSONText.string(summary)),
                    ("hides_builtin", entry.hidesBuiltin ? "true" : "false"),
                ])
            }
            context.print(JSONText.array(items))
            return
        }
        if rows.isEmpty {
            context.print("No gestures yet. Library folder: \(shown(folder))")
            return
        }
        let names = rows.map { shown($0.0.name) }
        let width = names.reduce(0) { max($0, $1.count) }
        let sources = rows.map { entry, _ in
            entry.source == .builtin ? "built-in" : entry.hidesBuiltin ? "user, hides built-in" : "user"
        }
        let sourceWidth = sources.reduce(0) { max($0, $1.count) }
        for ((_, summary), (name, source)) in zip(rows, zip(names, sources)) {
            let padded = name + String(repeating: " ", count: width - name.count)
            let paddedSource = source + String(repeating: " ", count: sourceWidth - source.count)
            // A summary may come from the daemon (list through it): escaped,
            // as every field that reaches a terminal (issue 36).
            context.print("\(padded)  \(paddedSource)  \(shown(summary))")
        }
    }

    static let rename = Command(
        name: "rename", abstract: "Rename a gesture in the library.",
        discussion: """
            Built-in gestures cannot be renamed (save a copy instead).
            Replacing an existing gesture asks on a terminal and needs --force
            otherwise.
            """,
        section: section,
        arguments: [name, newName],
        options: [GestureOutput.force]
    ) { values, context in
        let name = values[LibraryCommands.name]
        let newName = values[LibraryCommands.newName]
        let library = context.library
        let overwrite = try name == newName || context.mayReplace(newName, in: library, force: values[GestureOutput.force])
        try library.rename(name, to: newName, overwrite: overwrite)
        context.print("renamed \"\(shown(name))\" to \"\(shown(newName))\"")
        if library.hasBuiltin(named: newName) { context.noteHidesBuiltin(newName) }
    }

    static let remove = Command(
        name: "rm", abstract: "Delete a gesture from the library.",
        discussion: """
            Asks for confirmation on a terminal; needs --force otherwise.
            Built-in gestures cannot be deleted.
            """,
        section: section,
        arguments: [names],
        options: [GestureOutput.force]
    ) { values, context in
        let names = values[LibraryCommands.names]
        if let client = try context.daemonClient(values) {
            if !values[GestureOutput.force] {
                let list = listed(names, quoted: true)
                _ = try context.confirmOrRefuse(
                    "Delete \(list) from the daemon's library?", refusal: "deleting needs --force when not asked on a terminal")
            }
            for name in names {
                try DaemonCalls.remove(client, name: name)
                context.print("deleted \"\(shown(name))\"")
            }
            return
        }
        let library = context.library
        // Check every name before deleting anything.
        for name in names {
            let entry = try library.entry(named: name)
            if entry.source == .builtin {
                throw CommandFailure.failure("\"\(shown(name))\" is a built-in gesture and cannot be deleted")
            }
        }
        if !values[GestureOutput.force] {
            let list = listed(names, quoted: true)
            _ = try context.confirmOrRefuse(
                "Delete \(list)?", refusal: "deleting needs --force when not asked on a terminal")
        }
        for name in names {
            try library.remove(name)
            context.print("deleted \"\(shown(name))\"")
        }
    }
}

extension CommandContext {
    /// Says that the user gesture just saved as `name` hides the built-in
    /// gesture of that name, which would otherwise change without a word
    /// what `play NAME` plays.
    func noteHidesBuiltin(_ name: String) {
        note(
            "\"\(shown(name))\" hides the built-in gesture of the same name;"
                + " delete yours ('gesturectl rm') to use the built-in again")
    }
}
