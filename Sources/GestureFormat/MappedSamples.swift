import GestureModel
import Synchronization

/// Gives the pages of a mapped file back as a reader walks it: every
/// ``threshold`` bytes walked (forwards or back), `discard` is called (a
/// ``MappedFile``'s `discardPages`), so the file's resident pages never
/// add up to more than about that much (issue 39).
package final class PageTrimmer: Sendable {
    private let walked = Atomic<Int>(0)
    private let threshold: Int
    private let discard: @Sendable () -> Void

    package init(threshold: Int = 4 << 20, discard: @escaping @Sendable () -> Void) {
        self.threshold = threshold
        self.discard = discard
    }

    /// Notes `bytes` more walked.
    package func note(_ bytes: Int) {
        let total = walked.wrappingAdd(bytes, ordering: .relaxed).newValue
        if total >= threshold {
            walked.store(0, ordering: .relaxed)
            discard()
        }
    }
}

/// The samples of one stroke of a mapped gesture file, read from the file
/// when asked (``GestureModel/SampleSource``): the reader checked and
/// validated them once and kept only where every 256th one starts, so a
/// stroke costs 8 bytes per 256 samples however long it is.
///
/// Reading in order costs one sample's parsing each (the last few places
/// read are remembered); any other sample, at most 255 samples' parsing
/// from the nearest kept place.
final class MappedSampleSource: SampleSource, @unchecked Sendable {
    static let stride = 256

    private let owner: AnyObject & Sendable
    private let bytes: UnsafeBufferPointer<UInt8>
    let count: Int
    /// Where sample `k × stride` starts (its `[`).
    private let checkpoints: [Int]
    private let trimmer: PageTrimmer?
    /// What the reader learnt of the samples as it checked them.
    let summary: SampleSummary?
    private let places = Mutex<Places>(Places())

    /// A sample read, and where the text after it starts.
    private struct Place {
        var index = -1
        var sample = Sample(time: .zero, x: 0, y: 0)
        var end = 0
    }

    private struct Places {
        var slots = [Place](repeating: Place(), count: 4)
        var next = 0
    }

    init(
        owner: AnyObject & Sendable, bytes: UnsafeBufferPointer<UInt8>, count: Int, checkpoints: [Int], trimmer: PageTrimmer?,
        summary: SampleSummary? = nil
    ) {
        self.owner = owner
        self.bytes = bytes
        self.count = count
        self.checkpoints = checkpoints
        self.trimmer = trimmer
        self.summary = summary
    }

    func sample(at index: Int) -> Sample {
        places.withLock { places -> Sample in
            var slot = -1
            var start = 0
            var skip = 0
            var jumped = false
            for candidate in 0..<places.slots.count {
                let place = places.slots[candidate]
                if place.index == index { return place.sample }
                if place.index == index - 1 && index > 0 {
                    slot = candidate
                    start = place.end
                }
            }
            if slot < 0 {
                let checkpoint = index / Self.stride
                start = checkpoints[checkpoint]
                skip = index - checkpoint * Self.stride
                slot = places.next
                places.next = (places.next + 1) % places.slots.count
                jumped = true
            }
            var position = start
            var sample = Self.parse(bytes, at: &position)
            for _ in 0..<skip { sample = Self.parse(bytes, at: &position) }
            // A jump maps the pages around it too (the kernel's fault-around,
            // 64 KiB), whatever few bytes are read there.
            trimmer?.note(position - start + (jumped ? 1 << 16 : 0))
            places.slots[slot] = Place(index: index, sample: sample, end: position)
            return sample
        }
    }

    func makeCursor() -> any SampleCursor { Cursor(source: self) }

    /// A pass in order from the first sample: parses each from where the
    /// last ended, with no lock and nothing remembered.
    private final class Cursor: SampleCursor {
        let source: MappedSampleSource
        var index = 0
        var position: Int
        var walked = 0

        init(source: MappedSampleSource) {
            self.source = source
            position = source.checkpoints.first ?? 0
        }

        func next() -> Sample? {
            guard index < source.count else { return nil }
            let start = position
            let sample = MappedSampleSource.parse(source.bytes, at: &position)
            index += 1
            walked += position - start
            if walked >= 1 << 16 {
                source.trimmer?.note(walked)
                walked = 0
            }
            return sample
        }
    }

    /// The sample whose `[` is at or after `position` (after white space
    /// and a `,`), leaving `position` after its `]`. The text was checked
    /// when the file was read; should the file have changed since, what
    /// is there is read as well as it goes, never out of bounds. A zero
    /// byte (never in a gesture's text; what a file cut short reads as,
    /// see OperatingSystem's `MappedFile`) ends the reading at once, there:
    /// every later sample is read as zeros without walking the rest.
    fileprivate static func parse(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) -> Sample {
        var index = position
        let end = bytes.count
        while index < end && bytes[index] != UInt8(ascii: "[") {
            if bytes[index] == 0 {
                position = index
                return Sample(time: .zero, x: 0, y: 0)
            }
            index += 1
        }
        index += 1
        var values: (Int, Int, Int, Int?, Int?) = (0, 0, 0, nil, nil)
        var column = 0
        while index < end {
            let byte = bytes[index]
            if byte == 0 { break }
            if byte == UInt8(ascii: "]") {
                index += 1
                break
            }
            if byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) {
                let negative = byte == UInt8(ascii: "-")
                if negative { index += 1 }
                var value = 0
                while index < end, JSONScanner.isDigit(bytes[index]) {
                    value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
                    index += 1
                }
                if negative { value = 0 &- value }
                switch column {
                case 0: values.0 = value
                case 1: values.1 = value
                case 2: values.2 = value
                case 3: values.3 = value
                case 4: values.4 = value
                default: break
                }
                column += 1
            } else if byte == UInt8(ascii: "n") {
                index += 4
                column += 1
            } else {
                index += 1
            }
        }
        position = min(index, end)
        return Sample(time: Microseconds(Int64(values.0)), x: values.1, y: values.2, pressure: values.3, size: values.4)
    }
}

/// What the reader of a mapped file keeps of each stroke's samples while
/// it checks them: their count and where every 256th starts.
struct SampleIndexer {
    var count = 0
    var checkpoints: [Int] = []

    mutating func note(sampleAt offset: Int) {
        if count % MappedSampleSource.stride == 0 { checkpoints.append(offset) }
        count += 1
    }
}

/// A mapped file being read: what its strokes' sources keep.
struct MappedInput {
    let owner: AnyObject & Sendable
    let bytes: UnsafeBufferPointer<UInt8>
    let trimmer: PageTrimmer?
}
