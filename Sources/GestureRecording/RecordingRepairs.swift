import GestureModel

/// What the recorder changed in the events it was given so that the
/// gesture is valid, counted so that nothing is changed without a word:
/// frame times that went backwards (sample times may never decrease), and
/// positions, pressure or contact size beyond the device's own axis ranges
/// (clamped into them). A live device rarely needs either; a hand-edited or
/// damaged recording (`gesturectl import`) may, and `import --strict`
/// refuses it instead.
public struct RecordingRepairs: Hashable, Sendable {
    /// The values of one axis that lay outside its range.
    public struct Clamping: Hashable, Sendable {
        /// The axis's name in messages: `x`, `y`, `pressure`, `size`.
        public var axis: String
        /// Its range, which the values were clamped into.
        public var range: AxisRange
        /// How many recorded samples had a value outside it.
        public var samples: Int
        /// The value farthest outside the range.
        public var farthest: Int

        /// Creates a count.
        public init(axis: String, range: AxisRange, samples: Int, farthest: Int) {
            self.axis = axis
            self.range = range
            self.samples = samples
            self.farthest = farthest
        }

        /// `x of 12 samples lay outside the axis range 0…4095 (as far as 4200) and was clamped into it`.
        public var message: String {
            "\(axis) of \(Self.count(samples, "sample")) lay outside the axis range \(range.minimum)…\(range.maximum) "
                + "(as far as \(farthest)) and was clamped into it"
        }

        static func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }
    }

    /// Frames whose time was earlier than an earlier frame's and that gave
    /// samples; their samples took the latest time seen instead.
    public var backwardFrames = 0
    /// The samples those frames gave (including lifts).
    public var retimedSamples = 0
    /// The largest step back in time.
    public var largestStepBack = Microseconds.zero
    /// The axes whose values were clamped, in the order x, y, pressure, size
    /// (only those with at least one sample).
    public var clampings: [Clamping] = []

    /// Creates an empty record.
    public init() {}

    /// Whether nothing was changed.
    public var isEmpty: Bool { retimedSamples == 0 && clampings.isEmpty }

    /// One line per kind of change, with counts, for warnings or a refusal.
    public var messages: [String] {
        var lines: [String] = []
        if retimedSamples > 0 {
            let frames = backwardFrames == 1 ? "once" : "\(backwardFrames) times"
            lines.append(
                "the event times went backwards \(frames) (by up to \(Self.milliseconds(largestStepBack))); "
                    + "\(Clamping.count(retimedSamples, "sample")) took the latest earlier time instead, so that time never decreases")
        }
        lines += clampings.map(\.message)
        return lines
    }

    /// `12 ms`, `0.25 ms`, `1500 ms`.
    static func milliseconds(_ duration: Microseconds) -> String {
        let microseconds = max(duration.rawValue, 0)
        let whole = microseconds / 1_000
        let fraction = microseconds % 1_000
        guard fraction != 0 else { return "\(whole) ms" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits) ms"
    }
}
