import CSystemShim
import Glibc
import Synchronization

/// A file mapped into memory read-only (`mmap`, `MAP_PRIVATE`): its bytes
/// are read from the page cache when touched, and ``discardPages()``
/// gives the touched pages back (`madvise(MADV_DONTNEED)`; touched again,
/// they are read again from the file). So a reader of a file larger than
/// the memory it may use walks it with its resident pages bounded, and
/// can still go back (issue 39: a one-hour gesture is 148 MB).
///
/// Another program may cut the file short while it is mapped (`truncate`,
/// a shared folder): a page past the new end would be SIGBUS, the death
/// of the process. The mapping is guarded instead (CSystemShim's
/// `gesturectl_mapping_guard_*`): such a page reads as zeros, and
/// ``isIntact`` turns false for good, so a reader that used the bytes can
/// refuse its result (``MappedFileLog``). Replacing the file by a rename,
/// as atomic writes do, is harmless: the mapping keeps the old file.
public final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid while this object lives.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The path the file was mapped from, for messages.
    public let path: String
    private let base: UnsafeMutableRawPointer?
    private let length: Int
    /// The guard's slot for this mapping (-1: none, for an empty file).
    private let guardSlot: Int32
    /// The file, kept open to see whether it was cut short (a cut within
    /// the last page reads zeros without any SIGBUS).
    private let file: FileDescriptor?

    /// Maps `size` bytes of the open file `descriptor` (which may be
    /// closed afterwards); `path` names it in errors.
    /// - Throws: `SystemError` for `mmap` (ENOMEM: no address space left;
    ///   EMFILE when 1,024 guarded mappings exist already) or `sigaction`
    ///   (the SIGBUS guard could not be installed).
    public init(descriptor: FileDescriptor, size: Int, path: String) throws(SystemError) {
        self.path = path
        length = size
        guard size > 0 else {
            base = nil
            guardSlot = -1
            file = nil
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            return
        }
        try Syscall.errnoValue(gesturectl_mapping_guard_install(), call: "sigaction", path: path, detail: "SIGBUS")
        let kept = FileDescriptor(
            rawValue: try Syscall.minusOne("fcntl", path: path, detail: "F_DUPFD_CLOEXEC") {
                fcntl(descriptor.rawValue, F_DUPFD_CLOEXEC, 0)
            })
        let failed = UnsafeMutableRawPointer(bitPattern: -1)
        let mapped: UnsafeMutableRawPointer
        do throws(SystemError) {
            mapped = try Syscall.checkNull(call: "mmap", path: path) { () -> UnsafeMutableRawPointer? in
                let pointer = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor.rawValue, 0)
                return pointer == failed ? nil : pointer
            }
        } catch {
            kept.close()
            throw error
        }
        let slot = gesturectl_mapping_guard_register(mapped, size)
        guard slot >= 0 else {
            _ = munmap(mapped, size)
            kept.close()
            throw SystemError(call: "mmap", path: path, errorNumber: EMFILE, detail: "too many files mapped at once")
        }
        guardSlot = slot
        file = kept
        base = mapped
        bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// Whether the file still holds every byte mapped, so that every byte
    /// read came from it: false once a read found the file cut short (and
    /// saw zeros instead: the guard's SIGBUS), or once the file is shorter
    /// than the mapping (`fstat`: a cut within the last page reads zeros
    /// without a signal). A command checks it before it commits anything
    /// made from the bytes; a player can check it to stop (it costs a
    /// `fstat`). A file rewritten in place to at least its old size is not
    /// seen.
    public var isIntact: Bool {
        guard let file else { return true }
        if gesturectl_mapping_guard_changed(guardSlot) != 0 { return false }
        // Harmless: a file that cannot be examined any more is taken as changed (never happens to an open descriptor).
        guard let status = try? file.status(path: path) else { return false }
        return status.size >= Int64(length)
    }

    /// Gives every resident page of the mapping back; the bytes stay
    /// readable (from the file again).
    public func discardPages() {
        guard let base else { return }
        _ = madvise(base, length, MADV_DONTNEED)
    }

    deinit {
        if let base {
            gesturectl_mapping_guard_unregister(guardSlot)
            _ = munmap(base, length)
        }
        file?.close()
    }
}

/// The mapped files one piece of work (a command) read, so that it can
/// ask, before it commits a result made from them, whether one of them
/// changed meanwhile (``MappedFile/isIntact``). Keeps them mapped until it
/// goes away.
public final class MappedFileLog: Sendable {
    private let files = Mutex<[(file: MappedFile, shown: String)]>([])

    /// An empty log.
    public init() {}

    /// Notes that `file` is read; `shown` is its name in messages (as the
    /// user typed it).
    public func note(_ file: MappedFile, shownAs shown: String) {
        files.withLock { $0.append((file, shown)) }
    }

    /// The name of the first file noted that is no longer intact, or nil.
    public var firstChanged: String? {
        files.withLock { files in files.first { !$0.file.isIntact }?.shown }
    }

    /// Throws ``MappedFileChanged`` when a file noted is no longer intact.
    public func checkIntact() throws(MappedFileChanged) {
        if let path = firstChanged { throw MappedFileChanged(path: path) }
    }
}

/// A mapped file changed (was cut short) while it was read: what was made
/// from it is not to be used.
public struct MappedFileChanged: Error, CustomStringConvertible, Equatable {
    /// The file, as the user named it.
    public var path: String

    /// Creates the error.
    public init(path: String) { self.path = path }

    /// The one-line reason, without the file's name.
    public static let reason = "changed while it was read (cut short by another program)"

    /// `PATH: changed while it was read (cut short by another program); nothing written`.
    public var description: String { "\(path): \(Self.reason); nothing written" }
}
