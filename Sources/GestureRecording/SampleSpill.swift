import GestureModel
import OperatingSystem
import Synchronization

/// Where an import's full sample chunks go instead of memory (issue 39):
/// an unlinked temporary file, written a chunk at a time and read back
/// through a mapping whose pages are given back as it is walked, so an
/// import holds no more memory for a long gesture than for a short one.
///
/// Anything that fails (no temporary folder, a full disk) leaves the chunk
/// in memory, as without a spill: the spill saves memory, it never fails
/// an import.
final class SampleSpill: Sendable {
    private struct State {
        var writer: FileDescriptor?
        var reader: FileDescriptor?
        var written = 0
        var mapping: MappedFile?
        var walked = 0
    }

    private let state: Mutex<State>

    /// A spill in `folder` (`$TMPDIR` or `/tmp`), or nil when no file can be made there.
    static func make(folder: String) -> SampleSpill? {
        // Harmless: without a temporary file the chunks stay in memory.
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
        return SampleSpill(writer: writer, reader: reader)
    }

    private init(writer: FileDescriptor, reader: FileDescriptor) {
        state = Mutex(State(writer: writer, reader: reader))
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
    func read<Result>(_ count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        state.withLock { state -> Result? in
            if state.mapping == nil || state.mapping!.bytes.count < state.written {
                // Harmless: nil makes the chunk's reader fall back (see SampleChunk).
                guard let reader = state.reader,
                    let mapped = try? MappedFile(descriptor: reader, size: state.written, path: "import spill")
                else { return nil }
                state.mapping = mapped
            }
            state.walked += count
            if state.walked >= 4 << 20 {
                state.walked = 0
                state.mapping!.discardPages()
            }
            return body(state.mapping!.bytes)
        }
    }
}
