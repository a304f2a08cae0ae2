@testable import GestureModel
import Testing

/// The one binary search the editing and rendering code share.
@Suite("partitioningIndex")
struct PartitioningIndexTests {
    /// What a linear scan finds: the first element in the second part.
    private func scanned<C: Collection>(_ items: C, _ isInSecondPart: (C.Element) -> Bool) -> C.Index {
        items.firstIndex(where: isInSecondPart) ?? items.endIndex
    }

    @Test("The first element of the second part, or endIndex, for every split of arrays of 0 to 9 and of ranges not starting at 0")
    func everySplit() {
        for count in 0..<10 {
            let items = Array(0..<count)
            for split in 0...count {
                #expect(items.partitioningIndex { $0 >= split } == scanned(items) { $0 >= split })
                let range = 3..<(3 + count)
                #expect(range.partitioningIndex { $0 >= 3 + split } == scanned(range) { $0 >= 3 + split })
                let tail = items.dropFirst()
                #expect(tail.partitioningIndex { $0 >= split } == scanned(tail) { $0 >= split })
            }
        }
    }
}
