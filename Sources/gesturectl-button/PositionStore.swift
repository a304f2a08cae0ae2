import ButtonModel
import Glibc
import OperatingSystem

/// Reads and writes `button.json` through OperatingSystem; the format and
/// its errors are ButtonModel's (``ButtonPositionFile``).
enum PositionStore {
    /// The remembered position, or `nil` (none yet, or a damaged file, which
    /// is reported once on standard error and left as it is).
    static func load(path: String?) -> EdgePosition? {
        guard let path else { return nil }
        let bytes: [UInt8]
        do throws(SystemError) {
            guard let read = try readSmallFile(path, limit: ButtonPositionFile.maximumBytes) else {
                say("ignoring \(shown(path)): it is not a regular file; the button starts on the right edge")
                return nil
            }
            bytes = read
        } catch where error.kind == .notFound {
            return nil
        } catch {
            say("ignoring \(shown(path)): \(error.errorMessage); the button starts on the right edge")
            return nil
        }
        do throws(ButtonPositionFileError) {
            return try ButtonPositionFile.parse(bytes)
        } catch {
            say("ignoring \(shown(path)): \(error); the button starts on the right edge (the file is replaced when it is next moved)")
            return nil
        }
    }

    /// Writes `position` atomically (a temporary file, fsync, rename): a
    /// reader sees the old position or the new one. Failures are reported,
    /// and the button goes on where it is.
    static func save(_ position: EdgePosition, path: String?) {
        guard let path else {
            say("cannot remember the button's place: neither XDG_STATE_HOME nor HOME is an absolute folder")
            return
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var temporary: String?
        do throws(SystemError) {
            try makeFolders(folder)
            let (descriptor, temporaryPath) = try FileSystem.createTemporaryFile(prefix: path + ".tmp-")
            temporary = temporaryPath
            defer { descriptor.close() }
            try descriptor.writeAll(ButtonPositionFile.encode(position), path: temporaryPath)
            try descriptor.synchronize(path: temporaryPath)
            try FileSystem.rename(temporaryPath, to: path)
            temporary = nil
        } catch {
            if let temporary { try? FileSystem.unlink(temporary) }
            say("cannot remember the button's place in \(shown(path)): \(error)")
        }
    }

    /// `mkdir -p`, new folders private to their user (0700, as the XDG
    /// specification asks of the state and config folders); the autostart
    /// entry's folder too.
    static func makeFolders(_ folder: String) throws(SystemError) {
        guard !folder.isEmpty, !Paths.exists(folder) else { return }
        let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
        try makeFolders(parent)
        do throws(SystemError) {
            try FileSystem.makeDirectory(folder, permissions: 0o700)
        } catch where error.errorNumber == EEXIST {
        }
    }
}

/// A small file's bytes (at most `limit` + 1, so that a larger file is seen
/// to be too large), read without following a link at its end, without
/// blocking on a FIFO and without taking a terminal; `nil` when it is not a
/// regular file.
func readSmallFile(_ path: String, limit: Int) throws(SystemError) -> [UInt8]? {
    let descriptor = try FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking, .noControllingTerminal])
    defer { descriptor.close() }
    guard try descriptor.status(path: path).type == .regular else { return nil }
    var collected: [UInt8] = []
    while collected.count <= limit, let piece = try descriptor.read(upTo: limit + 1 - collected.count, path: path), !piece.isEmpty {
        collected += piece
    }
    return collected
}
