import GestureModel
import OperatingSystem

/// Reading whole files and writing them atomically.
///
/// Writes never leave a half-written file behind: the bytes go to a
/// temporary file in the same folder, which is flushed to disk (fsync) and
/// then renamed over the target, so a reader sees either the old file or the
/// new one, and a crash or full disk loses nothing that was there before.
/// The calls themselves are OperatingSystem's; this is the policy.
public enum FileIO {
    /// Reads a whole file, refusing files larger than `limit` bytes. With
    /// `regularOnly` (what a daemon reads: its configuration, bindings,
    /// library), only a regular file is read, opened without following a
    /// link and without blocking (see ``Pieces/init(path:limit:pieceBytes:regularOnly:)``).
    public static func read(path: String, limit: Int, regularOnly: Bool = false) throws(FileSystemError) -> [UInt8] {
        let pieces = try Pieces(path: path, limit: limit, regularOnly: regularOnly)
        var bytes: [UInt8] = []
        while true {
            let piece = try pieces.next()
            if piece.isEmpty { return bytes }
            bytes.append(contentsOf: piece)
        }
    }

    /// A file read piece by piece, refusing more than `limit` bytes: a
    /// file whose size says so before anything is read, and any other
    /// (a pipe, `/dev/zero`, a file still growing) at one byte past the
    /// limit, which is all that is ever read beyond it. The file is closed
    /// at its end, or when the reader goes away.
    public final class Pieces {
        private var descriptor: FileDescriptor?
        private let path: String
        private var limit: Int
        private let pieceBytes: Int
        private var count = 0
        /// The size of a regular file (nil for anything else).
        private var regularSize: Int64?

        /// Opens `path`; each ``next()`` reads up to `pieceBytes`.
        ///
        /// With `regularOnly`, `path` is opened with `O_NOFOLLOW |
        /// O_NONBLOCK | O_NOCTTY` and must be a regular file (issue 36: a
        /// FIFO at `bindings.json` hung the daemon's start, a link could
        /// point anywhere): a link, FIFO, device or socket is refused
        /// before anything is read, and no open waits for a writer.
        public init(path: String, limit: Int, pieceBytes: Int = 1 << 16, regularOnly: Bool = false) throws(FileSystemError) {
            self.path = path
            self.limit = limit
            self.pieceBytes = pieceBytes
            let operation = "cannot read"
            let opened: FileDescriptor
            do throws(SystemError) {
                opened = try FileDescriptor.open(
                    path, regularOnly ? [.readOnly, .noFollow, .nonBlocking, .noControllingTerminal] : .readOnly)
            } catch where regularOnly && error.errorNumber == ErrorNumber.tooManyLinks {
                throw FileSystemError(kind: .other, path: path, operation: operation, reason: "it is a symbolic link, not a file")
            } catch {
                throw FileSystemError(error, path: path, operation: operation)
            }
            descriptor = opened
            let status: FileStatus
            do throws(SystemError) {
                status = try opened.status(path: path)
            } catch {
                throw FileSystemError(error, path: path, operation: operation)
            }
            if status.type == .directory {
                throw FileSystemError(kind: .other, path: path, operation: operation, reason: "it is a folder")
            }
            if regularOnly && status.type != .regular {
                let what =
                    switch status.type {
                    case .fifo: "a FIFO"
                    case .characterDevice: "a character device"
                    case .blockDevice: "a block device"
                    case .socket: "a socket"
                    default: "something else"
                    }
                throw FileSystemError(kind: .other, path: path, operation: operation, reason: "it is not a regular file but \(what)")
            }
            if status.size > Int64(limit) {
                throw FileSystemError(
                    kind: .tooLarge, path: path, operation: operation,
                    reason: "the file has \(status.size) bytes; the most accepted is \(limit)")
            }
            if status.type == .regular { regularSize = status.size }
        }

        deinit { descriptor?.close() }

        /// The file mapped into memory (``OperatingSystem/MappedFile``)
        /// instead of read, when it is a regular file of at least
        /// `minimumBytes` not read from yet; nil otherwise (read it with
        /// ``next()``), also when too many files are mapped already. The
        /// file is closed once mapped; the mapping stays.
        public func mapped(minimumBytes: Int) throws(FileSystemError) -> MappedFile? {
            guard let descriptor, count == 0, let size = regularSize, size >= Int64(max(minimumBytes, 1)) else {
                return nil
            }
            do throws(SystemError) {
                let file = try MappedFile(descriptor: descriptor, size: Int(size), path: path)
                descriptor.close()
                self.descriptor = nil
                return file
            } catch where error.errorNumber == ErrorNumber.tooManyOpenFiles {
                // Every guarded slot taken: read it instead, as a short file is.
                return nil
            } catch {
                throw FileSystemError(error, path: path, operation: "cannot read")
            }
        }

        /// Lowers the limit to `newLimit` before anything is read: refused
        /// now when the file's size is known to be beyond it.
        func lower(limit newLimit: Int) throws(FileSystemError) {
            limit = min(limit, newLimit)
            if let regularSize, regularSize > Int64(limit) {
                throw FileSystemError(
                    kind: .tooLarge, path: path, operation: "cannot read",
                    reason: "the file has \(regularSize) bytes; the most accepted is \(limit)")
            }
        }

        /// The next bytes; empty at the end.
        public func next() throws(FileSystemError) -> [UInt8] {
            guard let descriptor else { return [] }
            let piece: [UInt8]?
            do throws(SystemError) {
                // At most one byte past the limit: enough to know.
                piece = try descriptor.read(upTo: min(pieceBytes, limit + 1 - count), path: path)
            } catch {
                throw FileSystemError(error, path: path, operation: "cannot read")
            }
            // nil ("nothing yet") cannot come from a blocking descriptor.
            guard let piece, !piece.isEmpty else {
                descriptor.close()
                self.descriptor = nil
                return []
            }
            count += piece.count
            // The size can grow while we read (a file still being written).
            if count > limit {
                throw FileSystemError(
                    kind: .tooLarge, path: path, operation: "cannot read", reason: "the file has more than \(limit) bytes")
            }
            return piece
        }
    }

    /// A file to read: mapped into memory when it is a regular file of at
    /// least `mapFrom` bytes (a long gesture, whose reader then leaves its
    /// samples in the file: issue 39), its bytes otherwise.
    public enum Contents {
        case bytes([UInt8])
        case mapped(MappedFile)
    }

    /// ``read(path:limit:regularOnly:)``, but a regular file of at least
    /// `mapFrom` bytes is mapped (``Contents/mapped(_:)``), not read, and
    /// may then have up to `mappedLimit` bytes (by default `limit`): its
    /// bytes are not held. The same checks and errors.
    public static func readOrMap(
        path: String, limit: Int, mappedLimit: Int? = nil, mapFrom: Int, regularOnly: Bool = false
    ) throws(FileSystemError) -> Contents {
        let pieces = try Pieces(path: path, limit: max(limit, mappedLimit ?? limit), regularOnly: regularOnly)
        if let mapped = try pieces.mapped(minimumBytes: mapFrom) { return .mapped(mapped) }
        // Read, not mapped (smaller than `mapFrom`, or not a regular file):
        // held whole, so the read limit.
        try pieces.lower(limit: limit)
        var bytes: [UInt8] = []
        while true {
            let piece = try pieces.next()
            if piece.isEmpty { return .bytes(bytes) }
            bytes.append(contentsOf: piece)
        }
    }

    /// Whether something exists at `path` (a file, folder or other node).
    public static func exists(_ path: String) -> Bool { Paths.exists(path) }

    /// Whether `path` is an existing regular file (or a link to one). For
    /// guesses only: code that must tell "missing" from "unreadable" asks
    /// ``type(of:)``.
    public static func isRegularFile(_ path: String) -> Bool {
        // Harmless: callers use it to pick among candidates; what they then open reports why it cannot be read.
        (try? Paths.status(path))?.type == .regular
    }

    /// Whether `path` is an existing folder (for guesses, as ``isRegularFile(_:)``).
    public static func isDirectory(_ path: String) -> Bool {
        // Harmless: as in isRegularFile; a folder that cannot be examined is then created or listed, which reports why not.
        (try? Paths.status(path))?.type == .directory
    }

    /// What is at `path` (links followed), or `nil` when nothing is there
    /// (ENOENT, or ENOTDIR: a part of the path is no folder).
    /// - Throws: ``FileSystemError`` (`cannot read PATH: …`) when it cannot
    ///   be looked at: a folder on the way that may not be searched
    ///   (`.permissionDenied`), a loop of links, an I/O error.
    public static func type(of path: String) throws(FileSystemError) -> FileStatus.FileType? {
        try status(of: path)?.type
    }

    /// The status of what is at `path` (links followed), or `nil` when
    /// nothing is there; throws as ``type(of:)``.
    public static func status(of path: String) throws(FileSystemError) -> FileStatus? {
        do throws(SystemError) {
            return try Paths.status(path)
        } catch where error.errorNumber == ErrorNumber.noSuchFile || error.errorNumber == ErrorNumber.notADirectory {
            return nil
        } catch {
            throw FileSystemError(error, path: path, operation: "cannot read")
        }
    }

    /// Writes `bytes` to `path` atomically (temporary file, fsync, rename,
    /// fsync of the folder). With `overwrite: false` an existing target is
    /// left alone and `.alreadyExists` is thrown; the check and the rename
    /// are one step (link(2)), so a racing writer cannot be overwritten.
    ///
    /// Nothing is left behind: the temporary file (`.gesturectl-NAME.tmp-XXXXXX`, its
    /// NAME shortened so that it fits the file system's 255-byte limit
    /// whenever NAME does) is deleted on failure and on any signal that ends
    /// the process, and is `flock`ed while written; a writer into the same
    /// folder later deletes ours that it owns, that nobody holds and that
    /// are more than 10 minutes old (left by SIGKILL or a crash).
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, overwrite: Bool = true, permissions: UInt32 = 0o644, owner: UInt32? = nil
    ) throws(FileSystemError) {
        do {
            try writeAtomically(to: path, overwrite: overwrite, permissions: permissions, owner: owner) { write in try write(bytes) }
        } catch let error as FileSystemError {
            throw error
        } catch {
            throw FileSystemError(kind: .other, path: path, operation: "cannot write", reason: "\(error)")
        }
    }

    /// Writes what `produce` hands to its `write` function to `path`
    /// atomically, as ``writeAtomically(_:to:overwrite:permissions:)``
    /// does, piece by piece into the temporary file: for output too long to
    /// hold in memory. `write` throws ``FileSystemError`` when a piece cannot
    /// be written; whatever `produce` throws (that error or its own) leaves
    /// the target untouched, deletes the temporary file and is rethrown.
    /// `owner`: the user the file is given to (root only; the daemon
    /// gives a member's saved gesture to them), set just before it takes
    /// its name.
    public static func writeAtomically(
        to path: String, overwrite: Bool = true, permissions: UInt32 = 0o644, owner: UInt32? = nil,
        _ produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        let folder = directoryName(path)
        TemporaryFiles.sweep(folder: folder, isOurs: isTemporaryName)
        do {
            let (descriptor, temporary) = try FileSystem.createTemporaryFile(prefix: "\(folder)/\(temporaryPrefix(for: baseName(path)))")
            TemporaryFiles.shared.register(temporary)
            var finished = false
            defer {
                // Harmless: the error that stopped the write is thrown; a temporary file left behind is swept by a later writer.
                if !finished { try? FileSystem.unlink(temporary) }
                TemporaryFiles.shared.forget(temporary)
            }
            do {
                defer { descriptor.close() }
                // Held until closed: a sweeper leaves a file in use alone.
                try descriptor.lock(exclusive: true)
                try produce { (bytes: [UInt8]) throws in
                    do throws(SystemError) {
                        try descriptor.writeAll(bytes, path: temporary)
                    } catch {
                        throw FileSystemError(error, path: path, operation: "cannot write")
                    }
                }
                // The temporary file is created 0600; gestures are ordinary documents.
                try descriptor.setPermissions(permissions, path: temporary)
                try descriptor.synchronize(path: temporary)
                if let owner, owner != UserGroups.effectiveUserID { try descriptor.setOwner(owner, path: temporary) }
            }
            if overwrite {
                try FileSystem.rename(temporary, to: path)
            } else {
                try FileSystem.link(temporary, to: path)
                // Harmless: the target is written; the temporary name left beside it is swept by a later writer.
                try? FileSystem.unlink(temporary)
            }
            finished = true
        } catch let error as SystemError {
            throw FileSystemError(error, path: path, operation: "cannot write")
        }
        syncDirectory(folder)
    }

    /// The longest file name most Linux file systems take (NAME_MAX).
    static let maximumNameBytes = 255

    /// What every temporary file of ours starts with: a name nobody else
    /// uses, so that a sweep never takes another program's `.NAME.tmp-…`
    /// for ours (issue 36: a root `export -o` into a shared sticky folder
    /// deleted another user's `.thesis.tmp-Ab12Cd`).
    static let temporaryMark = ".gesturectl-"

    /// `.gesturectl-NAME.tmp-` for the temporary file of NAME, NAME cut (at
    /// a character boundary) so that with the six random characters it
    /// fits in 255 bytes.
    static func temporaryPrefix(for name: String) -> String {
        let room = maximumNameBytes - temporaryMark.utf8.count - ".tmp-".utf8.count - 6
        return temporaryMark + DisplayText.prefix(name, utf8Bytes: room).text + ".tmp-"
    }

    /// Whether `name` is one of our temporary files: `.gesturectl-` NAME
    /// `.tmp-` and six letters or digits.
    static func isTemporaryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let mark = Array(temporaryMark.utf8)
        guard bytes.count > mark.count + 11, bytes.starts(with: mark), bytes.count <= maximumNameBytes else { return false }
        let suffix = bytes.suffix(11)  // ".tmp-" and 6 characters
        guard Array(suffix.prefix(5)) == Array(".tmp-".utf8) else { return false }
        return suffix.suffix(6).allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
    }

    /// Deletes the file at `path`.
    public static func remove(_ path: String) throws(FileSystemError) {
        do throws(SystemError) {
            try FileSystem.unlink(path)
        } catch {
            throw FileSystemError(error, path: path, operation: "cannot delete")
        }
        syncDirectory(directoryName(path))
    }

    /// Creates `path` and any missing parent folders (mode 0755).
    /// `permissions`: those of each folder made (0755 less the umask by
    /// default); a private folder (0700) is made exactly that, whatever
    /// the umask, so that its owner can always enter it.
    public static func createDirectories(_ path: String, permissions: UInt32 = 0o755) throws(FileSystemError) {
        if isDirectory(path) { return }
        let parent = directoryName(path)
        if parent != path && !parent.isEmpty && parent != "/" { try createDirectories(parent, permissions: permissions) }
        do throws(SystemError) {
            try FileSystem.makeDirectory(path, permissions: permissions)
            if permissions == 0o700, let folder = try? FileDescriptor.open(path, [.directory, .noFollow]) {
                try? folder.setPermissions(0o700, path: path)
                folder.close()
            }
        } catch where error.errorNumber == ErrorNumber.alreadyExists {
            // Created meanwhile, or something else is there (which the next step reports).
        } catch {
            throw FileSystemError(error, path: path, operation: "cannot create folder")
        }
    }

    /// The names in a folder (without `.` and `..`), sorted; empty when the
    /// folder does not exist.
    public static func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        do throws(SystemError) {
            return try FileSystem.contentsOfDirectory(path).sorted()
        } catch where error.errorNumber == ErrorNumber.noSuchFile {
            return []
        } catch {
            throw FileSystemError(error, path: path, operation: "cannot list")
        }
    }

    /// The folder part of a path (`.` when there is none).
    public static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of a path.
    public static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Flushes a folder's entries so a rename survives a crash. Best effort.
    private static func syncDirectory(_ path: String) {
        // Harmless: the file's bytes are on disk and the rename or unlink is done and seen by every reader;
        // only its surviving a power cut at once is less sure (some file systems refuse fsync on a folder).
        try? FileSystem.synchronizeDirectory(path)
    }
}
