extension RandomAccessCollection {
    /// The index of the first element for which `isInSecondPart` holds,
    /// or `endIndex` when none does, by binary search: the collection must
    /// be partitioned by it (every element for which it is false first).
    package func partitioningIndex(where isInSecondPart: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try isInSecondPart(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
