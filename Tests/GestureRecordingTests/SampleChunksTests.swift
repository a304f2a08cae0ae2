import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording

/// A long stroke is kept in chunks, so that recording it never moves the
/// samples already recorded (each move of a doubling array stalled the
/// reading thread at ten fingers and 1 kHz until the kernel dropped events).
@Suite struct SampleChunksTests {
    @Test func samplesComeBackInOrderAcrossChunks() {
        let count = SampleChunks.chunkCapacity * 3 + 7
        var chunks = SampleChunks(first: sample(0, 0, 0))
        for index in 1..<count { chunks.append(sample(Int64(index), index, -index)) }
        #expect(chunks.count == count)
        #expect(chunks.last == sample(Int64(count - 1), count - 1, -(count - 1)))
        #expect(chunks.joined == (0..<count).map { sample(Int64($0), $0, -$0) })
        #expect(chunks.chunkSizes == [SampleChunks.chunkCapacity, SampleChunks.chunkCapacity, SampleChunks.chunkCapacity, 7])
    }

    /// Issue 39: a finished stroke's samples are read from its packed
    /// chunks, not joined into a copy; pressure and size stay as they were
    /// (given, absent), and a value beyond 32 bits is kept as it is.
    @Test func strokeSamplesAreReadFromPackedChunks() {
        for stagger in [0, 3] {
            let count = SampleChunks.chunkCapacity * 3 + 7
            var expected: [Sample] = []
            var chunks: SampleChunks?
            for index in 0..<count {
                var value = sample(Int64(index), index, -index)
                if index % 3 == 1 { value.pressure = index % 256 }
                if index % 5 == 2 { value.size = -(index % 7) }
                if index == 2_000 { value.x = Int(Int32.max) + 5 }
                expected.append(value)
                if chunks == nil { chunks = SampleChunks(first: value, stagger: stagger) } else { chunks!.append(value) }
            }
            let samples = chunks!.samples
            #expect(samples.source != nil)
            #expect(samples.count == count)
            #expect(Array(samples) == expected)
            #expect(samples[SampleChunks.chunkCapacity] == expected[SampleChunks.chunkCapacity])
            #expect(samples.last == expected.last)
            #expect(chunks!.joined == expected)
        }
    }

    /// Issue 39: an import's full chunks go to an unlinked temporary file
    /// and are read back from it, sample for sample; a recorder told to
    /// spill gives the same gesture.
    @Test func spilledChunksReadBackEverySample() throws {
        let spill = try #require(SampleSpill.make(folder: "/tmp"))
        let count = SampleChunks.chunkCapacity * 4 + 11
        var expected: [Sample] = []
        var chunks: SampleChunks?
        for index in 0..<count {
            var value = sample(Int64(index), index % 5000, -index)
            if index % 3 == 1 { value.pressure = index % 256 }
            if index % 5 == 2 { value.size = index % 7 }
            expected.append(value)
            if chunks == nil { chunks = SampleChunks(first: value, stagger: 5, spill: spill) } else { chunks!.append(value) }
        }
        let samples = chunks!.samples
        #expect(samples.count == count)
        #expect(Array(samples) == expected)
        #expect(samples[2_500] == expected[2_500])
        #expect(samples.last == expected.last)
        #expect(chunks!.joined == expected)
    }

    /// Strokes that start together start new chunks in different frames.
    @Test func firstChunksAreStaggeredByStroke() {
        let step = SampleChunks.chunkCapacity / SampleChunks.staggerSteps
        var firstSizes: [Int] = []
        for stroke in 0..<10 {
            var chunks = SampleChunks(first: sample(0, 0, 0), stagger: stroke)
            for index in 1..<(SampleChunks.chunkCapacity * 2) { chunks.append(sample(Int64(index), index, 0)) }
            let sizes = chunks.chunkSizes
            #expect(sizes.dropFirst().dropLast().allSatisfy { $0 == SampleChunks.chunkCapacity })
            #expect(sizes.reduce(0, +) == SampleChunks.chunkCapacity * 2)
            #expect(chunks.joined == (0..<(SampleChunks.chunkCapacity * 2)).map { sample(Int64($0), $0, 0) })
            firstSizes.append(sizes[0])
        }
        #expect(firstSizes == (0..<10).map { SampleChunks.chunkCapacity - ($0 % SampleChunks.staggerSteps) * step })
    }

    @Test func aShortStrokeIsOneChunk() {
        var chunks = SampleChunks(first: sample(0, 1, 2))
        chunks.append(sample(5, 1, 2))
        #expect(chunks.joined == [sample(0, 1, 2), sample(5, 1, 2)])
        #expect(chunks.chunkSizes == [2])
    }

    /// Two fingers moving for 2.5 chunks' worth of frames: the recorded
    /// strokes (taken as they lift and finished) hold every sample in order.
    @Test func longStrokesRecordEverySampleInOrder() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreen)
        let frames = SampleChunks.chunkCapacity * 5 / 2
        recorder.feed(
            all: frame(
                0,
                [
                    abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 0), abs(.multitouchPositionY, 100),
                    abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 0),
                    abs(.multitouchPositionY, 200),
                ]))
        for index in 1..<frames {
            recorder.feed(
                all: frame(
                    Int64(index),
                    [
                        abs(.multitouchSlot, 0), abs(.multitouchPositionX, Int32(index % 1000)),
                        abs(.multitouchSlot, 1), abs(.multitouchPositionX, Int32(index % 1000)),
                    ]))
        }
        recorder.feed(
            all: frame(
                Int64(frames),
                [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1)]))
        let expected = { (y: Int) in
            (0..<frames).map { sample(Int64($0), $0 % 1000, y) } + [sample(Int64(frames), (frames - 1) % 1000, y)]
        }
        let taken = recorder.takeFinishedStrokes()
        #expect(taken.map(\.samples.arrayValue) == [expected(100), expected(200)])
        #expect(try recorder.finished().gesture.strokes.map(\.samples.arrayValue) == [expected(100), expected(200)])
    }
}
