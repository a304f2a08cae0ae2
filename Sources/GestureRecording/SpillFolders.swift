import OperatingSystem

/// Where an import's temporary file of samples goes (``SampleSpill``):
/// on a disk, not in memory. `/tmp` is often tmpfs (RAM), where a long
/// import's samples would take as much memory as if they were kept.
///
/// In order, the first where a file can be made:
/// 1. `$TMPDIR`, when set: the user's own choice of a place for temporary
///    files wins (as for sort(1)), even a tmpfs;
/// 2. the folder of the output file, when there is one (`-o FILE`, or
///    the library folder for `--save`): it must take the gesture anyway;
/// 3. `$XDG_CACHE_HOME/gesturectl`, else `~/.cache/gesturectl` (created,
///    mode 0700, as the XDG base directories say);
/// 4. `/tmp`.
///
/// The file is unlinked as soon as it is made, so nothing is left
/// behind in any of them, whatever ends the import.
public enum SpillFolders {
    /// A folder to try, and whether to create it (with its parents, 0700) first.
    public struct Folder: Hashable, Sendable {
        /// The folder's path.
        public var path: String
        /// Whether it is created when missing.
        public var create: Bool

        /// A folder to try.
        public init(path: String, create: Bool = false) {
            self.path = path
            self.create = create
        }
    }

    /// The folders to try, in order, for an import writing to `output` (the
    /// output file's path, or the library folder for `--save`; nil for
    /// standard output) in `environment`.
    public static func candidates(environment: [String: String], output: String?) -> [Folder] {
        var folders: [Folder] = []
        if let temporary = environment["TMPDIR"], !temporary.isEmpty { folders.append(Folder(path: temporary)) }
        if let output, !output.isEmpty {
            folders.append(Folder(path: folderOf(output)))
        }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            folders.append(Folder(path: cache + "/gesturectl", create: true))
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folders.append(Folder(path: (home == "/" ? "" : home) + "/.cache/gesturectl", create: true))
        }
        folders.append(Folder(path: "/tmp"))
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.path).inserted }
    }

    /// The folder part of `path` (`.` when there is none).
    static func folderOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates `path` and its missing parents, mode 0700. Best effort:
    /// a folder that cannot be made is then not used (the next one is).
    static func createPrivately(_ path: String) {
        guard !Paths.exists(path) else { return }
        let parent = folderOf(path)
        if parent != path && parent != "/" && parent != "." { createPrivately(parent) }
        // Harmless: a folder that cannot be made is skipped when no file can be made in it.
        guard (try? FileSystem.makeDirectory(path, permissions: 0o700)) != nil else { return }
        // 0700 whatever the umask: a mask such as 0177 would leave a folder
        // its owner cannot enter.
        guard let folder = try? FileDescriptor.open(path, [.directory, .noFollow]) else { return }
        try? folder.setPermissions(0o700, path: path)
        folder.close()
    }
}
