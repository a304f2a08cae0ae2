import GestureModel
import InputSystem
import OperatingSystem
import Synchronization

/// The frames of a play, built a bounded way ahead of the player on a
/// thread of their own (`gesturectl-frm`), so that a play holds at most
/// ``lookAhead`` frames however long its gesture (issue 39: the one-hour
/// ten-finger gesture's 432,002 frames took 342 MiB, and its first frame
/// waited seconds for the last one to be built).
///
/// The thread starts when the stream is made and builds frames with the
/// gesture's ``CheckedGesture/forEachFrame(from:_:)`` into a ring of
/// ``lookAhead`` slots, each frame `delay` later than the builder makes it
/// (a play's lead-in). When the ring is full it sleeps until the player
/// has played half of it, so the player's thread signals it once per
/// ``lookAhead`` / 2 frames, not once a frame, and the player reads a
/// frame where it lies (no copy of its events, no allocation). A slot's
/// frame is replaced only after the player has written it; the frame
/// replaced is then applied to a ``DeviceState`` kept by the builder, so
/// that what readers know after any number of written frames is at hand
/// when a play ends (the player itself keeps no state frame by frame: at
/// 1 kHz under emulation that cost more than the write).
///
/// A ``Player`` waits, before its clock starts (and before a start gate),
/// until the ring is full or every frame is built, so a gesture of up to
/// ``lookAhead`` frames plays exactly as from a list, and a longer one
/// waits only for its first ``lookAhead`` frames. A stream made before its
/// device (a one-shot play: ``FrameStream/init(_:from:delay:lookAhead:tally:)``
/// from a new device's state) fills its ring while udev sets the device up.
///
/// How many frames the play has is counted as they are built and told by
/// ``tally`` once the last one is. When the play ends early, the builder
/// stops filling the ring and counts the rest without keeping them, after
/// the player has lifted everything. A stream that is never played stops
/// building when it is released.
///
/// One player, once: a stream is played by ``Player/play(_:on:cancellation:progress:releasesAtEnd:startGate:warmsUp:)``
/// (or a session's ``PlaybackSession/start(_:handle:releasesAtEnd:realtimePriority:startGate:)``)
/// at most once.
public final class FrameStream: Sendable {
    /// The frames built ahead of the player unless told otherwise: 4,096,
    /// about 3.4 MiB of ten-finger frames; 4 s at 1 kHz, 34 s at 120 Hz.
    public static let defaultLookAhead = 4_096

    /// The most frames built and not yet written (at least 2).
    public let lookAhead: Int
    /// What readers know before the stream's first frame: the state its
    /// frames were built from.
    public let initialState: DeviceState
    /// How many frames the play has, once known.
    public let tally: FrameTally
    let ring: FrameRing
    private let claimed = Atomic<Bool>(false)

    /// How the builder's thread is set up: named `gesturectl-frm`, at the
    /// process's normal priority (a real-time player's thread stays the
    /// only one at SCHED_FIFO).
    public static let threadOptions = ThreadOptions(name: "gesturectl-frm")

    /// Starts building `checked`'s frames for a device whose readers know
    /// `state`, each `delay` later (a lead-in), at most `lookAhead` ahead
    /// of the player. `tally` is told the count (a job's, or a new one).
    /// - Throws: ``PlaybackError/cannotStart(_:)`` when the thread cannot
    ///   be started.
    public init(
        _ checked: CheckedGesture, from state: DeviceState, delay: Microseconds = .zero,
        lookAhead: Int = FrameStream.defaultLookAhead, tally: FrameTally = FrameTally()
    ) throws(PlaybackError) {
        self.lookAhead = max(lookAhead, 2)
        initialState = state
        self.tally = tally
        let ring = FrameRing(capacity: self.lookAhead, state: state)
        self.ring = ring
        do throws(SystemError) {
            try DedicatedThread.start(Self.threadOptions) {
                ring.build(checked, from: state, delay: delay, tally: tally)
            }
        } catch {
            throw .cannotStart(error)
        }
    }

    /// Checks `gesture` against `builder`'s target (as ``FrameBuilder/check(_:)``)
    /// and starts building its frames (``init(_:from:delay:lookAhead:tally:)``).
    /// `state`: a new device's when `nil`.
    /// - Throws: ``PlaybackError`` as the check, or when the thread cannot be started.
    public convenience init(
        _ gesture: Gesture, builder: FrameBuilder, from state: DeviceState? = nil, delay: Microseconds = .zero,
        lookAhead: Int = FrameStream.defaultLookAhead
    ) throws(PlaybackError) {
        try self.init(
            builder.check(gesture), from: state ?? DeviceState(description: builder.target.description), delay: delay,
            lookAhead: lookAhead)
    }

    deinit {
        // Never played: nothing will read the ring or wait for the count.
        if !claimed.load(ordering: .acquiring) { ring.abandon() }
    }

    /// How many frames have been built so far (a test's view of the look-ahead).
    public var framesBuilt: Int { ring.producedCount }

    /// Takes the stream for a play; false when it was played already.
    func claim() -> Bool {
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        tally.begin()
        return true
    }
}

/// The ring a ``FrameStream``'s builder fills and its player empties: one
/// thread each. @unchecked Sendable: the slots and the builder's state are
/// handed between the two threads by the atomic counters (a slot is
/// written by the builder before `produced` passes it, read by the player
/// only below `produced`, and replaced only once `done` has passed it);
/// after ``letGo`` is signalled the builder touches neither again.
final class FrameRing: @unchecked Sendable {
    enum Mode: Int {
        case filling = 0
        /// The play has ended: count the rest of the frames, keep none.
        case counting = 1
        /// Never played: stop.
        case abandoned = 2
    }

    let capacity: Int
    private let slots: UnsafeMutablePointer<InputFrame>
    /// Frames written into slots (the builder's; published by `produced`).
    private var initialisedSlots = 0
    /// What readers know after the frames no longer in the ring (`reclaimed` of them).
    private var checkpoint: DeviceState
    private var reclaimed = 0
    /// Frames built and in the ring (the builder stores, the player loads).
    private let produced = Atomic<Int>(0)
    /// Frames the player is done with (the player stores, the builder loads).
    private let done = Atomic<Int>(0)
    /// Whether the builder has built its last frame (or failed).
    private let ended = Atomic<Bool>(false)
    /// Why building failed, set before `ended`.
    private var failure: PlaybackError?
    /// Frames in all, known once built (-1 before).
    private let total = Atomic<Int>(-1)
    private let mode = Atomic<Int>(Mode.filling.rawValue)
    /// The `produced` count the player sleeps until (Int.max: it does not sleep).
    private let playerWants = Atomic<Int>(.max)
    /// The `done` count the builder sleeps until (Int.max: it does not sleep).
    private let builderWants = Atomic<Int>(.max)
    /// Wakes the player (an eventfd, so that a cancel can wake it too).
    private let framesReady: EventCounter?
    /// Wakes the builder.
    private let spaceFree = Semaphore(value: 0)
    /// Signalled once by the builder when it no longer touches the slots or
    /// the checkpoint.
    private let letGo = Semaphore(value: 0)

    init(capacity: Int, state: DeviceState) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        checkpoint = state
        // Without a descriptor to spare the player polls instead (see waitForFrames).
        framesReady = try? EventCounter()
    }

    deinit {
        slots.deinitialize(count: initialisedSlots)
        slots.deallocate()
    }

    var producedCount: Int { produced.load(ordering: .acquiring) }

    /// The frame count once the last frame is built; `nil` before.
    var knownTotal: Int? {
        let count = total.load(ordering: .relaxed)
        return count < 0 ? nil : count
    }

    // MARK: The builder's side

    /// Builds the frames (on the builder's thread) until the last, the
    /// play's end plus a count of the rest, or abandonment.
    func build(_ checked: CheckedGesture, from state: DeviceState, delay: Microseconds, tally: FrameTally) {
        var built = 0
        var holding = true
        func release() {
            guard holding else { return }
            holding = false
            letGo.signal()
        }
        do throws(PlaybackError) {
            try checked.forEachFrame(from: state) { frame, _ in
                if holding && mode.load(ordering: .acquiring) != Mode.filling.rawValue { release() }
                if !holding {
                    built += 1
                    return mode.load(ordering: .relaxed) != Mode.abandoned.rawValue
                }
                if built >= capacity {
                    // The slot of frame `built - capacity`, once it is written.
                    guard waitForSpace(upTo: built - capacity + 1) else {
                        release()
                        built += 1
                        return mode.load(ordering: .relaxed) != Mode.abandoned.rawValue
                    }
                    let old = built - capacity
                    checkpoint.apply(slots[old % capacity])
                    reclaimed = old + 1
                }
                var delayed = frame
                delayed.time = delayed.time + delay
                if built < capacity {
                    (slots + built).initialize(to: delayed)
                    initialisedSlots = built + 1
                } else {
                    slots[built % capacity] = delayed
                }
                built += 1
                publish(built)
                return true
            }
        } catch {
            failure = error
        }
        if mode.load(ordering: .acquiring) == Mode.abandoned.rawValue {
            release()
            return
        }
        // Told before the player can see the end: a play that completes
        // returns with its count known.
        tally.finish(built)
        total.store(built, ordering: .relaxed)
        ended.store(true, ordering: .sequentiallyConsistent)
        wakePlayer(always: true)
        release()
    }

    /// Publishes `count` frames, waking the player if it waits for them.
    private func publish(_ count: Int) {
        produced.store(count, ordering: .sequentiallyConsistent)
        let wanted = playerWants.load(ordering: .sequentiallyConsistent)
        if count >= wanted,
            playerWants.compareExchange(expected: wanted, desired: .max, ordering: .sequentiallyConsistent).exchanged
        {
            framesReady?.signal()
        }
    }

    private func wakePlayer(always: Bool) {
        if playerWants.exchange(.max, ordering: .sequentiallyConsistent) != .max || always { framesReady?.signal() }
    }

    /// Waits until the player is done with `needed` frames; false when the
    /// play has ended meanwhile (or the stream was abandoned). Asks to be
    /// woken only when half the ring is free, so that the player signals
    /// once per half ring.
    private func waitForSpace(upTo needed: Int) -> Bool {
        while true {
            if mode.load(ordering: .sequentiallyConsistent) != Mode.filling.rawValue { return false }
            builderWants.store(needed + capacity / 2 - 1, ordering: .sequentiallyConsistent)
            if done.load(ordering: .sequentiallyConsistent) >= needed {
                builderWants.store(.max, ordering: .sequentiallyConsistent)
                return true
            }
            if mode.load(ordering: .sequentiallyConsistent) != Mode.filling.rawValue { return false }
            spaceFree.wait()
        }
    }

    // MARK: The player's side

    /// The player is done with the first `count` frames: the builder may
    /// replace them.
    func markDone(_ count: Int) {
        done.store(count, ordering: .sequentiallyConsistent)
        let wanted = builderWants.load(ordering: .sequentiallyConsistent)
        if count >= wanted,
            builderWants.compareExchange(expected: wanted, desired: .max, ordering: .sequentiallyConsistent).exchanged
        {
            spaceFree.signal()
        }
    }

    /// What the player finds at `index`.
    enum Fetched {
        case frame(InputFrame)
        case end
        case failed(PlaybackError)
        case cancelled
    }

    /// The frame at `index` (the next after those fetched before), waiting
    /// for the builder if it is not built yet.
    func frame(at index: Int, cancellation: CancellationSignal) -> Fetched {
        if index < produced.load(ordering: .acquiring) { return .frame(slots[index % capacity]) }
        while true {
            if !waitForFrames(index + 1, cancellation: cancellation) { return .cancelled }
            if index < produced.load(ordering: .acquiring) { return .frame(slots[index % capacity]) }
            if ended.load(ordering: .acquiring) {
                // `produced` is final once `ended` is set.
                if index < produced.load(ordering: .acquiring) { return .frame(slots[index % capacity]) }
                if let failure { return .failed(failure) }
                return .end
            }
        }
    }

    /// Waits until `count` frames are built, or the last one is; false
    /// when `cancellation` fires first.
    func waitForFrames(_ count: Int, cancellation: CancellationSignal) -> Bool {
        while true {
            if produced.load(ordering: .sequentiallyConsistent) >= count || ended.load(ordering: .sequentiallyConsistent) {
                return true
            }
            if cancellation.isCancelled { return false }
            playerWants.store(count, ordering: .sequentiallyConsistent)
            if produced.load(ordering: .sequentiallyConsistent) >= count || ended.load(ordering: .sequentiallyConsistent) {
                playerWants.store(.max, ordering: .sequentiallyConsistent)
                return true
            }
            guard let framesReady, let cancelled = try? cancellation.fileDescriptor else {
                // No descriptor to wait on: look again in a millisecond.
                try? MonotonicClock.sleep(untilMicroseconds: MonotonicClock.nowMicroseconds() + 1_000)
                continue
            }
            // An error here (EINTR aside, which returns) means a closed
            // descriptor: look again rather than spin on it.
            if (try? Poll.wait((framesReady.fileDescriptor, .readable), (cancelled, .readable), timeoutMilliseconds: 100)) == nil {
                try? MonotonicClock.sleep(untilMicroseconds: MonotonicClock.nowMicroseconds() + 1_000)
            }
            framesReady.drain()
        }
    }

    /// Ends the play's use of the ring: the builder stops filling it (and
    /// counts the rest), and once it has let go, returns what readers know
    /// after the first `count` frames (all of them fetched before), and
    /// frees the frames held.
    func end(readersStateAfter count: Int) -> DeviceState {
        mode.store(Mode.counting.rawValue, ordering: .sequentiallyConsistent)
        spaceFree.signal()
        letGo.wait()
        var state = checkpoint
        for index in reclaimed..<count { state.apply(slots[index % capacity]) }
        // The builder writes no slot any more: give the frames' memory back now.
        slots.deinitialize(count: initialisedSlots)
        initialisedSlots = 0
        return state
    }

    /// The stream will not be played: the builder stops.
    func abandon() {
        mode.store(Mode.abandoned.rawValue, ordering: .sequentiallyConsistent)
        spaceFree.signal()
    }
}
