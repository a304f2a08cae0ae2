import CommandKit
import GestureFormat
import GestureLibrary
import GestureModel
import OperatingSystem

/// Where a command reads a gesture from, decided from a NAME|FILE argument.
///
/// The rule, as documented in the help: `-` is standard input; an argument
/// that contains `/` or names an existing file is a file; anything else is
/// a library name.
enum GestureSource: Equatable {
    case standardInput
    case file(String)
    case library(String)

    init(argument: String, context: CommandContext) {
        if argument == "-" {
            self = .standardInput
        } else if argument.contains("/") || FileIO.exists(context.resolve(argument)) {
            self = .file(argument)
        } else {
            self = .library(argument)
        }
    }
}

extension Completion {
    /// A NAME|FILE argument: the library's names (from the hidden
    /// `list --names`, fast enough for every Tab) and file names.
    static let gesture = Completion.toolOutput(arguments: ["list", "--names"], files: true)
    /// A library name: the library's names only.
    static let libraryName = Completion.toolOutput(arguments: ["list", "--names"], files: false)
}

extension CommandContext {
    /// `path` made absolute against the context's current directory.
    func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : (currentDirectory == "/" ? "/" : currentDirectory + "/") + path
    }

    /// The gesture library this context's environment describes.
    var library: GestureLibrary {
        GestureLibrary(environment: environment, executablePath: Paths.executable())
    }

    /// Reads a file named on the command line ('-' for standard input),
    /// refusing more than `limit` bytes (by default a gesture file's);
    /// errors name it as the user typed it. With `regularOnly` (a daemon's
    /// own file) only a regular file is read, never standard input (see
    /// ``GestureLibrary/FileIO/read(path:limit:regularOnly:)``).
    func readFile(_ path: String, limit: Int = GestureLimits.maximumFileBytes, regularOnly: Bool = false) throws -> [UInt8] {
        if path == "-" && !regularOnly { return try readStandardInput(limit) }
        do {
            return try FileIO.read(path: resolve(path), limit: limit, regularOnly: regularOnly)
        } catch {
            throw FileSystemError(kind: error.kind, path: path, operation: error.operation, reason: error.reason)
        }
    }

    /// A file named on the command line, to be read piece by piece
    /// (``FilePieces``); standard input ('-') is read here, whole, up to
    /// `limit` bytes.
    func fileToRead(_ path: String, limit: Int) throws -> FileToRead {
        if path == "-" { return .bytes(try readStandardInput(limit)) }
        return .path(resolve(path), shown: path, limit: limit)
    }

    /// Loads the gesture a NAME|FILE argument stands for.
    func loadGesture(_ argument: String) throws -> Gesture {
        switch GestureSource(argument: argument, context: self) {
        case .standardInput:
            let bytes = try readStandardInput(GestureLimits.maximumFileBytes)
            do {
                return try GestureFileFormat.decode(bytes, source: "<stdin>")
            } catch {
                throw CommandFailure.failure(error.description)
            }
        case .file(let path):
            // A long gesture's file is mapped and its samples left there
            // (issue 39): what a command holds does not grow with it.
            let contents: FileIO.Contents
            do {
                contents = try FileIO.readOrMap(
                    path: resolve(path), limit: GestureLimits.maximumFileBytes,
                    mappedLimit: GestureLimits.maximumMappedFileBytes, mapFrom: GestureFile.mapFrom)
            } catch {
                throw FileSystemError(kind: error.kind, path: path, operation: error.operation, reason: error.reason)
            }
            guard case .mapped(let file) = contents else { return try GestureFile.decode(contents, source: path) }
            // Should another program cut it short meanwhile, no result made from it is committed.
            mappedFiles.note(file, shownAs: path)
            let gesture = try GestureFile.decode(contents, source: path)
            services[MappedGestureRead.self]?.decoded(file.path)
            return gesture
        case .library(let name):
            return try GestureFile.load(path: libraryEntry(named: name).path, regularOnly: true)
        }
    }

    /// The library's entry for a NAME|FILE argument that is no file.
    private func libraryEntry(named name: String) throws -> LibraryEntry {
        do {
            return try library.entry(named: name)
        } catch {
            // A library file that cannot be looked at says why.
            guard error.kind == .notFound else { throw error }
            // Neither reading is there: say both, in the user's terms.
            throw CommandFailure.notFound(
                "\"\(shown(name))\" is neither a file (none in \(shown(currentDirectory))) nor a gesture in the library"
                    + " (see 'gesturectl list')")
        }
    }

    /// Why the user's library folder cannot be used, when something other
    /// than a folder is at its path (`GESTURECTL_LIBRARY` set to a file).
    var libraryFolderProblem: String? {
        let folder = library.userDirectory
        guard FileIO.exists(folder), !FileIO.isDirectory(folder) else { return nil }
        let origin = hasValue("GESTURECTL_LIBRARY") ? " (from GESTURECTL_LIBRARY)" : ""
        return "the library folder \(shown(folder))\(origin) is not a folder"
    }
}

/// For tests: told when a command has read a mapped gesture file (its
/// resolved path) and before it uses the samples left there, so that a
/// test can change the file at that moment, not at a moment it guesses.
public struct MappedGestureRead: Sendable {
    /// Called with the file's resolved path.
    public var decoded: @Sendable (_ path: String) -> Void

    /// A hook calling `decoded`.
    public init(decoded: @escaping @Sendable (_ path: String) -> Void) { self.decoded = decoded }
}

/// A file to read in pieces: its path, or standard input's bytes.
enum FileToRead: Sendable {
    case bytes([UInt8])
    /// The resolved path, the path as the user typed it, the most bytes accepted.
    case path(String, shown: String, limit: Int)

    /// Opens it.
    func open() throws -> FilePieces {
        switch self {
        case .bytes(let bytes): return FilePieces(whole: bytes)
        case .path(let path, let shown, let limit): return try FilePieces(path: path, shown: shown, limit: limit)
        }
    }
}

/// A file read in pieces (see ``FileToRead``), errors naming it as the
/// user typed it: ``next()`` gives the next bytes, empty at the end.
final class FilePieces {
    private var whole: [UInt8]?
    private var file: FileIO.Pieces?
    private let shown: String

    init(whole: [UInt8]) {
        self.whole = whole
        shown = "-"
    }

    init(path: String, shown: String, limit: Int) throws(FileSystemError) {
        self.shown = shown
        do throws(FileSystemError) {
            file = try FileIO.Pieces(path: path, limit: limit, pieceBytes: Self.pieceBytes)
        } catch {
            throw FileSystemError(kind: error.kind, path: shown, operation: error.operation, reason: error.reason)
        }
    }

    /// How much one read asks for.
    static let pieceBytes = 1 << 20

    /// The next bytes; empty at the end.
    func next() throws -> [UInt8] {
        if let bytes = whole {
            whole = []
            return bytes
        }
        // Bytes given whole were handed out above: nothing follows them.
        guard let file else { return [] }
        do throws(FileSystemError) {
            return try file.next()
        } catch {
            throw FileSystemError(kind: error.kind, path: shown, operation: error.operation, reason: error.reason)
        }
    }
}
