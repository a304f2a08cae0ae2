import Glibc

/// A file mapped into memory read-only (`mmap`, `MAP_PRIVATE`): its bytes
/// are read from the page cache when touched, and ``discardPages()``
/// gives the touched pages back (`madvise(MADV_DONTNEED)`; touched again,
/// they are read again from the file). So a reader of a file larger than
/// the memory it may use walks it with its resident pages bounded, and
/// can still go back (issue 39: a one-hour gesture is 148 MB).
///
/// The file must not be shortened while mapped (a page past its new end
/// would be SIGBUS); replacing it by a rename, as atomic writes do, is
/// harmless: the mapping keeps the old file.
public final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid while this object lives.
    public let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer?
    private let length: Int

    /// Maps `size` bytes of the open file `descriptor` (which may be
    /// closed afterwards); `path` names it in errors.
    public init(descriptor: FileDescriptor, size: Int, path: String) throws(SystemError) {
        length = size
        guard size > 0 else {
            base = nil
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            return
        }
        let failed = UnsafeMutableRawPointer(bitPattern: -1)
        let mapped = try Syscall.checkNull(call: "mmap", path: path) { () -> UnsafeMutableRawPointer? in
            let pointer = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor.rawValue, 0)
            return pointer == failed ? nil : pointer
        }
        base = mapped
        bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// Gives every resident page of the mapping back; the bytes stay
    /// readable (from the file again).
    public func discardPages() {
        guard let base else { return }
        _ = madvise(base, length, MADV_DONTNEED)
    }

    deinit {
        if let base { _ = munmap(base, length) }
    }
}
