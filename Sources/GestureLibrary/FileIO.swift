import OperatingSystem
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading whole files and writing them atomically.
///
/// Writes never leave a half-written file behind: the bytes go to a
/// temporary file in the same folder, which is flushed to disk (fsync) and
/// then renamed over the target, so a reader sees either the old file or the
/// new one, and a crash or full disk loses nothing that was there before.
public enum FileIO {
    /// Reads a whole file, refusing files larger than `limit` bytes.
    public static func read(path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(errno: errno, path: path, operation: "cannot read") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FileSystemError(errno: errno, path: path, operation: "cannot read")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw FileSystemError(kind: .other, path: path, operation: "cannot read", reason: "it is a folder")
        }
        if Int(status.st_size) > limit {
            throw FileSystemError(
                kind: .tooLarge, path: path, operation: "cannot read",
                reason: "the file has \(status.st_size) bytes; the most accepted is \(limit)")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(errno: errno, path: path, operation: "cannot read")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            // The size can grow while we read (a file still being written).
            if bytes.count > limit {
                throw FileSystemError(
                    kind: .tooLarge, path: path, operation: "cannot read",
                    reason: "the file has more than \(limit) bytes")
            }
        }
        return bytes
    }

    /// Whether something exists at `path` (a file, folder or other node).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether `path` is an existing regular file (or a link to one).
    public static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` is an existing folder.
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` to `path` atomically (temporary file, fsync, rename,
    /// fsync of the folder). With `overwrite: false` an existing target is
    /// left alone and `.alreadyExists` is thrown; the check and the rename
    /// are one step (link(2)), so a racing writer cannot be overwritten.
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, overwrite: Bool = true, permissions: mode_t = 0o644
    ) throws(FileSystemError) {
        let folder = directoryName(path)
        var template = Array("\(folder)/.\(baseName(path)).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FileSystemError(errno: errno, path: path, operation: "cannot write") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var finished = false
        defer {
            if !finished { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes {
                    write(descriptor, $0.baseAddress! + offset, bytes.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileSystemError(errno: errno, path: path, operation: "cannot write")
                }
                offset += written
            }
            // mkstemp creates 0600; gestures are ordinary documents.
            guard fchmod(descriptor, permissions) == 0, fsync(descriptor) == 0 else {
                throw FileSystemError(errno: errno, path: path, operation: "cannot write")
            }
        }
        if overwrite {
            guard rename(temporary, path) == 0 else {
                throw FileSystemError(errno: errno, path: path, operation: "cannot write")
            }
        } else {
            guard link(temporary, path) == 0 else {
                throw FileSystemError(errno: errno, path: path, operation: "cannot write")
            }
            unlink(temporary)
        }
        finished = true
        syncDirectory(folder)
    }

    /// Deletes the file at `path`.
    public static func remove(_ path: String) throws(FileSystemError) {
        guard unlink(path) == 0 else { throw FileSystemError(errno: errno, path: path, operation: "cannot delete") }
        syncDirectory(directoryName(path))
    }

    /// Creates `path` and any missing parent folders (mode 0755).
    public static func createDirectories(_ path: String) throws(FileSystemError) {
        if isDirectory(path) { return }
        let parent = directoryName(path)
        if parent != path && !parent.isEmpty && parent != "/" { try createDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw FileSystemError(errno: errno, path: path, operation: "cannot create folder")
        }
    }

    /// The names in a folder (without `.` and `..`), sorted; empty when the
    /// folder does not exist.
    public static func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw FileSystemError(errno: errno, path: path, operation: "cannot list")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
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
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
