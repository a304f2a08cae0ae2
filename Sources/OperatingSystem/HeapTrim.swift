import CSystemShim

/// The process's heap.
public enum Heap {
    /// Gives the heap's free memory back to the system (glibc's
    /// `malloc_trim(0)`), so that what a client that was cut off held does
    /// not stay in the process's resident size. glibc keeps freed memory
    /// below its (growing) mmap threshold for reuse; this returns it.
    /// - Returns: whether any was released.
    @discardableResult
    public static func returnFreeMemory() -> Bool { gesturectl_malloc_trim() == 1 }
}
