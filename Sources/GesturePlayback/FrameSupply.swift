import GestureModel
import InputSystem
import OperatingSystem

/// Where a ``Player`` takes its frames from, one after another: a list
/// built before the play (``ListedFrames``) or a stream built beside it
/// (``StreamedFrames``). The player's loop is the same for both.
protocol FrameSupply {
    /// Frames in the play, 0 while not known (progress reports).
    var totalFrames: Int { get }
    /// Waits until the first frames are ready to play, before the clock
    /// starts; false when `cancellation` fired first.
    mutating func prepare(cancellation: CancellationSignal) -> Bool
    /// The frame at `index` (each index once, in order), waiting for it if
    /// it is not made yet.
    mutating func frame(at index: Int, cancellation: CancellationSignal) -> FrameRing.Fetched
    /// The frames before `index` are written: their room may be reused.
    mutating func release(before index: Int)
    /// Ends the play's use of the frames (once): what readers know after
    /// the first `count` frames.
    mutating func end(readersStateAfter count: Int) -> DeviceState
}

/// A play's frames, all built before it.
struct ListedFrames: FrameSupply {
    let frames: [InputFrame]
    let initial: DeviceState

    var totalFrames: Int { frames.count }

    func prepare(cancellation: CancellationSignal) -> Bool { true }

    func frame(at index: Int, cancellation: CancellationSignal) -> FrameRing.Fetched {
        index < frames.count ? .frame(frames[index]) : .end
    }

    func release(before index: Int) {}

    func end(readersStateAfter count: Int) -> DeviceState {
        var state = initial
        for frame in frames.prefix(count) { state.apply(frame) }
        return state
    }
}

/// A play's frames, built a look-ahead ahead of it (``FrameStream``).
struct StreamedFrames: FrameSupply {
    let ring: FrameRing

    var totalFrames: Int { ring.knownTotal ?? 0 }

    func prepare(cancellation: CancellationSignal) -> Bool {
        ring.waitForFrames(ring.capacity, cancellation: cancellation)
    }

    func frame(at index: Int, cancellation: CancellationSignal) -> FrameRing.Fetched {
        ring.frame(at: index, cancellation: cancellation)
    }

    func release(before index: Int) { ring.markDone(index) }

    func end(readersStateAfter count: Int) -> DeviceState { ring.end(readersStateAfter: count) }
}
