import GestureModel

/// How late a play's frames were, kept in a fixed number of counters
/// whatever the play's length (issue 39: an hour's play has 432,002
/// frames, and an array of every lateness grew with it).
///
/// A lateness below ``exactLimit`` (16.384 ms) has a counter of its own, so
/// the median and the 99th percentile of any play whose frames are that
/// punctual are exact, as ``LatenessStatistics/init(latenesses:)`` gives
/// them from every value. A later one shares a counter with the values
/// within 1/512 of it (512 counters per power of two up to 2^42 µs, about
/// 51 days; later still, the last counter), and a percentile that falls on
/// it is that counter's smallest value: at most 0.2 % under the true one.
/// The maximum is kept exactly. The counters (120 KiB) are made and
/// touched when the histogram is, before a play's clock starts; recording
/// a frame is an index computation and an increment, with no allocation.
struct LatenessHistogram {
    /// Latenesses below this many microseconds are counted exactly.
    static let exactLimit = 1 << exactBits
    private static let exactBits = 14
    /// Counters per power of two above ``exactLimit``, as a power of two.
    private static let subBits = 9
    /// The powers of two above ``exactLimit`` that have counters of their own.
    private static let octaves = 42 - exactBits
    static let bucketCount = exactLimit + octaves << subBits

    private var counts: [UInt32]
    private(set) var count = 0
    private(set) var maximum = Microseconds.zero

    init() {
        // Filled, not reserved: the pages are touched now, not faulted in
        // while frames are due.
        counts = [UInt32](repeating: 0, count: Self.bucketCount)
    }

    /// The counter of `value` (≥ 0).
    static func bucket(of value: Int64) -> Int {
        if value < Int64(exactLimit) { return Int(value) }
        let octave = 63 - value.leadingZeroBitCount  // ≥ exactBits
        guard octave < exactBits + octaves else { return bucketCount - 1 }
        let sub = Int(value >> Int64(octave - subBits)) & (1 << subBits - 1)
        return exactLimit + (octave - exactBits) << subBits + sub
    }

    /// The smallest value counted by counter `bucket`.
    static func smallestValue(of bucket: Int) -> Int64 {
        if bucket < exactLimit { return Int64(bucket) }
        let octave = (bucket - exactLimit) >> subBits + exactBits
        let sub = Int64((bucket - exactLimit) & (1 << subBits - 1))
        return (Int64(1 << subBits) + sub) << Int64(octave - subBits)
    }

    /// Counts one frame written `lateness` after its deadline (0 when early).
    mutating func record(_ lateness: Microseconds) {
        let value = max(lateness.rawValue, 0)
        let index = Self.bucket(of: value)
        // A counter holds 4 billion frames: 50 days of frames at 1 kHz.
        if counts[index] != .max { counts[index] += 1 }
        count += 1
        if value > maximum.rawValue { maximum = Microseconds(value) }
    }

    /// The ⌈`percent` × n / 100⌉-th smallest lateness (nearest rank), as
    /// ``LatenessStatistics`` ranks them; 0 when nothing was counted.
    func percentile(_ percent: Int) -> Microseconds {
        guard count > 0 else { return .zero }
        let rank = max((count * percent + 99) / 100, 1)
        var seen = 0
        for (bucket, counted) in counts.enumerated() where counted > 0 {
            seen += Int(counted)
            if seen >= rank { return min(Microseconds(Self.smallestValue(of: bucket)), maximum) }
        }
        return maximum
    }

    /// The figures a ``PlaybackResult`` reports.
    var statistics: LatenessStatistics {
        LatenessStatistics(count: count, maximum: maximum, median: percentile(50), percentile99: percentile(99))
    }
}
