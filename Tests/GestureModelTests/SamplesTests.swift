import GestureModel
import Testing

/// A stroke's samples read from a source when asked (issue 39) behave as
/// the array they stand for.
@Suite struct SamplesTests {
    /// Samples made when asked, counting the reads.
    final class Made: SampleSource, @unchecked Sendable {
        let count: Int
        var reads = 0
        init(count: Int) { self.count = count }
        func sample(at index: Int) -> Sample {
            reads += 1
            return Sample(time: Microseconds(Int64(index) * 1000), x: index, y: 2 * index, pressure: index % 2 == 0 ? 7 : nil)
        }
    }

    private func array(_ count: Int) -> [Sample] {
        (0..<count).map { Sample(time: Microseconds(Int64($0) * 1000), x: $0, y: 2 * $0, pressure: $0 % 2 == 0 ? 7 : nil) }
    }

    @Test func aSourceReadsAsItsArray() {
        let source = Made(count: 50)
        let samples = Samples(source: source)
        #expect(samples.count == 50)
        #expect(Array(samples) == array(50))
        #expect(samples == Samples(array(50)))
        #expect(samples.hashValue == Samples(array(50)).hashValue)
        #expect(samples.first == array(50).first)
        #expect(samples.last == array(50).last)
        #expect(samples.arrayValue == array(50))
        #expect(Stroke(samples: samples).endTime == Microseconds(49_000))
    }

    @Test func aChangeCopiesTheSourceFirst() {
        var samples = Samples(source: Made(count: 10))
        samples[3].x = 99
        samples.append(Sample(time: Microseconds(10_000), x: 1, y: 1))
        #expect(samples.source == nil)
        var expected = array(10)
        expected[3].x = 99
        expected.append(Sample(time: Microseconds(10_000), x: 1, y: 1))
        #expect(Array(samples) == expected)
    }

    @Test func mappedTransformsAsRead() {
        let source = Made(count: 20)
        let later = Samples(source: source).mapped { sample in
            var moved = sample
            moved.time = sample.time + Microseconds(5)
            return moved
        }
        #expect(source.reads == 0)
        #expect(later.source != nil)
        #expect(Array(later) == array(20).map { sample in
            var moved = sample
            moved.time = sample.time + Microseconds(5)
            return moved
        })
        // An array's samples are transformed at once, as before.
        let arrayLater = Samples(array(3)).mapped { $0 }
        #expect(arrayLater.source == nil)
        // A stroke shifted in time: the same either way.
        let shifted = Stroke(samples: Samples(source: Made(count: 4))).shifted(by: Microseconds(7))
        #expect(Array(shifted.samples) == Array(Stroke(samples: array(4)).shifted(by: Microseconds(7)).samples))
    }
}
