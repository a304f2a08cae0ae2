import GestureModel

/// How ``GestureEditor/merge(_:alignment:maximumFingers:)`` places the
/// groups of strokes on the merged timeline.
public enum MergeAlignment: Hashable, Sendable {
    /// Every group starts at 0 (AssistiveTouch's behaviour).
    case start
    /// Every group ends at the same moment: the longest group's duration.
    /// The longest group starts at 0, shorter ones start later.
    case end
    /// Explicit start times.
    ///
    /// - One value `step`: group `i` (counting from 0) starts at `i × step`;
    ///   e.g. `[100 ms]` gives 0, 100 ms, 200 ms, …
    /// - Two or more values: group `i` starts at `offsets[i]`; groups past
    ///   the end of the list repeat the last step (`offsets[n-1] -
    ///   offsets[n-2]`); e.g. `[0, 50 ms, 200 ms]` gives 0, 50 ms, 200 ms,
    ///   350 ms, 500 ms, …
    ///
    /// Offsets must not be negative, and a step that has to repeat must not
    /// be negative either.
    case stagger([Microseconds])
}

extension MergeAlignment {
    /// The start time of each of `count` groups whose durations are given.
    func starts(durations: [Microseconds]) throws(EditError) -> [Microseconds] {
        switch self {
        case .start:
            return Array(repeating: .zero, count: durations.count)
        case .end:
            let longest = durations.max() ?? .zero
            return durations.map { longest - $0 }
        case .stagger(let offsets):
            guard let last = offsets.last else { throw EditError("stagger needs at least one offset") }
            if let negative = offsets.first(where: { $0 < .zero }) {
                throw EditError("stagger offsets must not be negative, not \(Formatting.time(negative))")
            }
            if offsets.count == 1 {
                return durations.indices.map { last.saturatingMultiplied(by: $0) }
            }
            let step = last - offsets[offsets.count - 2]
            if durations.count > offsets.count, step < .zero {
                throw EditError(
                    "the last stagger step is negative (\(Formatting.time(offsets[offsets.count - 2])) then \(Formatting.time(last))), so it cannot repeat for the \(durations.count) groups"
                )
            }
            return durations.indices.map { index in
                index < offsets.count
                    ? offsets[index]
                    : last + step.saturatingMultiplied(by: index - (offsets.count - 1))
            }
        }
    }
}
