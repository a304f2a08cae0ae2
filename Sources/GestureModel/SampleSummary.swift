/// What a reader learnt of a stroke's samples as it read them, so that
/// validation need not read them all again (issue 39: a long stroke's
/// samples are parsed from its file each time they are used). The
/// extremes of every value, and whether the times never go back.
public struct SampleSummary: Sendable, Equatable {
    /// Whether each sample's time is at least the previous one's.
    public var timesInOrder = true
    public var earliest = Int64.max
    public var latest = Int64.min
    public var x = Extremes()
    public var y = Extremes()
    /// Over the samples that give a pressure (none: empty).
    public var pressure = Extremes()
    /// Over the samples that give a size (none: empty).
    public var size = Extremes()

    /// The smallest and largest of some values; empty before the first.
    public struct Extremes: Sendable, Equatable {
        public var smallest = Int.max
        public var largest = Int.min
        public var isEmpty: Bool { smallest > largest }

        public init() {}

        mutating func note(_ value: Int) {
            smallest = min(smallest, value)
            largest = max(largest, value)
        }

        /// Whether every value noted lies in `axis` (true when none was);
        /// false when some were and there is no axis.
        func fits(_ axis: AxisRange?) -> Bool {
            guard !isEmpty else { return true }
            guard let axis else { return false }
            return axis.contains(smallest) && axis.contains(largest)
        }
    }

    public init() {}

    /// Notes the next sample, in order.
    public mutating func note(_ sample: Sample) {
        let time = sample.time.rawValue
        if time < latest { timesInOrder = false }
        earliest = min(earliest, time)
        latest = max(latest, time)
        x.note(sample.x)
        y.note(sample.y)
        if let pressure = sample.pressure { self.pressure.note(pressure) }
        if let size = sample.size { self.size.note(size) }
    }

    /// Whether every sample summed up here passes validation's checks of
    /// samples on `device` (times from 0 to `maximumTime`, in order; x, y,
    /// pressure and size in their axes, the last two only where there is
    /// one). When false, validation reads them to say which is wrong.
    func passes(on device: DeviceGeometry, maximumTime: Int64) -> Bool {
        timesInOrder && (earliest > latest || (earliest >= 0 && latest <= maximumTime))
            && x.fits(device.x) && y.fits(device.y) && pressure.fits(device.pressure) && size.fits(device.size)
    }
}
