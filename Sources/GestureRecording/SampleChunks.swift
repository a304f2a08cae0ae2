import GestureModel

/// The samples of a stroke being recorded, kept in chunks of at most
/// ``chunkCapacity``, so that appending never moves the samples already
/// kept.
///
/// One growing array doubles its storage now and then, and each doubling
/// copies every sample of the stroke at once into memory never touched
/// before. Ten fingers at 1 kHz reach the same size in the same frame:
/// the ten copies, and the page faults of megabytes of new storage, can
/// hold the reading thread for longer than the kernel's buffer of the
/// device lasts (a few tens of milliseconds of frames), and the kernel
/// then drops events. With chunks, a frame
/// costs at most one allocation of ``chunkCapacity`` samples per finger;
/// the samples are put together once, when the stroke is handed out.
/// Strokes that start together do not fill their chunks together: the
/// first chunk of each is shorter by a step that depends on the stroke
/// (``init(first:stagger:)``), so ten fingers allocate their next chunks
/// in different frames, not ten at once.
struct SampleChunks: Sendable {
    /// Samples in one chunk (48 KiB of samples: small enough to come from
    /// the heap rather than a fresh mapping).
    static let chunkCapacity = 1024

    /// Full chunks, in order.
    private var full: [[Sample]] = []
    /// The chunk being filled; never empty.
    private var current: [Sample]
    /// How many samples `current` takes before the next chunk begins.
    private var currentLimit: Int

    /// The steps by which a first chunk is shorter (8: a stroke's first
    /// chunk holds 1,024, 896, … or 128 samples).
    static let staggerSteps = 8

    /// Samples starting with `first`; `stagger` (e.g. the stroke's index)
    /// picks how much shorter than ``chunkCapacity`` the first chunk is.
    init(first: Sample, stagger: Int = 0) {
        current = [first]
        let step = Self.chunkCapacity / Self.staggerSteps
        currentLimit = Self.chunkCapacity - (stagger % Self.staggerSteps) * step
    }

    /// The latest sample.
    var last: Sample {
        // `current` is never empty: init puts a sample in, and a new chunk
        // is started only to take one.
        current[current.count - 1]
    }

    /// Appends `sample`, after the others.
    mutating func append(_ sample: Sample) {
        if current.count >= currentLimit {
            var next: [Sample] = []
            next.reserveCapacity(Self.chunkCapacity)
            full.append(current)
            current = next
            currentLimit = Self.chunkCapacity
        }
        current.append(sample)
    }

    /// How many samples there are (counted when asked: not a frame's work).
    var count: Int { full.reduce(current.count) { $0 + $1.count } }

    /// How many samples each chunk holds, in order (for tests: none holds
    /// more than ``chunkCapacity``, so no append moves more than a chunk).
    var chunkSizes: [Int] { full.map(\.count) + [current.count] }

    /// All samples, in order, in one array.
    var joined: [Sample] {
        if full.isEmpty { return current }
        var samples: [Sample] = []
        samples.reserveCapacity(count)
        for chunk in full { samples.append(contentsOf: chunk) }
        samples.append(contentsOf: current)
        return samples
    }
}

/// A stroke being recorded (see ``SampleChunks``); ``stroke`` is the
/// ``Stroke`` it becomes.
struct StrokeInProgress: Sendable {
    var kind: StrokeKind
    var button: PointerButton?
    var isEstimated: Bool
    var samples: SampleChunks

    /// The stroke with its samples in one array.
    var stroke: Stroke {
        Stroke(kind: kind, button: button, samples: samples.joined, isEstimated: isEstimated)
    }
}
