import Glibc

/// Keeping the process's pages in memory (mlockall(2)) for a play at
/// real-time priority: the pages in memory now — the frames just built,
/// the code and stacks the play's warm-up touched — stay there, so no
/// frame waits for swap or reclaim.
public enum MemoryLock {
    /// mlockall(2)'s MCL_ONFAULT (Linux 4.4): lock pages as they are in
    /// memory or faulted in, without reading in the rest first.
    static let lockOnFault: Int32 = 4

    /// Locks the pages mapped now (`MCL_CURRENT | MCL_ONFAULT`: those in
    /// memory at once, the others when first touched; later mappings are
    /// not locked). Without MCL_ONFAULT it faulted in every page of the
    /// binary and its libraries first, which under emulation held the
    /// play's start back. Best effort: returns false where it is not
    /// permitted (it needs CAP_IPC_LOCK or an RLIMIT_MEMLOCK as large as
    /// the process) or memory is short, and then changes nothing.
    @discardableResult
    public static func lockCurrentPages() -> Bool {
        mlockall(MCL_CURRENT | lockOnFault) == 0
    }

    /// Unlocks the pages of `bytes` (munlock(2)): those locked now, and
    /// those ``lockCurrentPages()`` would lock when faulted in (the range
    /// is no longer locked at all). A mapped file walked once uses it
    /// before it gives its pages back (``MappedFile/discardPages()``):
    /// locked pages cannot be given back (madvise(MADV_DONTNEED) fails with
    /// EINVAL), so a real-time play would keep every page it read of a long
    /// gesture's file (issue 39). Cheap when nothing there is locked.
    /// Best effort: false when the range is not mapped (ENOMEM).
    @discardableResult
    public static func unlock(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        return munlock(base, bytes.count) == 0
    }
}
