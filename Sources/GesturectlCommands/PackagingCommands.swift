import CommandKit
import GestureLibrary
import OperatingSystem

/// `completions` and `manpages`: hidden commands that print the shell
/// completions and write the manual pages, both generated from the same
/// declarations as `--help` (scripts/package installs their output;
/// docs/PACKAGING.md). Hidden because they are for packagers, not users.
enum PackagingCommands {
    private static let shell: TypedArgument<ShellCompletions.Shell> = .choice("shell", help: "The shell.")
    private static let folder: TypedArgument<String> = .required(
        "folder", help: "Where to write the pages (created if missing).", completion: .directories)
    private static let formatSpecification: TypedOption<String?> = .string(
        "format-spec", valueName: "file", help: "The file format's specification (docs/FORMAT.md) for gesturectl-format(5).",
        completion: .files)

    static let completions: Command = {
        var command = Command(
            name: "completions", abstract: "Print the shell completion script for bash, zsh or fish.",
            discussion: """
                Generated from the same declarations as --help. To try it:
                  source <(gesturectl completions bash)
                The Debian package installs all three.
                """,
            arguments: [shell]
        ) { values, context in
            let shell = values[PackagingCommands.shell]
            context.standardOutput.write(ShellCompletions(tool: Gesturectl.tool).script(for: shell))
        }
        command.isHidden = true
        return command
    }()

    static let manpages: Command = {
        var command = Command(
            name: "manpages", abstract: "Write the manual pages into a folder.",
            discussion: """
                Writes gesturectl.1, one page per command (gesturectl-play.1 and
                so on; gesturectl-daemon.8) and, with --format-spec,
                gesturectl-format.5 from that Markdown file (docs/FORMAT.md). The
                pages carry the date of $SOURCE_DATE_EPOCH when set (reproducible
                packages), else today's.
                """,
            arguments: [folder],
            options: [formatSpecification]
        ) { values, context in
            let folder = context.resolve(values[PackagingCommands.folder])
            let manual = Gesturectl.manualPages(date: manualDate(context.environment))
            var pages = manual.pages
            if let spec = values[formatSpecification] {
                let bytes = try FileIO.read(path: context.resolve(spec), limit: 1 << 20)
                pages.append(
                    ManualPages.markdownPage(
                        name: "gesturectl-format", section: 5, date: manual.date, source: "gesturectl \(Gesturectl.version)",
                        summary: "the gesturectl gesture file format (.gesture.json)", markdown: String(decoding: bytes, as: UTF8.self)))
            }
            try FileIO.createDirectories(folder)
            for page in pages {
                try FileIO.writeAtomically(Array(page.text.utf8), to: folder + "/" + page.fileName)
            }
            context.note("wrote \(pages.count) pages into \(folder)")
        }
        command.isHidden = true
        return command
    }()

    /// `SOURCE_DATE_EPOCH`'s date when it is set (reproducible builds), else today's (UTC).
    static func manualDate(_ environment: [String: String]) -> String {
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap({ Int64($0) }) {
            return ManualPages.date(secondsSince1970: epoch)
        }
        return WallClock.utc("%Y-%m-%d")
    }
}

extension Gesturectl {
    /// The manual pages: the tool's page (with environment and files) and
    /// one per command; the daemon's is in section 8.
    static func manualPages(date: String) -> ManualPages {
        ManualPages(
            tool: tool, date: date, sections: ["daemon": 8],
            environment: [
                .init("GESTURECTL_LIBRARY", "The folder of your named gestures (created when first saved)."),
                .init("GESTURECTL_BUILTINS", "The folder of built-in gestures, instead of /usr/share/gesturectl/gestures (the share/gesturectl/gestures folder beside the installed binary)."),
                .init("GESTURECTL_SOCKET", "The daemon's socket, as --socket."),
                .init("XDG_DATA_HOME", "The library is $XDG_DATA_HOME/gesturectl/gestures when GESTURECTL_LIBRARY is not set."),
                .init("XDG_RUNTIME_DIR", "A user's daemon listens on $XDG_RUNTIME_DIR/gesturectl.sock."),
                .init("HOME", "The library is ~/.local/share/gesturectl/gestures when neither of the above is set."),
                .init("NO_COLOR", "When set, nothing is coloured."),
                .init("SOURCE_DATE_EPOCH", "The date the generated manual pages carry."),
            ],
            files: [
                .init("~/.local/share/gesturectl/gestures/", "Your named gestures, NAME.gesture.json each."),
                .init("/usr/share/gesturectl/gestures/", "The built-in gestures (read-only)."),
                .init("/etc/gesturectl/daemon.json", "The system daemon's configuration (optional)."),
                .init("/var/lib/gesturectl/gestures/", "The system daemon's library."),
                .init("/var/lib/gesturectl/bindings.json", "The system daemon's key bindings changed over its socket."),
                .init("/run/gesturectl/gesturectl.sock", "The system daemon's socket (gesturectl.socket)."),
                .init(
                    "/usr/lib/udev/rules.d/70-gesturectl-uinput.rules",
                    "Makes /dev/uinput, /dev/uhid and the /dev/hidgN of gesturectl's USB gadget writable by the group gesturectl."),
                .init(
                    "/etc/systemd/system/gesturectl.service.d/outputs.conf",
                    "The system service's devices for the configured outputs (written by daemon --write-dropin)."),
            ],
            seeAlso: ["gesturectl-format(5)", "systemd-sysusers(8)", "udev(7)"]
        )
    }
}
