/// A gesture: one or more strokes on a common timeline, with the geometry of
/// the device they belong to.
///
/// Strokes that overlap in time are contacts held at once (a multi-finger
/// gesture); strokes one after another are sequential (as recorded one
/// finger at a time, before a merge).
public struct Gesture: Hashable, Sendable {
    /// The gesture's name (a library name, or a file's base name).
    public var name: String
    /// A free-text description.
    public var description: String?
    /// The geometry of the device the positions belong to.
    public var device: DeviceGeometry
    /// The strokes, ordered by start time (ties keep their order).
    public var strokes: [Stroke]
    /// When and with what it was recorded, if known.
    public var metadata: RecordingMetadata?

    /// Creates a gesture.
    public init(
        name: String, description: String? = nil, device: DeviceGeometry, strokes: [Stroke],
        metadata: RecordingMetadata? = nil
    ) {
        self.name = name
        self.description = description
        self.device = device
        self.strokes = strokes
        self.metadata = metadata
    }

    /// Time of the earliest sample (zero when there are none).
    public var startTime: Microseconds { strokes.filter { !$0.samples.isEmpty }.map(\.startTime).min() ?? .zero }
    /// Time of the latest sample (zero when there are none).
    public var endTime: Microseconds { strokes.filter { !$0.samples.isEmpty }.map(\.endTime).max() ?? .zero }
    /// Time from the earliest sample to the latest.
    public var duration: Microseconds { endTime - startTime }
    /// Total number of samples over all strokes.
    public var sampleCount: Int { strokes.reduce(0) { $0 + $1.samples.count } }

    /// How many of the samples are held as arrays: those of strokes with
    /// no ``Samples/source``. ``GestureLimits/maximumSamples`` bounds these;
    /// a source's samples (a mapped file's, a recorder's chunks) are
    /// bounded where the source is made.
    public var heldSampleCount: Int { strokes.reduce(0) { $0 + ($1.samples.source == nil ? $1.samples.count : 0) } }

    /// The largest number of strokes in contact at the same moment.
    ///
    /// A stroke is in contact from its first sample to its last, both
    /// included; one that ends at the moment another starts counts as
    /// overlapping it.
    public var maximumSimultaneousContacts: Int {
        // Sweep: starts (+1) before ends (-1) at equal times, so touching
        // intervals count as overlapping.
        var events: [(time: Microseconds, delta: Int)] = []
        for stroke in strokes where !stroke.samples.isEmpty {
            events.append((stroke.startTime, 1))
            events.append((stroke.endTime, -1))
        }
        events.sort { $0.time != $1.time ? $0.time < $1.time : $0.delta > $1.delta }
        var current = 0
        var best = 0
        for event in events {
            current += event.delta
            best = max(best, current)
        }
        return best
    }

    /// Strokes ordered by start time; strokes that start together keep
    /// their relative order.
    public mutating func sortStrokes() {
        strokes = strokes.enumerated().sorted {
            $0.element.startTime != $1.element.startTime
                ? $0.element.startTime < $1.element.startTime : $0.offset < $1.offset
        }.map(\.element)
    }
}
