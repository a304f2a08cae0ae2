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
}
