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
    /// Samples in one chunk (24 KiB of packed samples: small enough to come
    /// from the heap rather than a fresh mapping).
    static let chunkCapacity = 1024

    /// Full chunks, in order.
    private var full: [SampleChunk] = []
    /// The chunk being filled; never empty.
    private var current: SampleChunk
    /// How many samples `current` takes before the next chunk begins.
    private var currentLimit: Int

    /// Where full chunks go instead of memory (an import's; nil: memory).
    private let spill: SampleSpill?

    /// The steps by which a first chunk is shorter (8: a stroke's first
    /// chunk holds 1,024, 896, … or 128 samples).
    static let staggerSteps = 8

    /// Samples starting with `first`; `stagger` (e.g. the stroke's index)
    /// picks how much shorter than ``chunkCapacity`` the first chunk is.
    init(first: Sample, stagger: Int = 0, spill: SampleSpill? = nil) {
        self.spill = spill
        // The first chunk grows as it fills (most strokes are short).
        current = SampleChunk(capacity: 0)
        current.append(first)
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
            if let spill { current.spill(to: spill) }
            full.append(current)
            current = SampleChunk(capacity: Self.chunkCapacity)
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
        var samples: [Sample] = []
        samples.reserveCapacity(count)
        for chunk in full + [current] {
            for index in 0..<chunk.count { samples.append(chunk[index]) }
        }
        return samples
    }

    /// The samples as a stroke's: read from the chunks, not copied into
    /// one array (issue 39: an hour of ten fingers is 4.3 million samples;
    /// packed they take 24 bytes each, and joined they would take twice).
    var samples: Samples {
        if full.isEmpty && current.count <= 64 { return Samples(joined) }
        return Samples(source: ChunkedSampleSource(chunks: full + [current]))
    }
}

/// A packed sample: 24 bytes rather than ``Sample``'s 56.
private struct PackedSample: Sendable {
    static let bytes = 24

    var time: Int64
    var x: Int32
    var y: Int32
    var pressure: Int32
    var size: Int32
}

/// Up to ``SampleChunks/chunkCapacity`` samples, packed (values that fit
/// 32 bits, as every evdev value does) or, should one not fit, as they are.
struct SampleChunk: Sendable {
    private var packed: ContiguousArray<PackedSample> = []
    /// Per packed sample: 1 when it has a pressure, 2 when it has a size.
    private var presence: ContiguousArray<UInt8> = []
    /// The samples as they are, once one did not fit 32 bits.
    private var plain: [Sample]?
    /// Where the packed samples and then their presence bytes are, once
    /// written to a spill (``SampleSpill``): nothing is kept in memory then.
    private var spilled: (spill: SampleSpill, offset: Int, count: Int)?

    init(capacity: Int) {
        if capacity > 0 {
            packed.reserveCapacity(capacity)
            presence.reserveCapacity(capacity)
        }
    }

    var count: Int { spilled?.count ?? plain?.count ?? packed.count }

    /// Writes a full chunk's packed samples to `spill` and lets them go
    /// (kept when they cannot be written, or are not packed).
    mutating func spill(to spill: SampleSpill) {
        guard plain == nil, spilled == nil, !packed.isEmpty, MemoryLayout<PackedSample>.size == PackedSample.bytes else {
            return
        }
        var bytes = packed.withUnsafeBytes { Array($0) }
        bytes.append(contentsOf: presence)
        guard let offset = spill.write(bytes) else { return }
        spilled = (spill, offset, packed.count)
        packed = []
        presence = []
    }

    subscript(index: Int) -> Sample {
        if let plain { return plain[index] }
        if let (spill, offset, count) = spilled {
            let read = spill.read(PackedSample.bytes) { bytes -> (PackedSample, UInt8) in
                let raw = UnsafeRawBufferPointer(bytes)
                return (
                    raw.loadUnaligned(fromByteOffset: offset + index * PackedSample.bytes, as: PackedSample.self),
                    bytes[offset + count * PackedSample.bytes + index]
                )
            }
            // Written but no longer readable (no address space left to map
            // it): zeros here, and the recorder's finish fails the import
            // (SampleSpill.finish), so no gesture with samples missing is written.
            guard let (sample, present) = read else { return Sample(time: .zero, x: 0, y: 0) }
            return Self.sample(sample, present)
        }
        return Self.sample(packed[index], presence[index])
    }

    private static func sample(_ sample: PackedSample, _ present: UInt8) -> Sample {
        Sample(
            time: Microseconds(sample.time), x: Int(sample.x), y: Int(sample.y),
            pressure: present & 1 != 0 ? Int(sample.pressure) : nil, size: present & 2 != 0 ? Int(sample.size) : nil)
    }

    mutating func append(_ sample: Sample) {
        if plain != nil {
            plain!.append(sample)
            return
        }
        guard let x = Int32(exactly: sample.x), let y = Int32(exactly: sample.y),
            let pressure = Int32(exactly: sample.pressure ?? 0), let size = Int32(exactly: sample.size ?? 0)
        else {
            plain = (0..<packed.count).map { self[$0] } + [sample]
            packed = []
            presence = []
            return
        }
        packed.append(PackedSample(time: sample.time.rawValue, x: x, y: y, pressure: pressure, size: size))
        presence.append((sample.pressure != nil ? 1 : 0) | (sample.size != nil ? 2 : 0))
    }
}

/// A recorded stroke's samples in their chunks (``SampleChunks/samples``).
private final class ChunkedSampleSource: SampleSource {
    private let chunks: [SampleChunk]
    let count: Int

    init(chunks: [SampleChunk]) {
        self.chunks = chunks
        count = chunks.reduce(0) { $0 + $1.count }
    }

    func sample(at index: Int) -> Sample {
        // Every chunk after the first but the last is full.
        let firstCount = chunks[0].count
        if index < firstCount { return chunks[0][index] }
        let rest = index - firstCount
        return chunks[1 + rest / SampleChunks.chunkCapacity][rest % SampleChunks.chunkCapacity]
    }
}

/// A stroke being recorded (see ``SampleChunks``); ``stroke`` is the
/// ``Stroke`` it becomes.
struct StrokeInProgress: Sendable {
    var kind: StrokeKind
    var button: PointerButton?
    var isEstimated: Bool
    var samples: SampleChunks

    /// The stroke, its samples read from the chunks.
    var stroke: Stroke {
        Stroke(kind: kind, button: button, samples: samples.samples, isEstimated: isEstimated)
    }
}
