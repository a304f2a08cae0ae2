import GestureModel
import OperatingSystem
import Synchronization

/// Where an import's full sample chunks go instead of memory (issue 39):
/// an unlinked temporary file, written a chunk at a time and read back
/// through a mapping whose pages are given back as it is walked, so an
/// import holds no more memory for a long gesture than for a short one.
///
/// Anything that fails while writing (no folder for it, a full disk)
/// leaves the chunk in memory, as without a spill: the spill saves memory.
/// What was written but cannot be read back (no address space left to map
/// it) fails the import: ``finish()`` throws, and the samples read
/// meanwhile are zeros, never a crash.
final class SampleSpill: Sendable {
    /// Maps `size` bytes of the spill's file (the descriptor, its path).
    typealias Mapper = @Sendable (_ file: FileDescriptor, _ size: Int, _ path: String) throws(SystemError) -> MappedFile

    private struct State {
        var writer: FileDescriptor?
        var reader: FileDescriptor?
        var written = 0
        var mapping: MappedFile?
        var walked = 0
        /// Why written samples could not be read back, once that happened.
        var failure: SystemError?
    }

    private let state: Mutex<State>
    private let map: Mapper
    /// The file's name while it had one, for messages.
    let path: String

    /// A spill in the first of `folders` where a file can be made (each
    /// created first, mode 0700, when it says so), or nil when none can.
    /// `map` maps the file (tests inject a failure).
    static func make(
        folders: [SpillFolders.Folder],
        map: @escaping Mapper = { file, size, path throws(SystemError) in try MappedFile(descriptor: file, size: size, path: path) }
    ) -> SampleSpill? {
        for folder in folders {
            if folder.create { SpillFolders.createPrivately(folder.path) }
            if let spill = make(folder: folder.path, map: map) { return spill }
        }
        return nil
    }

    /// A spill in `folder`, or nil when no file can be made there.
    static func make(
        folder: String,
        map: @escaping Mapper = { file, size, path throws(SystemError) in try MappedFile(descriptor: file, size: size, path: path) }
    ) -> SampleSpill? {
        // Harmless: without a temporary file here, the next folder is tried, or the chunks stay in memory.
        guard let (writer, path) = try? FileSystem.createTemporaryFile(prefix: folder + "/gesturectl-import-") else {
            return nil
        }
        // Harmless: without a reader the spill is not used (the chunks stay in memory).
        let reader = try? FileDescriptor.open(path, .readOnly)
        // Harmless: an unlinked file is removed at its last close; one left behind is only a temporary file.
        try? FileSystem.unlink(path)
        guard let reader else {
            writer.close()
            return nil
        }
        return SampleSpill(writer: writer, reader: reader, path: path, map: map)
    }

    private init(writer: FileDescriptor, reader: FileDescriptor, path: String, map: @escaping Mapper) {
        state = Mutex(State(writer: writer, reader: reader))
        self.path = path
        self.map = map
    }

    deinit {
        state.withLock { state in
            state.writer?.close()
            state.reader?.close()
        }
    }

    /// Writes `bytes`; their offset in the file, or nil when they could not be written.
    func write(_ bytes: [UInt8]) -> Int? {
        state.withLock { state -> Int? in
            guard let writer = state.writer else { return nil }
            do throws(SystemError) {
                try writer.writeAll(bytes)
            } catch {
                // The file's end is unknown after a failed write: no more spilling.
                writer.close()
                state.writer = nil
                return nil
            }
            defer { state.written += bytes.count }
            return state.written
        }
    }

    /// Calls `body` with the file's bytes (mapped again when more was
    /// written since); the mapping's pages are given back every 4 MiB read.
    /// Nil when the file cannot be mapped (the reason kept for ``finish()``).
    func read<Result>(_ count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        state.withLock { state -> Result? in
            guard Self.mapAll(&state, map: map, path: path), let mapping = state.mapping else { return nil }
            state.walked += count
            if state.walked >= 4 << 20 {
                state.walked = 0
                mapping.discardPages()
            }
            return body(mapping.bytes)
        }
    }

    /// Ends the writing: maps everything written, so that every later
    /// read is served from that mapping.
    /// - Throws: ``RecordingError/spillUnreadable(_:)`` when the file cannot
    ///   be mapped now, or could not be when a sample was read before.
    func finish() throws(RecordingError) {
        let failure = state.withLock { state -> SystemError? in
            state.writer?.close()
            state.writer = nil
            _ = Self.mapAll(&state, map: map, path: path)
            return state.failure
        }
        if let failure { throw .spillUnreadable(failure) }
    }

    /// Maps the file again when more was written than is mapped; false
    /// (and the reason kept) when it cannot be.
    private static func mapAll(_ state: inout State, map: Mapper, path: String) -> Bool {
        guard state.failure == nil else { return false }
        if let mapping = state.mapping, mapping.bytes.count >= state.written { return true }
        guard let reader = state.reader else { return false }
        do throws(SystemError) {
            state.mapping = try map(reader, state.written, path)
            return true
        } catch {
            state.failure = error
            return false
        }
    }
}
