import GestureFormat
import GestureModel
import OperatingSystem

/// Gesture files on disk: reading with size limits and clear errors, and
/// atomic writing in the canonical format.
public enum GestureFile {
    /// Reads and validates the gesture file at `path`.
    public static func load(path: String, regularOnly: Bool = false) throws(LibraryError) -> Gesture {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path: path, limit: GestureLimits.maximumFileBytes, regularOnly: regularOnly)
        } catch {
            throw GestureLibrary.libraryError(error)
        }
        do {
            return try GestureFileFormat.decode(bytes, source: path)
        } catch {
            throw LibraryError(.invalidFile, error.description)
        }
    }

    /// Gesture files of this size or more are mapped into memory rather
    /// than read, and their samples left in the file (issue 39): 1 MiB,
    /// about a minute of one finger.
    public static let mapFrom = 1 << 20

    /// Reads a gesture from a file's contents (``FileIO/readOrMap(path:limit:mapFrom:regularOnly:)``):
    /// a mapped file's samples stay in the file, read when used, the
    /// mapping's pages given back as they are walked; the same checks
    /// and errors as from its bytes. A mapped file cut short by another
    /// program while it was read (``OperatingSystem/MappedFile/isIntact``)
    /// is `.changed`, whatever its text then looked like.
    public static func decode(_ contents: FileIO.Contents, source: String) throws(GestureFormatError) -> Gesture {
        switch contents {
        case .bytes(let bytes):
            return try GestureFileFormat.decode(bytes, source: source)
        case .mapped(let file):
            let changed = GestureFormatError(kind: .changed, source: source, message: MappedFileChanged.reason)
            do throws(GestureFormatError) {
                let gesture = try GestureFileFormat.decode(mapped: file.bytes, owner: file, source: source) {
                    // Unlocked first: a real-time play locks the process's
                    // pages (mlockall with MCL_ONFAULT), the mapping's among
                    // them, and locked pages are not given back, so the whole
                    // file would stay resident as the play reads it.
                    MemoryLock.unlock(file.bytes)
                    file.discardPages()
                }
                guard file.isIntact else { throw changed }
                return gesture
            } catch {
                // The zeros read in place of the lost text make a misleading syntax error.
                throw file.isIntact ? error : changed
            }
        }
    }

    /// Validates `gesture` and writes it to `path` atomically in the
    /// canonical format.
    /// `owner`: the user the file is given to (see ``FileIO/writeAtomically(_:to:overwrite:permissions:owner:)``).
    /// `readFrom`: the mapped files the gesture's samples come from; when
    /// one changed while it was read (``OperatingSystem/MappedFileLog``),
    /// nothing is written (`.other`: `FILE: changed while it was read …; nothing written`).
    public static func write(
        _ gesture: Gesture, to path: String, overwrite: Bool, owner: UInt32? = nil, readFrom: MappedFileLog? = nil
    ) throws(LibraryError) {
        do {
            try gesture.validate()
        } catch {
            if let changed = readFrom?.firstChanged { throw LibraryError(.other, MappedFileChanged(path: changed).description) }
            throw LibraryError(.invalidFile, "\(path): not written: \(error.description)")
        }
        let bytes = Array(GestureFileFormat.encode(gesture).utf8)
        if let changed = readFrom?.firstChanged { throw LibraryError(.other, MappedFileChanged(path: changed).description) }
        do {
            try FileIO.writeAtomically(bytes, to: path, overwrite: overwrite, owner: owner)
        } catch {
            throw GestureLibrary.libraryError(error)
        }
    }
}
