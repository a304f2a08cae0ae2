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
    /// and errors as from its bytes.
    public static func decode(_ contents: FileIO.Contents, source: String) throws(GestureFormatError) -> Gesture {
        switch contents {
        case .bytes(let bytes):
            return try GestureFileFormat.decode(bytes, source: source)
        case .mapped(let file):
            return try GestureFileFormat.decode(mapped: file.bytes, owner: file, source: source) { file.discardPages() }
        }
    }

    /// Validates `gesture` and writes it to `path` atomically in the
    /// canonical format.
    /// `owner`: the user the file is given to (see ``FileIO/writeAtomically(_:to:overwrite:permissions:owner:)``).
    public static func write(_ gesture: Gesture, to path: String, overwrite: Bool, owner: UInt32? = nil) throws(LibraryError) {
        do {
            try gesture.validate()
        } catch {
            throw LibraryError(.invalidFile, "\(path): not written: \(error.description)")
        }
        do {
            try FileIO.writeAtomically(Array(GestureFileFormat.encode(gesture).utf8), to: path, overwrite: overwrite, owner: owner)
        } catch {
            throw GestureLibrary.libraryError(error)
        }
    }
}
