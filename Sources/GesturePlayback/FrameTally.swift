import OperatingSystem
import Synchronization

/// How many frames a play has, told once it is known.
///
/// A play from a list knows it before it starts. A play streamed from its
/// gesture (``FrameStream``) knows it once its last frame is built: for a
/// gesture of up to ``FrameStream/defaultLookAhead`` frames before its
/// first frame is written, for a longer one during the play, a look-ahead
/// before its end. A streamed play that ends early (cancelled, failed)
/// counts the frames it did not build on its frame thread after the play
/// has ended and its fingers are lifted: a pass over the rest of the
/// gesture (seconds for an hour's).
///
/// A tally that nothing ever began counting (its play never started: it
/// was cancelled while queued) is 0, as a play with no frames.
public final class FrameTally: Sendable {
    private let counted = JobHandle<Int, Never>()
    private let begun = Atomic<Bool>(false)

    /// A tally whose count is not known yet.
    public init() {}

    /// A tally of `count` frames, known now.
    public init(count: Int) {
        begin()
        counted.finish(count)
    }

    /// Says that the count is under way: readers wait for it from now on.
    func begin() { begun.store(true, ordering: .releasing) }

    /// Tells the count (later calls are ignored): for whoever builds the
    /// frames (a queue tells a list's or a press's at once).
    public func finish(_ count: Int) {
        begin()
        counted.finish(count)
    }

    /// The count if known now: `nil` while it is being counted, 0 when
    /// counting never began.
    public var count: Int? {
        if let count = counted.result { return count }
        return begun.load(ordering: .acquiring) ? nil : 0
    }

    /// The count, blocking the calling thread until it is known (0 when
    /// counting never began). Never call it from Swift's cooperative pool:
    /// use ``total()`` there.
    public func wait() -> Int {
        guard begun.load(ordering: .acquiring) else { return counted.result ?? 0 }
        return counted.wait()
    }

    /// The count once it is known (0 when counting never began), without
    /// blocking a thread.
    public func total() async -> Int {
        guard begun.load(ordering: .acquiring) else { return counted.result ?? 0 }
        return await counted.finished()
    }
}
