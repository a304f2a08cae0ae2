import GestureFormat
import GestureModel
import OperatingSystem

/// Where a library entry lives.
public enum LibrarySource: String, Sendable, Equatable {
    /// The user's own library folder; entries can be changed.
    case user
    /// The gestures shipped with gesturectl; read-only.
    case builtin = "built-in"
}

/// One named gesture in the library.
public struct LibraryEntry: Sendable, Equatable {
    /// The gesture's library name.
    public var name: String
    /// The file holding it.
    public var path: String
    /// User library or built-in.
    public var source: LibrarySource
    /// Whether this user gesture hides a built-in gesture of the same name
    /// (which is back once the user's is deleted). Always `false` for a
    /// built-in entry.
    public var hidesBuiltin: Bool

    /// Creates an entry.
    public init(name: String, path: String, source: LibrarySource, hidesBuiltin: Bool = false) {
        self.name = name
        self.path = path
        self.source = source
        self.hidesBuiltin = hidesBuiltin
    }
}

/// Why a library operation failed.
public struct LibraryError: KindedError, Equatable {
    /// Categories callers turn into exit statuses.
    public enum Kind: Sendable, Equatable {
        case invalidName, notFound, alreadyExists, readOnly, permissionDenied, invalidFile, other
    }
    /// The category.
    public var kind: Kind
    /// A complete one-line message.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// The named gestures a user has saved, plus the built-in ones.
///
/// User gestures are files `NAME.gesture.json` in ``userDirectory``;
/// built-in gestures are files of the same form in ``builtinDirectory`` and
/// cannot be changed (saving under a built-in name makes a user gesture that
/// takes precedence).
public struct GestureLibrary: Sendable {
    /// The user's library folder (created when something is first saved).
    public var userDirectory: String
    /// The folder of shipped gestures, if one was found.
    public var builtinDirectory: String?
    /// The permissions of the folders ``save(_:as:overwrite:owner:readFrom:)``
    /// makes: 0700 by default, since a user's recorded gestures (an unlock
    /// pattern, say) are theirs alone, as XDG asks of its data folder; the
    /// daemon's shared library keeps 0755.
    public var folderPermissions: UInt32 = 0o700

    /// Creates a library over explicit folders.
    public init(userDirectory: String, builtinDirectory: String?) {
        self.userDirectory = userDirectory
        self.builtinDirectory = builtinDirectory
    }

    /// The library the environment describes:
    /// - user folder: `$GESTURECTL_LIBRARY`, else
    ///   `$XDG_DATA_HOME/gesturectl/gestures`, else
    ///   `$HOME/.local/share/gesturectl/gestures`;
    /// - built-ins: `$GESTURECTL_BUILTINS`, else
    ///   `<prefix>/share/gesturectl/gestures` where the executable is
    ///   `<prefix>/bin/gesturectl`, else the `Recordings/` folder of the
    ///   source checkout the executable was built in.
    ///
    /// Nothing here traps when a folder is missing: a missing built-in
    /// folder just means no built-ins are listed.
    public init(environment: [String: String], executablePath: String?) {
        if let library = environment["GESTURECTL_LIBRARY"], !library.isEmpty {
            userDirectory = library
        } else if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            userDirectory = data + "/gesturectl/gestures"
        } else {
            userDirectory = (environment["HOME"] ?? "") + "/.local/share/gesturectl/gestures"
        }
        builtinDirectory = Self.findBuiltins(environment: environment, executablePath: executablePath)
    }

    static func findBuiltins(environment: [String: String], executablePath: String?) -> String? {
        if let builtins = environment["GESTURECTL_BUILTINS"], !builtins.isEmpty { return builtins }
        guard let executable = executablePath else { return nil }
        let binFolder = FileIO.directoryName(executable)
        let installed = FileIO.directoryName(binFolder) + "/share/gesturectl/gestures"
        if FileIO.isDirectory(installed) { return installed }
        // A build in a checkout: <checkout>/.build/<triple>/debug/gesturectl.
        var folder = binFolder
        for _ in 0..<6 {
            if FileIO.isRegularFile(folder + "/Package.swift") && FileIO.isDirectory(folder + "/Recordings") {
                return folder + "/Recordings"
            }
            let parent = FileIO.directoryName(folder)
            if parent == folder { break }
            folder = parent
        }
        return nil
    }

    /// The file a user gesture named `name` is stored in.
    public func userPath(for name: String) -> String { "\(userDirectory)/\(name)\(GestureName.fileSuffix)" }

    /// Every entry, user gestures first then built-ins, each sorted by name.
    /// A built-in that a user gesture of the same name hides is left out;
    /// that user gesture's ``LibraryEntry/hidesBuiltin`` says so.
    public func list() throws(LibraryError) -> [LibraryEntry] {
        var user = try entries(in: userDirectory, source: .user)
        let userNames = Set(user.map(\.name))
        var builtins: [LibraryEntry] = []
        if let builtinDirectory {
            let all = try entries(in: builtinDirectory, source: .builtin)
            let hidden = Set(all.map(\.name)).intersection(userNames)
            for index in user.indices where hidden.contains(user[index].name) { user[index].hidesBuiltin = true }
            builtins = all.filter { !hidden.contains($0.name) }
        }
        return user + builtins
    }

    /// Whether there is a built-in gesture called `name` (whether or not a
    /// user gesture hides it).
    public func hasBuiltin(named name: String) -> Bool {
        guard let builtinDirectory, GestureName.problem(with: name) == nil else { return false }
        // Harmless: only the note that a user gesture hides a built-in depends on it; the built-in's own use reports.
        return FileIO.isRegularFile("\(builtinDirectory)/\(name)\(GestureName.fileSuffix)")
    }

    private func entries(in folder: String, source: LibrarySource) throws(LibraryError) -> [LibraryEntry] {
        do {
            // By name, not by file name: "swipe-up-2.gesture.json" sorts
            // before "swipe-up.gesture.json" ('-' before '.').
            return try FileIO.contentsOfDirectory(folder).compactMap { fileName in
                GestureName.name(fromFileName: fileName).map {
                    LibraryEntry(name: $0, path: folder + "/" + fileName, source: source)
                }
            }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        } catch {
            throw Self.libraryError(error)
        }
    }

    /// The entry called `name`: the user's if there is one, else a built-in.
    /// - Throws: ``LibraryError``: `.notFound` only when neither file is
    ///   there; a file that cannot be looked at (a library folder that may
    ///   not be searched, a loop of links) says why, never "no gesture".
    public func entry(named name: String) throws(LibraryError) -> LibraryEntry {
        let file = try file(named: name)
        if file.source == .user {
            return LibraryEntry(name: name, path: file.path, source: .user, hidesBuiltin: hasBuiltin(named: name))
        }
        return LibraryEntry(name: name, path: file.path, source: file.source)
    }

    /// The file of the gesture called `name`, found as ``entry(named:)``
    /// finds it (the user's, else the built-in), with its status: one
    /// `stat` for each place looked at, and no look for a built-in that a
    /// user gesture hides. For reading the gesture (a play by name), which
    /// needs nothing else of the entry.
    /// - Throws: as ``entry(named:)``.
    public func file(named name: String) throws(LibraryError) -> (path: String, source: LibrarySource, status: FileStatus) {
        if let problem = GestureName.problem(with: name) { throw LibraryError(.invalidName, problem) }
        let user = userPath(for: name)
        if let status = try Self.status(of: user), status.type == .regular { return (user, .user, status) }
        if let builtinDirectory {
            let builtin = "\(builtinDirectory)/\(name)\(GestureName.fileSuffix)"
            if let status = try Self.status(of: builtin), status.type == .regular { return (builtin, .builtin, status) }
        }
        throw LibraryError(.notFound, "no gesture named \"\(name)\" in the library (see 'gesturectl list')")
    }

    private static func status(of path: String) throws(LibraryError) -> FileStatus? {
        do { return try FileIO.status(of: path) } catch { throw libraryError(error) }
    }

    /// Loads the gesture called `name`.
    public func load(named name: String) throws(LibraryError) -> Gesture {
        let entry = try entry(named: name)
        return try GestureFile.load(path: entry.path, regularOnly: true)
    }

    /// Saves `gesture` under `name` (its `name` field is set to `name`).
    /// Refuses to replace an existing user gesture unless `overwrite` is true.
    /// The entry's ``LibraryEntry/hidesBuiltin`` says when the new gesture
    /// hides a built-in of the same name, so that callers can say so.
    /// `owner`: the user the file is given to (the daemon, as root, gives
    /// a member's gesture to them: whose it is, is its file's owner).
    @discardableResult
    /// `readFrom`: the mapped files the gesture's samples come from; should
    /// one have changed by the time the gesture is written, nothing is saved
    /// (see ``GestureFile/write(_:to:overwrite:owner:readFrom:)``).
    public func save(
        _ gesture: Gesture, as name: String, overwrite: Bool, owner: UInt32? = nil, readFrom: MappedFileLog? = nil
    ) throws(LibraryError) -> LibraryEntry {
        if let problem = GestureName.problem(with: name) { throw LibraryError(.invalidName, problem) }
        var named = gesture
        named.name = name
        let path = userPath(for: name)
        do { try FileIO.createDirectories(userDirectory, permissions: folderPermissions) } catch { throw Self.libraryError(error) }
        do {
            try GestureFile.write(named, to: path, overwrite: overwrite, owner: owner, readFrom: readFrom)
        } catch where error.kind == .alreadyExists {
            throw LibraryError(
                .alreadyExists, "a gesture named \"\(name)\" already exists (use --force to replace it)")
        }
        return LibraryEntry(name: name, path: path, source: .user, hidesBuiltin: hasBuiltin(named: name))
    }

    /// Renames a user gesture; the file's `name` field is updated too.
    public func rename(_ name: String, to newName: String, overwrite: Bool) throws(LibraryError) {
        if let problem = GestureName.problem(with: newName) { throw LibraryError(.invalidName, problem) }
        let entry = try entry(named: name)
        guard entry.source == .user else {
            throw LibraryError(.readOnly, "\"\(name)\" is a built-in gesture and cannot be renamed; save a copy instead")
        }
        var gesture = try GestureFile.load(path: entry.path, regularOnly: true)
        gesture.name = newName
        let target = userPath(for: newName)
        if !overwrite && FileIO.exists(target) {
            throw LibraryError(
                .alreadyExists, "a gesture named \"\(newName)\" already exists (use --force to replace it)")
        }
        // Write the renamed content under the new name first, then remove
        // the old file: an interruption leaves both, never neither.
        try GestureFile.write(gesture, to: target, overwrite: overwrite)
        if target != entry.path {
            do { try FileIO.remove(entry.path) } catch { throw Self.libraryError(error) }
        }
    }

    /// Deletes a user gesture.
    public func remove(_ name: String) throws(LibraryError) {
        let entry = try entry(named: name)
        guard entry.source == .user else {
            throw LibraryError(.readOnly, "\"\(name)\" is a built-in gesture and cannot be deleted")
        }
        do { try FileIO.remove(entry.path) } catch { throw Self.libraryError(error) }
    }

    static func libraryError(_ error: FileSystemError) -> LibraryError {
        switch error.kind {
        case .notFound: LibraryError(.notFound, error.description)
        case .permissionDenied: LibraryError(.permissionDenied, error.description)
        case .alreadyExists: LibraryError(.alreadyExists, error.description)
        case .tooLarge, .other: LibraryError(.other, error.description)
        }
    }
}
