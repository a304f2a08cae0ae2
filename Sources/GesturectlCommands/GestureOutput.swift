import CommandKit
import GestureFormat
import GestureLibrary
import GestureModel
import OperatingSystem

/// The options of every command that produces a gesture, and writing it.
enum GestureOutput {
    /// `-o/--output`, `--save`, `--name`, `--description`, `--force`.
    static let options: [Option] = [
        .option(
            "output", short: "o", valueName: "file",
            help: "Write the gesture to FILE ('-' for standard output, the default when --save is not given)."),
        .option("save", valueName: "name", help: "Save the gesture in the library under NAME."),
        .option("name", valueName: "name", help: "The name stored in the gesture (default: from the input or the shape)."),
        .option("description", valueName: "text", help: "The description stored in the gesture."),
        forceFlag,
    ]

    /// `-f/--force`: replace without asking.
    static let forceFlag = Option.flag(
        "force", short: "f", help: "Replace an existing file or library gesture without asking.")

    /// Applies `--name`/`--description`, then writes `gesture` where the
    /// options say: the library (`--save`), a file, or standard output.
    static func write(_ gesture: Gesture, values: ParsedValues, context: CommandContext) throws {
        var gesture = gesture
        if let name = values.string("name") { gesture.name = name }
        if let description = values.string("description") { gesture.description = description }
        let force = values.flag("force")
        if let name = values.string("save") {
            let library = context.library
            let overwrite = try context.mayReplace(name, in: library, force: force)
            let entry = try library.save(gesture, as: name, overwrite: overwrite)
            context.note("saved \"\(shown(name))\" (\(shown(entry.path)))")
            if values.string("output") == nil { return }
        }
        try writeGesture(gesture, to: values.string("output") ?? "-", force: force, context: context)
    }

    /// Writes a gesture to a file atomically, or to standard output for `-`.
    static func writeGesture(_ gesture: Gesture, to output: String, force: Bool, context: CommandContext) throws {
        do {
            try gesture.validate()
        } catch {
            throw CommandFailure.failure("the resulting gesture is not valid: \(error.description)")
        }
        try writeText(GestureFileFormat.encode(gesture), to: output, force: force, context: context)
    }

    /// Writes text to a file atomically, or to standard output for `-`;
    /// an existing file is replaced only with `force` or after asking.
    static func writeText(_ text: String, to output: String, force: Bool, context: CommandContext) throws {
        if output == "-" {
            context.standardOutput.write(text)
            return
        }
        try checkOutputPath(output, context: context)
        let path = context.resolve(output)
        var overwrite = force
        if !force && FileIO.exists(path) {
            overwrite = try context.confirmOrRefuse(
                "Replace \(shown(output))?", refusal: "\(shown(output)) already exists (use --force to replace it)")
        }
        do {
            try FileIO.writeAtomically(Array(text.utf8), to: path, overwrite: overwrite)
        } catch {
            throw FileSystemError(kind: error.kind, path: output, operation: error.operation, reason: error.reason)
        }
    }

    /// Refuses an output path that can never be written as a file, saying
    /// why in the user's terms: an empty name, or a folder (where no
    /// `--force` could help).
    static func checkOutputPath(_ output: String, context: CommandContext) throws {
        if output.isEmpty {
            throw CommandFailure.usage("-o/--output: the file name is empty; give a file name, or '-' for standard output")
        }
        if FileIO.isDirectory(context.resolve(output)) {
            throw CommandFailure.failure(
                "-o/--output: \(shown(output)) is a folder; give the name of a file to write"
                    + " (e.g. \(shown(output.hasSuffix("/") ? output : output + "/"))NAME), or '-' for standard output")
        }
    }
}

extension CommandContext {
    /// Whether the library gesture `name` may be replaced: yes with
    /// `force` or when there is none of the user's; otherwise asks on a
    /// terminal and refuses elsewhere.
    func mayReplace(_ name: String, in library: GestureLibrary, force: Bool) throws -> Bool {
        guard !force, (try? library.entry(named: name))?.source == .user else { return force }
        return try confirmOrRefuse(
            "Replace the gesture \"\(shown(name))\" in the library?",
            refusal: "a gesture named \"\(shown(name))\" already exists (use --force to replace it)")
    }

    /// Asks a yes/no question on the terminal; without a terminal on
    /// standard input, refuses with `refusal` (status 1) so that scripts
    /// never block and never destroy data by accident.
    func confirmOrRefuse(_ question: String, refusal: String) throws -> Bool {
        guard isStandardInputTerminal else { throw CommandFailure.failure(refusal) }
        standardError.write("\(CommandContext.display(question)) [y/N] ")
        let answer = Self.readTerminalLine().lowercased()
        guard answer == "y" || answer == "yes" else { throw CommandFailure.failure("cancelled; nothing changed") }
        return true
    }

    private static func readTerminalLine() -> String {
        var bytes: [UInt8] = []
        // One byte at a time, so that nothing after the line is taken from the terminal.
        while bytes.count < 256, let byte = (try? FileDescriptor.standardInput.read(upTo: 1))?.first, byte != 10 {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: [" ", "\t", "\r"])
    }
}

extension String {
    /// The string without the given characters at either end.
    func trimmingCharacters(in characters: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, characters.contains(first) { text = text.dropFirst() }
        while let last = text.last, characters.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
