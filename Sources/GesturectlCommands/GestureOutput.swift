import CommandKit
import GestureFormat
import GestureLibrary
import GestureModel
import OperatingSystem

/// The options of every command that produces a gesture, and writing it.
enum GestureOutput {
    /// `-o/--output`: where the gesture goes (standard output without it,
    /// unless `--save` is given).
    static let output: TypedOption<String?> = .string(
        "output", short: "o", valueName: "file",
        help: "Write the gesture to FILE ('-' for standard output, the default when --save is not given).",
        completion: .files)
    /// `--save NAME`: into the library.
    static let save: TypedOption<String?> = .string(
        "save", valueName: "name", help: "Save the gesture in the library under NAME.", completion: .libraryName)
    /// `--name`: the name stored in the gesture.
    static let name: TypedOption<String?> = .string(
        "name", valueName: "name", help: "The name stored in the gesture (default: from the input or the shape).")
    /// `--description`: the description stored in the gesture.
    static let description: TypedOption<String?> = .string(
        "description", valueName: "text", help: "The description stored in the gesture.")
    /// `-f/--force`: replace without asking.
    static let force: TypedOption<Bool> = .flag(
        "force", short: "f", help: "Replace an existing file or library gesture without asking.")

    /// `-o/--output`, `--save`, `--name`, `--description`, `--force`.
    static let options: [any OptionDeclaration] = [output, save, name, description, force]

    /// What `-o` means when it is not given and nothing is saved: standard output.
    static let standardOutput = "-"

    /// Applies `--name`/`--description`, then writes `gesture` where the
    /// options say: the library (`--save`), a file, or standard output.
    static func write(_ gesture: Gesture, values: ParsedValues, context: CommandContext) throws {
        var gesture = gesture
        if let name = values[Self.name] { gesture.name = name }
        if let description = values[Self.description] { gesture.description = description }
        let force = values[Self.force]
        if let name = values[save] {
            let library = context.library
            let overwrite = try context.mayReplace(name, in: library, force: force)
            let entry = try library.save(gesture, as: name, overwrite: overwrite, readFrom: context.mappedFiles)
            context.note("saved \"\(shown(name))\" (\(shown(entry.path)))")
            if entry.hidesBuiltin { context.noteHidesBuiltin(name) }
            if values[output] == nil { return }
        }
        try writeGesture(gesture, to: values[output] ?? standardOutput, force: force, context: context)
    }

    /// Writes a gesture to a file atomically, or to standard output for `-`.
    static func writeGesture(_ gesture: Gesture, to output: String, force: Bool, context: CommandContext) throws {
        do {
            try gesture.validate()
        } catch {
            throw CommandFailure.failure("the resulting gesture is not valid: \(error.description)")
        }
        // Written piece by piece: a long gesture's text is never held whole (issue 39).
        try writeByteStream(to: output, force: force, context: context) { write in
            try GestureFileFormat.encode(gesture, inPieces: write)
        }
    }

    /// Writes text where `-o` points (`-`: standard output), by what is there:
    /// - nothing, or a regular file: atomically (a temporary file, fsync,
    ///   rename); an existing file only with `force` or after asking;
    /// - a symbolic link: followed, and its target written by these rules
    ///   (the link itself is never replaced by a file);
    /// - a character device or a FIFO (`/dev/null`, `/dev/stdout` on a
    ///   terminal, a named pipe): written into directly, no temporary file,
    ///   no rename, no `--force` needed — never replaced by a file;
    /// - a folder, a socket, a block device or an empty name: refused, saying so.
    static func writeText(_ text: String, to output: String, force: Bool, context: CommandContext) throws {
        try writeStream(to: output, force: force, context: context) { write in try write(text) }
    }

    /// Writes what `produce` hands to its `write` function where `-o`
    /// points, by the rules of ``writeText(_:to:force:context:)``, piece by
    /// piece as it comes (nothing is held whole): standard output, a device
    /// or a FIFO directly, a file into its temporary file, renamed into
    /// place only when `produce` returns. `write` throws when a piece cannot
    /// be written (`produce` should then stop; the error is reported once);
    /// an error of `produce`'s own leaves no file behind.
    static func writeStream(
        to output: String, force: Bool, context: CommandContext,
        _ produce: (_ write: (String) throws -> Void) throws -> Void
    ) throws {
        try writeByteStream(to: output, force: force, context: context) { write in
            try withoutActuallyEscaping(write) { write in
                try produce { text in try write(Array(text.utf8)) }
            }
        }
    }

    /// ``writeStream(to:force:context:_:)`` for producers that make UTF-8
    /// bytes (the exports' writers): no String in between.
    static func writeByteStream(
        to output: String, force: Bool, context: CommandContext,
        _ produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        if output == "-" || Self.isStandardOutput(output) {
            // The tool reports a failed standard output once the command
            // has returned; stop producing at once.
            let standardOutput = context.standardOutput
            do {
                try produce { bytes in
                    standardOutput.write(bytes: bytes)
                    if standardOutput.failure != nil { throw StandardOutputFailed() }
                }
            } catch is StandardOutputFailed {
                return
            }
            return
        }
        try checkOutputPath(output, context: context)
        let resolved = context.resolve(output)
        // stat follows links, /proc/self/fd's included (/dev/stdout).
        // Harmless: what cannot be examined is written as a new file, and without --force never over
        // an existing one (link(2) refuses it); the write reports why it fails.
        let followed = (try? Paths.status(resolved))?.type
        // An open descriptor named by path (/dev/stderr, /dev/fd/N) is
        // written into as it is, whatever it leads to; so are devices and FIFOs.
        if followed == .characterDevice || followed == .fifo || Self.namesOpenDescriptor(output) {
            do {
                let file = try FileDescriptor.open(resolved, [.writeOnly, .append])
                defer { file.close() }
                try produce { bytes in
                    do throws(SystemError) {
                        try file.writeAll(bytes, path: output)
                    } catch {
                        throw FileSystemError(error, path: output, operation: "cannot write")
                    }
                }
            } catch let error as SystemError {
                throw FileSystemError(error, path: output, operation: "cannot write")
            }
            return
        }
        let path = try target(of: resolved, shownAs: output)
        var overwrite = force
        if !force && followed != nil {
            overwrite = try context.confirmOrRefuse(
                "Replace \(shown(output))?", refusal: "\(shown(output)) already exists (use --force to replace it)")
        }
        do {
            try FileIO.writeAtomically(to: path, overwrite: overwrite) { write in
                try withoutActuallyEscaping(write) { write in
                    try produce { bytes in try write(bytes) }
                }
                // Before the rename: nothing made from a file cut short meanwhile takes the output's name.
                try context.mappedFiles.checkIntact()
            }
        } catch let error as FileSystemError {
            throw FileSystemError(kind: error.kind, path: output, operation: error.operation, reason: error.reason)
        }
    }

    /// Thrown to stop a producer once standard output has failed (the tool
    /// reports that failure itself).
    private struct StandardOutputFailed: Error {}

    /// Whether `output` names standard output by path (`/dev/stdout`,
    /// `/dev/fd/1`, `/proc/self/fd/1`): written as `-` is.
    static func isStandardOutput(_ output: String) -> Bool {
        ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].contains(output)
    }

    /// Whether `output` names a descriptor the process has open
    /// (`/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`).
    static func namesOpenDescriptor(_ output: String) -> Bool {
        if output == "/dev/stderr" || output == "/dev/stdin" { return true }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where output.hasPrefix(prefix) {
            let number = output.dropFirst(prefix.count)
            return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return false
    }

    /// The path to write for `path`: itself, or, for a symbolic link, what it
    /// finally points to (also when that does not exist yet).
    private static func target(of path: String, shownAs output: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            // Harmless: what cannot be examined is written as it is named; the write then reports why it fails.
            guard (try? Paths.status(current, followLinks: false))?.type == .symbolicLink else { return current }
            let link: String
            do {
                link = try FileSystem.linkTarget(current)
            } catch {
                throw FileSystemError(error, path: output, operation: "cannot follow the link")
            }
            current = link.hasPrefix("/") ? link : FileIO.directoryName(current) + "/" + link
        }
        throw CommandFailure.failure("-o/--output: \(shown(output)) is a chain of more than 40 links (a loop?)")
    }

    /// Refuses an output path that can never be written as a file, saying
    /// why in the user's terms: an empty name, a folder, a socket or a block
    /// device (where no `--force` could help).
    static func checkOutputPath(_ output: String, option: String = "-o/--output", context: CommandContext) throws {
        // Only -o takes '-' for standard output.
        let orDash = option == "-o/--output" ? ", or '-' for standard output" : ""
        if output.isEmpty {
            throw CommandFailure.usage("\(option): the file name is empty; give a file name\(orDash)")
        }
        // Harmless: a path that cannot be examined is not refused here; writing it reports why it fails.
        switch (try? Paths.status(context.resolve(output)))?.type {
        case .directory?:
            throw CommandFailure.failure(
                "\(option): \(shown(output)) is a folder; give the name of a file to write"
                    + " (e.g. \(shown(output.hasSuffix("/") ? output : output + "/"))NAME)\(orDash)")
        case .socket?:
            throw CommandFailure.failure("\(option): \(shown(output)) is a socket, not a file; give the name of a file to write")
        case .blockDevice?:
            throw CommandFailure.failure(
                "\(option): \(shown(output)) is a block device (a disk); gesturectl does not write onto disks")
        default:
            return
        }
    }
}

extension CommandContext {
    /// Whether the library gesture `name` may be replaced: yes with
    /// `force` or when there is none of the user's; otherwise asks on a
    /// terminal and refuses elsewhere.
    func mayReplace(_ name: String, in library: GestureLibrary, force: Bool) throws -> Bool {
        // Harmless: a gesture that cannot be looked up is not replaced (the save, not overwriting, refuses an
        // existing file with "already exists" or reports why the folder cannot be written).
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
        // Harmless: a failed read ends the answer, which is then no "yes": "cancelled; nothing changed".
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
