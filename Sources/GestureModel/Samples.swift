/// Where the samples of a stroke read from a large file are: read again
/// from the file on each use, never held (GestureFormat's reader over a
/// mapped file). Its samples are valid (the reader validated them) and
/// never change.
public protocol SampleSource: AnyObject, Sendable {
    /// How many samples there are.
    var count: Int { get }
    /// The sample at `index` (0 ≤ index < count). Reading them in order,
    /// one after another, costs one sample's reading each.
    func sample(at index: Int) -> Sample
    /// A reader of the samples in order from the first, for one pass
    /// (what `for sample in samples` uses); by default through ``sample(at:)``.
    func makeCursor() -> any SampleCursor
    /// What was learnt of the samples when they were read and checked
    /// (``SampleSummary``), letting validation skip reading them again;
    /// nil (the default) when nothing was.
    var summary: SampleSummary? { get }
}

/// One pass over a ``SampleSource``'s samples, in order.
public protocol SampleCursor: AnyObject {
    /// The next sample, or nil after the last.
    func next() -> Sample?
}

extension SampleSource {
    public func makeCursor() -> any SampleCursor { IndexCursor(source: self) }
    public var summary: SampleSummary? { nil }
}

/// A pass through ``SampleSource/sample(at:)``.
private final class IndexCursor: SampleCursor {
    let source: any SampleSource
    var index = 0
    init(source: any SampleSource) { self.source = source }
    func next() -> Sample? {
        guard index < source.count else { return nil }
        defer { index += 1 }
        return source.sample(at: index)
    }
}

/// The samples of a stroke, in time order: an array, or a
/// ``SampleSource`` that reads them from a file when asked, so that a long
/// gesture read from a file is not held in memory (issue 39).
///
/// It reads and writes as an array of ``Sample``: a change to samples of a
/// source copies them into an array first.
public struct Samples: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Hashable, Sendable,
    ExpressibleByArrayLiteral
{
    private var array: [Sample]
    /// The source, when the samples are read from one; `array` is empty then.
    public private(set) var source: (any SampleSource)?

    /// No samples.
    public init() {
        array = []
        source = nil
    }

    /// The samples of an array.
    public init(_ samples: [Sample]) {
        array = samples
        source = nil
    }

    /// The samples of a source, read when asked.
    public init(source: any SampleSource) {
        array = []
        self.source = source
    }

    public init(arrayLiteral elements: Sample...) { self.init(elements) }

    public init<S: Sequence>(_ elements: S) where S.Element == Sample {
        self.init(Array(elements))
    }

    /// In order: an array's, or a source's cursor (``SampleSource/makeCursor()``).
    public struct Iterator: IteratorProtocol {
        private var array: IndexingIterator<[Sample]>
        private let cursor: (any SampleCursor)?

        fileprivate init(_ samples: Samples) {
            array = samples.array.makeIterator()
            cursor = samples.source?.makeCursor()
        }

        public mutating func next() -> Sample? {
            if let cursor { return cursor.next() }
            return array.next()
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public typealias Index = Int
    public typealias Indices = Range<Int>
    public typealias SubSequence = Slice<Samples>

    public var startIndex: Int { 0 }
    public var endIndex: Int { source?.count ?? array.count }
    public var count: Int { source?.count ?? array.count }
    public var isEmpty: Bool { count == 0 }
    public func index(after index: Int) -> Int { index + 1 }
    public func index(before index: Int) -> Int { index - 1 }

    public subscript(position: Int) -> Sample {
        get {
            if let source {
                precondition(position >= 0 && position < source.count, "sample index out of range")
                return source.sample(at: position)
            }
            return array[position]
        }
        set {
            materialize()
            array[position] = newValue
        }
    }

    public subscript(bounds: Range<Int>) -> Slice<Samples> {
        get { Slice(base: self, bounds: bounds) }
        set {
            materialize()
            replaceSubrange(bounds, with: Array(newValue))
        }
    }

    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Sample {
        materialize()
        array.replaceSubrange(subrange, with: newElements)
    }

    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        materialize()
        array.reserveCapacity(minimumCapacity)
    }

    /// The samples as an array (read from the source, when there is one).
    public var arrayValue: [Sample] {
        guard let source else { return array }
        var result: [Sample] = []
        result.reserveCapacity(source.count)
        for index in 0..<source.count { result.append(source.sample(at: index)) }
        return result
    }

    /// The samples, each sent through `transform`: at once for an array;
    /// for a source, a source that sends each sample through `transform` as
    /// it is read, so an edit of a long gesture read from a file holds no
    /// copy of it either (issue 39).
    public func mapped(_ transform: @escaping @Sendable (Sample) -> Sample) -> Samples {
        guard let source else { return Samples(array.map(transform)) }
        return Samples(source: TransformedSource(base: source, transform: transform))
    }

    private mutating func materialize() {
        guard source != nil else { return }
        array = arrayValue
        source = nil
    }

    public static func == (lhs: Samples, rhs: Samples) -> Bool {
        if lhs.source == nil && rhs.source == nil { return lhs.array == rhs.array }
        if let left = lhs.source, let right = rhs.source, left === right { return true }
        return lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for sample in self { hasher.combine(sample) }
    }
}

/// A source's samples, each sent through a function as it is read
/// (``Samples/mapped(_:)``).
private final class TransformedSource: SampleSource {
    let base: any SampleSource
    let transform: @Sendable (Sample) -> Sample

    init(base: any SampleSource, transform: @escaping @Sendable (Sample) -> Sample) {
        self.base = base
        self.transform = transform
    }

    var count: Int { base.count }
    func sample(at index: Int) -> Sample { transform(base.sample(at: index)) }
    /// The base's own pass (a mapped file's parses on, with no lock), each sample transformed.
    func makeCursor() -> any SampleCursor { TransformedCursor(base: base.makeCursor(), transform: transform) }
}

/// A pass over a ``TransformedSource``.
private final class TransformedCursor: SampleCursor {
    let base: any SampleCursor
    let transform: @Sendable (Sample) -> Sample

    init(base: any SampleCursor, transform: @escaping @Sendable (Sample) -> Sample) {
        self.base = base
        self.transform = transform
    }

    func next() -> Sample? { base.next().map(transform) }
}
